"""The house as it stands: the largest modules, the import graph between rooms, and what breaks
the rules (docs/architecture.md).

    .venv/bin/python scripts/architecture.py            # the report
    .venv/bin/python scripts/architecture.py --check    # exit 1 on any broken rule
    .venv/bin/python scripts/architecture.py --dot > house.dot   # the graph for Graphviz

Rules checked: no module over MAX_LINES lines (migrations aside); no import cycle among
modules, nor among rooms (a room is a package such as web.site: two rooms that import each
other are one room, or hold a module in the wrong one); imports inside functions count, they
are still a dependency; each layer imports only the layers below it; each management command
has one name. Read from the source with `ast`: nothing is imported or run.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "confsched"
MAX_LINES = 500
# Lower layers never import higher ones: urls -> web/api/admin -> agenda -> teams, search ->
# programme -> interchange -> core. teams and search are domains beside each other on the
# programme (neither imports the other: SIBLINGS); the admin's screens sit above every domain.
# Modules at the package's top (settings, urls, cli, wsgi) and the management commands sit above
# them all.
LAYERS = {
    "core": 0,
    "interchange": 1,
    "programme": 2,
    "teams": 3,
    "search": 3,
    "speakers": 3,
    "live": 3,  # rooms that are full, announcements: check-ins (agenda) turn a room full
    "push": 3,  # Web Push: agenda's alerts, reminders and seats send through it
    "agenda": 4,
    "api": 5,
    "web": 5,
    "admin": 5,
}
SIBLINGS = {"teams", "search", "speakers"}  # domains of one layer that never import each other
TOP = 6


@dataclass
class House:
    lines: dict[str, int] = field(default_factory=dict)  # module -> line count
    imports: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    commands: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _targets(node: ast.AST, here: str, is_package: bool, modules: set[str]) -> list[str]:
    """The project's modules an import statement names (a package's module, not its names)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:  # relative: from . import x
        base = here.split(".") if is_package else here.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        origin = ".".join([*base, node.module] if node.module else base)
    else:
        origin = node.module or ""
    found = []
    for alias in node.names:
        candidate = f"{origin}.{alias.name}"
        found.append(candidate if candidate in modules else origin)
    return found


def read_house(root: Path = ROOT) -> House:
    house = House()
    paths = [p for p in sorted((root / PACKAGE).rglob("*.py")) if "migrations" not in p.parts]
    modules = {module_name(path, root) for path in paths}
    for path in paths:
        name = module_name(path, root)
        text = path.read_text(encoding="utf-8")
        house.lines[name] = len(text.splitlines())
        house.imports[name]  # every module is a node, even one that imports nothing of ours
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(text, filename=str(path))):
            for target in _targets(node, name, is_package, modules):
                if target.split(".")[0] == PACKAGE and target != name:
                    # `import a.b.c` also imports a and a.b: the deepest module is the edge.
                    while target not in modules and "." in target:
                        target = target.rsplit(".", 1)[0]
                    if target in modules and target != name:
                        house.imports[name].add(target)
        if path.parent.name == "commands" and path.parent.parent.name == "management":
            if path.stem != "__init__":
                house.commands[path.stem.replace("-", "_")].append(name)
    return house


def room(module: str, depth: int = 3) -> str:
    """confsched.web.schedule.views -> confsched.web.schedule: the package a module lives in."""
    parts = module.split(".")
    return ".".join(parts[:depth]) if len(parts) > depth else module


def layer(module: str) -> int:
    """Where a module sits; management commands are entry points, like urls and cli, and the
    package's own __init__ (its version) is below everything."""
    parts = module.split(".")
    if len(parts) == 1:
        return -1
    if "commands" in parts:
        return TOP
    return LAYERS.get(parts[1], TOP)


def room_graph(house: House) -> dict[str, set[str]]:
    """The rooms each room imports (a module's own room left out)."""
    rooms: dict[str, set[str]] = defaultdict(set)
    for name, targets in house.imports.items():
        rooms[room(name)]  # every room is a node, even one that imports no other
        for target in targets:
            if room(target) != room(name):
                rooms[room(name)].add(room(target))
    return rooms


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Import cycles, one per strongly connected group (Tarjan), each as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:  # recursion depth is bounded by the module count (~200)
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _domain(name: str) -> str:
    """confsched.teams.access -> "teams"; commands are entry points, in no domain."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and "commands" not in parts else ""


def _page(name: str) -> str:
    """The page package a module is in ("confsched.web.staff"), else "" (confsched.web.urls,
    which routes to every page, is in none)."""
    parts = name.split(".")
    return ".".join(parts[:3]) if parts[:2] == [PACKAGE, "web"] and len(parts) > 3 else ""


def _is_page_views(name: str) -> bool:
    """A page package's views module (or a views package's module)."""
    parts = name.split(".")
    return bool(_page(name)) and len(parts) > 3 and parts[3] == "views"


def problems(house: House) -> list[str]:
    found = [
        f"{name}: {count} lines (at most {MAX_LINES})"
        for name, count in sorted(house.lines.items())
        if count > MAX_LINES
    ]
    found += [f"import cycle: {' -> '.join(group)}" for group in cycles(house.imports)]
    found += [
        f"rooms import each other: {' <-> '.join(group)}" for group in cycles(room_graph(house))
    ]
    for name, targets in sorted(house.imports.items()):
        for target in sorted(targets):
            if layer(target) > layer(name):
                found.append(f"{name} imports {target}: a lower layer imports a higher one")
            elif _domain(name) in SIBLINGS and _domain(target) in SIBLINGS - {_domain(name)}:
                found.append(f"{name} imports {target}: one domain imports its sibling")
            if _is_page_views(target) and _page(name) and _page(target) != _page(name):
                found.append(
                    f"{name} imports {target}: a page asks another page's views "
                    "(what two features share belongs in a domain module)"
                )
    found += [
        f"command {command!r} has {len(names)} names: {', '.join(sorted(names))}"
        for command, names in sorted(house.commands.items())
        if len(names) > 1
    ]
    return found


def report(house: House, *, largest: int = 15) -> str:
    out = [f"{len(house.lines)} modules, {sum(house.lines.values()):,} lines in src/{PACKAGE}"]
    out.append(f"\nThe {largest} largest modules:")
    ranked = sorted(house.lines.items(), key=lambda item: (-item[1], item[0]))[:largest]
    out += [f"  {count:5d}  {name}" for name, count in ranked]
    rooms = room_graph(house)
    out.append("\nImports between rooms (each room: the rooms it uses):")
    for name in _by_layer(rooms):
        if not rooms[name] and any(other.startswith(f"{name}.") for other in rooms):
            continue  # a package's own __init__ that uses nothing: its rooms are listed below
        uses = ", ".join(sorted(target.removeprefix(f"{PACKAGE}.") for target in rooms[name]))
        out.append(f"  {name.removeprefix(f'{PACKAGE}.'):28s} -> {uses or '(nothing of ours)'}")
    broken = problems(house)
    out.append("\nRules: " + ("all kept." if not broken else f"{len(broken)} broken:"))
    out += [f"  {line}" for line in broken]
    return "\n".join(out)


def _by_layer(rooms: dict[str, set[str]]) -> list[str]:
    return sorted(rooms, key=lambda name: (-layer(name), name))


def dot(house: House) -> str:
    edges = sorted(
        {(room(name), room(target)) for name, found in house.imports.items() for target in found}
    )
    lines = ["digraph house {", "  rankdir=LR; node [shape=box, fontname=Helvetica];"]
    lines += [f'  "{a}" -> "{b}";' for a, b in edges if a != b]
    return "\n".join([*lines, "}"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a rule is broken")
    parser.add_argument("--dot", action="store_true", help="print the room graph for Graphviz")
    parser.add_argument("--root", type=Path, default=ROOT, help="the folder that holds confsched")
    options = parser.parse_args(argv)
    house = read_house(options.root)
    if options.dot:
        print(dot(house))
        return 0
    if options.check:
        broken = problems(house)
        for line in broken:
            print(line)
        return 1 if broken else 0
    print(report(house))
    return 0


if __name__ == "__main__":
    sys.exit(main())
