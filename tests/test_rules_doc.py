"""docs/rules.md is checked against the engine: every example line, the preset-key table, and the
packaged copy that the web app serves.

An example is a list item whose line ends with a code span that starts with ``[preset …]``; the
syntax is documented in the file itself (section 1.2 of either half). The cards written in bold on
the same line, in card-face notation (♠3 ♥10 小王 大王), must be the cards of the code span, group by
group, so that what a reader sees is what the engine checked.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path

import pytest

from guandan.core import Combo, Streaks, beats, classify, parse_cards, parse_level, preset
from guandan.core.rules import PRESET_NAMES, RuleSet
from guandan.core.scoring import StreakCounts, huopin_points, settle_deal
from guandan.core.tribute import plan_tribute, return_eligible
from guandan.server.rules_page import split_halves

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"
PACKAGED = ROOT / "src" / "guandan" / "docs_data" / "rules.md"

CODE_SPAN = re.compile(r"`([^`]+)`")
BOLD = re.compile(r"\*\*(.+?)\*\*")
CHECK = re.compile(r"\[(?P<preset>[a-z0-9-]+)(?: (?P<level>[0-9TJQKA]+))?\] (?P<body>.+)")
ARROW = " → "


@dataclass(frozen=True)
class Example:
    half: str  # "zh" | "en"
    line_no: int
    line: str
    check: str  # the code span

    def where(self) -> str:
        return f"docs/rules.md line {self.line_no} ({self.half}): {self.check}"


# --- canonical readings ------------------------------------------------------------------------
_FIXED_SIZE = {"single": 1, "pair": 2, "triple": 3, "full_house": 5, "tube": 6, "plate": 6, "straight_flush": 5,
               "three_jokers": 3, "joker_bomb": 4}


def reading(c: Combo) -> str:
    """A combo written the way the document writes readings (its section 1.2)."""
    key = "10" if c.key == "T" else c.key
    t = str(c.type)
    if t in ("single", "pair", "triple", "full_house", "tube", "plate"):
        text = f"{t} {key}"
    elif t == "straight":
        text = f"straight {key}" if c.size == 5 else f"straight {key}×{c.size}"
    elif t in ("pair_run", "triple_run", "airplane", "bomb"):
        text = f"{t} {key}×{c.size}"
    elif t == "straight_flush":
        text = f"straight_flush {key} {c.suit}"
    elif t == "chain_bomb":
        text = f"chain_bomb {key} {c.x}×{c.y}"
    elif t in ("three_jokers", "joker_bomb"):
        text = t
    else:  # pragma: no cover - a new hand type must be given a written form here
        raise AssertionError(f"no written form for hand type {t!r}")
    if t in _FIXED_SIZE:
        assert c.size == _FIXED_SIZE[t], c
    if c.stars is not None:
        text += f" ★{c.stars}"
    return text


def readings_of(cards: str, level: str, rules: RuleSet) -> dict[str, Combo]:
    found = classify(parse_cards(cards), parse_level(level), rules)
    out = {reading(c): c for c in found}
    assert len(out) == len(found), f"two readings of {cards} share a written form: {found}"
    return out


# --- parsing the document ----------------------------------------------------------------------
def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def examples(text: str | None = None) -> list[Example]:
    text = doc_text() if text is None else text
    halves = split_halves(text)
    lines = text.splitlines()
    first = {lang: lines.index(body.splitlines()[0]) + 1 for lang, body in halves.items()}
    out: list[Example] = []
    for no, line in enumerate(lines, 1):
        half = "en" if no >= first["en"] else "zh" if no >= first["zh"] else "preamble"
        for span in CODE_SPAN.findall(line):
            m = CHECK.fullmatch(span)
            if not span.startswith("["):
                continue
            if m is None or m["preset"] not in PRESET_NAMES:
                # the syntax tables write placeholders ([预设 级] / [preset level]); nothing else may look like a check
                assert "预设" in span or "preset" in span, f"line {no}: {span!r} looks like an example but does not parse"
                continue
            assert half != "preamble", f"line {no}: an example before the two halves"
            assert line.startswith("* ") and line.rstrip().endswith(f"`{span}`"), (
                f"line {no}: an example must be a list item that ends with its code span")
            assert CODE_SPAN.findall(line).count(span) == 1
            out.append(Example(half, no, line, span))
    return out


def _cards_group(text: str, notation: str = "rules") -> list[int]:
    return sorted(parse_cards(text, notation))


def _split_seat_cards(item: str) -> tuple[int, str]:
    seat, cards = item.split(": ", 1)
    return int(seat), cards


def _levels(text: str) -> tuple[int, int]:
    a, b = text.split(":")
    return parse_level(a), parse_level(b)


def _pair(text: str) -> tuple[int, int]:
    a, b = text.split(":")
    return int(a), int(b)


def _four(text: str) -> tuple[int, int, int, int]:
    a, b, c, d = (int(x) for x in text.split(","))
    return a, b, c, d


# --- checking one example ----------------------------------------------------------------------
def check(ex: Example, *, bold: bool = True) -> None:
    """Assert the example with the engine (AssertionError naming the line when it is wrong); with
    ``bold`` also that the line's bold text shows the example's cards."""
    m = CHECK.fullmatch(ex.check)
    assert m is not None, ex.where()
    rules = preset(m["preset"])
    level, body = m["level"], m["body"]
    groups: list[str]  # the card groups the bold text must show
    if level is None:
        groups = []
        if body.startswith("finish "):
            _check_points(rules, body, ex)
        else:
            _check_settle(rules, body, ex)
    elif body.startswith("tribute "):
        hand, want = body.removeprefix("tribute ").split(ARROW)
        plan = plan_tribute([0, 1, 2, 3], {3: parse_cards(hand)}, parse_level(level), rules)
        assert not plan.anti_tribute, ex.where()
        assert sorted(plan.payments[0].eligible) == sorted(set(parse_cards(want))), ex.where()
        groups = [hand, want]
    elif body.startswith("return "):
        hand, want = body.removeprefix("return ").split(ARROW)
        got = return_eligible(parse_cards(hand), None, parse_level(level), rules, to_partner=False)
        assert sorted(got) == sorted(set(parse_cards(want))), f"{ex.where()}: the engine allows {got}"
        groups = [hand, want]
    elif body.startswith("after "):
        groups = _check_tribute_plan(rules, level, body, ex)
    elif ARROW in body:
        cards, want = body.split(ARROW)
        read = readings_of(cards, level, rules)
        expected = set() if want == "invalid" else {r.strip() for r in want.split(" | ")}
        assert set(read) == expected, f"{ex.where()}: the engine reads {sorted(read) or 'invalid'}"
        groups = [cards]
    else:
        op = " !> " if " !> " in body else " > "
        a_text, b_text = body.split(op)
        a_cards, a = _one_reading(a_text, level, rules, ex)
        b_cards, b = _one_reading(b_text, level, rules, ex)
        assert beats(a, b, rules) is (op == " > "), f"{ex.where()}: beats({a}, {b}) is {beats(a, b, rules)}"
        groups = [a_cards, b_cards]
    if bold:
        _check_bold(ex, groups)


def _one_reading(text: str, level: str, rules: RuleSet, ex: Example) -> tuple[str, Combo]:
    m = re.fullmatch(r"(?P<cards>[^(]+?)(?: \((?P<as>[^)]+)\))?", text.strip())
    assert m is not None, ex.where()
    got = readings_of(m["cards"], level, rules)
    if m["as"]:
        assert m["as"] in got, f"{ex.where()}: {m['cards']} cannot be read as {m['as']}; readings {sorted(got)}"
        return m["cards"], got[m["as"]]
    assert len(got) == 1, f"{ex.where()}: {m['cards']} has readings {sorted(got)}; name one in brackets"
    return m["cards"], next(iter(got.values()))


def _check_tribute_plan(rules: RuleSet, level: str, body: str, ex: Example) -> list[str]:
    left, right = body.removeprefix("after ").split(ARROW)
    parts = left.split(" · ")
    finish = [int(s) for s in parts[0].split()]
    hands = dict(_split_seat_cards(p) for p in parts[1:])
    plan = plan_tribute(finish, {s: parse_cards(h) for s, h in hands.items()}, parse_level(level), rules)
    groups = list(hands.values())
    payments: list[tuple[int, int, list[int]]] = []
    anti = False
    leader = None
    for item in right.split(" · "):
        if item == "anti-tribute":
            anti = True
        elif item.endswith(" leads"):
            leader = int(item.removesuffix(" leads"))
        else:
            pm = re.fullmatch(r"(\d) pays (\d): (.+)", item)
            assert pm is not None, f"{ex.where()}: cannot read {item!r}"
            payments.append((int(pm[1]), int(pm[2]), sorted(set(parse_cards(pm[3])))))
            groups.append(pm[3])
    assert plan.anti_tribute is anti, ex.where()
    got = [(p.payer, p.receiver, sorted(p.eligible)) for p in plan.payments]
    assert got == payments, f"{ex.where()}: the engine plans {got}"
    assert leader is not None and plan.leader == leader, f"{ex.where()}: the engine's leader is {plan.leader}"
    return groups


def _check_settle(rules: RuleSet, body: str, ex: Example) -> None:
    left, right = body.split(ARROW)
    parts = left.split(" · ")
    levels = _levels(parts[0])
    declarer: int | None = None
    seen_declarer = False
    failures = (0, 0)
    first = last = (0, 0, 0, 0)
    finish: list[int] = []
    for p in parts[1:]:
        if p == "first deal":
            seen_declarer = True
        elif p.startswith("declarer "):
            declarer, seen_declarer = int(p.removeprefix("declarer ")), True
        elif p.startswith("failures "):
            failures = _pair(p.removeprefix("failures "))
        elif p.startswith("first-runs "):
            first = _four(p.removeprefix("first-runs "))
        elif p.startswith("last-runs "):
            last = _four(p.removeprefix("last-runs "))
        elif p.startswith("finish "):
            finish = [int(s) for s in p.removeprefix("finish ").split()]
        else:
            raise AssertionError(f"{ex.where()}: cannot read {p!r}")
    assert seen_declarer and sorted(finish) == [0, 1, 2, 3], ex.where()
    s = settle_deal(levels, declarer, finish, rules, failures, StreakCounts(first, last))
    if right.startswith("match won by team "):
        assert s.match_winner == int(right.removeprefix("match won by team ")), f"{ex.where()}: {s}"
        return
    assert s.match_winner is None, f"{ex.where()}: team {s.match_winner} wins the match"
    want = right.split(" · ")
    assert s.levels_after == _levels(want[0]), f"{ex.where()}: the engine gives {s.levels_after}"
    for extra in want[1:]:
        assert extra.startswith("failures "), ex.where()
        assert s.a_failures_after == _pair(extra.removeprefix("failures ")), f"{ex.where()}: {s.a_failures_after}"


def _check_points(rules: RuleSet, body: str, ex: Example) -> None:
    left, right = body.split(ARROW)
    parts = left.split(" · ")
    finish = [int(s) for s in parts[0].removeprefix("finish ").split()]
    plays: list[tuple[int, int]] = []
    for p in parts[1:]:
        assert p.startswith("bombs "), ex.where()
        for item in p.removeprefix("bombs ").split():
            seat, stars = item.split(":★")
            plays.append((int(seat), int(stars)))
    want = [int(x) for x in right.split()]
    assert huopin_points(finish, plays, rules) == want, f"{ex.where()}: {huopin_points(finish, plays, rules)}"


def _check_bold(ex: Example, groups: list[str]) -> None:
    rest = ex.line.replace(f"`{ex.check}`", "")
    shown = BOLD.findall(rest)
    try:
        shown_cards = [_cards_group(g, "display") for g in shown]
    except Exception as e:  # the only bold text on an example line is cards
        raise AssertionError(f"{ex.where()}: bold text that is not cards: {shown} ({e})") from None
    assert shown_cards == [_cards_group(g) for g in groups], (
        f"{ex.where()}: the bold cards {shown} are not the example's cards {groups}")


# --- the tests -----------------------------------------------------------------------------------
ALL = examples()


def test_the_document_has_many_examples_in_both_halves() -> None:
    by_half = Counter(ex.half for ex in ALL)
    assert by_half["zh"] >= 100 and by_half["en"] >= 100
    kinds = {CHECK.fullmatch(ex.check)["body"].split()[0] for ex in ALL}  # type: ignore[index]
    assert {"tribute", "return", "after", "finish"} <= kinds


def test_both_halves_check_the_same_examples() -> None:
    zh = Counter(ex.check for ex in ALL if ex.half == "zh")
    en = Counter(ex.check for ex in ALL if ex.half == "en")
    assert zh == en, {"only zh": sorted((zh - en).elements()), "only en": sorted((en - zh).elements())}


@pytest.mark.parametrize("ex", ALL, ids=lambda ex: f"L{ex.line_no}-{ex.half}")
def test_example(ex: Example) -> None:
    check(ex)


def test_every_preset_and_every_hand_type_has_an_example() -> None:
    presets = {CHECK.fullmatch(ex.check)["preset"] for ex in ALL}  # type: ignore[index]
    assert presets == set(PRESET_NAMES)
    types: set[str] = set()
    for ex in ALL:
        m = CHECK.fullmatch(ex.check)
        assert m is not None
        if m["level"] and ARROW in m["body"] and m["body"].split()[0] not in ("tribute", "return", "after"):
            want = m["body"].split(ARROW)[1]
            types |= {r.split()[0] for r in want.split(" | ") if r != "invalid"}
    assert types == {"single", "pair", "triple", "full_house", "straight", "tube", "plate", "pair_run", "triple_run",
                     "airplane", "bomb", "straight_flush", "chain_bomb", "three_jokers", "joker_bomb"}
    invalid = [ex for ex in ALL if ex.check.endswith("→ invalid")]
    assert len(invalid) >= 20


@pytest.mark.parametrize(
    "wrong",
    [
        "[competition 2] S4 D4 S5 D5 H2 H2 → tube 6 | plate 5",  # a reading left out
        "[competition 2] S4 D4 S5 D5 H2 H2 → tube 6 | tube 5 | plate 5 | plate 6",  # one too many
        "[huopin 2] S9 D9 C9 BJ BJ → bomb 9×5",  # stars missing
        "[competition 2] LJ BJ → pair LJ",  # that pair exists only in huopin
        "[competition 2] S3 S3 D3 D3 C3 C3 !> S9 ST SJ SQ SK",
        "[competition 2] S9 D9 C9 H2 H2 > S8 D8 C8 SA DA",  # ambiguous without a declared reading
        "[competition 5] tribute H5 SA SK D5 S3 → H5",
        "[competition 10] return SA SK ST S9 S3 → ST S9 S3",
        "[huaian-traditional 2] after 0 2 3 1 · 1: SK S3 · 3: SA S4 → 3 pays 0: SA · 1 pays 2: SK · 3 leads",
        "[huaian-2009] A:9 · declarer 0 · finish 0 1 2 3 → match won by team 0",
        "[competition] A:9 · declarer 0 · failures 2:0 · finish 0 1 3 2 → A:9",
        "[huopin] finish 0 1 2 3 · bombs 1:★6 → 2 -2 2 -2",
    ],
)
def test_a_wrong_example_fails(wrong: str) -> None:
    with pytest.raises(AssertionError):
        check(Example("en", 0, f"* `{wrong}`", wrong), bold=False)


def test_bold_cards_must_match_the_check() -> None:
    ex = Example("en", 0, "* **♠4 ♦4 ♠5 ♦5 ♠6 ♦7** `[competition 2] S4 D4 S5 D5 S6 D6 → tube 6`",
                 "[competition 2] S4 D4 S5 D5 S6 D6 → tube 6")
    with pytest.raises(AssertionError, match="bold cards"):
        check(ex)
    check(Example("en", 0, ex.line.replace("♦7", "♦6"), ex.check))


# --- the configuration-key table (section 11) ------------------------------------------------------
def _cell(value: object, key: str) -> str:
    if key in ("straight_len", "tube_pairs", "plate_triples"):
        assert isinstance(value, tuple)
        lo, hi = value
        return f"{lo}" if lo == hi else f"{lo}–{hi}"
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if value is None:
        return "—"
    if key in ("upgrade_table", "match_points"):
        return " / ".join(str(v) for v in value)  # type: ignore[attr-defined]
    if key == "a_pass_results":
        return ", ".join(f"1-{p}" for p in sorted(value))  # type: ignore[call-overload]
    if isinstance(value, Streaks):
        return f"{value.first_threshold}/{value.last_threshold} {value.mode} {value.scope}"
    return str(value)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_key_table_shows_every_key_of_every_preset(lang: str) -> None:
    half = split_halves(doc_text())[lang]
    rows: dict[str, list[str]] = {}
    header: list[str] = []
    keys = {f.name for f in fields(RuleSet)} - {"name"}
    for line in half.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")]
        if cells[0] in keys:
            assert cells[0] not in rows, f"{cells[0]} twice"
            rows[cells[0]] = cells[2:]
    for line in half.splitlines():
        if line.startswith("| ") and "`competition` | `huaian-traditional`" in line and ("配置键" in line or "key" in line):
            header = [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")][2:]
    assert header == list(PRESET_NAMES)
    assert set(rows) == keys, sorted(keys ^ set(rows))
    for key, cells in rows.items():
        want = [_cell(getattr(preset(name), key), key) for name in PRESET_NAMES]
        assert cells == want, f"{lang}: {key}: the document says {cells}, the engine {want}"


# --- the packaged copy ---------------------------------------------------------------------------
def test_the_packaged_copy_is_the_document() -> None:
    assert PACKAGED.read_bytes() == DOC.read_bytes(), "run: cp docs/rules.md src/guandan/docs_data/rules.md"
    shipped = resources.files("guandan").joinpath("docs_data", "rules.md").read_text(encoding="utf-8")
    assert shipped == doc_text()


def test_the_document_writes_no_raw_html() -> None:
    # the web page escapes raw HTML anyway; the document should not need any
    assert not re.search(r"<[A-Za-z/!]", doc_text())


# --- the Chinese half's numbers ------------------------------------------------------------------
# The catalogues' rule (tests/i18n/test_catalogue.py), with 节 for the document's sections: a number stands against
# 第 and its measure word (第10节, 27张, 升3级), never spaced as if set by a machine. Code spans are left alone.
_MEASURES = "(?:轮|桌|副|队|支|页|次|个|名|场|张|组|行|秒|毫秒|条|种|局|级|位|号|手|步|人|分钟|字节|节)(?!成)"
_SPACED = re.compile(r"(第|共)\s+\d|(?<![\d.])\d+(?:\.\d+)?\s+" + _MEASURES + r"|[\u4e00-\u9fff，：（]\s+\d+" + _MEASURES)


def test_the_chinese_half_writes_its_numbers_against_their_measure_words() -> None:
    # a heading's own number is followed by its title ("### 3.1 级数与级牌"), not by a measure word
    bad = [line for line in split_halves(doc_text())["zh"].splitlines()
           if _SPACED.search(CODE_SPAN.sub("", re.sub(r"^#+ [\d.]+ ", "", line)))]
    assert bad == []
    for wrong in ("不同之处在第 10 节列成一张表", "每人发 27 张", "升 3 级", "第 10.4 节"):
        assert _SPACED.search(wrong), wrong
    for right in ("第10节", "第10.4节", "每人发27张", "打 2 时", "从 2 升到 4", "（第6节）"):
        assert not _SPACED.search(right), right
