"""The layers hold (DESIGN.md, top-level layout): what each package may import, no mode
package importing another, and no import cycle between our modules; no test module
imports another (shared helpers have modules of their own) and no benchmark the tests.

Imports are read with ``ast`` from the source, wherever they stand: inside a function (a
late import still ties the modules) and under ``if TYPE_CHECKING:`` too, since a cycle that
only the type checker walks is still two modules that cannot be read one without the other.
"""

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from rules.table.modes import MODES

ROOT = Path(__file__).parents[1]
PACKAGES = ("editions", "events", "rules", "wordlists", "server", "bench")
#: The mode packages as first laid out; any other a registered mode lives in joins them.
LISTED_MODES = frozenset({"rules.classic", "rules.online", "rules.room"})
#: The one module of ``rules.table`` that imports the modes: the registry.
REGISTRY = "rules.table.modes"


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of our packages, by dotted name."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[_module(path)] = path
    return found


def _base(node: ast.ImportFrom, module: str, path: Path) -> str:
    """The module a ``from … import`` names, a relative one resolved."""
    base = node.module or ""
    if node.level:
        package = module.split(".")
        if path.name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, base] if base else package)
    return base


def _imported(node: ast.Import | ast.ImportFrom, module: str, path: Path) -> Iterator[str]:
    """The dotted names an import statement names, relative ones resolved."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = _base(node, module, path)
    for alias in node.names:
        name = f"{base}.{alias.name}"
        yield name if name in modules() else base  # a module of the package, or a name in it


def _ours(name: str) -> str | None:
    """The module of ours ``name`` is, or is in; None for another library's."""
    while name:
        if name in modules():
            return name
        name = name.rpartition(".")[0]
    return None


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module → the modules of ours it imports."""
    edges = {}
    for module, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for name in _imported(node, module, path):
                    target = _ours(name)
                    if target is not None and target != module:
                        found.add(target)
        edges[module] = frozenset(found)
    return edges


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def imports_of(package: str) -> set[tuple[str, str]]:
    """(importer, imported) for every import of ``package``'s modules."""
    return {(m, t) for m, targets in graph().items() if _in(m, package) for t in targets}


def mode_packages() -> frozenset[str]:
    """The listed mode packages and the package of every registered mode's rules."""
    found = {rules.decide.__module__.rpartition(".")[0] for rules in MODES.values()}
    return LISTED_MODES | found


@pytest.mark.parametrize(
    ("package", "allowed"),
    [
        ("editions", ("editions",)),
        ("events", ("events", "editions")),
        ("rules", ("rules", "events", "editions")),
        ("wordlists", ("wordlists", "editions")),
    ],
)
def test_a_package_imports_only_the_layers_below_it(package: str, allowed: tuple[str, ...]) -> None:
    wrong = sorted((m, t) for m, t in imports_of(package) if not any(_in(t, ok) for ok in allowed))
    assert wrong == []


def test_the_registry_finds_every_mode_in_a_package_of_its_own() -> None:
    assert mode_packages() == LISTED_MODES  # a new mode: list it, or it is found here
    for rules in MODES.values():
        functions = (rules.evolve, rules.decide, rules.sheet)
        assert {f.__module__.rpartition(".")[0] for f in functions} <= mode_packages()


def test_no_mode_package_imports_another() -> None:
    wrong = sorted(
        (m, t)
        for package in mode_packages()
        for m, t in imports_of(package)
        if any(_in(t, other) for other in mode_packages() - {package})
    )
    assert wrong == []


def test_what_every_mode_shares_imports_no_mode_but_through_the_registry() -> None:
    wrong = sorted(
        (m, t)
        for m, t in imports_of("rules.table")
        if m != REGISTRY and any(_in(t, mode) for mode in mode_packages())
    )
    assert wrong == []


def cycles() -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    edges, index, low, stack, on_stack = graph(), {}, {}, [], set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in edges[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return sorted(found)


def test_the_import_graph_is_read_from_the_source() -> None:
    edges = graph()
    assert "rules.table.modes" in edges["rules.table.reducer"]
    assert "rules.room.rounds" in edges["rules.room.tops"]
    assert "rules.movegen.kernel" in edges["rules.movegen.moves"]  # imported inside a function


def test_no_import_cycles() -> None:
    assert cycles() == []


def _imports_in(path: Path, module: str) -> Iterator[str]:
    """Every dotted name ``path``'s imports name, each imported name with its module
    (``from tests.web import test_play`` names ``tests.web.test_play``)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = _base(node, module, path)
            yield from (f"{base}.{alias.name}" if base else alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def test_no_test_module_imports_another_and_no_benchmark_imports_the_tests() -> None:
    # A test module imported by another has its tests collected there too and hides what
    # is shared: helpers live in modules of their own. The benchmarks run without the tests.
    testing = sorted((ROOT / "tests").rglob("*.py"))
    imports_test = sorted(
        (_module(p), name)
        for p in testing
        for name in _imports_in(p, _module(p))
        if any(part.startswith("test_") for part in name.split("."))
    )
    assert imports_test == []
    bench = sorted(
        (m, name)
        for m, p in modules().items()
        if _in(m, "bench")
        for name in _imports_in(p, m)
        if _in(name, "tests")
    )
    assert bench == []
