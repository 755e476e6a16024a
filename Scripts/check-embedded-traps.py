#!/usr/bin/env python3
"""Fails when an Embedded Swift binary calls a function that can only trap.

Embedded Swift compiles a member that cannot be specialised where it is
emitted (a protocol extension's member reached through an existential, a
method the dead-method pass removed) into a stub that jumps straight to a
trap (`swift_deletedMethodError` / `ud2`). Nothing warns at compile time; the
daemon stops with SIGILL when the line runs (it did, at the 17th harness
client). This reads the unoptimised, non-LTO link that `make embedded-check`
makes, where such stubs are still functions of their own, finds every
function whose first instruction jumps to a trap, and lists who calls it.

usage: check-embedded-traps.py BINARY     (x86_64: objdump -d)
Prints 'N passed, M failed' (one check per trap stub that is called).
"""
import re, subprocess, sys

binary = sys.argv[1]
dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True, check=True).stdout
functions = {}  # address -> (name, [instructions])
order = []
current = None
for line in dis.split("\n"):
    m = re.match(r"^([0-9a-f]+) <(.*)>:$", line)
    if m:
        current = int(m.group(1), 16)
        functions[current] = (m.group(2), [])
        order.append(current)
        continue
    m = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
    if m and current is not None:
        functions[current][1].append((int(m.group(1), 16), m.group(2).strip()))

ud2 = {addr for _, ins in functions.values() for addr, text in ins if text.startswith("ud2")}
trap_functions = {a for a, (name, _) in functions.items() if name == "swift_deletedMethodError"}


def target(text):
    m = re.match(r"(?:jmp|call)\s+([0-9a-f]+)\b", text)
    return int(m.group(1), 16) if m else None


stubs = {}
for a, (name, ins) in functions.items():
    if not ins or name == "swift_deletedMethodError":
        continue
    t = target(ins[0][1])
    if t is not None and (t in ud2 or t in trap_functions):
        stubs[a] = name
callers = {}
for a, (name, ins) in functions.items():
    for _, text in ins:
        t = target(text)
        if t in stubs and t != a:
            callers.setdefault(t, set()).add(name)


def demangle(names):
    out = subprocess.run(["swift", "demangle", "--compact"], input="\n".join(names), capture_output=True, text=True).stdout
    return out.rstrip("\n").split("\n")


passed = failed = 0
for stub in sorted(stubs):
    if stub not in callers:
        passed += 1
        continue
    failed += 1
    (stub_name,) = demangle([stubs[stub]])
    print(f"not ok - {stub_name[:160]} is a trap, called from:")
    for c in demangle(sorted(callers[stub])):
        print(f"    {c[:200]}")
print(f"{len(stubs)} trap stubs, {failed} of them called")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
