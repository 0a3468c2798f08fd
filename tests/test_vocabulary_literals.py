"""No code compares against the game's vocabulary spelled as a string: phases, action kinds, event
types, combo types, move modes and rule choices are compared as the core's enums (or event classes).
Only guandan.core.vocab spells them; the browser takes them from the generated vocab.js."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from guandan.core.vocab import VOCABULARY

SRC = Path(__file__).resolve().parents[1] / "src" / "guandan"
WORDS = {m.value for enum in VOCABULARY.values() for m in enum}
# what holds a vocabulary value: a phase, a kind, a type, a move mode, a RuleSet choice. Comparing
# other things with a word that happens to be spelled alike (a protocol stage "play", a typed command
# "pass", a pairing method "random") is not a vocabulary comparison.
CARRIERS = re.compile(r"\.(type|kind|phase|mode|move_mode|key|scoring|bomb_order|wild_resolution|jiefeng|return_rule|"
                      r"equal_tribute_assignment|double_tribute_leader|double_down_order|huopin_multiplier_combine)\b"
                      r"|\b(type_?|kind|phase|mode|move_mode)\b|\[[\"'](type|kind|phase)[\"']\]")


def _strings(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for e in node.elts for s in _strings(e)]
    return []


def python_comparisons(path: Path, root: Path = SRC) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if not any(CARRIERS.search(ast.unparse(side)) for side in sides if not _strings(side)):
                continue
            for side in sides:
                found += [f"{path.relative_to(root)}:{node.lineno}: {s!r}" for s in _strings(side) if s in WORDS]
        elif isinstance(node, ast.match_case):
            for sub in ast.walk(node.pattern):
                if isinstance(sub, ast.MatchValue):
                    found += [f"{path.relative_to(root)}:{sub.lineno}: {s!r}" for s in _strings(sub.value) if s in WORDS]
    return found


def test_python_never_compares_against_a_vocabulary_string() -> None:
    offenders = [hit for p in sorted(SRC.rglob("*.py")) if p.name != "vocab.py" or p.parent.name != "core"
                 for hit in python_comparisons(p)]
    assert offenders == []


JS_COMPARE = re.compile(r"""(===|!==|==|!=)\s*["']([a-z_]+)["']|["']([a-z_]+)["']\s*(===|!==)""")


def test_the_browser_never_compares_against_a_vocabulary_string() -> None:
    offenders = []
    for p in sorted((SRC / "server" / "static").glob("*.js")):
        if p.name == "vocab.js":
            continue
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            for m in JS_COMPARE.finditer(line):
                word = m.group(2) or m.group(3)
                if word in WORDS:
                    offenders.append(f"{p.name}:{n}: {word!r}")
    assert offenders == []


def test_the_checker_finds_a_comparison(tmp_path: Path) -> None:
    bad = tmp_path / "probe.py"
    bad.write_text('def f(a):\n    return a.kind == "pass" or a.type in ("bomb", "x")\n', encoding="utf-8")
    assert len(python_comparisons(bad, tmp_path)) == 2
