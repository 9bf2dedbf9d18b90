"""No import circle between the project's own modules (issue 43), and the layer map names real ones.

The graph has one node per module of ``sim``, ``strategies``, ``experiments`` and ``reports``
(a package is its ``__init__.py``) and one edge per import of another project module, found with
``ast`` anywhere in the file: at module level, inside functions (lazy imports), under ``if``; plus
``importlib.import_module("x.y")`` and ``__import__("x.y")`` with a literal name. An import names
the deepest project module it reaches (``from a.b import c`` is ``a.b.c`` when that is a module,
else ``a.b``). Importing ``a.b.c`` also runs the parent packages' ``__init__.py``; those implicit
edges are left out (every submodule would otherwise form a circle with a package that imports
it), but an explicit ``import a`` or ``from a import x`` inside ``a.b`` is an edge like any other.

A circle is a strongly connected component of more than one module; the failure message prints
one cycle through it, each edge with the file and line of its import.
"""

from __future__ import annotations

import ast
import re
from collections import deque
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "strategies", "experiments", "reports")
LAYERS_PAGE = ROOT / "docs" / "contributing" / "layers.md"
LAYER_STEPS = ("config", "variants", "chunks", "kernels", "parquet", "report")

# Known circles, allowed until they are removed. Each entry must be exactly one circle of the
# graph: test_known_circles_are_still_there fails once a circle is gone or has grown, so this
# list stays honest (delete the entry with the change that removes the circle). Empty since
# issue 43, item 1 made the Celtic engine one layer whose imports go one way (see
# CELTIC_LAYERS below).
KNOWN_CIRCLES: tuple[frozenset[str], ...] = ()


def project_modules(root: Path, packages) -> dict[str, Path]:
    """{dotted name: file} of every module of ``packages`` under ``root``."""
    modules = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _imported_names(tree: ast.AST, module: str, is_package: bool):
    """(dotted name, line) of every import in ``tree``, relative imports made absolute."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join(package + ([base] if base else []))
            for alias in node.names:  # a.b.c when c is a module, else a.b (see deepest)
                yield f"{base}.{alias.name}", node.lineno
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            first = node.args[0]
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            if name in ("import_module", "__import__") and literal:
                yield first.value, node.lineno


def import_graph(root: Path, packages) -> dict[str, dict[str, str]]:
    """{module: {imported project module: 'file:line' of the first such import}}."""
    modules = project_modules(root, packages)

    def deepest(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, dict[str, str]] = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges = graph.setdefault(module, {})
        names = _imported_names(tree, module, path.name == "__init__.py")
        for name, line in sorted(names, key=lambda item: item[1]):
            target = deepest(name)
            if target is not None and target != module:
                edges.setdefault(target, f"{path.relative_to(root)}:{line}")
    return graph


def circles(graph: dict[str, dict[str, str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, {}))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def one_cycle(graph: dict[str, dict[str, str]], component: frozenset[str]) -> str:
    """A shortest cycle through the component's first module, one line per import."""
    start = min(component)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in graph[node]:
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                path.reverse()
                path.append(start)
                return "\n".join(
                    f"  {a} -> {b}  ({graph[a][b]})" for a, b in zip(path, path[1:], strict=False)
                )
            if child in component and child not in came_from and child != start:
                came_from[child] = node
                queue.append(child)
    raise AssertionError(f"no cycle through {start}")  # a component always has one


@pytest.fixture(scope="module")
def graph():
    return import_graph(ROOT, PACKAGES)


def test_no_import_circle(graph):
    """Every circle between project modules is a known one: this fails on any other, printed."""
    new = [c for c in circles(graph) if c not in KNOWN_CIRCLES]
    report = "\n\n".join(
        f"import circle of {', '.join(sorted(c))}; one cycle:\n{one_cycle(graph, c)}" for c in new
    )
    assert not new, "\n" + report


def test_known_circles_are_still_there(graph):
    """Each allowed circle still exists exactly as listed; one that is gone (or grew) must be
    taken off KNOWN_CIRCLES."""
    found = circles(graph)
    for known in KNOWN_CIRCLES:
        assert known in found, (
            f"the known import circle {sorted(known)} is no longer in the graph: "
            "delete it from KNOWN_CIRCLES in tests/test_imports.py"
        )


CT, CQ = "sim.games.celtic_trader", "sim.games.celtic_quest"
# The Celtic engine's layers (issue 43, item 1), bottom up: each may import only the layers below
# it (and the games' constants: params, state, layout). Celtic Quest's hooks (its rules.py) and
# Celtic Trader's turn flow and kernels sit on top.
CELTIC_LAYERS = (
    {f"{CQ}.queries", f"{CQ}.tiles", f"{CQ}.scoring", f"{CQ}.items", f"{CQ}.setup"},
    {f"{CT}.board", f"{CT}.setup", f"{CT}.bag", f"{CT}.conquest", f"{CT}.supply", f"{CT}.delivery"},
    {f"{CQ}.enchantment", f"{CQ}.quests", f"{CQ}.tokens", f"{CQ}.movement", f"{CQ}.delivery"},
    {f"{CQ}.phases", f"{CQ}.checks"},
    {f"{CQ}.rules", f"{CT}.turn", f"{CT}.rules"},
)
CELTIC_CONSTANTS = {f"{CT}.params", f"{CT}.state", f"{CQ}.layout"}


def test_the_celtic_engine_imports_go_one_way(graph):
    """Celtic Quest's rules import Celtic Trader's primitives, never its turn flow, and the
    primitives import only Celtic Quest's reads of its own state: no layer imports one above."""
    wrong = []
    for i, layer in enumerate(CELTIC_LAYERS):
        below = set().union(*CELTIC_LAYERS[:i]) | CELTIC_CONSTANTS
        for module in sorted(layer):
            assert module in graph, f"{module} is not a module of the project"
            for name, where in sorted(graph[module].items()):
                celtic = name.startswith((CT + ".", CQ + "."))
                if celtic and name not in below and name not in layer:
                    wrong.append(f"{module} imports {name} ({where})")
    assert not wrong, "a Celtic engine layer imports one above it:\n" + "\n".join(wrong)


def test_the_check_sees_a_lazy_circle_and_a_package_import(tmp_path):
    """The check itself: a circle closed by an import inside a function, a relative import and
    a submodule importing its package's ``__init__`` are all found; parent packages alone are not
    edges."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from pkg.sub import b\n")
    (pkg / "a.py").write_text("def f():\n    from .sub.b import g\n    return g\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("import pkg.a\n\n\ndef g():\n    import pkg\n")
    (pkg / "c.py").write_text("import importlib\n\nimportlib.import_module('pkg.sub.b')\n")
    graph = import_graph(tmp_path, ["pkg"])
    assert graph["pkg.a"] == {"pkg.sub.b": "pkg/a.py:2"}
    assert graph["pkg.c"] == {"pkg.sub.b": "pkg/c.py:3"}
    assert set(graph["pkg.sub.b"]) == {"pkg.a", "pkg"}
    assert graph["pkg.sub"] == {}
    assert circles(graph) == [frozenset({"pkg", "pkg.a", "pkg.sub.b"})]
    cycle = one_cycle(graph, circles(graph)[0])
    assert "pkg -> pkg.sub.b  (pkg/__init__.py:1)" in cycle
    (pkg / "a.py").write_text("X = 1\n")
    (pkg / "sub" / "b.py").write_text("def g():\n    return 1\n")
    assert circles(import_graph(tmp_path, ["pkg"])) == []


def _layer_rows() -> list[tuple[str, list[str]]]:
    """(step, backticked .py paths) of each row of the layers page's table."""
    rows = []
    for line in LAYERS_PAGE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 2 or set(cells[0]) <= set("-: "):
            continue
        step = cells[0].strip("*").lower()
        if step in LAYER_STEPS:
            rows.append((step, re.findall(r"`([\w/]+\.py)`", line)))
    return rows


def test_layer_map_names_modules_that_exist(graph):
    """docs/contributing/layers.md has a row per step, in order, each naming the modules that
    own it, modules of the graph above; every other file the page names exists."""
    rows = _layer_rows()
    assert [step for step, _ in rows] == list(LAYER_STEPS)
    for step, paths in rows:
        assert paths, f"layers.md: the step {step!r} names no module"
    modules = {str(p.relative_to(ROOT)) for p in project_modules(ROOT, PACKAGES).values()}
    owners = {path for _, paths in rows for path in paths}
    missing = sorted(owners - modules)
    assert not missing, f"layers.md: no such module of the project: {', '.join(missing)}"
    named = re.findall(r"`([\w/.]+\.py)`", LAYERS_PAGE.read_text(encoding="utf-8"))
    missing = sorted(n for n in named if "/" not in n or not (ROOT / n).is_file())
    assert not missing, f"layers.md: name files by their path from the repository: {missing}"
