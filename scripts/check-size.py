#!/usr/bin/env python3
"""Checks the size limits of the code (docs/architecture.md "Size limits"):
no Rust or web JS file over 800 lines and no function over 120 lines,
tests left out (files under a `tests/` folder, files named `tests.rs`, and
everything from a file's `#[cfg(test)]` module on). The JS is the browser
UI's (`crates/*/web/`, the built engine `web/wasm/` left out); a JS
function is `function name(…) {`, `const name = (…) => {` or a method
`name(…) {`, measured by its braces. Prints each breach; exits 1 if any.

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


# a JS function's head: `[export] [async] function name(`, `const name =
# [async] (…) =>` / `x =>` / `function`, or a method `[async] name(…) {`
JS_FN = re.compile(
    r"^\s*(?:export\s+)?(?:async\s+)?function\*?\s+(\w+)\s*\("
    r"|^\s*(?:export\s+)?(?:const|let|var)\s+(\w+)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|\w+\s*=>)"
    r"|^\s*(?:async\s+)?(?!(?:if|for|while|switch|catch|function|return)\b)(\w+)\s*\([^)]*\)\s*\{\s*$"
)
JS_TOKEN = re.compile(
    r"//.*|/\*.*?\*/|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`|=>|\S"
)


def js_body(lines, i, col):
    """The last line (index) of the block body of the function whose head
    ends at `lines[i][col:]`, or None for a function with an expression
    body (`() => x`): the parameters' parentheses are skipped (a default
    `= {}` in them is no body), then `=>`, then the body's `{` to the
    brace that closes it (strings, template literals and comments left
    out; a template literal spanning lines is read as code, which balances
    its braces anyway)."""
    parens = depth = 0
    body = False
    for j in range(i, min(len(lines), i + 400)):
        text = lines[j][col:] if j == i else lines[j]
        for tok in JS_TOKEN.findall(text):
            if tok.startswith(("//", "/*", '"', "'", "`")):
                continue
            if not body:
                if tok == "(":
                    parens += 1
                elif tok == ")":
                    parens -= 1
                elif parens == 0 and tok == "{":
                    body, depth = True, 1
                elif parens == 0 and tok not in ("=>",):
                    return None  # an expression body
                continue
            if tok == "{":
                depth += 1
            elif tok == "}":
                depth -= 1
                if depth == 0:
                    return j
    return None


def js_functions(lines):
    """(name, first line, length) of every JS function whose body is a
    block, nested ones too (each counted from its head to its closing
    brace, its inner functions in it)."""
    out = []
    for i, line in enumerate(lines):
        m = JS_FN.match(line)
        if not m:
            continue
        name = m.group(1) or m.group(2) or m.group(3)
        # the head ends before its parameters (or `x =>`'s name)
        col = line.index("(", m.start()) if "(" in line[m.start():] else m.end()
        if m.group(2) and not re.search(r"\(|function", line[m.start():m.end()]):
            col = line.index("=>", m.start())
        end = js_body(lines, i, col)
        if end is not None:
            out.append((name, i + 1, end - i + 1))
    return out


def source_files(root, base, skip, ext):
    """(folder, name) of the files under `root`/`base` named `*ext`,
    folders named in `skip` left out."""
    for d, dirs, files in os.walk(os.path.join(root, base)):
        dirs[:] = [x for x in dirs if x not in skip]
        for name in files:
            if name.endswith(ext):
                yield d, name


def breaches(rel, lines, funcs, fn_word, where=""):
    """The limits file `rel` breaks: its `lines`, its `funcs` ((name,
    first line, length) each, called `fn_word` in the message)."""
    out = []
    if len(lines) > MAX_FILE:
        out.append(f"{rel}: {len(lines)} lines{where} (most {MAX_FILE})")
    for fname, first, n in funcs:
        if n > MAX_FN:
            out.append(f"{rel}:{first}: {fn_word} {fname} is {n} lines (most {MAX_FN})")
    return out


def check_js(root, bad):
    """The web UI's JS files (`crates/*/web/**.js`, not `web/wasm/`)."""
    for d, name in source_files(root, "crates", ("tests", "target", "wasm", "node_modules"), ".js"):
        if "web" not in d.split(os.sep):
            continue
        path = os.path.join(d, name)
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        bad += breaches(os.path.relpath(path, root), lines, js_functions(lines), "function")


def check_rust(root, bad):
    """The Rust files of the crates and the fuzz targets, tests left out."""
    for base in ("crates", "fuzz"):
        for d, name in source_files(root, base, ("tests", "target"), ".rs"):
            if name == "tests.rs":
                continue
            path = os.path.join(d, name)
            lines = code_lines(path)
            rel = os.path.relpath(path, root)
            bad += breaches(rel, lines, functions(lines), "fn", " outside tests")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    bad = []
    check_rust(root, bad)
    check_js(root, bad)
    for b in bad:
        print(b)
    if bad:
        print(f"error: {len(bad)} size limits broken", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
