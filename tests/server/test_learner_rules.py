"""What a learner who has never played met, reading the rules before and during a first deal (found by playing
one through on a phone held sideways in Chinese and on a desktop in English): the rules page is one long document
(about 24,000 characters in Chinese) with nothing to jump by, so the sections a table asks about (levels, tribute,
finishing places) lay under a screenful of engine notation; it now opens with a list of its sections, each a link
to its heading. The document numbered seats 0–3 and teams 0 and 1 while the lobby and the table say 座位1–4 and
队1 / 队2: it now says how the two numberings meet."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from guandan.server.rules_page import page


@pytest.mark.parametrize(("lang", "title", "tribute"), [("zh", "目录", "6. 进贡、抗贡与还贡"),
                                                        ("en", "Contents", "6. Tribute, anti-tribute and return")])
def test_the_rules_page_opens_with_its_sections_each_a_link_to_its_heading(client: TestClient, lang: str,
                                                                            title: str, tribute: str) -> None:
    html = client.get(f"/rules?lang={lang}").text
    nav = re.search(r'<nav class="toc"[^>]*>(.*?)</nav>', html, re.S)
    assert nav is not None, "no contents"
    assert re.search(rf"<h2[^>]*>{title}</h2>", nav.group(1))
    links = re.findall(r'<a href="#([^"]+)">([^<]+)</a>', nav.group(1))
    first = "1. 记号与牌例的读法" if lang == "zh" else "1. Notation and how to read the examples"
    assert [text for _, text in links][:1] == [first]
    assert tribute in [text for _, text in links] and len(links) == 12, links
    ids = set(re.findall(r'<h2 id="([^"]+)"', html))
    for anchor, text in links:  # every entry leads to a heading of the page, and in the order they stand
        assert anchor in ids, (anchor, text)
    after = html[html.index("</nav>"):]
    assert [after.index(f'<h2 id="{a}"') for a, _ in links] == sorted(after.index(f'<h2 id="{a}"') for a, _ in links)
    # before the first section, after the document's own opening
    assert html.index("</nav>") < html.index(f'<h2 id="{links[0][0]}"')
    assert html.index("<h1") < html.index('<nav class="toc"')


@pytest.mark.parametrize(("lang", "words"), [("zh", ("座位1～4", "“队1”", "“队2”")),
                                             ("en", ("seats 1–4", '"Team 1"', '"Team 2"'))])
def test_the_rules_say_how_their_seat_numbers_meet_the_tables(lang: str, words: tuple[str, ...]) -> None:
    text = re.sub(r"<[^>]+>", "", page(lang)).replace("&quot;", '"')
    notation = text[text.index("1.1"):text.index("1.2")]  # said where the seats are numbered, not sections later
    for word in words:
        assert word in notation, word
