#!/usr/bin/env python3
"""The layer rules of docs/architecture.md, checked against the package itself.

Prints every module's dependency closure (from `swift package describe --type
json`) and fails when:
  - a module outside the platform set (LinuxHAL, LinuxLoop, the WristCore
    composition root, the CLIs, tests) reaches LinuxHAL, LinuxLoop or a C module;
  - a source file imports a package module its target does not declare, or a
    target declares a package module none of its files imports;
  - a file outside the platform set names the concrete loop (EpollLoop) or calls
    a descriptor system call;
  - anything under Fuzz/ is a symbolic link;
  - a module other than the font tools imports Foundation (the daemon links
    no Foundation: docs/performance.md, "Footprint");
  - a bottom-layer module (HAL, Log) depends on anything or imports Glibc,
    Foundation or a C module;
  - a branch on the board being simulated stands outside the board-devices
    implementations and the one place that chooses them.
Run from the package root: `python3 Scripts/check-layers.py` (make test runs it).
`--stats` also prints the line count of every module.
"""
import json, os, re, subprocess, sys

PLATFORM = {"LinuxHAL", "LinuxLoop", "WristCore", "WristCoreCLI", "wristcore-vm-phone", "wristcore-fonts"}
FOUNDATION_ALLOWED = {"wristcore-fonts", "FontCompiler"}
C_MODULES = {"CLinux", "CGPIOD", "CI2C", "CBluetooth"}
FORBIDDEN = C_MODULES | {"LinuxHAL", "LinuxLoop"}
# Modules that must stay pure (the list, plus the rest of the library layers).
PURE = ["HAL", "Loop", "ATTCodec", "GATT", "ANCS", "AMS", "CommandLineOptions", "PhoneServices", "Peripheral", "Graphics", "Display",
        "Input", "Haptics", "Screens", "BoardConfig", "Watch", "Decode", "SimBoard", "FontCompiler", "Log"]
# The bottom layer: modules that depend on nothing and import no C library or
# Glibc, so every layer may use them and Embedded Swift can build them.
BOTTOM = ["HAL", "Log"]
# Where `simulated` may decide anything: the two board-devices implementations and the one choice.
SIMULATED_ALLOWED = re.compile(r"^Sources/(SimBoard/Simulated.*Devices.*|WristCore/LinuxBoardDevices.*|WristCore/BoardDevicesFactory|BoardConfig/.*)\.swift$")
SYSCALL = re.compile(r"(?<![.\w])(open|openat|close|read|write|socket|bind|listen|accept4?|connect|recv|recvmsg|send|sendmsg|poll|ioctl|epoll_\w+|timerfd_\w+|signalfd|pipe2?|fsync|rename|unlink)\(")

def describe():
    out = subprocess.run(["swift", "package", "describe", "--type", "json"], capture_output=True, text=True, check=True).stdout
    return json.loads(out[out.index("{"):])

def main():
    pkg = describe()
    targets = {t["name"]: t for t in pkg["targets"]}
    deps = {n: set(t.get("target_dependencies", [])) for n, t in targets.items()}
    def closure(n, seen=None):
        seen = set() if seen is None else seen
        for d in deps.get(n, ()):
            if d not in seen:
                seen.add(d)
                closure(d, seen)
        return seen
    problems = []
    print("module dependency closures (direct dependencies first):")
    libs = [n for n, t in targets.items() if t["type"] != "test"]
    for n in sorted(libs, key=lambda n: (len(closure(n)), n)):
        c = closure(n)
        bad = sorted(c & FORBIDDEN)
        mark = "" if n in PLATFORM or n in C_MODULES else ("  <-- reaches " + ", ".join(bad) if bad else "")
        print(f"  {n:20} -> {', '.join(sorted(deps[n])) or '(nothing)'}" + (f"   [closure {len(c)}]" if c != deps[n] else "") + mark)
        if mark:
            problems.append(f"{n} reaches {', '.join(bad)} (only {', '.join(sorted(PLATFORM))} may)")
    for p in PURE:
        if p not in targets:
            problems.append(f"expected module {p} is missing")
    for b in BOTTOM:
        if deps.get(b):
            problems.append(f"{b} is a bottom-layer module but depends on {', '.join(sorted(deps[b]))}")
        for src in targets.get(b, {}).get("sources", []):
            path = os.path.join(targets[b]["path"], src)
            if re.search(r"^import (Glibc|Foundation|C\w+)$", open(path, encoding="utf-8").read(), re.M):
                problems.append(f"{path}: a bottom-layer module imports Glibc, Foundation or a C module")
    # Imports must be declared (SwiftPM can let an undeclared module slip in through the build order).
    package_modules = set(targets)
    for n, t in targets.items():
        if t.get("module_type") != "SwiftTarget":
            continue
        allowed = deps[n] | {n}
        imported = set()
        for src in t.get("sources", []):
            path = os.path.join(t["path"], src)
            text = open(path, encoding="utf-8").read()
            for m in re.findall(r"^(?:@testable )?import (\w+)", text, re.M):
                imported.add(m)
                if m in package_modules and m not in allowed:
                    problems.append(f"{path}: imports {m}, which target {n} does not declare")
            if t["type"] != "test" and n not in FOUNDATION_ALLOWED and re.search(r"^import Foundation", text, re.M):
                problems.append(f"{path}: imports Foundation (the daemon links none; use the stdlib and LinuxHAL)")
            if n in PLATFORM or t["type"] == "test":
                continue
            code = re.sub(r"//.*", "", text)
            if re.search(r"\bEpollLoop\b", code):
                problems.append(f"{path}: names the concrete EpollLoop (take `any EventLoop`)")
            for line_no, line in enumerate(code.split("\n"), 1):
                if "func " in line:
                    continue
                m = SYSCALL.search(line)
                if m and ("Glibc." in line or "CLinux." in line) or (m and re.search(r"^\s*(let|var|_|if|guard|return|while)?.*(?<![.\w])" + re.escape(m.group(1)) + r"\(\s*(fd|raw|socket|descriptor|\d)", line)):
                    problems.append(f"{path}:{line_no}: descriptor call {m.group(1)}() outside LinuxHAL")
        # C modules are reached through LinuxHAL's imports; only Swift ones are checked.
        for d in sorted(deps[n] - imported):
            if d in package_modules and targets[d].get("module_type") == "SwiftTarget":
                problems.append(f"{t['path']}: target {n} declares {d} but no file imports it")
    for dirpath, dirnames, filenames in os.walk("Fuzz"):
        for f in dirnames + filenames:
            p = os.path.join(dirpath, f)
            if os.path.islink(p):
                problems.append(f"{p}: symbolic link under Fuzz/ (fuzz targets depend on modules whole)")
    for dirpath, _, filenames in os.walk("Sources"):
        for f in filenames:
            p = os.path.join(dirpath, f)
            if not f.endswith(".swift") or SIMULATED_ALLOWED.match(p):
                continue
            for line_no, line in enumerate(open(p, encoding="utf-8"), 1):
                code = line.split("//")[0]
                if re.search(r"\b(if|guard|\?)\b.*\.simulated\b|\.simulated\s*\?", code):
                    problems.append(f"{p}:{line_no}: branches on the board being simulated (belongs in the board devices)")
    if "--stats" in sys.argv:
        print("lines of Swift per module:")
        for n, t in sorted(targets.items()):
            if t["type"] == "test":
                continue
            total = sum(sum(1 for _ in open(os.path.join(t["path"], s), encoding="utf-8")) for s in t.get("sources", []) if s.endswith(".swift"))
            print(f"  {n:20} {total:6}")
    if problems:
        print(f"\n{len(problems)} layer problem(s):")
        for p in problems:
            print("  " + p)
        return 1
    print("layers: ok")
    return 0

if __name__ == "__main__":
    sys.exit(main())
