"""The rules page opens, in each language, with a quick start for one who knows card games but not Guandan: teams,
the level and its wildcard, the plays and the bombs, going out, levels and the match, tribute, each point linking to
its section below. The engine's notation (``S3 HT LJ BJ``) comes after it, and the contents list the numbered
sections between the two."""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest

from guandan.server.rules_page import page

# what a newcomer must meet in the quick start, in each language's own words
WORDS = {
    "zh": ("对家", "级牌", "逢人配", "单张", "对子", "三带二", "顺子", "木板", "钢板", "炸弹", "同花顺", "四王", "头游",
           "末游", "报牌", "接风", "双上", "双下", "升3级", "过A", "进贡", "还贡", "抗贡"),
    "en": ("Partners", "level cards", "逢人配", "single", "pair", "full house", "straight", "tube", "plate", "bomb",
           "straight flush", "four jokers", "头游", "末游", "报牌", "接风", "双上", "双下", "3 levels", "passing A",
           "tribute", "return", "anti-tribute"),
}
TITLE = {"zh": "快速入门", "en": "Quick start"}


def quick_start(html: str) -> str:
    """The article of the page, from its title to the contents."""
    return html[html.index("<article"):html.index('<nav class="toc"')]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_page_opens_with_a_quick_start_before_the_notation_and_the_contents(lang: str) -> None:
    html = page(lang)
    first = quick_start(html)
    heads = re.findall(r"<h2 id=\"([^\"]+)\">([^<]+)</h2>", first)
    assert [title for _, title in heads] == [TITLE[lang]]  # the half's first section, above the contents
    assert "<code>" not in first and "HT" not in first  # no engine notation, no preset's key
    text = re.sub(r"<[^>]+>", "", first)
    for word in WORDS[lang]:
        assert word in text, word
    # a page read in about two minutes
    assert (len(text) < 1300) if lang == "zh" else (len(text.split()) < 700)
    # the notation and its example come after, and the contents list the numbered sections only
    toc = html.index('<nav class="toc"')
    nav = html[toc:html.index("</nav>", toc)]
    assert html.index("S3 HT LJ BJ") > toc + len(nav)
    assert TITLE[lang] not in nav and re.search(r'<li><a href="#1-[^"]+">1\. ', nav)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_point_of_the_quick_start_links_to_its_section_on_the_same_page(lang: str) -> None:
    html = page(lang)
    first = quick_start(html)
    points = re.findall(r"<li>(.*?)</li>", first, re.S)
    assert len(points) >= 8
    ids = set(re.findall(r'<h[1-6] id="([^"]+)"', html))
    targets: list[str] = []
    for point in points[:-1]:  # the last says what the table's dotted words do
        links = re.findall(r'<a href="#([^"]+)">', point)
        assert links, point
        for link in links:
            anchor = unquote(link)  # a Chinese heading's id is percent-encoded in a link
            assert anchor in ids, (anchor, point[:40])
            targets.append(anchor)
    sections = {re.match(r"\d+", a)[0] for a in targets}  # type: ignore[index]
    assert {"2", "3", "4", "5", "6", "7", "8"} <= sections
