"""guandan — the open-source reference system for 掼蛋 (Guandan).

The pure rules core lives in :mod:`guandan.core`; everything else (agents, arena, protocol,
servers, terminal client, tournament desk) depends on it and never the other way round.
"""

from . import native

__version__ = "0.1.0"

# before any other module of the package loads: the hot paths run compiled unless they cannot
native.install()
