"""Import figures: circles and upward imports in the site's own packages.

    PYTHONPATH=. .venv/bin/python bench/import_figures.py [--list]

- a circle: a group of modules that import each other, directly or through others (a strongly
  connected component of more than one module in grimp's graph, function-level imports included);
- an upward import: a module importing one from a higher layer (the LAYERS below, which are the
  layers of the import-linter contract in pyproject.toml), or one app of the middle layer importing
  another that the contract does not allow it to. Imports of the User model (accounts.models) are
  not counted, as the issue says.
Migrations are left out: Django writes their imports.
"""

from __future__ import annotations

import sys

import grimp

PACKAGES = ["accounts", "api", "dizzysite", "games", "moderation", "notifications", "push", "ratings", "tournaments"]
OPTIONAL = ["live"]  # the live-events app, once merged

# Lowest first. An app may import its own layer's apps only as ALLOWED_SIDEWAYS says.
LAYERS: list[set[str]] = [
    {"games.engines"},
    {"dizzysite.base"},  # settings-free helpers (env, safe_json, celery, jinja2...): see layer_of
    {"accounts"},
    {"games"},
    {"notifications", "moderation"},
    {"push", "ratings", "live"},
    {"tournaments"},
    {"api"},
    {"dizzysite"},  # urls, settings, health
]
ALLOWED_SIDEWAYS: set[tuple[str, str]] = set()

DIZZYSITE_TOP = {
    "dizzysite.urls",
    "dizzysite.health",
    "dizzysite.admin",
    "dizzysite.settings",
    "dizzysite.settings_test",
}


def component(module: str) -> str:
    parts = module.split(".")
    if parts[:2] == ["games", "engines"]:
        return "games.engines"
    if parts[0] == "dizzysite":
        return "dizzysite" if ".".join(parts[:2]) in DIZZYSITE_TOP else "dizzysite.base"
    return parts[0]


def layer_of(comp: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if comp in layer)


def is_counted(module: str) -> bool:
    return ".migrations" not in module and module.split(".")[-1] != "tests"


def build() -> grimp.ImportGraph:
    packages = list(PACKAGES)
    for name in OPTIONAL:
        try:
            __import__(name)
        except ImportError:
            continue
        packages.append(name)
    return grimp.build_graph(*packages)


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Tarjan's strongly connected components, iteratively (the graph has ~400 modules)."""
    modules = sorted(m for m in graph.modules if is_counted(m))
    edges = {m: sorted(i for i in graph.find_modules_directly_imported_by(m) if is_counted(i)) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in modules:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                child = edges[node][i]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
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
    return found


def upward(graph: grimp.ImportGraph) -> list[str]:
    found = []
    for module in sorted(m for m in graph.modules if is_counted(m)):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if not is_counted(imported) or imported == "accounts.models":
                continue
            a, b = component(module), component(imported)
            if a == b:
                continue
            la, lb = layer_of(a), layer_of(b)
            if lb > la or (lb == la and (a, b) not in ALLOWED_SIDEWAYS):
                found.append(f"{module} -> {imported}")
    return found


def main() -> None:
    graph = build()
    found_circles = circles(graph)
    found_upward = upward(graph)
    print(f"circles: {len(found_circles)}")
    print(f"upward imports: {len(found_upward)}")
    if "--list" in sys.argv:
        for group in found_circles:
            print("  circle:", " <-> ".join(group))
        for line in found_upward:
            print("  up:", line)


if __name__ == "__main__":
    main()
