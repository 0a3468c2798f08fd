"""The order in which people look a team up by name (按名称排序): the pairings' index by team, the printed
pairings' list of teams, the exports' rows by team, the teams sharing a place in a knockout's placings.
Never the standings' order, which is by the results.

A Chinese name is ordered by its pinyin (拼音), as a Chinese dictionary or a phone's contacts order names; a
Latin name by its letters, whatever their case. The two are interleaved by those letters, as in a phone's
contacts: 安徽队 (an hui) comes before "Bravo", 北京队 (bei jing) after it, and "Cherry" before 重庆队 (chong
qing). Three levels, each deciding only where the one before ties:

1. The name cut into units, compared one by one: a run of digits is one unit, compared by its value and
   before any letter (南京8队 before 南京16队, 1队 before A队); each Chinese character is one unit, its
   pinyin without the tone (西 xi before 先 xian, so 西安队 before 先锋队; ü is written v, after u, as a
   dictionary has 路 lu before 绿 lü); a run of other letters is one unit, case-folded. The name is read in
   its NFKC form first, so that full-width letters and digits (Ａ, １) count as the ordinary ones. Spaces and
   punctuation only separate units.
2. The tones of the Chinese characters, one to four then the neutral tone (妈 ma1 before 马 ma3); a letter
   that is no Chinese character comes before any tone.
3. The name itself, case-folded and then as written: names that sound alike (张队 and 章队) keep one order
   on every machine. Callers break a last tie by the team's number.

The pinyin is pypinyin's, which reads a character by the words round it (重庆 chong qing, 银行 yin hang).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: Chinese characters: the CJK unified ideographs, their extensions A to G and the compatibility ones, and 〇.
_HAN = "\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_UNITS = re.compile(rf"(\d+)|([{_HAN}]+)|((?:(?![{_HAN}])[^\W\d_])+)")
_SYLLABLE = re.compile(r"([a-z]+)([1-5])")

#: One unit of a name: (0, value, "") for a number, (1, 0, letters) for a syllable or a word.
Unit = tuple[int, int, str]
NameKey = tuple[tuple[Unit, ...], tuple[int, ...], str, str]


@lru_cache(maxsize=4096)
def name_key(name: str) -> NameKey:
    """The sort key of a team's name in the order described above: ``sorted(names, key=name_key)``."""
    text = unicodedata.normalize("NFKC", name)
    units: list[Unit] = []
    tones: list[int] = []
    for digits, han, letters in _UNITS.findall(text):
        if digits:
            units.append((0, int(digits), ""))
            tones.append(0)
        elif letters:
            units.append((1, 0, letters.casefold()))
            tones.append(0)
        else:
            for syllable in _pinyin(han):
                m = _SYLLABLE.fullmatch(syllable)
                units.append((1, 0, m.group(1) if m else syllable.casefold()))
                tones.append(int(m.group(2)) if m else 0)
    return tuple(units), tuple(tones), text.casefold(), name


def _pinyin(han: str) -> list[str]:
    """Each character of a run of Chinese characters as its pinyin with the tone's number (``chong2``), read
    with the characters round it; a character pypinyin has no reading for stands for itself."""
    # pypinyin's dictionaries take a fifth of a second to load: loaded when a name is first ordered, not when
    # a command starts
    from pypinyin import Style, lazy_pinyin

    def read(text: str) -> list[str]:
        return lazy_pinyin(text, style=Style.TONE3, neutral_tone_with_five=True, errors="default")

    whole = read(han)
    if len(whole) == len(han):
        return whole
    # characters without a reading came back joined together: read the run one character at a time
    return [r[0] if len(r := read(c)) == 1 else c for c in han]
