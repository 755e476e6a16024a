#!/usr/bin/env python3
"""The docs check: what README.md and docs/*.md tell a reader to do still works.

    python3 Tests/Docs/check_docs.py .build/debug/wristcore

- Every file a doc names exists: relative links, and repository paths in
  backticks or code blocks (Boards/..., Scripts/..., docs/..., ...).
- Every `wristcore` command shown names a subcommand that exists and only
  options that subcommand's --help lists; a board it names is a shipped one.
- The commands that can run on the simulated board or with no hardware
  (`--board sim`, `decode`, `setup --list`, `demo` as two frames written as
  PNGs, `--version`, `help`) are run, and must exit 0.
- Every `make TARGET` shown is a target of the Makefile.
- The wiring pictures are what the board files draw today.

`make test` runs it; exit status 1 lists every problem, one per line, with
the doc and line it comes from.
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPO_DIRS = ("Boards", "Scripts", "Sources", "Tests", "docs", "Scenarios", "deploy", "Fonts",
             "Benchmarks", "Fuzz", ".ci", "packaging", "debian")
# Words that mark a path or value as a placeholder for the reader's own.
PLACEHOLDER = re.compile(r"<|>|\.\.\.|\bFILE\b|\bNAME\b|\bDIR\b|\bPATH\b|my-|mine|your|broken|\*|\bX\b|\{")
# Wiring pictures: docs/build/wiring-NAME.svg is drawn from Boards/NAME.json.
WIRING = re.compile(r"(?:docs/)?build/wiring-([\w-]+)\.svg")

problems = []


def problem(where, message):
    problems.append(f"{where}: {message}")


def docs():
    paths = [os.path.join(ROOT, "README.md")]
    paths += sorted(os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
    return paths


def code_lines(text):
    """(line number, command, expected output or None, in_block) for every code
    block line (continuations joined; in a `console` block only the `$ ` lines,
    each with the output lines shown under it) and every inline code span."""
    out, block, lang = [], None, ""
    lines = text.split("\n")
    for no, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            if block is None:
                block, lang = [], line.strip()[3:].strip()
            else:
                out += block_commands(block, lang)
                block = None
            continue
        if block is not None:
            block.append((no, line))
        else:
            for span in re.findall(r"`([^`]+)`", line):
                out.append((no, span, None, False))
    return out


def block_commands(block, lang):
    out, i = [], 0
    while i < len(block):
        no, line = block[i]
        text = line.strip()
        if lang in ("console", "text"):
            if not text.startswith("$ "):
                i += 1
                continue
            text = text[2:]
        while text.endswith("\\") and i + 1 < len(block):
            i += 1
            text = text[:-1].rstrip() + " " + block[i][1].strip()
        i += 1
        expected = None
        if lang in ("console", "text"):
            expected = []
            while i < len(block) and not block[i][1].strip().startswith("$ "):
                expected.append(block[i][1].rstrip())
                i += 1
        out.append((no, text, expected, True))
    return out


# ---- files --------------------------------------------------------------

def check_files(doc, text):
    rel = os.path.relpath(doc, ROOT)
    base = os.path.dirname(doc)
    in_block, output_block = False, False
    for no, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            in_block = not in_block
            output_block = in_block and line.strip()[3:].strip() == "text"
            continue
        if output_block:
            continue    # what a program printed, mistakes included
        if not in_block:
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                if re.match(r"[a-z]+:", target) or target.startswith("#"):
                    continue
                path = target.split("#")[0]
                if path and not os.path.exists(os.path.normpath(os.path.join(base, path))):
                    problem(f"{rel}:{no}", f"links to {target}, which does not exist")
        spans = [line] if in_block else re.findall(r"`([^`]+)`", line)
        for span in spans:
            for token in re.findall(r"(?<![\w/.-])(?:\./)?((?:%s)/[\w./*+-]*[\w/*])" % "|".join(re.escape(d) for d in REPO_DIRS), span):
                if PLACEHOLDER.search(token.replace("*", "")):
                    continue
                if not repository_path_exists(token):
                    problem(f"{rel}:{no}", f"names {token}, which does not exist")
        for name in WIRING.findall(line):
            board = os.path.join(ROOT, "Boards", name + ".json")
            svg = os.path.join(ROOT, "docs", "build", f"wiring-{name}.svg")
            wiring_pictures.add((board, svg))


wiring_pictures = set()


def repository_path_exists(token):
    """A file or directory, a glob (`Sources/C*/shim.h`), or a test suite
    named without its `.swift`."""
    path = os.path.join(ROOT, token)
    return bool(glob.glob(path) or glob.glob(path + ".swift"))


# ---- commands -------------------------------------------------------------

help_cache = {}


def help_text(binary, sub):
    if sub not in help_cache:
        args = [binary] + ([sub] if sub else []) + ["--help"]
        r = subprocess.run(args, capture_output=True, text=True, timeout=30)
        help_cache[sub] = r.stdout + r.stderr if r.returncode == 0 else None
    return help_cache[sub]


def subcommands(binary):
    text = help_text(binary, None) or ""
    block = text.split("SUBCOMMANDS:", 1)[-1]
    return set(re.findall(r"^  ([a-z][a-z-]+)\s", block, re.M))


def wristcore_words(line):
    """The arguments after `wristcore` when the line runs the wristcore CLI."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        return None
    while words and (words[0] in ("sudo", "$") or "=" in words[0] and not words[0].startswith("-")):
        words = words[1:]
    if words[:2] == ["swift", "run"]:
        words = words[2:]
    if not words or os.path.basename(words[0]) != "wristcore":
        return None
    return words[1:]


def shipped_board(value):
    """The repository file a --board value names, or None for a placeholder."""
    if value == "sim" or PLACEHOLDER.search(value):
        return None
    if "/" not in value:
        return os.path.join("Boards", value + ".json")       # setup --board NAME
    m = re.search(r"(?:^|/)(?:Boards|boards)/([\w.-]+\.json)$", value)
    if value.startswith("/etc/"):
        return None                                          # what setup installed
    return os.path.join("Boards", m.group(1)) if m else value


def runnable(sub, args):
    """Whether a documented command can run here, and the arguments to run it with."""
    if sub in ("--version", "--help", "help"):
        return args
    if sub == "decode":
        if "--btsnoop" in args:
            i = args.index("--btsnoop")
            if i + 1 >= len(args) or not os.path.exists(os.path.join(ROOT, args[i + 1])):
                return None
        return args
    if sub == "setup" and "--list" in args:
        return args
    board = args[args.index("--board") + 1] if "--board" in args[:-1] else None
    if sub in ("doctor",) and board == "sim":
        return args
    if sub == "selftest" and board == "sim" and "--quick" in args:
        return args
    if sub == "run" and board == "sim" and "--duration" in args and "--phone" not in args and "--harness" not in args:
        return args
    if sub == "demo" and "--harness" not in args:
        # Without --frames the demo would draw in this terminal: two frames
        # as PNGs check that the options the doc combines still work.
        args = list(args)
        if "--frames" not in args:
            args += ["--frames", "2"]
        if "--png" not in args:
            args += ["--png"]
        i = args.index("--frames")
        args[i + 1] = str(min(int(args[i + 1]), 3)) if args[i + 1].isdigit() else "3"
        i = args.index("--png")
        if i + 1 < len(args):
            args[i + 1] = tempfile.mkdtemp(prefix="wristcore-docs-")
        else:
            args.append(tempfile.mkdtemp(prefix="wristcore-docs-"))
        return args
    return None


def check_command(binary, where, words, subs, ran, expected):
    """Checks one documented command; runs it when `ran` is a set (a code
    block's command, not a name in the text) and it can run here. `expected`:
    the output a console block shows under it (each line must appear; a
    `wristcore: ...` error line means it must fail with that message)."""
    if not words:
        return
    sub = words[0]
    if sub in ("--version", "--help", "-h"):
        args = [sub]
    elif sub not in subs and sub != "help":
        problem(where, f"'wristcore {sub}': no such subcommand (the CLI has: {', '.join(sorted(subs))})")
        return
    else:
        args = words
    if sub in subs:
        usage = help_text(binary, sub)
        if usage is None:
            problem(where, f"'wristcore {sub} --help' failed")
            return
        for i, w in enumerate(words[1:], 1):
            if w.startswith("--"):
                option = w.split("=")[0]
                if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(option), usage):
                    problem(where, f"'wristcore {sub} {option}': '{sub} --help' lists no such option")
            shows_error = any(l.startswith("wristcore: ") for l in expected or [])
            if w == "--board" and i + 1 < len(words) and not shows_error:
                board = shipped_board(words[i + 1])
                if board and not os.path.exists(os.path.join(ROOT, board)):
                    problem(where, f"'wristcore {sub} --board {words[i + 1]}': {board} does not exist")
    run_args = runnable(sub, args[1:] if sub in subs or sub == "help" else []) if sub != "--version" else []
    if sub in ("--version", "--help", "-h"):
        run_args = []
    if run_args is None or ran is None:
        return
    key = tuple(args[:1] + run_args)
    if key in ran:
        return
    ran.add(key)
    env = dict(os.environ, WRISTCORE_FONTS=os.path.join(ROOT, "Fonts"))
    cmd = [binary] + list(key)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT, env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        problem(where, f"'{shlex.join(['wristcore'] + list(key))}' did not finish in 120 s")
        return
    shown = [l for l in (expected or []) if l.strip()]
    must_fail = any(l.startswith("wristcore: ") for l in shown)
    command = shlex.join(["wristcore"] + list(key))
    if (r.returncode != 0) != must_fail:
        tail = (r.stderr or r.stdout).strip().splitlines()[-1:] or ["(no output)"]
        problem(where, f"'{command}' exited {r.returncode}: {tail[0]}")
        return
    if any("..." in l or "…" in l for l in shown):
        return      # an abbreviated transcript
    actual = {l.rstrip() for l in (r.stdout + r.stderr).splitlines()}
    for line in shown:
        if line not in actual:
            problem(where, f"'{command}' no longer prints: {line}")


# ---- make targets -----------------------------------------------------------

def make_targets():
    with open(os.path.join(ROOT, "Makefile")) as f:
        text = f.read()
    targets = set(re.findall(r"^([\w.-]+)\s*:(?!=)", text, re.M))
    for phony in re.findall(r"^\.PHONY:(.*)$", text, re.M):
        targets.update(phony.split())
    return targets


def check_make(where, line, targets):
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        return
    if not words or words[0] != "make":
        return
    for w in words[1:]:
        if w.startswith("-") or "=" in w:
            continue
        if w not in targets and not PLACEHOLDER.search(w):
            problem(where, f"'make {w}': the Makefile has no such target")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    subs = subcommands(binary)
    if not subs:
        sys.exit(f"{binary} --help lists no subcommands")
    targets = make_targets()
    ran = set()
    commands = 0
    for doc in docs():
        with open(doc, encoding="utf-8") as f:
            text = f.read()
        rel = os.path.relpath(doc, ROOT)
        check_files(doc, text)
        for no, line, expected, in_block in code_lines(text):
            words = wristcore_words(line)
            if words is not None:
                commands += 1
                check_command(binary, f"{rel}:{no}", words, subs, ran if in_block else None, expected)
            check_make(f"{rel}:{no}", line, targets)
    for board, svg in sorted(wiring_pictures):
        r = subprocess.run([sys.executable, os.path.join(ROOT, "Scripts", "wiring-diagram.py"), board, "--check", svg],
                           capture_output=True, text=True)
        if r.returncode != 0:
            problem(os.path.relpath(svg, ROOT), r.stderr.strip())
    for p in problems:
        print(p)
    print(f"docs check: {len(docs())} docs, {commands} wristcore commands ({len(ran)} run), "
          f"{len(wiring_pictures)} wiring pictures: {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
