#!/usr/bin/env python3
"""Checks the size limits of the code (docs/architecture.md "Size limits"):
no Rust file over 800 lines and no function over 120 lines, tests left out
(files under a `tests/` folder, files named `tests.rs`, and everything from
a file's `#[cfg(test)]` module on). Prints each breach; exits 1 if any.

Usage: scripts/check-size.py [ROOT]   (ROOT: the repository, default: here)
"""
import os
import re
import sys

MAX_FILE = 800
MAX_FN = 120
FN = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?((const|async|unsafe|extern \"C\")\s+)*fn\s+(\w+)")


def code_lines(path):
    """The file's lines before its test module."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("#[cfg(test)]"):
            return lines[:i]
    return lines


def functions(lines):
    """(name, first line, length) of every function with a body."""
    out = []
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m or (i > 0 and lines[i - 1].strip() == "#[test]"):
            continue
        indent = m.group(1)
        # the signature ends at the first line ending in `{` or `;` at depth 0
        j = i
        while j < len(lines) and not (
            lines[j].rstrip().endswith("{") or lines[j].rstrip().endswith(";")
        ):
            j += 1
        if j >= len(lines) or lines[j].rstrip().endswith(";"):
            continue
        if lines[j].rstrip().endswith("{") and lines[j].strip() == "}":
            continue
        end = j
        close = indent + "}"
        while end < len(lines) and lines[end].rstrip() != close:
            end += 1
        out.append((m.group(6), i + 1, end - i + 1))
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    bad = []
    for base in ("crates", "fuzz"):
        for d, dirs, files in os.walk(os.path.join(root, base)):
            dirs[:] = [x for x in dirs if x not in ("tests", "target")]
            for name in files:
                if not name.endswith(".rs") or name == "tests.rs":
                    continue
                path = os.path.join(d, name)
                lines = code_lines(path)
                rel = os.path.relpath(path, root)
                if len(lines) > MAX_FILE:
                    bad.append(f"{rel}: {len(lines)} lines outside tests (most {MAX_FILE})")
                for fname, first, n in functions(lines):
                    if n > MAX_FN:
                        bad.append(f"{rel}:{first}: fn {fname} is {n} lines (most {MAX_FN})")
    for b in bad:
        print(b)
    if bad:
        print(f"error: {len(bad)} size limits broken", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
