#!/usr/bin/env python3
"""Import circles between the files of a crate (issue: "no import circle
between files of the server or the bots' live code").

    python3 scripts/check-imports.py [CRATE_SRC_DIR ...] [--exclude MODULE ...]

Reads every .rs file under each src folder (default: the server and the
bots), maps it to its module path (`src/tables/live.rs` -> `tables::live`,
`mod.rs` and `lib.rs` name their folder), and draws an edge from a file to
every file whose module it names in code: `crate::a::b`, `super::x`,
`self::x` paths in `use` lines and in expressions (a path names the
longest module that exists; a name that module re-exports from a child,
`pub use child::Name;`, names the child's file). `mod x;` declarations
and a module's relative paths to its own children (`x::y` after `mod x;`,
so also its re-exports) are not imports; comments and test modules
(`#[cfg(test)] mod tests { ... }` to the end of the file) are left out.
Prints each circle (a strongly connected set of two or more files, with
the imports of each inside it) and exits 1 when there is one. --exclude
leaves out modules (and their children), e.g. research code that is not
live.
"""
import re
import sys
from pathlib import Path

PATH = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE_GROUP = re.compile(r"\buse\s+(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^;]*)\}", re.S)


def module_of(src: Path, f: Path) -> tuple:
    parts = list(f.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def code_of(text: str) -> str:
    # leave out the unit tests at the end of a file and comments
    m = re.search(r"#\[cfg\(test\)\]\s*(pub\s+)?mod\s+\w+\s*\{", text)
    if m:
        text = text[: m.start()]
    text = re.sub(r"//[^\n]*", "", text)
    return text


def resolve(mod: tuple, is_dir_mod: bool, head: str, rest: list) -> tuple:
    if head == "crate":
        return tuple(rest)
    base = list(mod) if is_dir_mod else list(mod[:-1])
    if head == "self":
        base = list(mod)
        return tuple(base + rest)
    # super: the parent of this module
    parent = list(mod[:-1])
    return tuple(parent + rest)


def main(argv):
    dirs, exclude = [], []
    it = iter(argv)
    for a in it:
        if a == "--exclude":
            exclude.append(tuple(next(it).split("::")))
        else:
            dirs.append(Path(a))
    if not dirs:
        dirs = [Path("crates/sequence-server/src"), Path("crates/sequence-bots/src")]
    found = 0
    for src in dirs:
        files = {module_of(src, f): f for f in sorted(src.rglob("*.rs"))}
        mods = {m for m in files if not any(m[: len(e)] == e for e in exclude)}
        edges = {m: set() for m in mods}
        reexports = {}
        for m in mods:
            t = code_of(files[m].read_text())
            for g in re.finditer(r"pub(?:\([^)]*\))?\s+use\s+(\w+)::(\{[^;]*\}|\w+)\s*;", t):
                child = m + (g.group(1),)
                if child not in files:
                    continue
                for name in re.findall(r"\w+", g.group(2)):
                    reexports[(m, name)] = child
        for m in mods:
            f = files[m]
            is_dir_mod = f.name in ("mod.rs", "lib.rs", "main.rs")
            text = code_of(f.read_text())
            refs = []
            for g in USE_GROUP.finditer(text):
                head, prefix = g.group(1), [p for p in g.group(2).split("::") if p]
                for item in re.split(r"[,\s{}]+", g.group(3)):
                    names = [p for p in item.split("::") if p and p != "self" and re.match(r"^[A-Za-z_]\w*$", p)]
                    refs.append((head, prefix + names))
            for p in PATH.finditer(text):
                refs.append((p.group(1), [x for x in p.group(2).split("::") if x]))
            for head, rest in refs:
                full = resolve(m, is_dir_mod, head, rest)
                target = full
                # the longest module named
                while target and target not in mods:
                    target = target[:-1]
                # a name a module re-exports from its child: the child
                if len(full) > len(target):
                    child = reexports.get((target, full[len(target)]))
                    if child is not None and child in mods and child != m:
                        target = child
                if target in mods and target != m and target != ():
                    edges[m].add(target)
                elif target == () and () in mods and m != ():
                    # a name from the crate root (lib.rs)
                    if head == "crate" and rest and (tuple(rest[:1]) not in files):
                        edges[m].add(())
        # Tarjan's strongly connected components
        index, low, stack, on, comps = {}, {}, [], set(), []
        counter = [0]

        def strong(v):
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on.add(v)
            for w in edges[v]:
                if w not in index:
                    strong(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(comp)

        sys.setrecursionlimit(10000)
        for v in sorted(edges):
            if v not in index:
                strong(v)
        name = lambda m: str(files[m])
        print(f"{src}: {len(mods)} files, {sum(len(e) for e in edges.values())} imports between them, {len(comps)} circle(s)")
        for c in comps:
            found += 1
            print("  circle: " + ", ".join(sorted(name(m) for m in c)))
            inside = set(c)
            for a in sorted(c):
                print(f"    {name(a)} imports " + ", ".join(sorted(name(b) for b in edges[a] & inside)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
