#!/usr/bin/env python3
"""Fails on any import circle between the modules of a crate or of an app
folder.

A module tree is a source folder: `crates/NAME/src` for every crate and
`src` for the app, and, recursively, every folder inside one. The modules of
a tree are the `.rs` files and the folders directly in it (a folder counts as
one module, its top module; `lib.rs`, `main.rs` and `mod.rs` are the tree's
own file, not a sibling). A module depends on a sibling when any of its files
names the sibling through `crate::`, `super::` or `self::`: in `use`
declarations (braces included, `use crate::{a, b::c}`), `pub use`
re-exports, and fully qualified paths in code. Comments, string literals,
items under `#[cfg(test)]` (a `mod tests { ... }` block, or the file of a
`#[cfg(test)] mod tests;`) and files under a `tests` folder are left out:
test code may reach anywhere.

Every strongly connected set of two or more modules is a circle. Each is
named by cycles that together pass through all its modules, one line each:

    voxel: flags -> bands -> flags

Usage:
    python3 scripts/check_cycles.py [--root DIR]   # exit 1 on a circle
    python3 scripts/check_cycles.py --self-test    # checks the checker

Standard library only.
"""

import functools
import os
import re
import sys
import tempfile
from collections import deque

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
PATH_RE = re.compile(
    r"(?<![A-Za-z0-9_])(crate|super|self)((?:\s*::\s*" + IDENT + r")+)"
)
USE_RE = re.compile(r"(?<![A-Za-z0-9_])use\s+([^;]+);")
ROOT_FILES = {"lib.rs", "main.rs", "mod.rs"}
RAW_RE = re.compile(r'b?r(#*)"')
CHAR_RE = re.compile(r"'(?:\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'\n])'")


def ident_before(src, i):
    """True when the character before `i` continues an identifier."""
    return i > 0 and (src[i - 1].isalnum() or src[i - 1] == "_")


def starts_raw_string(src, i):
    """True when a raw string literal (`r"..."`, `br#"..."#`) starts at `i`."""
    return src[i] in "br" and not ident_before(src, i) and RAW_RE.match(src, i) is not None


def strip_code(src):
    """The source with comments, string and char literals blanked out
    (newlines kept), so that braces and paths inside them count for nothing."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if src.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif src.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if src[i] == "\n" else "")
                    i += 1
            out.append(" ")
        elif starts_raw_string(src, i):
            m = RAW_RE.match(src, i)
            end = '"' + m.group(1)
            j = src.find(end, m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * src.count("\n", i, j))
            i = j
        elif c == '"' or (src.startswith('b"', i) and not ident_before(src, i)):
            i += 2 if c == "b" else 1
            newlines = 0
            while i < n and src[i] != '"':
                if src[i] == "\\":
                    i += 1
                if i < n and src[i] == "\n":
                    newlines += 1
                i += 1
            out.append('""' + "\n" * newlines)
            i += 1
        elif c == "'":
            m = CHAR_RE.match(src, i)
            if m:
                out.append("' '")
                i += m.end()
            else:  # a lifetime or a label
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching_brace(text, open_at):
    """Index just past the `}` that closes the `{` at `open_at`."""
    depth = 0
    for j in range(open_at, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def drop_test_items(code):
    """The code without the items under `#[cfg(test)]`, and the names of the
    out-of-line test modules it declares (`#[cfg(test)] mod NAME;`)."""
    test_files = []
    attr = re.compile(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]")
    while True:
        m = attr.search(code)
        if not m:
            return code, test_files
        j = m.end()
        while True:  # further attributes of the same item
            k = re.match(r"\s*#\s*\[", code[j:])
            if not k:
                break
            depth, j = 0, j + k.end() - 1
            while j < len(code):
                depth += {"[": 1, "]": -1}.get(code[j], 0)
                j += 1
                if depth == 0:
                    break
        item = code[j:]
        decl = re.match(r"\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", item)
        if decl:
            test_files.append(decl.group(1))
            end = j + decl.end()
        elif re.match(r"\s*(?:pub(?:\([^)]*\))?\s+)?use\b", item):
            semi = code.find(";", j)
            end = len(code) if semi < 0 else semi + 1
        else:
            brace, semi = code.find("{", j), code.find(";", j)
            if brace >= 0 and (semi < 0 or brace < semi):
                end = matching_brace(code, brace)
            else:
                end = len(code) if semi < 0 else semi + 1
        code = code[:m.start()] + "\n" * code.count("\n", m.start(), end) + code[end:]


def use_paths(tree):
    """Every path a `use` tree (its renames removed) names, as lists of
    segments: `crate::{a, b::{c, d}}` gives crate/a, crate/b/c and
    crate/b/d."""
    tree = re.sub(r"\s+", "", tree)
    paths = []

    def walk(prefix, s):
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
                continue
            depth += {"{": 1, "}": -1}.get(ch, 0)
            cur += ch
        parts.append(cur)
        for p in parts:
            if not p:
                continue
            brace = p.find("{")
            if brace >= 0 and p.endswith("}"):
                head = [x for x in p[:brace].split("::") if x]
                walk(prefix + head, p[brace + 1:-1])
            else:
                segs = [x for x in p.split("::") if x]
                paths.append(prefix + segs)

    walk([], tree)
    return paths


def references(code):
    """The `crate::`, `super::` and `self::` paths a file names, as segment
    lists (the `as` renames of `use` dropped)."""
    found = []
    rest = []
    last = 0
    for m in USE_RE.finditer(code):
        tree = re.sub(r"\s+as\s+" + IDENT, "", m.group(1))
        found += [p for p in use_paths(tree) if p and p[0] in ("crate", "super", "self")]
        rest.append(code[last:m.start()])
        last = m.end()
    rest.append(code[last:])
    for m in PATH_RE.finditer(" ".join(rest)):
        segs = [m.group(1)] + [s for s in re.split(r"\s*::\s*", m.group(2)) if s]
        found.append(segs)
    return found


def absolute(module, path):
    """`path` (starting with crate, super or self) seen from `module` (the
    file's module path), as segments from the crate root; None when it
    climbs above the root."""
    if path[0] == "crate":
        base, rest = [], path[1:]
    else:
        base, rest = list(module), path
        while rest and rest[0] in ("super", "self"):
            if rest[0] == "super":
                if not base:
                    return None
                base.pop()
            rest = rest[1:]
    return base + rest


def module_of(rel):
    """The module path of a file, from its path relative to the source root."""
    parts = rel.split(os.sep)
    name = parts[-1][:-3]
    if len(parts) == 1 and parts[0] in ("lib.rs", "main.rs"):
        return []
    if name == "mod":
        return parts[:-1]
    return parts[:-1] + [name]


@functools.lru_cache(maxsize=None)
def siblings(folder):
    """The modules of one folder: its `.rs` files (other than a tree's own
    files) and its folders that hold Rust code."""
    names = set()
    for entry in os.listdir(folder):
        full = os.path.join(folder, entry)
        if entry.endswith(".rs") and entry not in ROOT_FILES and os.path.isfile(full):
            names.add(entry[:-3])
        elif os.path.isdir(full) and entry != "tests" and has_rust(full):
            names.add(entry)
    return names


def has_rust(folder):
    """True when `folder` or a folder inside it holds a `.rs` file."""
    for _, dirs, files in os.walk(folder):
        if any(f.endswith(".rs") for f in files):
            return True
    return False


def tree_edges(src_root):
    """The dependency edges of every module tree under one source root:
    {folder path (segments): {module: {sibling it depends on}}}."""
    files = []
    for dirpath, dirs, names in os.walk(src_root):
        dirs[:] = sorted(d for d in dirs if d != "tests")
        for f in sorted(names):
            if f.endswith(".rs"):
                files.append(os.path.relpath(os.path.join(dirpath, f), src_root))
    graphs = {}
    cleaned = {}
    test_modules = set()
    for rel in files:
        with open(os.path.join(src_root, rel), encoding="utf-8") as fh:
            code, tests = drop_test_items(strip_code(fh.read()))
        module = module_of(rel)
        cleaned[rel] = (module, code)
        test_modules |= {tuple(module + [t]) for t in tests}
    for rel, (module, code) in cleaned.items():
        if any(tuple(module[:k]) in test_modules for k in range(1, len(module) + 1)):
            continue
        for path in references(code):
            target = absolute(module, path)
            if target is None:
                continue
            k = 0
            while k < len(module) and k < len(target) and module[k] == target[k]:
                k += 1
            if k >= len(module) or k >= len(target):
                continue
            folder = os.path.join(src_root, *module[:k])
            if target[k] not in siblings(folder):
                continue
            graph = graphs.setdefault(tuple(module[:k]), {})
            graph.setdefault(module[k], set()).add(target[k])
    folders = {()}
    for rel in files:
        parts = rel.split(os.sep)[:-1]
        for k in range(1, len(parts) + 1):
            folders.add(tuple(parts[:k]))
    for f in folders:
        graphs.setdefault(f, {})
    return graphs


def circles(graph):
    """The strongly connected sets of two or more modules (Tarjan), each
    sorted, in sorted order."""
    index, low, on, stack, out = {}, {}, set(), [], []
    nodes = sorted(set(graph) | {v for vs in graph.values() for v in vs})
    counter = [0]

    def visit(v):
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            u, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[u] = min(low[u], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[u])
            if low[u] == index[u]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == u:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))

    for v in nodes:
        if v not in index:
            visit(v)
    return sorted(out)


def shortest_cycle(graph, members, start):
    """The shortest cycle through `start` inside `members` (breadth first
    from `start` back to it)."""
    prev = {start: None}
    queue = deque([start])
    while queue:
        u = queue.popleft()
        for w in sorted(graph.get(u, ())):
            if w not in members:
                continue
            if w == start:
                cycle = [u]
                while prev[cycle[-1]] is not None:
                    cycle.append(prev[cycle[-1]])
                return list(reversed(cycle)) + [start]
            if w not in prev:
                prev[w] = u
                queue.append(w)
    return [start]


def cycles_covering(graph, members):
    """Cycles that together pass through every module of one circle."""
    left, out = list(members), []
    while left:
        cycle = shortest_cycle(graph, set(members), left[0])
        out.append(cycle)
        left = [m for m in left if m not in cycle]
    return out


def module_trees(root):
    """(label, source root) of every crate and of the app."""
    trees = []
    crates = os.path.join(root, "crates")
    if os.path.isdir(crates):
        for name in sorted(os.listdir(crates)):
            src = os.path.join(crates, name, "src")
            if os.path.isdir(src):
                trees.append((name, src))
    if os.path.isdir(os.path.join(root, "src")):
        trees.append(("app", os.path.join(root, "src")))
    return trees


def check(root, out=sys.stdout):
    """Prints every circle under `root` and a summary; returns the exit
    status (1 when there is a circle)."""
    found, checked, with_circles = 0, 0, []
    for label, src in module_trees(root):
        for folder, graph in sorted(tree_edges(src).items()):
            checked += 1
            name = "::".join((label,) + folder)
            comps = circles(graph)
            if comps:
                with_circles.append(name)
            for comp in comps:
                for cycle in cycles_covering(graph, comp):
                    found += 1
                    print(f"{name}: {' -> '.join(cycle)}", file=out)
    if found:
        print(
            f"check_cycles: {found} import cycles in {len(with_circles)} of "
            f"{checked} module trees ({', '.join(with_circles)})",
            file=out,
        )
        return 1
    print(f"check_cycles: no import circle in {checked} module trees", file=out)
    return 0


def self_test():
    """Builds small source trees and checks the verdicts."""
    cases = [
        (
            "a cycle through use and super",
            {
                "crates/x/src/lib.rs": "pub mod a;\npub mod b;\n",
                "crates/x/src/a.rs": "use crate::b::B;\npub struct A;\n",
                "crates/x/src/b.rs": "use super::a::A;\npub struct B;\n",
            },
            1,
            ["x: a -> b -> a"],
        ),
        (
            "no cycle; comments and strings do not count",
            {
                "crates/x/src/lib.rs": "pub mod a;\npub mod b;\n",
                "crates/x/src/a.rs": "use crate::b::B;\n",
                "crates/x/src/b.rs": (
                    "//! See [`crate::a::A`].\n"
                    "pub struct B;\n"
                    "/* crate::a::A */\n"
                    "const S: &str = \"crate::a::A {\";\n"
                    "const R: &str = r#\"super::a\"#;\n"
                    "fn f<'a>(c: char) -> bool { c == '{' }\n"
                ),
            },
            0,
            [],
        ),
        (
            "a cycle only in test code",
            {
                "crates/x/src/lib.rs": "pub mod a;\npub mod b;\n",
                "crates/x/src/a.rs": "use crate::b::B;\npub struct A;\n",
                "crates/x/src/b.rs": (
                    "pub struct B;\n"
                    "#[cfg(test)]\n#[allow(unused)]\nmod tests {\n"
                    "    use crate::a::A;\n    fn f() { let s = \"}\"; }\n}\n"
                    "#[cfg(test)]\nmod more;\n"
                ),
                "crates/x/src/b/more.rs": "use crate::a::A;\n",
                "crates/x/tests/t.rs": "use x::a;\n",
            },
            0,
            [],
        ),
        (
            "braces and a fully qualified path in code",
            {
                "crates/x/src/lib.rs": "pub mod a;\npub mod b;\npub mod c;\n",
                "crates/x/src/a.rs": "use crate::{b::{B, Bee}, c as see};\n",
                "crates/x/src/b.rs": "pub struct B;\n",
                "crates/x/src/c.rs": "pub fn f() { let _ = crate::a::g(); }\n",
            },
            1,
            ["x: a -> c -> a"],
        ),
        (
            "a folder is one module, and its inside is checked too",
            {
                "src/lib.rs": "mod view;\nmod model;\n",
                "src/model/mod.rs": "mod p;\nmod q;\n",
                "src/model/p.rs": "pub use super::q::Q;\n",
                "src/model/q.rs": "pub struct Q; fn f() { super::p::g(); }\n",
                "src/view/mod.rs": "use crate::model::Q;\n",
                "src/view/draw.rs": "fn f() {}\n",
            },
            1,
            ["app::model: p -> q -> p"],
        ),
        (
            "a cycle between folders",
            {
                "src/lib.rs": "mod view;\nmod model;\n",
                "src/model/mod.rs": "mod p;\n",
                "src/model/p.rs": "use crate::view::V;\n",
                "src/view/mod.rs": "mod draw;\n",
                "src/view/draw.rs": "use crate::model::p::P;\n",
            },
            1,
            ["app: model -> view -> model"],
        ),
    ]
    failures = 0
    for name, files, status, lines in cases:
        with tempfile.TemporaryDirectory() as root:
            for rel, text in files.items():
                path = os.path.join(root, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(text)

            class Lines:
                def __init__(self):
                    self.text = ""

                def write(self, s):
                    self.text += s

            sink = Lines()
            got = check(root, sink)
            printed = sink.text.splitlines()
            cycles = [line for line in printed if not line.startswith("check_cycles:")]
            if got != status or cycles != lines:
                failures += 1
                print(f"FAIL {name}: exit {got}, printed {printed}; expected exit {status}, cycles {lines}")
            else:
                print(f"ok   {name}")
    if failures:
        print(f"self-test: {failures} of {len(cases)} cases failed")
        return 1
    print(f"self-test: all {len(cases)} cases pass")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if "--root" in argv:
        i = argv.index("--root")
        if i + 1 >= len(argv):
            print("check_cycles: --root needs a folder", file=sys.stderr)
            return 2
        root = argv[i + 1]
    return check(root)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
