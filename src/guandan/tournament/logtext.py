"""The audit log as an arbiter reads it: one catalogued sentence per entry, in the reader's language.

``log`` prints these lines and the xlsx export's Audit log sheet has a column of them; ``log --json`` and the
JSON exports keep each entry as stored (machines read those). A sentence says what the entry did with the
desk's own words: teams by number and name ("team 5 (北京队)", "5号队（北京队）"), levels as people write them
("10"), seats by the catalogue's seat names (北 东 南 西), a side as home or away, the arbiter's reason last.
It never says a secret (the event's secret is in the ``created`` entry; team codes are never logged).

Entries are read in order by one :class:`LogReader`: a team's number and name come from its registration
(or the draw of the partners) earlier in the log, and a wrong code is counted since the table was last
unlocked. An entry of a type this version does not know, or one whose data it cannot read (a log written by
a newer version), is said as such, never as an error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, tzinfo
from typing import Any

from ..cliutil import pad, width
from ..i18n import N_, translator
from .deals import SEAT_NAMES, parse_finish
from .errors import TournamentError
from .levels import level_label, level_value
from .model import LatenessRules
from .state import CODE_LIMIT, Event, parse_time
from .venuetime import stamp, venue_zone
from .words import METHOD_WORDS

Gettext = Callable[[str], str]

#: A side of a table as the log stores it ("home"/"away"), as words.
_SIDE_WORDS = {"home": N_("home"), "away": N_("away")}
#: A result scored as a forfeit, by the side that forfeited; with the team, where the log paired the table.
_FORFEITS = {"home": N_("a forfeit by the home team"), "away": N_("a forfeit by the away team")}
_FORFEITS_BY = {"home": N_("a forfeit by the home team, {team}"), "away": N_("a forfeit by the away team, {team}")}
#: Who wrote an entry (the desk's actors), as words; an actor not here is shown as written.
ACTOR_WORDS = {"arbiter": N_("arbiter"), "web:arbiter": N_("arbiter (web page)"), "player": N_("player"),
               "web": N_("table page"), "api": N_("API"), "server": N_("game server"), "bot-event": N_("bot event")}
#: What kind of entry it is (its ``type``), in a few words: the xlsx Audit log sheet's Type column; a type not
#: here (a newer version's) is shown as written.
ENTRY_WORDS = {
    "created": N_("event created"), "team_registered": N_("team registered"), "team_withdrawn": N_("team withdrew"),
    "round_paired": N_("round paired"), "result_entered": N_("result entered"),
    "result_confirmed": N_("result confirmed"), "result_disputed": N_("result disputed"),
    "result_overridden": N_("result set by the arbiter"), "result_reported": N_("result reported by the game server"),
    "result_rejected": N_("result rejected"), "round_started": N_("round started"),
    "deal_reported": N_("deal reported"), "deal_confirmed": N_("deal confirmed"), "deal_rejected": N_("deal rejected"),
    "deal_disputed": N_("deal disputed"), "deals_set": N_("deals set by the arbiter"), "code_refused": N_("wrong code"),
    "table_locked": N_("table locked"), "table_unlocked": N_("table unlocked"),
    "player_registered": N_("player registered"), "player_withdrawn": N_("player withdrew"),
    "partners_drawn": N_("partners drawn"), "knockout_paired": N_("knockout round paired"),
    "table_paused": N_("table paused"), "table_resumed": N_("table resumed"), "player_replaced": N_("player replaced"),
    "names_forgotten": N_("names forgotten"), "time_zone_set": N_("time zone set"),
}
#: What the desk writes as a reason itself (in English, in the log): said in the reader's language.
_WRONG_CODES = re.compile(r"(\d+) wrong codes")
_CORRECTED = re.compile(r"round (\d+) table (\d+) corrected: another team goes through")


class Unreadable(Exception):
    """An entry's data is not what its type writes."""


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unreadable
    return value


def _text(value: Any) -> str:
    """A name or reason from the log on one line (a reason typed with line breaks stays one entry's line)."""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise Unreadable
    return " ".join(str(value).split())


class LogReader:
    """Says a log's entries, in order, in ``lang`` (``zh``, ``en``) with times on ``zone``'s clocks (UTC when
    None)."""

    def __init__(self, lang: str, zone: tzinfo | None = None) -> None:
        tr = translator("desk", lang)
        self._ = tr.gettext
        self.ngettext = tr.ngettext
        self.zone = zone or UTC
        self.teams: dict[int, str] = {}
        self.players: dict[int, str] = {}
        self.wrong: dict[tuple[int, int], int] = {}
        #: Each table's teams (home, away) by (round, table), as the log paired them.
        self.tables: dict[tuple[int, int], tuple[int, int]] = {}
        #: The levels a forfeit is scored at (the present team's, the late team's), once the log created the event.
        self.forfeit_score: tuple[str, str] | None = None

    # ---- whole entries ---------------------------------------------------------------------------
    def sentence(self, ev: Event) -> str:
        """What entry ``ev`` did, in words (call it for every entry, in order)."""
        say = SENTENCES.get(ev.type)
        if say is None:
            return self._("an entry of a kind this version of the desk does not know ({type}); log --json "
                          "shows it").format(type=_text(ev.type) if isinstance(ev.type, str) else "?")
        try:
            if not isinstance(ev.data, dict):
                raise Unreadable
            return say(self, ev.data)
        except (Unreadable, TournamentError, KeyError, IndexError, TypeError, ValueError, AttributeError):
            return self._("an entry ({type}) whose data this version of the desk cannot read; log --json shows "
                          "it").format(type=ev.type)

    def sentences(self, events: Iterable[Event]) -> list[str]:
        return [self.sentence(ev) for ev in events]

    def actor(self, actor: Any) -> str:
        """Who wrote an entry: the desk's actors in words, a player's account as ``account #7``."""
        text = str(actor)
        if text in ACTOR_WORDS:
            return self._(ACTOR_WORDS[text])
        if text.startswith("online:#") and text[8:].isdigit():
            return self._("account #{n}").format(n=text[8:])
        return " ".join(text.split())

    def kind(self, type_: Any) -> str:
        """What kind of entry it is, in words; a type this version does not know as written, on one line."""
        text = " ".join(str(type_).split())
        return self._(ENTRY_WORDS[text]) if text in ENTRY_WORDS else text

    def time(self, at: Any) -> str:
        """A logged time on the venue's clocks with its offset (as the log writes it), or "-"."""
        if not at:
            return "-"
        try:
            return stamp(parse_time(at), self.zone)
        except TournamentError:
            return _text(at)

    # ---- the words an entry is said with --------------------------------------------------------------
    def team(self, ref: Any) -> str:
        n = _int(ref)
        if n in self.teams:
            return self._("team {n} ({name})").format(n=n, name=self.teams[n])
        return self._("team {n}").format(n=n)

    def player(self, ref: Any) -> str:
        n = _int(ref)
        if n in self.players:
            return self._("player {n} ({name})").format(n=n, name=self.players[n])
        return self._("player {n}").format(n=n)

    def person(self, value: Any) -> str:
        """A player's name; a reference to a name kept beside the log that was not read back, as such."""
        if isinstance(value, dict) and set(value) == {"person"}:
            return self._("person #{n}").format(n=_int(value["person"]))
        return _text(value)

    def side(self, value: Any) -> str:
        return self._(_SIDE_WORDS[value])

    def seats(self, finish: Any) -> str:
        """A finishing order, first out first, by the catalogue's seat names (北 南 东 西)."""
        return " ".join(self._(SEAT_NAMES[s]) for s in parse_finish(finish))

    def result(self, r: Any, where: dict[str, int] | None = None, late: Any = None) -> str:
        """A result slip: the levels home first ("10:8"), or a forfeit: the levels it is scored at, who forfeited
        (the team too where the log paired the table ``where``) and how late they were (``late`` minutes, where
        the entry says); who passed A, the deciding deal, the deals played."""
        if not isinstance(r, dict):
            raise Unreadable
        _ = self._
        if r.get("forfeit") is not None:
            text = self.forfeit(r["forfeit"], where, late)
        else:
            levels = r["levels"]
            if not isinstance(levels, list | tuple) or len(levels) != 2:
                raise Unreadable
            text = ":".join(level_label(level_value(x)) for x in levels)
        if r.get("passed_a") is not None:
            text = _("{result}, {detail}").format(result=text, detail=_("{team} passed A").format(
                team=self.side(r["passed_a"])))
        if r.get("decider") is not None:
            text += _(", {team} won the deciding deal").format(team=self.side(r["decider"]))
        if r.get("deals") is not None:
            text = _("{result}, {detail}").format(result=text, detail=self.ngettext(
                "{n} deal played", "{n} deals played", _int(r["deals"])).format(n=_int(r["deals"])))
        return text

    def forfeit(self, side: Any, where: dict[str, int] | None, late: Any) -> str:
        """A forfeit by ``side``: "A:6, a forfeit by the away team, team 7 (泰山队), 12 minutes late"."""
        _ = self._
        teams = self.tables.get((where["round"], where["table"])) if where else None
        if teams is None:
            text = _(_FORFEITS[side])
        else:
            text = _(_FORFEITS_BY[side]).format(team=self.team(teams[0 if side == "home" else 1]))
        if self.forfeit_score is not None:
            present, absent = (level_label(level_value(x)) for x in self.forfeit_score)
            score = f"{absent}:{present}" if side == "home" else f"{present}:{absent}"
            text = _("{result}, {detail}").format(result=score, detail=text)
        if late is not None:
            if isinstance(late, bool) or not isinstance(late, int | float) or not 0 <= late < float("inf"):
                raise Unreadable
            whole = float(late).is_integer()
            minutes = str(int(late)) if whole else format(late, "g")
            text = _("{result}, {detail}").format(result=text, detail=self.ngettext(
                "{minutes} minute late", "{minutes} minutes late", int(late) if whole else 2).format(minutes=minutes))
        return text

    def where(self, d: dict[str, Any]) -> dict[str, int]:
        return {"round": _int(d["round"]), "table": _int(d["table"])}

    def deal_where(self, d: dict[str, Any]) -> dict[str, Any]:
        return {**self.where(d), "deal": _int(d["deal"])}

    def reasoned(self, text: str, d: dict[str, Any]) -> str:
        """``text`` with the entry's reason after it, when it has one."""
        reason = d.get("reason")
        if reason is None or not _text(reason):
            return text
        return self._("{entry}; reason: {reason}").format(entry=text, reason=_text(reason))

    def method(self, d: dict[str, Any]) -> str:
        method = str(d.get("method") or "")
        how = self._(METHOD_WORDS[method]) if method in METHOD_WORDS else _text(method)
        seed = d.get("seed")
        return how if seed is None else self._("{method}, seed {seed}").format(method=how, seed=_int(seed))

    def joined(self, items: Sequence[str]) -> str:
        return self._("; ").join(items) if items else self._("none")


# ---- one sentence per entry type ----------------------------------------------------------------------
def _created(r: LogReader, d: dict[str, Any]) -> str:
    cfg = d["config"]
    name = _text(cfg["name"])
    r.forfeit_score = _forfeit_score(cfg)
    if cfg.get("format") == "knockout":
        return r._("created the knockout event “{name}”").format(name=name)
    rounds = _int(cfg["rounds"])
    return r.ngettext("created the Swiss event “{name}” of {rounds} round",
                      "created the Swiss event “{name}” of {rounds} rounds", rounds).format(name=name, rounds=rounds)


def _forfeit_score(cfg: dict[str, Any]) -> tuple[str, str] | None:
    """The levels the event scores a forfeit at, as the state reads them from its config (the rules' default
    where the config has none); None where they are not two levels."""
    lateness = cfg.get("lateness", {})
    score = lateness.get("forfeit_score", LatenessRules().forfeit_score) if isinstance(lateness, dict) else None
    if not isinstance(score, list | tuple) or len(score) != 2:
        return None
    try:
        level_value(score[0]), level_value(score[1])
    except (TournamentError, ValueError, TypeError):
        return None
    return str(score[0]), str(score[1])


def _team_registered(r: LogReader, d: dict[str, Any]) -> str:
    t = d["team"]
    n = len(r.teams) + 1  # a team's number is its place among the registrations
    r.teams[n] = _text(t["name"])
    players = " / ".join(r.person(p) for p in t["players"])
    club = t.get("club")
    if club is not None and _text(club):
        return r._("{team} registered: {players} ({club})").format(team=r.team(n), players=players, club=_text(club))
    return r._("{team} registered: {players}").format(team=r.team(n), players=players)


def _team_withdrawn(r: LogReader, d: dict[str, Any]) -> str:
    return r.reasoned(r._("{team} withdrew").format(team=r.team(d["team"])), d)


def _round_paired(r: LogReader, d: dict[str, Any]) -> str:
    items = [r._("table {table}: {home} v {away}").format(table=i, home=r.team(h), away=r.team(a))
             for i, (h, a) in enumerate(d["tables"], 1)]
    _seat_tables(r, _int(d["round"]), [(h, a) for h, a in d["tables"]])
    if d.get("bye") is not None:
        items.append(r._("bye: {team}").format(team=r.team(d["bye"])))
    where = {"round": _int(d["round"]), "how": r.method(d), "tables": r.joined(items)}
    if d.get("repair"):
        return r.reasoned(r._("round {round} paired again ({how}): {tables}").format(**where), d)
    return r._("round {round} paired ({how}): {tables}").format(**where)


def _seat_tables(r: LogReader, round_no: int, tables: list[tuple[Any, Any]]) -> None:
    """The round's tables as paired (a re-pairing replaces them), numbered from 1 in the entry's order."""
    r.tables = {k: v for k, v in r.tables.items() if k[0] != round_no}
    for i, (home, away) in enumerate(tables, 1):
        r.tables[(round_no, i)] = (_int(home), _int(away))


def _result_entered(r: LogReader, d: dict[str, Any]) -> str:
    return r._("round {round} table {table}: {team} entered {result}").format(
        **r.where(d), team=r.team(d["by"]), result=r.result(d["result"], r.where(d), d.get("late_minutes")))


def _result_confirmed(r: LogReader, d: dict[str, Any]) -> str:
    return r._("round {round} table {table}: {team} confirmed the result").format(**r.where(d), team=r.team(d["by"]))


def _result_disputed(r: LogReader, d: dict[str, Any]) -> str:
    return r.reasoned(r._("round {round} table {table}: {team} disputed the result").format(
        **r.where(d), team=r.team(d["by"])), d)


def _result_rejected(r: LogReader, d: dict[str, Any]) -> str:
    return r.reasoned(r._("round {round} table {table}: {team} sent the result back").format(
        **r.where(d), team=r.team(d["by"])), d)


def _result_overridden(r: LogReader, d: dict[str, Any]) -> str:
    return r.reasoned(r._("round {round} table {table}: the arbiter set the result to {result}").format(
        **r.where(d), result=r.result(d["result"], r.where(d), d.get("late_minutes"))), d)


def _result_reported(r: LogReader, d: dict[str, Any]) -> str:
    return r._("round {round} table {table}: result reported as {result}").format(
        **r.where(d), result=r.result(d["result"], r.where(d), d.get("late_minutes")))


def _round_started(r: LogReader, d: dict[str, Any]) -> str:
    # the round's given start; without one the entry's own time, which the line shows already
    at = d.get("at")
    if at is None:
        return r._("round {n} started").format(n=_int(d["round"]))
    return r._("round {n} started at {time}").format(n=_int(d["round"]), time=stamp(parse_time(at), r.zone))


def _deal_reported(r: LogReader, d: dict[str, Any]) -> str:
    return r._("round {round} table {table} deal {deal}: {team} reported the finishing order {finish}").format(
        **r.deal_where(d), team=r.team(d["by"]), finish=r.seats(d["finish"]))


def _deal_confirmed(r: LogReader, d: dict[str, Any]) -> str:
    return r._("round {round} table {table} deal {deal}: {team} confirmed it").format(
        **r.deal_where(d), team=r.team(d["by"]))


def _deal_rejected(r: LogReader, d: dict[str, Any]) -> str:
    return r.reasoned(r._("round {round} table {table} deal {deal}: {team} sent it back").format(
        **r.deal_where(d), team=r.team(d["by"])), d)


def _deal_disputed(r: LogReader, d: dict[str, Any]) -> str:
    return r.reasoned(r._("round {round} table {table} deal {deal}: {team} disputed it").format(
        **r.deal_where(d), team=r.team(d["by"])), d)


def _deals_set(r: LogReader, d: dict[str, Any]) -> str:
    items = []
    for n, x in enumerate(d["deals"], 1):
        if "finish" in x:
            how = r.seats(x["finish"])
        else:
            how = r._({"home": N_("award home"), "away": N_("award away")}[x["award"]])
        items.append(r._("deal {n}: {how}").format(n=n, how=how))
    if d.get("end"):
        text = r._("round {round} table {table}: the arbiter set the deals and ended the round there: {deals}")
    else:
        text = r._("round {round} table {table}: the arbiter set the deals: {deals}")
    return r.reasoned(text.format(**r.where(d), deals=r.joined(items)), d)


def _code_refused(r: LogReader, d: dict[str, Any]) -> str:
    where = r.where(d)
    key = (where["round"], where["table"])
    r.wrong[key] = r.wrong.get(key, 0) + 1
    return r._("round {round} table {table}: a wrong code ({n} of {limit})").format(
        **where, n=r.wrong[key], limit=CODE_LIMIT)


def _table_locked(r: LogReader, d: dict[str, Any]) -> str:
    auto = _WRONG_CODES.fullmatch(str(d.get("reason") or ""))
    if auto:  # the desk's own lock, after the last wrong code
        return r._("round {round} table {table}: locked after {n} wrong codes").format(**r.where(d), n=auto[1])
    return r.reasoned(r._("round {round} table {table}: locked by the arbiter").format(**r.where(d)), d)


def _table_unlocked(r: LogReader, d: dict[str, Any]) -> str:
    where = r.where(d)
    r.wrong.pop((where["round"], where["table"]), None)
    return r.reasoned(r._("round {round} table {table}: unlocked").format(**where), d)


def _player_registered(r: LogReader, d: dict[str, Any]) -> str:
    p = d["player"]
    n = len(r.players) + 1
    r.players[n] = _text(p["name"])
    club = p.get("club")
    if club is not None and _text(club):
        return r._("{player} registered ({club})").format(player=r.player(n), club=_text(club))
    return r._("{player} registered").format(player=r.player(n))


def _player_withdrawn(r: LogReader, d: dict[str, Any]) -> str:
    return r.reasoned(r._("{player} withdrew").format(player=r.player(d["player"])), d)


def _partners_drawn(r: LogReader, d: dict[str, Any]) -> str:
    r.teams = {i: _text(row["name"]) for i, row in enumerate(d["teams"], 1)}
    teams = r.joined([r.team(i) for i in r.teams])
    if d.get("seed") is None:
        return r._("partners drawn at random: {teams}").format(teams=teams)
    return r._("partners drawn at random (seed {seed}): {teams}").format(seed=_int(d["seed"]), teams=teams)


def _knockout_paired(r: LogReader, d: dict[str, Any]) -> str:
    items = []
    _seat_tables(r, _int(d["round"]), [(a, b) for a, b in d["matches"] if a is not None and b is not None])
    for a, b in d["matches"]:
        if a is not None and b is not None:
            items.append(r._("{home} v {away}").format(home=r.team(a), away=r.team(b)))
        elif a is not None or b is not None:
            items.append(r._("{team}: bye").format(team=r.team(a if a is not None else b)))
    where = {"round": _int(d["round"]), "how": r.method(d), "matches": r.joined(items)}
    if not d.get("repair"):
        return r._("knockout round {round} paired ({how}): {matches}").format(**where)
    text = r._("knockout round {round} paired again ({how}): {matches}").format(**where)
    auto = _CORRECTED.fullmatch(str(d.get("reason") or ""))
    if auto:  # the desk's own re-pairing after a corrected result
        return r._("{entry}; reason: {reason}").format(entry=text, reason=r._(
            "round {round} table {table} corrected: another team goes through").format(round=auto[1], table=auto[2]))
    return r.reasoned(text, d)


def _table_paused(r: LogReader, d: dict[str, Any]) -> str:
    return r.reasoned(r._("round {round} table {table}: play paused").format(**r.where(d)), d)


def _table_resumed(r: LogReader, d: dict[str, Any]) -> str:
    return r.reasoned(r._("round {round} table {table}: play resumed").format(**r.where(d)), d)


def _player_replaced(r: LogReader, d: dict[str, Any]) -> str:
    return r.reasoned(r._("{team}: {new} plays in place of {old}").format(
        team=r.team(d["team"]), new=r.person(d["new"]), old=r.person(d["old"])), d)


def _names_forgotten(r: LogReader, d: dict[str, Any]) -> str:
    # how many, never whose: the names are gone from the log's readings
    return r.reasoned(r._("names forgotten: {n}").format(n=_int(d["people"])), d)


def _time_zone_set(r: LogReader, d: dict[str, Any]) -> str:
    return r.reasoned(r._("the venue's time zone set to {zone}").format(zone=_text(d["time_zone"])), d)


#: Every entry type's sentence (tests check that each of state.EVENT_TYPES has one).
SENTENCES: dict[str, Callable[[LogReader, dict[str, Any]], str]] = {
    "created": _created, "team_registered": _team_registered, "team_withdrawn": _team_withdrawn,
    "round_paired": _round_paired, "result_entered": _result_entered, "result_confirmed": _result_confirmed,
    "result_disputed": _result_disputed, "result_overridden": _result_overridden,
    "result_reported": _result_reported, "result_rejected": _result_rejected, "round_started": _round_started,
    "deal_reported": _deal_reported, "deal_confirmed": _deal_confirmed, "deal_rejected": _deal_rejected,
    "deal_disputed": _deal_disputed, "deals_set": _deals_set, "code_refused": _code_refused,
    "table_locked": _table_locked, "table_unlocked": _table_unlocked, "player_registered": _player_registered,
    "player_withdrawn": _player_withdrawn, "partners_drawn": _partners_drawn, "knockout_paired": _knockout_paired,
    "table_paused": _table_paused, "table_resumed": _table_resumed, "player_replaced": _player_replaced,
    "names_forgotten": _names_forgotten, "time_zone_set": _time_zone_set,
}


def log_zone(events: Iterable[Event]) -> tzinfo:
    """The venue's time zone as the log last set it (the ``created`` entry's, then ``time_zone_set``), else the
    machine's: what the state's :attr:`~.state.TournamentState.zone` is, read without replaying the log (so that a
    log this version cannot replay, one written by a newer version, is still listed)."""
    name = None
    for ev in events:
        d = ev.data if isinstance(ev.data, dict) else {}
        if ev.type == "created" and isinstance(d.get("config"), dict):
            name = d["config"].get("time_zone")
        elif ev.type == "time_zone_set":
            name = d.get("time_zone", name)
    return venue_zone(name if isinstance(name, str) else None)


def log_sentences(events: Iterable[Event], lang: str, zone: tzinfo | None = None) -> list[str]:
    """Each entry of a whole log (in order), in words."""
    return LogReader(lang, zone).sentences(events)


def log_lines(events: Sequence[Event], lang: str, zone: tzinfo | None = None) -> list[str]:
    """The log as ``log`` prints it: per entry its number, time (on ``zone``'s clocks, with the offset), who
    wrote it, and what it did."""
    reader = LogReader(lang, zone)
    actors = [reader.actor(e.actor) for e in events]
    cols = max((width(a) for a in actors), default=0)
    return [f"{e.seq:4d} {reader.time(e.at)} {pad(actor, cols)} {reader.sentence(e)}"
            for e, actor in zip(events, actors, strict=True)]
