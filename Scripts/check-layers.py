#!/usr/bin/env python3
"""The layer rules of docs/architecture.md, checked against the package itself.

Prints every module's dependency closure (from `swift package describe --type
json`) and fails when:
  - a module outside the platform set (LinuxHAL, LinuxLoop, the watch's files
    on disk, the Linux board, systemd supervision, the WristCore composition
    root, the bench tools, the CLIs, tests) reaches LinuxHAL, LinuxLoop or a
    C module;
  - a source file imports a package module its target does not declare, or a
    target declares a package module none of its files imports;
  - a file outside the platform set names the concrete loop (EpollLoop) or calls
    a descriptor system call;
  - anything under Fuzz/ is a symbolic link;
  - a module other than the font tools imports Foundation (the daemon links
    no Foundation: docs/performance.md, "Footprint");
  - a bottom-layer module (TextFormat, HAL, Log) depends on anything outside
    the bottom layer or imports Glibc, Foundation or a C module;
  - a branch on the board being simulated stands outside the board-devices
    implementations and the one place that chooses them;
  - a module depends on a module of a higher layer (LAYERS, below: the order
    is data, bottom first);
  - a source file is longer than FILE_LINE_BUDGET lines (the named
    exceptions may not grow), or a module than its MODULE_LINE_BUDGETS;
  - docs/architecture.md's module table (layer, "depends on") or its
    dependency graph differs from the package: `--write-docs` rewrites both
    from the package.
Run from the package root: `python3 Scripts/check-layers.py` (make test runs it).
`--stats` also prints the line count of every module.
"""
import json, os, re, subprocess, sys

PLATFORM = {"LinuxHAL", "LinuxLoop", "WatchFiles", "LinuxBoard", "Systemd", "WristCore", "BenchTools", "WristCoreCLI",
            "wristcore-vm-phone", "wristcore-fonts"}
# Only these touch file descriptors (the CLIs and the composition root too go through LinuxHAL).
DESCRIPTORS_ALLOWED = {"LinuxHAL", "LinuxLoop", "wristcore-fonts"}
FOUNDATION_ALLOWED = {"wristcore-fonts", "FontCompiler"}
C_MODULES = {"CLinux", "CGPIOD", "CI2C", "CBluetooth"}
FORBIDDEN = C_MODULES | {"LinuxHAL", "LinuxLoop"}
# Modules that must stay pure (the list, plus the rest of the library layers).
PURE = ["TextFormat", "HAL", "Loop", "Notifications", "Timekeeping", "ATTCodec", "GATT", "ANCS", "AMS", "Gadgetbridge", "PhoneFeeds", "CommandLineOptions", "PhoneServices", "Peripheral", "Graphics", "Display",
        "Input", "Haptics", "Power", "Screens", "BoardConfig", "WearerSettings", "Watch", "Decode", "SimBoard", "Harness", "FontCompiler", "Log"]
# The bottom layer: modules that depend on nothing (but each other) and import
# no C library or Glibc, so every layer may use them and Embedded Swift can
# build them.
BOTTOM = ["TextFormat", "HAL", "Log"]
# Where `simulated` may decide anything: the two board-devices implementations and the one choice.
SIMULATED_ALLOWED = re.compile(r"^Sources/(SimBoard/Simulated.*Devices.*|LinuxBoard/LinuxBoardDevices.*|WristCore/BoardDevicesFactory|BoardConfig/.*)\.swift$")
# The layers, bottom first: a module may depend on its own layer and the ones below.
LAYERS = [
    ("HAL", ["TextFormat", "HAL", "Log", "LinuxHAL", "CLinux", "CGPIOD", "CI2C", "CBluetooth"]),
    ("loop", ["Loop", "LinuxLoop"]),
    ("devices", ["Graphics", "Display", "Input", "Haptics", "Power"]),
    ("domain", ["Notifications", "Timekeeping"]),
    ("GATT", ["ATTCodec", "GATT"]),
    ("services", ["ANCS", "AMS", "Gadgetbridge", "PhoneFeeds"]),
    ("UI", ["Screens"]),
    ("profiles", ["PhoneServices", "Peripheral"]),
    ("tools", ["Decode", "CommandLineOptions", "FontCompiler"]),
    ("app", ["BoardConfig", "WearerSettings", "Watch", "WatchFiles"]),
    ("sim", ["SimBoard", "Harness"]),
    ("Linux", ["LinuxBoard", "Systemd"]),
    ("root", ["WristCore"]),
    ("bench", ["BenchTools"]),
    ("CLIs", ["WristCoreCLI", "wristcore-vm-phone", "wristcore-fonts"]),
]
LAYER_OF = {m: i for i, (_, ms) in enumerate(LAYERS) for m in ms}
# One concept per file: longer files are split. The named exceptions are
# ceilings (they may shrink, not grow) until the architecture issue splits them.
FILE_LINE_BUDGET = 600
FILE_LINE_EXCEPTIONS = {
    "Sources/ANCS/DataSourceAssembler.swift": 840,
    "Sources/GATT/Bearer/ATTBearer.swift": 609,
}
# Whole-module ceilings: the composition root stays the composition only
# (the bench tools, the Linux board, the watch's files live in modules of their own).
# 840: the running watch's status file for doctor (RunningWatchStatus) and the
# wrist's mutes (MutedAppsFile) are wired here.
MODULE_LINE_BUDGETS = {"WristCore": 840}
ARCHITECTURE_DOC = "docs/architecture.md"
GRAPH_BEGIN, GRAPH_END = "<!-- check-layers: graph -->", "<!-- /check-layers: graph -->"
SYSCALL = re.compile(r"(?<![.\w])(open|openat|close|read|write|socket|bind|listen|accept4?|connect|recv|recvmsg|send|sendmsg|poll|ioctl|epoll_\w+|timerfd_\w+|signalfd|pipe2?|fsync|rename|unlink)\(")

def describe():
    out = subprocess.run(["swift", "package", "describe", "--type", "json"], capture_output=True, text=True, check=True).stdout
    return json.loads(out[out.index("{"):])

def dependency_text(names):
    names = sorted(names - C_MODULES) + (["C shims"] if names & C_MODULES else [])
    return ", ".join(names) if names else "nothing"

def check_architecture_doc(targets, deps, write):
    """The module table's layer and "depends on" cells and the graph block
    of docs/architecture.md, against the package. Returns problems."""
    text = open(ARCHITECTURE_DOC, encoding="utf-8").read()
    problems, lines, seen = [], text.split("\n"), set()
    rows = []   # (line index, cells, module names)
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("| ") else []
        if len(cells) != 4 or cells[0] == "layer" or re.fullmatch(r"-+", cells[0]):
            continue
        names = [m for m in re.findall(r"`([\w-]+)`", cells[1].split("(")[0]) if m in targets]
        if names:
            rows.append((i, cells, names))
    layer = None
    for i, cells, names in rows:
        layer = cells[0] or layer
        want_layer = LAYERS[LAYER_OF[names[0]]][0] if names[0] in LAYER_OF else "?"
        want_deps = dependency_text(set().union(*(deps[n] for n in names)))
        seen.update(names)
        cells[3] = want_deps if write else cells[3]
        if write:
            continue
        if layer != want_layer:
            problems.append(f"{ARCHITECTURE_DOC}:{i + 1}: {names[0]} is in layer '{want_layer}', the table says '{layer}' (--write-docs)")
        if cells[3] != want_deps:
            problems.append(f"{ARCHITECTURE_DOC}:{i + 1}: {', '.join(names)} depends on {want_deps}, the table says {cells[3]} (--write-docs)")
    if write and rows:
        # Top layer first, the table's own order within a layer.
        ordered = sorted(rows, key=lambda r: (-LAYER_OF.get(r[2][0], -1), r[0]))
        previous = None
        for (i, _, _), (_, cells, names) in zip(rows, ordered):
            name = LAYERS[LAYER_OF[names[0]]][0]
            cells[0] = name if name != previous else ""
            previous = name
            lines[i] = "| " + " | ".join(cells) + " |"
    missing = sorted(n for n, t in targets.items() if t["type"] != "test" and n not in seen)
    if missing:
        problems.append(f"{ARCHITECTURE_DOC}: the module table has no row for {', '.join(missing)}")
    graph = [GRAPH_BEGIN, "```"]
    for name, modules in LAYERS:
        for m in modules:
            if m in targets and m not in C_MODULES:
                graph.append(f"{m:20} -> {dependency_text(deps[m])}")
    graph += ["```", GRAPH_END]
    text = "\n".join(lines)
    if GRAPH_BEGIN not in text or GRAPH_END not in text:
        problems.append(f"{ARCHITECTURE_DOC}: no {GRAPH_BEGIN} ... {GRAPH_END} block")
    else:
        start, end = text.index(GRAPH_BEGIN), text.index(GRAPH_END) + len(GRAPH_END)
        if text[start:end] != "\n".join(graph):
            if write:
                text = text[:start] + "\n".join(graph) + text[end:]
            else:
                problems.append(f"{ARCHITECTURE_DOC}: the dependency graph differs from the package (--write-docs)")
    if write:
        open(ARCHITECTURE_DOC, "w", encoding="utf-8").write(text)
    return problems

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
    for n in libs:
        if n not in LAYER_OF:
            problems.append(f"{n} has no layer in Scripts/check-layers.py LAYERS")
            continue
        for d in sorted(deps[n]):
            if LAYER_OF.get(d, -1) > LAYER_OF[n]:
                problems.append(f"{n} ({LAYERS[LAYER_OF[n]][0]}) depends on {d}, a higher layer ({LAYERS[LAYER_OF[d]][0]})")
    problems += check_architecture_doc(targets, deps, "--write-docs" in sys.argv)
    for dirpath, _, filenames in os.walk("Sources"):
        for f in filenames:
            path = os.path.join(dirpath, f)
            if not f.endswith(".swift"):
                continue
            count = sum(1 for _ in open(path, encoding="utf-8"))
            limit = FILE_LINE_EXCEPTIONS.get(path, FILE_LINE_BUDGET)
            if count > limit:
                problems.append(f"{path}: {count} lines, over its budget of {limit} (one concept per file: split it)")
    for n, budget in MODULE_LINE_BUDGETS.items():
        t = targets.get(n, {})
        total = sum(sum(1 for _ in open(os.path.join(t["path"], s), encoding="utf-8")) for s in t.get("sources", []) if s.endswith(".swift"))
        if total > budget:
            problems.append(f"{t.get('path', n)}: {total} lines, over the module's budget of {budget} (give what is not its one job a module of its own)")
    for p in PURE:
        if p not in targets:
            problems.append(f"expected module {p} is missing")
    for b in BOTTOM:
        if deps.get(b, set()) - set(BOTTOM):
            problems.append(f"{b} is a bottom-layer module but depends on {', '.join(sorted(deps[b] - set(BOTTOM)))}")
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
            if n in DESCRIPTORS_ALLOWED or t["type"] == "test":
                continue
            code = re.sub(r"//.*", "", text)
            if n not in PLATFORM and re.search(r"\bEpollLoop\b", code):
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
