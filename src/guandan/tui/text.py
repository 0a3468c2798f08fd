"""Every sentence the terminal client shows, built from the ``tui`` message catalogue.

Only public facts go in: events (everyone saw them) and the human seat's own observation. The
Textual app and the plain line mode share these functions so that both say the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import RANKS, SUIT_SYMBOLS, Card, card_display, card_str, wild_code
from ..core.combos import Combo
from ..core.deal import Action, Event
from ..core.match import MatchObservation
from ..i18n import N_, Translator

HUMAN = 0

SEAT_NAMES = (N_("You"), N_("Next opponent"), N_("Partner"), N_("Previous opponent"))
TEAM_NAMES = (N_("Your team"), N_("Opponents"))
TYPE_NAMES = {
    "single": N_("single"),
    "pair": N_("pair"),
    "triple": N_("triple"),
    "full_house": N_("full house"),
    "straight": N_("straight"),
    "tube": N_("tube"),
    "plate": N_("plate"),
    "pair_run": N_("pair run"),
    "triple_run": N_("triple run"),
    "airplane": N_("airplane"),
    "bomb": N_("bomb"),
    "straight_flush": N_("straight flush"),
    "chain_bomb": N_("chain bomb"),
    "three_jokers": N_("three jokers"),
    "joker_bomb": N_("four jokers"),
}
PLACE_NAMES = {1: N_("1st (头游)"), 2: N_("2nd"), 3: N_("3rd"), 4: N_("last (末游)")}


def level_text(level: int) -> str:
    r = RANKS[level]
    return "10" if r == "T" else r


def place_name(place: int, tr: Translator) -> str:
    return tr.gettext(PLACE_NAMES[place])


def seat_name(seat: int, tr: Translator) -> str:
    return tr.gettext(SEAT_NAMES[seat])


def team_name(team: int, tr: Translator) -> str:
    return tr.gettext(TEAM_NAMES[team])


def card_token(code: Card, level: int) -> str:
    """The card in RULES.md notation (what the player types), ``*`` marking a wildcard (逢人配)."""
    return card_str(code) + ("*" if code == wild_code(level) else "")


def cards_tokens(cards: Sequence[Card], level: int) -> str:
    return " ".join(card_token(c, level) for c in cards)


def cards_shown(cards: Sequence[Card]) -> str:
    return " ".join(card_display(c) for c in cards)


def combo_text(combo: Combo, tr: Translator) -> str:
    """E.g. ``pair 9``, ``bomb 9×5``, ``straight flush ♥9`` (``对子 9`` in Chinese)."""
    _ = tr.gettext
    name = _(TYPE_NAMES.get(combo.type, combo.type))
    key = {"LJ": _("small joker"), "BJ": _("big joker"), "JOKERS": "", "T": "10"}.get(combo.key, combo.key)
    if combo.suit:
        key = SUIT_SYMBOLS[combo.suit] + key
    extra = f"×{combo.size}" if combo.type == "bomb" else ""
    if combo.stars:
        extra += f" {combo.stars}★"
    return f"{name} {key}{extra}".rstrip()


def action_text(action: Action, tr: Translator) -> str:
    _ = tr.gettext
    if action.kind == "pass":
        return _("pass")
    body = cards_shown(action.cards)
    if action.combo is not None:
        return f"{body}  [{combo_text(action.combo, tr)}]"
    return body


def describe(event: Event, tr: Translator) -> list[str]:
    """Lines for one public event (some events, e.g. tribute_paid, say nothing)."""
    _ = tr.gettext
    info = event.info or {}
    seat = event.seat
    who = seat_name(seat, tr) if seat is not None else ""
    if event.type == "deal_start":
        declarer = team_name(info["declarer"], tr) if info.get("declarer") is not None else _("none")
        return [_("=== Deal {n} · level {level} · levels {ours}:{theirs} · declarer {declarer} ===").format(
            n=info["index"] + 1, level=level_text(info["level"]), ours=level_text(info["levels"][0]),
            theirs=level_text(info["levels"][1]), declarer=declarer)]
    if event.type == "first_lead":
        if event.cards:
            return [_("First lead: {who} (flipped card {card})").format(who=who, card=card_display(event.cards[0]))]
        return [_("First lead: {who}").format(who=who)]
    if event.type == "anti_tribute":
        names = ", ".join(seat_name(s, tr) for s in info["seats"])
        return [_("Anti-tribute (抗贡): {who} hold both big jokers; no tribute this deal").format(who=names)]
    if event.type in ("tribute", "return"):
        fmt = _("Tribute (进贡): {giver} → {taker}: {card}") if event.type == "tribute" else _(
            "Return (还贡): {giver} → {taker}: {card}")
        return [fmt.format(giver=seat_name(a, tr), taker=seat_name(b, tr), card=card_display(c))
                for a, b, c in info["result"]]
    if event.type == "lead":
        return [_("Lead: {who}").format(who=who)]
    if event.type == "play" and event.combo is not None:
        return [_("{who}: {cards}  [{combo}]").format(who=who, cards=cards_shown(event.cards),
                                                     combo=combo_text(event.combo, tr))]
    if event.type == "pass":
        return [_("{who}: pass").format(who=who)]
    if event.type == "report":
        return [_("Report (报牌): {who}, {n} cards left").format(who=who, n=info["count"])]
    if event.type == "out":
        return [_("Out: {who}, {place}").format(who=who, place=place_name(info["place"], tr))]
    if event.type == "round_won":
        if info.get("jiefeng"):
            return [_("Jiefeng (接风): the lead passes to {who}").format(who=seat_name(info["leader"], tr))]
        return []
    if event.type == "deal_settled":
        return deal_summary(info, tr)
    if event.type == "match_over":
        w = info["winner"]
        head = _("Match over. Winners: {team}!").format(team=team_name(w, tr)) if w is not None else _(
            "Match over: no winner (deal limit)")
        return [head, _("Final levels {ours}:{theirs} after {n} deals").format(
            ours=level_text(info["levels"][0]), theirs=level_text(info["levels"][1]), n=info["deals"])]
    return []


def deal_summary(info: dict[str, object], tr: Translator) -> list[str]:
    """The end-of-deal summary: finishing order, result (1-2 / 1-3 / 1-4), levels gained, new levels."""
    _ = tr.gettext
    finish = info["finish"]
    levels = info["levels"]
    assert isinstance(finish, list) and isinstance(levels, list)
    order = ", ".join(f"{place_name(i + 1, tr)} {seat_name(s, tr)}" for i, s in enumerate(finish))
    winner = finish[0] % 2
    return [
        _("--- Deal over: {order}").format(order=order),
        _("Winners: {team}, {result}: +{up} levels · levels now {ours}:{theirs}").format(
            team=team_name(winner, tr), result=info["result"], up=info["upgrade"],
            ours=level_text(levels[0]), theirs=level_text(levels[1])),
    ]


def level_panel(obs: MatchObservation, tr: Translator) -> list[str]:
    """Both teams' levels, the declarer (庄), the deal's level, A attempts."""
    _ = tr.gettext
    declarer = team_name(obs.declarer, tr) if obs.declarer is not None else _("none")
    lines = [
        _("Deal {n} · playing level {level}").format(n=obs.deal_index + 1, level=level_text(obs.deal.level)),
        _("{team}: {level}").format(team=team_name(0, tr), level=level_text(obs.levels[0])),
        _("{team}: {level}").format(team=team_name(1, tr), level=level_text(obs.levels[1])),
        _("Declarer (庄): {team}").format(team=declarer),
    ]
    for team in (0, 1):
        if obs.levels[team] == 12:
            lines.append(_("{team}: A attempts failed {n}").format(team=team_name(team, tr), n=obs.a_failures[team]))
    return lines


def hint_reason(action: Action, obs: MatchObservation, tr: Translator) -> str:
    """Why a hinted action is good, in the categories the hint ranking uses."""
    _ = tr.gettext
    if action.kind == "pass":
        top = obs.deal.top
        if top is not None and top[0] == (HUMAN + 2) % 4:
            return _("let your partner win the round")
        return _("keep your cards")
    if action.kind == "tribute":
        return _("tribute: the highest card is forced")
    if action.kind == "choose":
        return _("take the higher tribute card")
    if action.kind == "return":
        return _("return your least useful card")
    assert action.combo is not None
    if len(action.cards) == len(obs.deal.hand):
        return _("go out")
    if action.combo.is_bomb:
        return _("bomb to take the lead")
    if obs.deal.top is None:
        return _("lead low")
    return _("the smallest play that beats")


def table_lines(obs: MatchObservation, tr: Translator) -> list[str]:
    """The table: per seat its public card count (own, or 报牌), its last action this round, its place
    if out; who leads the round (接风 marked), who is winning it, whose turn it is."""
    _ = tr.gettext
    d = obs.deal
    last: dict[int, str] = {}
    leader: int | None = None
    jiefeng = False
    for e in d.events:
        info = e.info or {}
        if e.type in ("first_lead", "lead"):
            leader, jiefeng, last = e.seat, False, {}
        elif e.type == "round_won":
            leader, jiefeng, last = info["leader"], bool(info.get("jiefeng")), {}
        elif e.type == "play" and e.combo is not None and e.seat is not None:
            last[e.seat] = f"{cards_shown(e.cards)}  [{combo_text(e.combo, tr)}]"
        elif e.type == "pass" and e.seat is not None:
            last[e.seat] = _("pass")
    top_seat = d.top[0] if d.top is not None else None
    lines = []
    for seat in range(4):
        marks = []
        if d.to_move == seat:
            marks.append(_("to move"))
        if seat == leader and d.phase == "play":
            marks.append(_("leads (接风)") if jiefeng else _("leads"))
        if seat == top_seat:
            marks.append(_("winning the round"))
        if seat in d.finish:
            marks.append(place_name(d.finish.index(seat) + 1, tr))
        count = d.public_counts.get(seat)
        n = str(count) if count is not None else "?"
        tail = f"  ({', '.join(marks)})" if marks else ""
        lines.append(_("{who} [{n} cards]: {last}").format(who=seat_name(seat, tr), n=n, last=last.get(seat, "")).rstrip()
                     + tail)
    return lines
