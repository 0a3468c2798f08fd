"""The desk's coded values as its pages and its command line write them (msgids of the ``desk`` catalogue).

A module of its own so that the command line can say them without importing the web pages."""

from __future__ import annotations

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
#: The tie-break criteria (:data:`~.model.TIEBREAKS`) as the standings' "Order:" line names them.
TIEBREAK_NAMES = {
    "match_points": N_("match points (场分)"),
    "opponents_points": N_("opponents' points (对手分)"),
    "level_diff": N_("net level difference (级差分)"),
    "levels_gained": N_("levels gained (升级数)"),
    "head_to_head": N_("head-to-head"),
    "wins": N_("rounds won"),
}
#: How a table's round ended.
ENDED_WORDS = {"deals": N_("the deal limit was reached"), "pass_a": N_("a team passed A"),
               "time": N_("time: no new deal after the warning"), "arbiter": N_("ended by the arbiter")}


def last_round_words(finished: bool) -> str:
    """Once every round is paired (a msgid with ``{n}``, the rounds): ``finished`` (the last round's results are
    final), else that the event ends then."""
    if finished:
        return N_("The event is finished: all {n} rounds are played and every result is final")
    return N_("All {n} rounds are paired; the event ends when round {n}'s results are all final")
