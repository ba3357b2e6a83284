#!/usr/bin/env python3
"""Which source files run on every move (docs/architecture.md, issue 42): reads a profile that
scripts/move-cost.sh --keep DIR kept (callgrind.out and load.json) and lists each file of core/,
protocol/ and server/ with a function called at least once per move in the window — at least as
many calls as the load tool counted moves, which leaves out timers (a 10/s timer makes a few
hundred calls against thousands of moves) and the games' starts. A function is found in the file
that defines it by its name: the release build keeps symbols, not lines, so what the compiler
inlined is counted in its caller's file, and constructors and destructors are not counted.
   scripts/move-files.py DIR"""
import collections
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = {"server", "protocol", "core", "chessence", "chesica", "sniderman", "events", "sql",
        "reads", "writes", "sqlite", "cluster"}


def calls_per_function(profile):
    """Calls to each function in a callgrind profile (the sum of its callers' calls= lines)."""
    names, calls, callee = {}, collections.Counter(), None
    for line in profile.open(errors="replace"):
        named = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
        if named:
            kind, number, name = named.groups()
            if name:
                names[number] = name.strip()
            if kind == "cfn":
                callee = number
            continue
        counted = re.match(r"calls=(\d+)", line)
        if counted and callee:
            calls[callee] += int(counted.group(1))
    return {names.get(n, n): c for n, c in calls.items()}


def bare(name):
    """ns::Class::method of a demangled signature: no arguments, no template arguments."""
    name = name.replace("(anonymous namespace)::", "")
    depth = 0
    for i, ch in enumerate(name):
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "(" and depth == 0:
            name = name[:i]
            break
    name = name.replace("[abi:cxx11]", "")
    while re.search(r"<[^<>]*>", name):
        name = re.sub(r"<[^<>]*>", "", name)
    return name


def defining_file(name, sources):
    parts = name.split("::")
    folder = parts[0] + "/"
    if parts[0] == "core" and len(parts) > 2 and parts[1] in ("chessence", "chesica", "sniderman"):
        folder = f"core/{parts[1]}/"
    parts = [p for p in parts if p not in SKIP]
    if not parts or "{lambda" in name or "operator" in parts[-1]:
        return None
    function = parts[-1]
    if function.startswith("~") or (len(parts) >= 2 and function == parts[-2]):
        return None  # constructors and destructors
    if len(parts) >= 2:
        pattern = re.compile(r"\b" + re.escape("::".join(parts[-2:])) + r"\s*\(")
    else:
        pattern = re.compile(r"(^|\n)[A-Za-z][^\n;()]*\b" + re.escape(function) +
                             r"\s*\([^;{]*\)\s*(const\s*)?\{")
    inline = re.compile(r"\b" + re.escape(function) + r"\s*\([^;]*\)\s*(const\s*)?(noexcept\s*)?\{")
    for suffix, found in ((".cpp", pattern), (".cpp", inline), (".h", inline)):
        for path, text in sources.items():
            if path.startswith(folder) and path.endswith(suffix) and found.search(text):
                return path
    return None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    kept = Path(sys.argv[1])
    moves = json.load((kept / "load.json").open())["moves"]
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "core", "protocol", "server"],
                            capture_output=True, text=True, check=True).stdout.split()
    sources = {p: (ROOT / p).read_text(errors="replace") for p in listed if p.endswith((".cpp", ".h"))}
    files = collections.defaultdict(set)
    for name, count in calls_per_function(kept / "callgrind.out").items():
        if count < moves or not re.match(r"(server|protocol|core)::", name):
            continue
        function = bare(name)
        path = defining_file(function, sources)
        if path:
            files[path].add(function.split("::")[-1])
    for path in sorted(files):
        print(f"{path:42} {', '.join(sorted(files[path]))}")
    by_part = collections.Counter(path.split("/")[0] for path in files)
    print(f"{len(files)} files run on every move ({moves} moves): " +
          ", ".join(f"{by_part[p]} in {p}/" for p in ("server", "protocol", "core")))


if __name__ == "__main__":
    main()
