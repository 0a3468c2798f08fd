"""A knockout event (淘汰赛) as the desk plans it and as people read it: the entries ``pair`` appends, the
bracket with every match and winner, the placings and the prize list.

Planning is pure: it works on a copy of the state and returns the log entries, which the desk then appends
in one transaction (and :meth:`.state.TournamentState.apply` validates once more). The random draws (the
partners, the bracket's places) are recorded as what they produced, never only as a seed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ..cliutil import pad, width
from ..i18n import N_
from ..present import rank_text
from . import knockout as ko
from .errors import joined, refusal
from .levels import level_name
from .model import SIDES
from .names import name_key
from .rounds import ResultSlip
from .state import Event, TableState, TournamentState

Entry = tuple[str, dict[str, Any]]
Gettext = Callable[[str], str]


def _require_knockout(state: TournamentState) -> None:
    if not state.is_knockout:
        raise refusal(N_("{event} is a Swiss event ({format}): it has no bracket; see its standings"),
                      event=state.cfg.name, format=state.cfg.format)


def _simulate(work: TournamentState, entry: Entry) -> None:
    work.apply(Event(work.last_seq + 1, entry[0], entry[1]))


# ---- planning ------------------------------------------------------------------------------------------
def plan_pairing(state: TournamentState, seed: int | None = None) -> list[Entry]:
    """What pairing the next knockout round appends: for round 1 of an event with drawn partners, first the
    draw of the partners; then the round (for round 1, the bracket's places)."""
    _require_knockout(state)
    r = state.current_round + 1
    blockers = state.knockout_blockers()
    if blockers:
        raise refusal(N_("round {round} cannot be paired yet: {reasons}"), round=r, reasons=joined(blockers))
    used = state.cfg.seed if seed is None else seed
    work = copy.deepcopy(state)
    out: list[Entry] = []
    if r == 1 and state.cfg.partners == "random" and not state.teams:
        players = work.players
        teams = [{"name": ko.team_name(players[a], players[b]), "players": [a, b]}
                 for a, b in ko.draw_partners(work.active_players, used)]
        out.append(("partners_drawn", {"method": "random", "seed": used, "teams": teams}))
        _simulate(work, out[-1])
    out.append(("knockout_paired", _round_entry(work, r, used, repair=False)))
    return out


def plan_repair(state: TournamentState, seed: int | None = None, reason: str = "") -> list[Entry]:
    """Re-pair the current knockout round before any of its results is in: round 1 is drawn afresh (a new
    seed unless one is given; the partners stay), a later round pairs the winners of the round before as
    they now stand (after a corrected result)."""
    _require_knockout(state)
    r = state.current_round
    if r == 0:
        raise refusal(N_("no round has been paired yet: there is nothing to re-pair"))
    if r == 1 and seed is None:
        seed = (state.rounds[1].seed if state.rounds[1].seed is not None else state.cfg.seed) + 1
    return [("knockout_paired", _round_entry(state, r, seed, repair=True, reason=reason))]


def plan_override(state: TournamentState, round_no: int, table_no: int, slip: ResultSlip, reason: str) -> list[Entry]:
    """The arbiter's result, and, when it changes who went through to a round already paired (and not yet
    started), that round paired again with the right team in its place."""
    _require_knockout(state)
    entry: Entry = ("result_overridden", {"round": round_no, "table": table_no, "result": slip.to_dict(),
                                          "reason": reason})
    work = copy.deepcopy(state)
    _simulate(work, entry)
    out = [entry]
    nxt = round_no + 1
    if nxt in work.rounds and work.knockout_stale(nxt):
        why = f"round {round_no} table {table_no} corrected: another team goes through"
        out.append(("knockout_paired", _round_entry(work, nxt, None, repair=True, reason=why)))
    return out


def _round_entry(state: TournamentState, r: int, seed: int | None, *, repair: bool, reason: str = "") -> dict[str, Any]:
    data: dict[str, Any]
    if r == 1:
        order, method, used = ko.seeding([state.teams[t] for t in state.active_teams],
                                         state.cfg.seed if seed is None else seed)
        if len(order) < 2:
            raise refusal(N_("a knockout needs at least two teams, {n} entered"), n=len(order))
        slots = ko.place_teams(order)
        data = {"round": 1, "method": method, "seed": used, "slots": slots,
                "matches": [list(m) for m in ko.pair_places(slots)]}
    else:
        data = {"round": r, "method": "bracket", "seed": None,
                "matches": [list(m) for m in state.knockout_expected(r)]}
    data["repair"] = repair
    if repair:
        data["reason"] = reason
    return data


# ---- reading -------------------------------------------------------------------------------------------
def _team(state: TournamentState, tid: int | None) -> dict[str, Any] | None:
    if tid is None:
        return None
    t = state.teams[tid]
    return {"id": t.id, "name": t.name, "players": list(t.players), "club": t.club,
            "withdrawn": t.id in state.withdrawn}


def _result(ts: TableState) -> dict[str, Any] | None:
    if ts.result is None or ts.final is None:
        return None
    res, slip = ts.result, ts.final
    levels = [rank_text(level_name(v)) for v in res.levels]
    side = ko.winning_side(res, slip.decider)
    return {"levels": levels, "text": f"{levels[0]}:{levels[1]}",
            "passed_a": None if res.passed_a is None else SIDES[res.passed_a],
            "forfeit": None if res.forfeit is None else SIDES[res.forfeit],
            "decider": None if slip.decider is None else SIDES[slip.decider],
            "deals": slip.deals, "source": ts.source, "winner": None if side is None else SIDES[side]}


def _places(state: TournamentState) -> dict[int, list[int | None]]:
    """Every round's places as far as they are known: a paired round's matches; for the round after the
    current one, the winners decided so far; later rounds empty."""
    out: dict[int, list[int | None]] = {}
    for r in range(1, state.rounds_total + 1):
        if r in state.rounds:
            out[r] = [x for m in state.rounds[r].matches for x in m]
        elif r - 1 in state.rounds:
            out[r] = [state.match_winner(r - 1, m) for m in range(len(state.rounds[r - 1].matches))]
        else:
            out[r] = [None] * (len(state.bracket) >> (r - 1))
    return out


def _match(state: TournamentState, r: int, m: int, a: int | None, b: int | None) -> dict[str, Any]:
    rnd = state.rounds.get(r)
    table = state.match_table(r, m) if rnd is not None else None
    if rnd is None:
        status, winner = "waiting", None
    elif a is None and b is None:
        status, winner = "empty", None
    elif a is None or b is None:
        status, winner = "bye", a if b is None else b
    else:
        assert table is not None
        status, winner = table.status, state.match_winner(r, m)
    return {"round": r, "match": m + 1, "table": None if table is None else table.table.number,
            "home": _team(state, a), "away": _team(state, b), "status": status,
            "result": None if table is None else _result(table), "winner": _team(state, winner)}


def placings(state: TournamentState) -> list[dict[str, Any]]:
    """Every team of the bracket with its place once it is out (or has won): 1, 2, 3 (shared), 5, …"""
    _require_knockout(state)
    total = state.rounds_total
    if not state.bracket:
        return []
    place: dict[int, tuple[int, int | None]] = {}  # team -> (place, round it went out in)
    for r in sorted(state.rounds):
        rnd = state.rounds[r]
        for m, (a, b) in enumerate(rnd.matches):
            w = state.match_winner(r, m)
            if w is None:
                continue
            if r == total:
                place[w] = (1, None)
            loser = b if w == a else a
            if loser is not None:
                place[loser] = (ko.place_of_loser(r, total), r)
        if r + 1 in state.rounds:  # a winner missing from the next round withdrew: out there, on a walkover
            nxt = {x for m2 in state.rounds[r + 1].matches for x in m2}
            for m, _ in enumerate(rnd.matches):
                w = state.match_winner(r, m)
                if w is not None and w not in nxt:
                    place[w] = (ko.place_of_loser(r + 1, total), r + 1)
    out: list[dict[str, Any]] = []
    for tid in [x for x in state.bracket if x is not None]:
        p, out_in = place.get(tid, (None, None))
        out.append({"place": p, "eliminated_in": out_in, "team": _team(state, tid)})
    # teams sharing a place (knocked out in one round) by name, as people look them up
    out.sort(key=lambda row: (row["place"] is None, row["place"] or 0, name_key(row["team"]["name"]), row["team"]["id"]))
    return out


def _award(row: dict[str, Any] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    t = row["team"]
    return {"team": t["name"], "team_id": t["id"], "players": t["players"]}


def as_of(state: TournamentState, through_round: int | None) -> TournamentState:
    """The event as its standings after ``through_round`` see it (None: now): the rounds after it left out, and
    only the teams that had withdrawn by then withdrawn. A shallow copy: nothing of ``state`` changes."""
    if through_round is None:
        return state
    view = copy.copy(state)
    view.rounds = {r: rnd for r, rnd in state.rounds.items() if r <= through_round}
    view.withdrawn = {t for t in state.withdrawn if state.withdrawn_by(t, through_round)}
    return view


#: A knockout standing's ``status``: where the team stands in the bracket.
STANDING_STATUSES = ("champion", "runner_up", "in", "withdrawn", "out")


def standing_order(state: TournamentState, through_round: int | None = None) -> list[dict[str, Any]]:
    """Every team of a knockout in the knockout's order after ``through_round`` (None: every result in): the
    champion, the runner-up, the teams still in (in bracket order), a team that withdrew while still in, the
    teams out (by :func:`placings`: the later out the better, those out in one round sharing a place, by name),
    and last a team that withdrew before the bracket was drawn.

    Each row: ``team_id``; ``rank`` (the place once the team has one, else 1 + the teams above it); ``place``
    (None while the team is in); ``place_shared`` (others share it); ``status`` (one of
    :data:`STANDING_STATUSES`); ``eliminated_in`` (the round it went out in); ``decider`` ("won" or "lost"
    when the team's last decided match was settled by the deciding deal, else None)."""
    _require_knockout(state)
    view = as_of(state, through_round)
    table = placings(view)
    counts: dict[int, int] = {}
    for row in table:
        if row["place"] is not None:
            counts[row["place"]] = counts.get(row["place"], 0) + 1
    slot = {tid: i for i, tid in enumerate(view.bracket) if tid is not None}
    last: dict[int, tuple[int, int]] = {}  # team -> (round, match) of its last match with a winner
    for r in sorted(view.rounds):
        for m, pair in enumerate(view.rounds[r].matches):
            if view.match_winner(r, m) is not None:
                last.update({tid: (r, m) for tid in pair if tid is not None})
    placed = {row["team"]["id"]: row for row in table}
    # the groups, top to bottom: 0 placed 1st or 2nd, 1 still in, 2 withdrawn while still in, 3 out (placings'
    # order), 4 withdrawn before the draw; those still in (or withdrawn from it) in bracket order
    rows: list[tuple[int, int, dict[str, Any]]] = []  # (group, order in it, row)
    for order, tid in enumerate([row["team"]["id"] for row in table] +
                                [t for t in sorted(view.teams) if t not in placed]):
        placing = placed.get(tid)
        place = None if placing is None else placing["place"]
        if place is not None:
            group, status = (0, ("champion", "runner_up")[place - 1]) if place <= 2 else (3, "out")
        elif tid not in view.withdrawn:
            group, status = 1, "in"
        else:  # it goes out on a walkover when the next round is paired; one that never entered the bracket, last
            group, status = 2 if tid in slot else 4, "withdrawn"
        decider = None
        if tid in last:
            r, m = last[tid]
            ts = view.match_table(r, m)
            if ts is not None and ts.final is not None and ts.final.decider is not None:
                decider = "won" if view.match_winner(r, m) == tid else "lost"
        rows.append((group, slot.get(tid, len(slot) + order) if group in (1, 2) else order, {
            "team_id": tid, "place": place, "place_shared": place is not None and counts[place] > 1, "status": status,
            "eliminated_in": None if placing is None else placing["eliminated_in"], "decider": decider}))
    rows.sort(key=lambda x: (x[0], x[1]))
    sizes = [sum(1 for g, _o, _r in rows if g == group) for group in range(5)]
    return [{"rank": row["place"] if row["place"] is not None else sum(sizes[:group]) + 1, **row}
            for group, _order, row in rows]


def prizes(state: TournamentState) -> list[dict[str, Any]] | None:
    """冠军, 亚军 and 阳光普照奖 (everyone else), once the final is decided; None before."""
    table = placings(state)
    champion = next((row for row in table if row["place"] == 1), None)
    if champion is None:
        return None
    runner_up = next((row for row in table if row["place"] == 2), None)
    others = [row for row in table if row["place"] not in (1, 2)]
    return [{"prize": "champion", "teams": [_award(champion)]},
            {"prize": "runner_up", "teams": [_award(runner_up)] if runner_up else []},
            {"prize": "sunshine", "teams": [_award(row) for row in others]}]


def bracket_data(state: TournamentState) -> dict[str, Any]:
    """The whole knockout as JSON: every round and match (teams, table, result, winner), the placings, the
    prizes and ``champion`` ({"team", "team_id", "players"}, null until the final is decided)."""
    _require_knockout(state)
    cfg, total = state.cfg, state.rounds_total
    places = _places(state) if state.bracket else {}
    rounds = []
    for r in range(1, total + 1 if state.bracket else 1):
        row = places[r]
        pairs = [(row[i], row[i + 1]) for i in range(0, len(row), 2)]
        rnd = state.rounds.get(r)
        rounds.append({"round": r, "stage": ko.stage(r, total), "paired": rnd is not None,
                       "matches": [_match(state, r, m, a, b) for m, (a, b) in enumerate(pairs)]})
    table = placings(state)
    first = state.rounds.get(1)
    teams = sum(x is not None for x in state.bracket) if state.bracket else state.knockout_entries()
    size = len(state.bracket) if state.bracket else ko.bracket_size(teams) if teams >= 2 else None
    draw = None
    if state.partners:
        draw = {"seed": state.partners_seed,
                "teams": [{"id": t, "name": state.teams[t].name,
                           "players": [state.players[p].name for p in state.partners[t]]} for t in sorted(state.partners)]}
    return {
        "tournament": state.id, "name": cfg.name, "format": cfg.format, "partners": cfg.partners,
        "tie_rule": "decider_deal", "team_count": teams,
        "player_count": len(state.active_players) if cfg.partners == "random" else 2 * teams,
        "bracket_size": size, "bye_count": None if size is None else size - teams,
        "round_count": total, "current_round": state.current_round, "finished": state.finished,
        "seeding": first.method if first else None, "seed": first.seed if first else None,
        "partners_draw": draw, "rounds": rounds,
        "champion": _award(next((x for x in table if x["place"] == 1), None)),
        "runner_up": _award(next((x for x in table if x["place"] == 2), None)),
        "placings": [{"place": x["place"], "eliminated_in": x["eliminated_in"], "team": x["team"]["name"],
                      "team_id": x["team"]["id"], "players": x["team"]["players"]} for x in table],
        "prizes": prizes(state),
    }


# ---- text for a terminal -------------------------------------------------------------------------------
def fit(text: str, cols: int) -> str:
    """``text`` cut (with …) or padded to exactly ``cols`` terminal columns."""
    if width(text) > cols:
        out = ""
        for c in text:
            if width(out + c) > cols - 1:
                break
            out += c
        text = out + "…"
    return pad(text, cols)


def stage_name(key: str, _: Gettext) -> str:
    names = {"final": _("Final"), "semi_final": _("Semi-finals"), "quarter_final": _("Quarter-finals")}
    if key in names:
        return names[key]
    return _("Round of {n}").format(n=key.removeprefix("round_of_"))


def status_name(key: str, _: Gettext) -> str:
    return {"waiting": _("not paired yet"), "empty": _("empty"), "bye": _("bye"), "missing": _("result missing"),
            "entered": _("entered, to be confirmed"), "disputed": _("disputed"), "final": _("final")}.get(key, key)


def place_label(match: dict[str, Any], side: int, _: Gettext) -> str:
    """What an empty place of a match says: a bye, or whose winner will fill it."""
    if match["status"] in ("bye", "empty") or match["round"] == 1:
        return _("bye")
    return _("winner of round {r} match {n}").format(r=match["round"] - 1, n=2 * match["match"] - 1 + side)


def place_text(place: int | None, shared: bool, _: Gettext) -> str:
    if place is None:
        return _("still in")
    return (_("place {n} (shared)") if shared else _("place {n}")).format(n=place)


def bracket_lines(data: dict[str, Any], _: Gettext) -> list[str]:
    """The bracket for an 80-column terminal, from :func:`bracket_data`."""
    name_cols = 46
    out = [data["name"]]
    head = _("Knockout: {teams} teams, a bracket of {size}, byes: {byes}, rounds: {rounds}").format(
        teams=data["team_count"], size=data["bracket_size"] or 0, byes=data["bye_count"] or 0,
        rounds=data["round_count"])
    out.append(head)
    if data["seeding"]:
        out.append(_("Bracket seeded by rating") if data["seeding"] == "rating" else
                   _("Bracket drawn at random (seed {seed})").format(seed=data["seed"]))
    if data["partners_draw"]:
        out.append(_("Partners drawn at random (seed {seed})").format(seed=data["partners_draw"]["seed"]))
    out.append(_("A round that ends level is decided by one more deal (加赛一副): the team that goes out first wins."))
    if not data["rounds"]:
        out.append(_("The bracket has not been drawn yet."))
    for rnd in data["rounds"]:
        out.append("")
        out.append(_("Round {n}").format(n=rnd["round"]) + " · " + stage_name(rnd["stage"], _))
        for m in rnd["matches"]:
            where = [_("Match {n}").format(n=m["match"])]
            if m["table"] is not None:
                where.append(_("table {n}").format(n=m["table"]))
            where.append(status_name(m["status"], _))
            out.append("  " + " · ".join(where))
            res = m["result"]
            win = m["winner"]["id"] if m["winner"] else None
            for i, side in enumerate(("home", "away")):
                team = m[side]
                label = team["name"] if team else place_label(m, i, _)
                mark = "*" if team and team["id"] == win else " "
                level = res["levels"][i] if res else ""
                notes = []
                if res and res["passed_a"] == side:
                    notes.append(_("passed A"))
                if res and res["decider"] == side:
                    notes.append(_("won the decider"))
                if res and res["forfeit"] == side:
                    notes.append(_("forfeit"))
                if team and team["withdrawn"]:
                    notes.append(_("withdrawn"))
                line = f"    {mark} {fit(label, name_cols)} {level:>2}  {', '.join(notes)}"
                out.append(line.rstrip())
    out.append("")
    champ = data["champion"]
    out.append(_("Champion: {team}").format(team=champ["team"]) if champ else _("Champion: not decided yet"))
    return out


def placing_lines(data: dict[str, Any], _: Gettext) -> list[str]:
    rows = data["placings"]
    if not any(row["place"] for row in rows):
        return [_("No team is placed yet.")] if rows else [_("The bracket has not been drawn yet.")]
    counts: dict[int | None, int] = {}
    for row in rows:
        counts[row["place"]] = counts.get(row["place"], 0) + 1
    out = [_("Placings")]
    places = [place_text(row["place"], counts[row["place"]] > 1 and row["place"] is not None, _) for row in rows]
    cols = max(width(p) for p in places)  # the longest label whole: a shared place must not read "(shar…"
    for place, row in zip(places, rows, strict=True):
        out.append(f"  {pad(place, cols)} {row['team']}")
    return out


def prize_lines(data: dict[str, Any], _: Gettext) -> list[str]:
    if data["prizes"] is None:
        return [_("Prizes are known once the final is decided.")]
    titles = {"champion": _("Champion (冠军)"), "runner_up": _("Runner-up (亚军)"),
              "sunshine": _("Sunshine prize (阳光普照奖), for every other player")}
    out = [_("Prizes")]
    for prize in data["prizes"]:
        out.append("  " + titles[prize["prize"]])
        for t in prize["teams"]:  # a drawn pair is named after its players: no need to say them twice
            out.append(f"    {t['team']}" if data["partners"] == "random" else f"    {t['team']}: {'、'.join(t['players'])}")
    return out


def page_context(data: dict[str, Any], _: Gettext) -> dict[str, Any]:
    """What the bracket template needs beside ``d`` (the :func:`bracket_data`): the page and the print."""
    seen: dict[int, int] = {}
    for row in data["placings"]:
        if row["place"] is not None:
            seen[row["place"]] = seen.get(row["place"], 0) + 1
    shared = {p for p, n in seen.items() if n > 1}
    return {"d": data, "stage_name": lambda key: stage_name(key, _), "status_name": lambda key: status_name(key, _),
            "place_label": lambda m, side: place_label(m, side, _),
            "place_text": lambda p: place_text(p, p in shared, _)}
