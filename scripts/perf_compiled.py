"""Where compiled (mypyc) code spends its time: ``perf record`` with DWARF call graphs, each sample
charged to the nearest compiled function on its stack, with the CPython runtime call it was in.

cProfile cannot see inside compiled modules (compiled functions call each other directly) and a
flat ``perf report`` shows mostly CPython's allocator and dict lookups without saying who asked.
This answers "which compiled function, doing what": e.g. ``moves._Gen.emit_all -> _PyObject_MakeTpCall``
was the cost of making named tuples.

    python scripts/perf_compiled.py [--top 30] -- python -c "import guandan.bench as b; b.deals_figures()"

Needs Linux ``perf`` (Debian package ``linux-perf``); it is a developer's tool, not part of the install.
"""

from __future__ import annotations

import argparse
import collections
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_COMPILED = ("CPyDef_", "CPyPy_")


def _name(symbol: str) -> str:
    """``CPyDef_moves____Gen___group`` -> ``moves._Gen.group`` (mypyc joins names with underscores)."""
    for prefix in _COMPILED:
        if symbol.startswith(prefix):
            symbol = symbol[len(prefix):]
            break
    return symbol.replace("___", ".")


def _stacks(text: str) -> list[list[str]]:
    """Samples of ``perf script -F ip,sym``: blank-line separated stacks, leaf first."""
    out: list[list[str]] = []
    current: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            if current:
                out.append(current)
                current = []
            continue
        parts = line.split(None, 1)
        current.append(parts[1] if len(parts) > 1 else "?")
    if current:
        out.append(current)
    return out


def report(stacks: list[list[str]], top: int) -> str:
    by_function: collections.Counter[str] = collections.Counter()
    by_call: collections.Counter[tuple[str, str]] = collections.Counter()
    for stack in stacks:
        for i, frame in enumerate(stack):
            if frame.startswith(_COMPILED):
                by_function[_name(frame)] += 1
                by_call[(_name(frame), stack[i - 1] if i else "(its own code)")] += 1
                break
        else:
            by_function["(no compiled frame: the interpreter, imports, start-up)"] += 1
    n = max(1, len(stacks))
    lines = [f"{len(stacks)} samples", "", "by nearest compiled function:"]
    lines += [f"{v / n:6.1%}  {k}" for k, v in by_function.most_common(top)]
    lines += ["", "by compiled function and the runtime call it was in:"]
    lines += [f"{v / n:6.1%}  {f} -> {c}" for (f, c), v in by_call.most_common(top)]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=30, help="rows in each table")
    parser.add_argument("--frequency", type=int, default=2000, help="samples per second")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command to profile")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to profile after --")
    if shutil.which("perf") is None:
        print("error: perf is not installed (Debian: apt-get install linux-perf)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        data = str(Path(tmp) / "perf.data")
        recorded = subprocess.run(["perf", "record", "--call-graph", "dwarf,16384", "-F", str(args.frequency),
                                   "-o", data, "--", *command], check=False)
        if recorded.returncode != 0:
            print(f"error: perf record exited with {recorded.returncode}", file=sys.stderr)
            return 1
        script = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym"], capture_output=True, text=True,
                                check=False)
    print(report(_stacks(script.stdout), args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
