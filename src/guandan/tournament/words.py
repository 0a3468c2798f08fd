"""The desk's coded values as its pages and its command line write them (msgids of the ``desk`` catalogue).

A module of its own so that the command line can say them without importing the web pages."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..i18n import N_

#: A table's status.
STATUS_WORDS = {"missing": N_("missing"), "entered": N_("entered"), "rejected": N_("rejected"),
                "disputed": N_("disputed"), "in_play": N_("in play"), "final": N_("final")}
#: How a table's final result came.
SOURCE_WORDS = {"confirmed": N_("confirmed by both teams"), "override": N_("set by the arbiter"),
                "server": N_("reported by the game server"), "deals": N_("from the confirmed deals"),
                "arbiter": N_("set by the arbiter"), "rule": N_("by the rules")}
#: How a round was paired (a knockout's later rounds follow the bracket).
METHOD_WORDS = {"random": N_("random"), "rating": N_("rating"), "swiss": N_("Swiss"), "manual": N_("manual"),
                "bracket": N_("by the bracket")}
#: Each column of the standings by its record's key (:func:`~.export.standing_records`), headed the same wherever
#: the standings are: the venue screen (a phone's too), the arbiter's page, the print, the exports and the command
#: line. The English heads are short, as a venue screen's narrow columns need them; the figures' names say them in
#: full where a head is explained (its title, the legend under a phone's table, the pages' order of the tie-breaks).
STANDING_HEADS = {
    "rank": N_("Rank"), "team_id": N_("No."), "team": N_("Team"), "club": N_("Club"), "players": N_("Players"),
    "match_points": N_("MP"), "opponents_points": N_("Opp MP"), "level_diff": N_("Net lvls"),
    "levels_gained": N_("Lvls up"), "played": N_("Played"), "wins": N_("W"), "draws": N_("D"), "losses": N_("L"),
    "byes": N_("Byes"),
}
#: The figures' heads on a phone held upright, where the English ones would not fit on one line beside a team's
#: name; the legend under the table gives each in full.
STANDING_COMPACT = {"opponents_points": N_("Opp"), "level_diff": N_("Net"), "levels_gained": N_("Up")}
#: The tie-break criteria in full (:data:`~.model.TIEBREAKS`; head-to-head has no column of its own).
STANDING_NAMES = {
    "match_points": N_("Match points"), "opponents_points": N_("Opponents' points"),
    "level_diff": N_("Net level difference"), "levels_gained": N_("Levels gained"), "head_to_head": N_("Head-to-head"),
    "wins": N_("Rounds won"),
}
#: The Chinese of the standings' own figures (the desk catalogue's for their heads and names), which the exports'
#: bilingual headers put before the English head (场分 MP) and an English print after it: MP (场分).
STANDING_TERMS = {"match_points": "场分", "opponents_points": "对手分", "level_diff": "级差分", "levels_gained": "升级数"}


def standing_label(key: str) -> str:
    """A standings column's header in the exports: a figure's Chinese term before its head ("对手分 Opp MP"), any
    other head as it is ("Team": the exports' files add its Chinese, export.EXPORT_ZH)."""
    head = STANDING_HEADS[key]
    return f"{STANDING_TERMS[key]} {head}" if key in STANDING_TERMS else head


#: Between two tie-breaks in the order line: an arrow in English, the enumeration comma (、) in Chinese.
ORDER_JOIN = N_(" → ")


def order_line(chain: Sequence[str], _: Callable[[str], str]) -> str:
    """The order of an event's tie-breaks as one line, worded alike wherever the standings are (the venue
    screen, the print, the workbook): "排名依据：场分、对手分…", "Order: Match points → Opponents' points → …",
    each criterion named as the standings' column titles and legend name it."""
    return _("Order: {chain}").format(chain=_(ORDER_JOIN).join(_(STANDING_NAMES[c]) for c in chain))


#: How a table's round ended.
ENDED_WORDS = {"deals": N_("the deal limit was reached"), "pass_a": N_("a team passed A"),
               "time": N_("time: no new deal after the warning"), "arbiter": N_("ended by the arbiter")}


def last_round_words(finished: bool) -> str:
    """Once every round is paired (a msgid with ``{n}``, the rounds): ``finished`` (the last round's results are
    final), else that the event ends then."""
    if finished:
        return N_("The event is finished: every round is played ({n} in all) and every result is final")
    return N_("Every round is paired ({n} in all); the event ends when round {n}'s results are all final")


#: Where a team of a knockout stands (:func:`~.bracket.standing_order`'s ``status``); ``out`` names its round.
KNOCKOUT_STATUS_WORDS = {"champion": N_("champion"), "runner_up": N_("runner-up"), "in": N_("still in"),
                         "withdrawn": N_("withdrawn"), "out": N_("out in round {n}")}
#: A status whose last match was settled by the deciding deal (加赛一副), or a cross-table's round settled by it: the
#: levels alone say a draw.
DECIDER_WORDS = {"won": N_("{status}, won the decider"), "lost": N_("{status}, lost the decider")}
#: The order of a knockout's standings, worded as :func:`order_line` words a Swiss event's.
KNOCKOUT_ORDER = N_("Order: the champion, the runner-up, the teams still in, then the teams out, the later the "
                    "better; teams out in the same round share a place, listed by name")


def knockout_status(row: Mapping[str, Any], _: Callable[[str], str]) -> str:
    """A knockout standing's status in words (冠军, 第2轮出局（加赛负）…), from a row with ``status``,
    ``eliminated_in`` and ``decider``."""
    # looked up outside _(): the msgid extractor takes any literal inside a _() call for a msgid
    status = KNOCKOUT_STATUS_WORDS[row["status"]]
    return with_decider(_(status).format(n=row["eliminated_in"]), row["decider"], _)


def with_decider(text: str, decider: str | None, _: Callable[[str], str]) -> str:
    """``text`` (a standing's status, a cross-table's result) marked with who won the deciding deal its match went
    to (``decider`` "won"/"lost"): "D 9:9, won the decider", "平 9:9（加赛胜）"; as it is where ``decider`` is None."""
    return _(DECIDER_WORDS[decider]).format(status=text) if decider else text


def knockout_rank(row: Mapping[str, Any]) -> str:
    """A knockout standing's place (a row with ``place`` and ``place_shared``) as the rank column writes it: "1",
    "3=" (shared), "" while the team has none."""
    if row["place"] is None:
        return ""
    return f"{row['place']}=" if row["place_shared"] else str(row["place"])


def knockout_standing(row: Mapping[str, Any], _: Callable[[str], str]) -> dict[str, Any]:
    """A knockout's standings record as the command line shows it (the desk's ``standings``, a bot event's summary):
    its ``rank`` the place (:func:`knockout_rank`) and its ``status`` in words (:func:`knockout_status`), the rest
    as it is."""
    return {**row, "rank": knockout_rank(row), "status": knockout_status(row, _)}
