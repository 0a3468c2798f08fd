"""Where guandan finds its plugins: the agent tiers and the rules-vector kinds.

The one list of them is ``[project.entry-points]`` in ``pyproject.toml``: group ``guandan.agent_tiers``
(one entry point per tier, named as the tier, e.g. ``greedy = "guandan.agents.greedy"``; ``external``
is the 2020-protocol adapter) and group ``guandan.vector_kinds`` (one per module of vector checkers).
Each entry point names a module that registers what it provides when it is imported
(``@register("greedy")`` into :mod:`guandan.agents.base`, ``@checker("classify")`` into
:mod:`guandan.vectors`). The registries call :func:`load` before their first look-up, so a lower layer
never names the modules that plug into it: ``guandan.protocol.adapter`` imports ``guandan.agents.base``
and never the other way round, and the import graph that ``lint-imports`` checks is the real one.

Adding a tier or a vector module: one line in that table, then ``pip install -e .`` (or
``scripts/setup.sh``, which reinstalls whenever ``pyproject.toml`` changes) so the metadata is current.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from .core.errors import GuandanError

AGENT_TIERS = "guandan.agent_tiers"
VECTOR_KINDS = "guandan.vector_kinds"

_loaded: dict[str, list[str]] = {}


def load(group: str) -> list[str]:
    """Import every module of entry-point ``group`` (once) and return the entry points' names, sorted.

    No entry points at all means guandan's package metadata is missing (the source tree is on the
    path without being installed): that is an error naming the fix, never an empty registry."""
    names = _loaded.get(group)
    if names is not None:
        return names
    found = sorted(entry_points(group=group), key=lambda ep: ep.name)
    if not found:
        raise GuandanError(f"no {group} plugins are registered: guandan's package metadata is missing; "
                           "install the project (pip install -e .)")
    for ep in found:
        ep.load()
    names = [ep.name for ep in found]
    _loaded[group] = names
    return names
