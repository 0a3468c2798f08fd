"""Bilingual names for hand types, events and seats (used by `replay`, the TUI and the web app)."""

from __future__ import annotations

from .core.cards import card_display
from .core.combos import Combo

TYPE_NAMES: dict[str, tuple[str, str]] = {
    "single": ("单张", "single"),
    "pair": ("对子", "pair"),
    "triple": ("三张", "triple"),
    "full_house": ("三带二", "full house"),
    "straight": ("顺子", "straight"),
    "tube": ("木板", "tube"),
    "plate": ("钢板", "plate"),
    "pair_run": ("连对", "pair run"),
    "triple_run": ("连三张", "triple run"),
    "airplane": ("飞机带翅膀", "airplane"),
    "bomb": ("炸弹", "bomb"),
    "straight_flush": ("同花顺", "straight flush"),
    "chain_bomb": ("连环炸弹", "chain bomb"),
    "three_jokers": ("三王炸弹", "three jokers"),
    "joker_bomb": ("天王炸", "four jokers"),
}
PLACES = {1: ("头游", "1st"), 2: ("二游", "2nd"), 3: ("三游", "3rd"), 4: ("末游", "4th")}


def combo_name(combo: Combo) -> str:
    """E.g. ``对子 pair 9`` or ``炸弹 bomb 9×5``."""
    zh, en = TYPE_NAMES.get(combo.type, (combo.type, combo.type))
    key = {"LJ": "小王", "BJ": "大王", "JOKERS": "", "T": "10"}.get(combo.key, combo.key)
    extra = f"×{combo.size}" if combo.type == "bomb" else ""
    if combo.stars:
        extra += f" {combo.stars}★"
    return f"{zh} {en} {key}{extra}".rstrip()


def cards_display(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(card_display(c) for c in cards)
