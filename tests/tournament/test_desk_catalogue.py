"""The ``desk`` catalogue is complete: every msgid the desk's templates and its Python code use has a Chinese
and an English entry, with the same placeholders; and no template writes words for people outside ``_()``."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from guandan.i18n import catalogue_path
from guandan.i18n.check import KEYWORDS, extract_msgids, missing

DESK = Path(__file__).resolve().parents[2] / "src" / "guandan" / "tournament"
TEMPLATES = sorted((DESK / "templates").glob("*.html"))
SAME_IN_EVERY_LANGUAGE = {"PDF"}  # a file format's name, written so in Chinese too


def template_msgids(path: Path) -> set[str | tuple[str, str]]:
    """``_("…")``, ``gettext`` and ``ngettext`` calls of one Jinja template, found by Jinja's own parser."""
    found: set[str | tuple[str, str]] = set()
    for _line, message, _comments, _context in extract_from_file(
            "jinja2.ext:babel_extract", str(path), keywords=KEYWORDS, options={"extensions": ""}):  # type: ignore[arg-type]
        found.add(message if isinstance(message, str) else (str(message[0]), str(message[1])))
    return found


def desk_msgids() -> set[str | tuple[str, str]]:
    ids = extract_msgids([DESK])  # every module of the desk: _() in web pages, N_() marks in tables and refusals
    for t in TEMPLATES:
        ids |= template_msgids(t)
    return ids


def test_the_extractors_find_the_messages() -> None:
    standings = template_msgids(DESK / "templates" / "standings.html")
    assert {"Standings after round {n}", "Page {k} of {n}", "No team has registered yet"} <= standings
    assert "There is no tournament number {id}" in extract_msgids([DESK / "web.py"])
    assert len(desk_msgids()) > 100


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_msgid_of_the_desk_is_in_the_catalogue(lang: str) -> None:
    assert missing("desk", lang, desk_msgids()) == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_translations_keep_the_placeholders(lang: str) -> None:
    with catalogue_path("desk", lang).open("rb") as f:
        catalog = read_po(f)
    fields = string.Formatter()

    def names(text: str) -> set[str]:
        return {name for _, name, _, _ in fields.parse(text) if name}

    checked = 0
    for msg in catalog:
        if not msg.id:
            continue
        ids = (msg.id,) if isinstance(msg.id, str) else msg.id
        strings = (msg.string,) if isinstance(msg.string, str) else tuple(msg.string or ())
        assert strings, msg.id
        for text in strings:
            assert names(text) == names(ids[0]), msg.id
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("path", TEMPLATES, ids=[t.name for t in TEMPLATES])
def test_no_template_writes_words_outside_the_catalogue(path: Path) -> None:
    """Text between tags and in placeholders, titles and labels is a ``{{ … }}`` expression, not words."""
    text = path.read_text(encoding="utf-8")
    # blocks that fill base.html's (and venue_screen.html's) <style> and <body …> attributes: CSS and attributes, not words
    text = re.sub(r"{%-?\s*block (?:style|screen_style|body_attrs)\s*-?%}.*?{%-?\s*endblock", " ", text, flags=re.S)
    text = re.sub(r"{#.*?#}|{%.*?%}|{{.*?}}", " ", text, flags=re.S)
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", text, flags=re.S)
    between = re.findall(r">([^<]+)<", text)
    attrs = re.findall(r'\b(?:placeholder|title|aria-label|alt)="([^"]*)"', text)
    # what may stand outside the catalogue: punctuation, numbers, the levels' notation and the CSS of a style block
    words = [w for chunk in between + attrs for w in re.findall(r"[A-Za-z\u4e00-\u9fff]{2,}", chunk)
             if w not in SAME_IN_EVERY_LANGUAGE]
    assert words == [], words


def test_chinese_counts_and_ordinals_take_no_spaces() -> None:
    """One rule for the desk's Chinese: a number of rounds, tables, deals, teams or times is written against its
    measure word and 第/共 (第1轮, 第2桌, 共8副, 5队, 3次), as every page, print and listing writes it; a space is
    for a name, a code or a time (队伍 {team}, 种子 {seed}, 剩余 {time})."""
    with catalogue_path("desk", "zh").open("rb") as f:
        catalog = read_po(f)
    spaced = re.compile(r"(第|共)\s+\{|\{\w+\}\s+(轮|桌|副|队|支|页|次|个|名|场)")
    bad = [msg.string for msg in catalog if msg.id and isinstance(msg.string, str) and spaced.search(msg.string)]
    assert bad == []


def test_chinese_says_one_word_for_a_dispute_and_for_sending_back() -> None:
    """A table or deal in dispute is 有争议 wherever the desk says so (the status the listings and exports write,
    有争议), the act of raising one is 提出异议, and a result or deal sent back is 退回 (the status 已退回), never
    拒绝: an arbiter matching the log against the status column meets the same words."""
    with catalogue_path("desk", "zh").open("rb") as f:
        catalog = read_po(f)
    said = {msg.id: msg.string for msg in catalog if msg.id and isinstance(msg.id, str)}
    assert said["disputed"] == "有争议" and said["rejected"] == "已退回"
    assert [s for s in said.values() if "有异议" in s or "拒绝" in s] == []
    assert said["result rejected"] == "退回成绩" and said["deal disputed"] == "对单副提出异议"
    assert "有争议" in said["Round {round} table {table} is disputed: only the arbiter can settle it"]


#: Where else a desk msgid could be used: the desk's scripts (they read no catalogue today; an entry one of them
#: quotes would count as used).
DESK_SCRIPTS = sorted((DESK / "static").glob("*.js"))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_entry_of_the_desk_catalogue_is_used(lang: str) -> None:
    """An entry no module, template or script of the desk says (a page's "Dispute" button long gone) is a word a
    translator keeps up for nobody: the catalogue holds what the desk says and nothing else."""
    used = {m if isinstance(m, str) else m[0] for m in desk_msgids()}
    scripts = " ".join(p.read_text(encoding="utf-8") for p in DESK_SCRIPTS)
    with catalogue_path("desk", lang).open("rb") as f:
        catalog = read_po(f)
    ids = [msg.id if isinstance(msg.id, str) else msg.id[0] for msg in catalog if msg.id]
    unused = [i for i in ids if i not in used and f'"{i}"' not in scripts and f"'{i}'" not in scripts]
    assert len(ids) > 100 and unused == []


def test_a_pending_result_and_an_unfinished_round_are_said_as_an_arbiter_says_them() -> None:
    """A result waiting for confirmation is in the language's brackets (（A:6 过A）, as 队5（已退赛） is); a table
    still reporting its deals holds up the next round "仍在逐副报分", where "结果进行中" (result in play) said
    nothing an arbiter says."""
    with catalogue_path("desk", "zh").open("rb") as f:
        catalog = read_po(f)
    said = {msg.id: str(msg.string) for msg in catalog if msg.id and isinstance(msg.id, str)}
    assert said["({result})"] == "（{result}）"
    for head in ("Round", "round"):
        assert "逐副报分" in said[f"{head} {{round}} table {{table}} ({{home}} v {{away}}): still reporting deals one by one"]
    assert said["in play"] == "进行中"  # the status column's word stays: "进行中" reads well there, alone
