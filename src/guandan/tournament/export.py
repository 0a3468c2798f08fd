"""What the desk exports: standings with every tie-break column, table lists, a cross-table, the audit log;
Excel, CSV and JSON; the score slips' HTML and QR codes.

Each export starts from *records*: plain dicts with stable snake_case keys and JSON values (numbers as
numbers, a missing value as None, a side as "home"/"away"), which are what ``--json`` prints. The
spreadsheet and the CLI's text tables show the same records under bilingual column headers (the ``*_FIELDS``
tables pair each key with its header), so every face shows the same thing. The xlsx and CSV files, which people
read, say the records' coded values in words in the export's language (a status, a side, a bye; the log's
authors and kinds of entry); their sheets' names are bilingual as their headers are.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from ..cliutil import width
from ..core.errors import shown
from ..i18n import LANGUAGES, N_, Translator, translator
from ..present import rank_text
from .bracket import standing_order
from .errors import TournamentError, Word, refusal
from .levels import level_name, level_value
from .logtext import LogReader
from .model import SIDES
from .names import name_key
from .state import DISPUTED, ENTERED, FINAL, IN_PLAY, MISSING, REJECTED, Event, TableState, TournamentState, parse_time
from .venuetime import stamp, zone_label
from .words import (
    KNOCKOUT_ORDER,
    SOURCE_WORDS,
    STANDING_HEADS,
    STATUS_WORDS,
    knockout_rank,
    knockout_standing,
    order_line,
    standing_label,
    with_decider,
)

Gettext = Callable[[str], str]

#: (JSON key, column header) of a standings line, in the order the columns are shown: the heads every standings
#: table writes (words.STANDING_HEADS), the figures' with their Chinese (场分 MP).
STANDING_FIELDS: tuple[tuple[str, str], ...] = (
    *((key, standing_label(key)) for key in STANDING_HEADS), ("withdrawn", "退赛 Withdrawn"),
)
#: A knockout's standings: where each team stands in the bracket (champion, still in, out in round 2) after its name.
KNOCKOUT_STANDING_FIELDS: tuple[tuple[str, str], ...] = (*STANDING_FIELDS[:3], ("status", "Status"), *STANDING_FIELDS[3:])
#: (JSON key, column header) of a table's line in the exports: both sides' numbers as well as the text. A side is
#: 主队/客队 (home/away) in every header, as the desk's words say a side; 南北/东西 name seats (主队（南北）).
TABLE_FIELDS: tuple[tuple[str, str], ...] = (
    ("round", "Round"), ("table", "Table"), ("home_id", "Home No."), ("home", "Home (N–S)"),
    ("away_id", "Away No."), ("away", "Away (E–W)"), ("result", "Result"),
    ("home_level", "主队级数 Home level"), ("home_level_text", "主队级数（写法） Home level (written)"),
    ("away_level", "客队级数 Away level"), ("away_level_text", "客队级数（写法） Away level (written)"),
    ("deals", "副数 Deals"), ("level_diff", "级差 Winning margin"),
    ("home_levels_gained", "主队升级数 Home levels gained"), ("away_levels_gained", "客队升级数 Away levels gained"),
    ("home_match_points", "主队场分 Home MP"), ("away_match_points", "客队场分 Away MP"),
    ("passed_a", "过A Passed A"), ("forfeit", "弃权 Forfeit"), ("winner_team", "Winner"), ("status", "Status"),
    ("source", "Source"),
)
#: (JSON key, column header) of a team's line in the table list by team.
TEAM_FIELDS: tuple[tuple[str, str], ...] = (
    ("team", "Team"), ("team_id", "No."), ("round", "Round"), ("table", "Table"), ("seats", "Seats"),
    ("opponent", "Opponent"),
)
#: The headers of the venue screen, the CLI's standings and the first standings columns of the exports.
STANDING_COLUMNS = tuple(label for key, label in STANDING_FIELDS if key != "withdrawn")
#: The headers of the CLI's table lists (the exports add the numeric columns of TABLE_FIELDS).
TABLE_COLUMNS = ("Round", "Table", "Home (N–S)", "Away (E–W)", "Result", "Winner", "Status", "Source")
TEAM_COLUMNS = tuple(label for _key, label in TEAM_FIELDS)
_TABLE_LABEL_KEYS = ("round", "table", "home", "away", "result", "winner_team", "status", "source")
#: The Chinese of the headers above that are English only (the desk catalogue's words where it has them): the
#: exports' files write every header in both languages, "编号 No.", in the same order of columns.
EXPORT_ZH: dict[str, str] = {
    "Rank": "名次", "No.": "编号", "Team": "队伍", "Club": "单位", "Players": "队员", "Played": "场次", "W": "胜", "D": "平",
    "L": "负", "Byes": "轮空", "Round": "轮次", "Table": "桌号", "Home No.": "主队编号", "Home (N–S)": "主队（南北）",
    "Away No.": "客队编号", "Away (E–W)": "客队（东西）", "Result": "结果", "Winner": "胜方", "Status": "状态",
    "Source": "来源", "Seats": "座位", "Opponent": "对手", "Seq": "序号", "Type": "类型", "Actor": "操作人",
    "At": "时间", "Data": "数据", "Entry": "记录",
}
#: The Audit log sheet's columns: what it did in words last, so that the columns before it stay where they were.
LOG_COLUMNS = ("Seq", "Type", "Actor", "At", "Data", "Entry")
#: The workbook's sheets, named as its headers are, Chinese then English ("成绩排名 Standings"), whatever language the
#: export is in, so that a reader finds a sheet by one name. The Chinese are the desk catalogue's words (its pages'
#: "Standings", "Standings after round {n}", "Tables by number", "Teams by name"; the log's 审计日志).
SHEET_ZH: dict[str, str] = {"Standings": "成绩排名", "After R{n}": "第{n}轮后排名", "Tables": "按桌号",
                            "By team": "按队名", "Cross-table": "交叉表", "Audit log": "审计日志"}
#: What Excel refuses in a sheet's name (and it allows 31 characters at most).
_SHEET_FORBIDDEN = re.compile(r"[\\\[\]:*?/]")


def sheet_title(name: str, n: int = 0) -> str:
    """A sheet's name in the workbook: "成绩排名 Standings", "第2轮后排名 After R2" (``n``, the round)."""
    title = f"{SHEET_ZH[name]} {name}".format(n=n)
    if len(title) > 31 or _SHEET_FORBIDDEN.search(title):
        raise ValueError(f"not a sheet name Excel accepts: {title}")
    return title


def export_header(label: str) -> str:
    """A column's header as the exported files write it: Chinese and English ("编号 No."); a header that is
    bilingual already ("场分 MP") as it is."""
    return f"{EXPORT_ZH[label]} {label}" if label in EXPORT_ZH else label

templates = Environment(loader=PackageLoader("guandan.tournament", "templates"), autoescape=select_autoescape())
templates.filters["rank"] = rank_text  # a stored level ("T") as people read it ("10")
# a table's statuses by name, so templates compare against the state's own words: ``t.status == status.final``
templates.globals["status"] = SimpleNamespace(missing=MISSING, entered=ENTERED, rejected=REJECTED,
                                              disputed=DISPUTED, in_play=IN_PLAY, final=FINAL)


def level_text(value: int) -> str:
    """A level value 2…14 as people write it: "2"…"10", "J", "Q", "K", "A"."""
    return rank_text(level_name(value))


def cell(value: Any) -> Any:
    """A record's value as a spreadsheet or text table shows it: lists joined, None blank, a flag as yes."""
    if value is None or value is False:
        return ""
    if value is True:
        return "yes"
    if isinstance(value, list | tuple):
        return " / ".join(str(v) for v in value)
    return value


def labelled(records: Iterable[dict[str, Any]], fields: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    """Records keyed by their column headers, with :func:`cell` values."""
    return [{label: cell(rec[key]) for key, label in fields} for rec in records]


# ---- standings -----------------------------------------------------------------------------------

def standing_fields(state: TournamentState) -> tuple[tuple[str, str], ...]:
    """The standings' columns of the event: :data:`KNOCKOUT_STANDING_FIELDS` for a knockout."""
    return KNOCKOUT_STANDING_FIELDS if state.is_knockout else STANDING_FIELDS


def standing_records(state: TournamentState, through_round: int | None = None) -> list[dict[str, Any]]:
    """The standings, one record per team: the keys of :data:`STANDING_FIELDS` (``players`` a list,
    ``club`` None when the team has none, ``withdrawn`` a boolean).

    A knockout's are in the knockout's order (:func:`~.bracket.standing_order`), its ``rank`` that order's, with
    its ``place`` (None while the team is in), ``place_shared``, ``status`` (champion, runner_up, in, withdrawn,
    out), ``eliminated_in`` (a round) and ``decider`` ("won"/"lost": the last match went to the deciding deal);
    the Swiss figures are the team's record only."""
    figures = {s.team_id: s for s in state.standings(through_round)}
    if state.is_knockout:
        order = [(k.pop("team_id"), k) for k in standing_order(state, through_round)]
    else:
        order = [(s.team_id, {}) for s in figures.values()]
    out = []
    for tid, knockout in order:
        s, t = figures[tid], state.teams[tid]
        out.append({"rank": s.rank, "team_id": t.id, "team": t.name, "club": t.club, "players": list(t.players),
                    "match_points": s.match_points, "opponents_points": s.opponents_points,
                    "level_diff": s.level_diff, "levels_gained": s.levels_gained, "played": s.played,
                    "wins": s.wins, "draws": s.draws, "losses": s.losses, "byes": s.byes,
                    "withdrawn": state.withdrawn_by(t.id, through_round)} | knockout)
    return out


def standings_json(state: TournamentState, through_round: int | None = None) -> dict[str, Any]:
    """What ``standings --json`` prints: the event, the tie-break chain and :func:`standing_records`."""
    return {"tournament": state.id, "name": state.cfg.name, "after_round": through_round,
            "completed_rounds": state.completed_rounds, "tiebreaks": list(state.cfg.tiebreaks),
            "standings": standing_records(state, through_round)}


# ---- tables ----------------------------------------------------------------------------------------

def result_text(ts: TableState) -> str:
    """"A:6" style, home first; a pass of A or a forfeit is marked; a result waiting for confirmation is
    in brackets, marked as a final one would be."""
    if ts.result is None:
        if ts.pending is not None and ts.pending.levels is not None:
            text = f"{rank_text(ts.pending.levels[0])}:{rank_text(ts.pending.levels[1])}"
            return PENDING.format(result=text + (PASSED_A_MARK if ts.pending.passed_a is not None else ""))
        return ""
    r = ts.result
    text = f"{level_text(r.levels[0])}:{level_text(r.levels[1])}"
    if r.passed_a is not None:
        text += PASSED_A_MARK
    if r.forfeit is not None:
        text += FORFEIT_MARK
    return text


#: How a result or score in the records (and the CLI's tables) marks a forfeit ("6:A forfeit") and a bye ("bye").
FORFEIT_MARK = " forfeit"
#: How a result or score marks a pass of A: the term itself, in every language, as the slips and exports say it.
PASSED_A_MARK = " 过A"
BYE = "bye"
#: How a result waiting for confirmation is marked: in brackets, the desk catalogue's (full-width in Chinese, as the
#: desk's Chinese writes every bracket) where people read it (:func:`marked`).
PENDING = N_("({result})")


def _side(side: int | None) -> str | None:
    return None if side is None else SIDES[side]


def table_record(state: TournamentState, ts: TableState) -> dict[str, Any]:
    """One table's line: the keys of :data:`TABLE_FIELDS` plus ``winner`` ("home", "away", "draw"; None
    while there is no final result), ``bye`` (False), ``deals_reported`` (confirmed deals so far, when deals
    are reported one by one), ``ended_by`` (how a round reported by deals ended: deals, pass_a, time or
    arbiter) and ``locked`` (too many wrong codes). The numbers are those of the final result, None until
    there is one."""
    tb = ts.table
    r = ts.result
    rec: dict[str, Any] = {
        "round": tb.round, "table": tb.number, "home_id": tb.home, "home": state.teams[tb.home].name,
        "away_id": tb.away, "away": state.teams[tb.away].name, "result": result_text(ts),
        "home_level": None, "home_level_text": None, "away_level": None, "away_level_text": None,
        "deals": None, "level_diff": None, "home_levels_gained": None, "away_levels_gained": None,
        "home_match_points": None, "away_match_points": None, "passed_a": None, "forfeit": None,
        "winner": None, "winner_team": None, "status": ts.status, "source": ts.source, "bye": False,
        "deals_reported": len(ts.deals), "ended_by": ts.ended_by, "locked": ts.locked}
    if r is not None:
        rec |= {"home_level": r.levels[0], "home_level_text": level_text(r.levels[0]),
                "away_level": r.levels[1], "away_level_text": level_text(r.levels[1]),
                "deals": ts.final.deals if ts.final is not None else None, "level_diff": r.level_diff,
                "home_levels_gained": r.levels_gained[0], "away_levels_gained": r.levels_gained[1],
                "home_match_points": r.match_points[0], "away_match_points": r.match_points[1],
                "passed_a": _side(r.passed_a), "forfeit": _side(r.forfeit),
                "winner": "draw" if r.winner is None else SIDES[r.winner],
                "winner_team": "draw" if r.winner is None else state.teams[tb.teams()[r.winner]].name}
    return rec


def bye_record(state: TournamentState, round_no: int, team_id: int) -> dict[str, Any]:
    """A round's bye as a table line: ``table`` None, ``bye`` True, scored as the event's bye score."""
    cfg = state.cfg
    home_level = level_value(cfg.bye_score[0])
    return {"round": round_no, "table": None, "home_id": team_id, "home": state.teams[team_id].name,
            "away_id": None, "away": None, "result": BYE, "home_level": home_level,
            "home_level_text": level_text(home_level), "away_level": None, "away_level_text": None, "deals": None,
            "level_diff": None, "home_levels_gained": home_level - 2, "away_levels_gained": None,
            "home_match_points": cfg.match_points[0], "away_match_points": None, "passed_a": None, "forfeit": None,
            "winner": "home", "winner_team": state.teams[team_id].name, "status": FINAL, "source": "rule",
            "bye": True, "deals_reported": 0, "ended_by": None, "locked": False}


def table_records(state: TournamentState, round_no: int | None = None, *,
                  byes: bool = True) -> list[dict[str, Any]]:
    """Every table (of one round, or of all), by round and table number, each round's bye last."""
    out: list[dict[str, Any]] = []
    for r in sorted(state.rounds.values(), key=lambda r: r.number):
        if round_no is not None and r.number != round_no:
            continue
        out.extend(table_record(state, ts) for ts in r.tables.values())
        if byes and r.bye is not None:
            out.append(bye_record(state, r.number, r.bye))
    return out


def table_rows(state: TournamentState, round_no: int | None = None) -> list[dict[str, Any]]:
    """The table list keyed by :data:`TABLE_COLUMNS`, its values as stored (the rounds API's ``rows``); the CLI and
    the files people read say them in words (:func:`table_export_rows`)."""
    rows = []
    for rec in table_records(state, round_no):
        row = {label: cell(rec[key]) for key, label in zip(_TABLE_LABEL_KEYS, TABLE_COLUMNS, strict=True)}
        if rec["bye"]:
            row["Table"] = "bye"
        if rec["winner"] == "draw":  # a Word, so that a reader's language says it and a team called "draw" stays
            row["Winner"] = Word(N_("draw"))
        rows.append(row)
    return rows


# ---- the exports' words ------------------------------------------------------------------------------
# The xlsx and CSV files are read by people: their coded values (a status, a source, a side, a bye, a forfeit)
# are said in the export's language, from the desk catalogue, as its pages say them. The JSON export and
# ``--json`` keep the records' own values (machines read those).

#: A side as the records write it ("home"/"away"), in words.
_SIDE_WORDS = {"home": N_("home"), "away": N_("away")}
#: A team's seats ("N–S"/"E–W"), in words.
_SEAT_WORDS = {"N–S": N_("N–S"), "E–W": N_("E–W")}


def export_words(lang: str) -> Gettext:
    """The desk catalogue's ``gettext`` in the export's language (``zh``, ``en``)."""
    return translator("desk", check_lang(lang)).gettext


def _coded(value: Any, words: dict[str, str], _: Gettext) -> Any:
    """A coded value in words; one the table does not know as it is (blank for none)."""
    return _(words[value]) if isinstance(value, str) and value in words else cell(value)


def marked(text: str | None, _: Gettext) -> str:
    """A result or score as the exports write it: a bye and a forfeit in words ("6:A 弃权", "轮空"), a result
    waiting for confirmation in the language's brackets ("（J:Q）")."""
    if not text:
        return ""
    if text == BYE:
        return _("bye")
    inner = text[1:-1]
    if text == PENDING.format(result=inner):
        return _(PENDING).format(result=inner)
    if text.endswith(FORFEIT_MARK):
        return f"{text[:-len(FORFEIT_MARK)]} {_('forfeit')}"
    return text


def chain_text(state: TournamentState, _: Gettext) -> str:
    """The standings' order as a line (the prints' and the workbook's): :func:`~.words.order_line`, a knockout's
    :data:`~.words.KNOCKOUT_ORDER`."""
    return _(KNOCKOUT_ORDER) if state.is_knockout else order_line(state.cfg.tiebreaks, _)


def standing_export_rows(state: TournamentState, through_round: int | None = None,
                         lang: str = "zh") -> list[dict[str, Any]]:
    """The standings keyed by the headers of :func:`standing_fields`, numbers as numbers, a withdrawn team
    marked in words; a knockout's place as its rank ("3=" shared, blank while the team is in) and its status in
    words."""
    _ = export_words(lang)
    records = standing_records(state, through_round)
    if state.is_knockout:
        records = [knockout_standing(rec, _) for rec in records]
    rows = labelled(records, standing_fields(state))
    for row in rows:
        row["退赛 Withdrawn"] = _("withdrawn") if row["退赛 Withdrawn"] == "yes" else ""
    return rows


def table_export_rows(state: TournamentState, round_no: int | None = None, lang: str = "zh") -> list[dict[str, Any]]:
    """The table list keyed by the headers of :data:`TABLE_FIELDS`, numbers as numbers, the rest in words in
    ``lang``: a bye, a forfeit, a side, a draw, the status and where the result came from."""
    _ = export_words(lang)
    rows = []
    for rec in table_records(state, round_no):
        row = {label: cell(rec[key]) for key, label in TABLE_FIELDS}
        row |= {"Result": marked(rec["result"], _), "过A Passed A": _coded(rec["passed_a"], _SIDE_WORDS, _),
                "弃权 Forfeit": _coded(rec["forfeit"], _SIDE_WORDS, _),
                "Status": _coded(rec["status"], STATUS_WORDS, _), "Source": _coded(rec["source"], SOURCE_WORDS, _)}
        if rec["bye"]:
            row["Table"] = _("bye")
        if rec["winner"] == "draw":  # the word, not a team's name: a team called "draw" stays as it is
            row["Winner"] = _("draw")
        rows.append(row)
    return rows


def team_export_rows(state: TournamentState, round_no: int | None = None, lang: str = "zh") -> list[dict[str, Any]]:
    """Where every team plays, keyed by :data:`TEAM_COLUMNS`, the seats and a bye in words in ``lang``."""
    _ = export_words(lang)
    rows = []
    for rec in team_records(state, round_no):
        row = {label: cell(rec[key]) for key, label in TEAM_FIELDS}
        row["Seats"] = _coded(rec["seats"], _SEAT_WORDS, _)
        if rec["bye"]:
            row["Table"] = _("bye")
        rows.append(row)
    return rows


def team_records(state: TournamentState, round_no: int | None = None) -> list[dict[str, Any]]:
    """Where every team plays, by round then team name (:func:`~.names.name_key`: Chinese names by pinyin): the
    keys of :data:`TEAM_FIELDS` plus ``side`` ("home"/"away"), ``opponent_id`` and ``bye``; ``seats`` is "N–S"
    or "E–W"."""
    out = []
    for r in sorted(state.rounds.values(), key=lambda r: r.number):
        if round_no is not None and r.number != round_no:
            continue
        rows = []
        for tid in state.teams:
            ts = r.table_of(tid)
            rec: dict[str, Any] = {"team": state.teams[tid].name, "team_id": tid, "round": r.number, "table": None,
                                   "side": None, "seats": None, "opponent_id": None, "opponent": None, "bye": False}
            if ts is not None:
                side = ts.table.side_of(tid)
                opp = ts.table.teams()[1 - side]
                rec |= {"table": ts.table.number, "side": SIDES[side], "seats": "N–S" if side == 0 else "E–W",
                        "opponent_id": opp, "opponent": state.teams[opp].name}
            elif r.bye == tid:
                rec["bye"] = True
            else:
                continue
            rows.append(rec)
        out.extend(sorted(rows, key=lambda rec: (name_key(rec["team"]), rec["team_id"])))
    return out


def tables_json(state: TournamentState, round_no: int | None = None) -> dict[str, Any]:
    """What ``standings --tables --json`` prints: :func:`table_records` and :func:`team_records`."""
    return {"tournament": state.id, "name": state.cfg.name, "round": round_no,
            "tables": table_records(state, round_no), "by_team": team_records(state, round_no)}


def status_json(state: TournamentState) -> dict[str, Any]:
    """What ``status --json`` prints: where the event stands (``rounds`` and ``rounds_total`` as
    :func:`export_json` has them), the current round's tables
    (:func:`table_records`, the bye apart) and clock (:meth:`TournamentState.round_clock`), the venue's time
    zone (its IANA name; None while the machine's is used), and what still blocks the next pairing."""
    cur = state.current_round
    bye = state.rounds[cur].bye if cur else None
    blockers = state.pairing_blockers()
    return {"tournament": state.id, "name": state.cfg.name, "teams": len(state.teams),
            "active_teams": len(state.active_teams), "rounds": state.cfg.rounds, "rounds_total": state.rounds_total,
            "current_round": cur, "completed_rounds": state.completed_rounds, "finished": state.finished,
            "tables": table_records(state, cur, byes=False) if cur else [],
            "bye": None if bye is None else {"team_id": bye, "team": state.teams[bye].name},
            "clock": state.round_clock(cur) if cur else None, "time_zone": state.time_zone,
            "ready_to_pair": not blockers, "pairing_blockers": blockers}


# ---- the cross-table -------------------------------------------------------------------------------

def cross_records(state: TournamentState) -> list[dict[str, Any]]:
    """One record per team in standings order (a knockout's, with its ``place`` … ``decider`` as
    :func:`standing_records` has them): ``rank``, ``team_id``, ``team``, ``withdrawn``,
    ``match_points`` (the total) and ``rounds``, one entry per paired round: ``round``, ``table``,
    ``opponent_id``, ``opponent``, ``side`` ("home"/"away"; None for a bye or no game), ``bye``,
    ``outcome`` ("win", "draw", "loss"; None until the result is final), ``score`` (the team's own level
    first, e.g. "A:9") and ``match_points`` (场分 of that round); a knockout's also ``decider`` ("won"/"lost": the
    round ended level and the deciding deal, 加赛一副, sent one team on; else None)."""
    knockout = state.is_knockout
    per_team: dict[int, dict[int, dict[str, Any]]] = {t: {} for t in state.teams}
    for rec in table_records(state):
        n = rec["round"]
        for side, key in ((0, "home"), (1, "away")):
            team = rec[f"{key}_id"]
            if team is None:
                continue
            other = "away" if key == "home" else "home"
            final = rec["status"] == FINAL and rec["home_match_points"] is not None
            outcome = None
            score = None
            if final:
                outcome = "draw" if rec["winner"] == "draw" else "win" if rec["winner"] == key else "loss"
                score = BYE if rec["bye"] else f"{rec[key + '_level_text']}:{rec[other + '_level_text']}"
                if rec["passed_a"] == key:
                    score += PASSED_A_MARK
                if rec["forfeit"] is not None:
                    score += FORFEIT_MARK
            per_team[team][n] = {
                "round": n, "table": rec["table"], "opponent_id": rec[f"{other}_id"], "opponent": rec[other],
                "side": None if rec["bye"] else SIDES[side], "bye": rec["bye"], "outcome": outcome,
                "score": score, "match_points": rec[f"{key}_match_points"] if final else None}
            if knockout:
                per_team[team][n]["decider"] = _decider(state, rec, side) if outcome == "draw" else None
    rounds = sorted(state.rounds)
    empty = {"table": None, "opponent_id": None, "opponent": None, "side": None, "bye": False, "outcome": None,
             "score": None, "match_points": None, **({"decider": None} if knockout else {})}
    standing = ("place", "place_shared", "status", "eliminated_in", "decider") if knockout else ()
    return [{"rank": s["rank"], "team_id": s["team_id"], "team": s["team"], "withdrawn": s["withdrawn"],
             "match_points": s["match_points"], **{k: s[k] for k in standing},
             "rounds": [per_team[s["team_id"]].get(n, {"round": n, **empty}) for n in rounds]}
            for s in standing_records(state)]


def _decider(state: TournamentState, rec: dict[str, Any], side: int) -> str | None:
    """Whether the ``side`` of a knockout table's level round ("won"/"lost") went through on the deciding deal;
    None where none was played."""
    ts = state.rounds[rec["round"]].tables[rec["table"]]
    if ts.final is None or ts.final.decider is None:
        return None
    return "won" if ts.final.decider == side else "lost"


#: A round's outcome in the cross-table, by the standings' column words (胜 平 负).
_OUTCOME = {"win": N_("W"), "draw": N_("D"), "loss": N_("L")}


def cross_columns(state: TournamentState) -> list[str]:
    cols = ["名次 Rank", "No.", "Team"]
    for n in sorted(state.rounds):
        cols += [f"R{n} 对手 Opp", f"R{n} 座位 Seats", f"R{n} 结果 Result", f"R{n} 场分 MP"]
    return [*cols, "场分 MP"]


def cross_rows(state: TournamentState, lang: str = "zh") -> list[dict[str, Any]]:
    """The cross-table keyed by :func:`cross_columns`, in words in ``lang``: per round the opponent, the seats
    (南北 or 东西, the by-team sheet's 座位 Seats), the result (胜/平/负 and the team's own level first; a knockout's
    level round with who won the deciding deal, 平 9:9（加赛胜）) and the round's 场分."""
    _ = export_words(lang)
    rows = []
    for rec in cross_records(state):
        name = _("{team} (withdrawn)").format(team=rec["team"]) if rec["withdrawn"] else rec["team"]
        rank = knockout_rank(rec) if "place" in rec else rec["rank"]
        row: dict[str, Any] = {"名次 Rank": rank, "No.": rec["team_id"], "Team": name}
        for g in rec["rounds"]:
            n = g["round"]
            row[f"R{n} 对手 Opp"] = _("bye") if g["bye"] else cell(g["opponent"])
            row[f"R{n} 座位 Seats"] = _coded({"home": "N–S", "away": "E–W"}.get(g["side"] or ""), _SEAT_WORDS, _)
            row[f"R{n} 结果 Result"] = ("" if g["outcome"] is None else with_decider(
                f"{_(_OUTCOME[g['outcome']])} {marked(g['score'], _)}", g.get("decider"), _))
            row[f"R{n} 场分 MP"] = cell(g["match_points"])
        row["场分 MP"] = rec["match_points"]
        rows.append(row)
    return rows


# ---- the audit log ---------------------------------------------------------------------------------

def log_records(events: Iterable[Event]) -> list[dict[str, Any]]:
    """The audit log as JSON objects (``seq``, ``type``, ``data``, ``actor``, ``at``), the secret redacted."""
    return [e.to_dict() for e in events]


#: The keys of an entry's data whose lists are levels in the stored notation ("T" for 10, as records write it).
_LEVEL_KEYS = frozenset({"levels", "bye_score"})


def readable_data(value: Any, key: str | None = None, *, zone: tzinfo | None = None) -> Any:
    """An entry's data as people read it: every level written as people write it ("10", not the stored "T"),
    and with ``zone`` a time (a round's given start) on the venue's clocks with its offset. The JSON exports
    of the log keep the data as stored, so that they read back as the log itself."""
    if isinstance(value, dict):
        return {k: readable_data(v, k, zone=zone) for k, v in value.items()}
    if isinstance(value, list):
        if key in _LEVEL_KEYS:
            return [rank_text(x) if isinstance(x, str) else x for x in value]
        return [readable_data(v, zone=zone) for v in value]
    if key == "at" and zone is not None and isinstance(value, str):
        return _stamp(value, zone)
    return value


def _stamp(at: str | None, zone: tzinfo) -> str | None:
    """A logged time on the venue's clocks, with its offset; one that cannot be read as it is."""
    if at is None:
        return None
    try:
        return stamp(parse_time(at), zone)
    except TournamentError:
        return at


def log_json(events: Iterable[Event]) -> str:
    """The audit log as one JSON array, one entry per line."""
    items = [json.dumps(d, ensure_ascii=False, sort_keys=True) for d in log_records(events)]
    return "[\n" + ",\n".join(items) + "\n]\n" if items else "[]\n"


def write_log_json(events: Iterable[Event], path: str | Path) -> Path:
    out = Path(path)
    out.write_text(log_json(events), encoding="utf-8")
    return out


# ---- files -----------------------------------------------------------------------------------------

def export_json(state: TournamentState, events: Iterable[Event] = ()) -> dict[str, Any]:
    """Everything at once: standings, tables, tables by team, the cross-table and the audit log. ``rounds`` is the
    configured number (a knockout's limit, 0 for none), ``rounds_total`` the rounds the event plays (a knockout's
    bracket's: :attr:`~.state.TournamentState.rounds_total`)."""
    return {"tournament": state.id, "name": state.cfg.name, "rounds": state.cfg.rounds,
            "rounds_total": state.rounds_total, "current_round": state.current_round,
            "completed_rounds": state.completed_rounds,
            "tiebreaks": list(state.cfg.tiebreaks), "standings": standing_records(state),
            "tables": table_records(state), "by_team": team_records(state), "cross_table": cross_records(state),
            "log": log_records(events)}


def standings_heading(state: TournamentState, lang: str) -> str:
    """The title of the standings with every result in (the xlsx Standings sheet's; `standings`' note) in ``lang``:
    after the rounds complete, and while a Swiss round is in play how many of its results they already hold, so that
    its final tables are not read as a round's standings (the venue screen waits for the round's end)."""
    tr = translator("desk", check_lang(lang))
    done, name = state.completed_rounds, state.cfg.name
    heading = (tr.ngettext("{name}: standings after {done} of {total} round",
                           "{name}: standings after {done} of {total} rounds", state.rounds_total).format(
                   name=name, done=done, total=state.rounds_total)
               if done else tr.gettext("{name}: standings before round 1").format(name=name))
    rnd = state.rounds.get(state.current_round)
    if rnd is None or rnd.complete or state.is_knockout:  # a knockout's standings say where each team stands
        return heading
    final = sum(1 for t in rnd.tables.values() if t.status == FINAL)
    return tr.ngettext("{heading}; round {round} in play: {final} of {tables} result in",
                       "{heading}; round {round} in play: {final} of {tables} results in", len(rnd.tables)).format(
        heading=heading, round=rnd.number, final=final, tables=len(rnd.tables))


def write_xlsx(state: TournamentState, path: str | Path, events: Sequence[Event] = (), lang: str = "zh") -> Path:
    """Standings (current, and after each completed round), tables by number (with every number) and by
    team, the cross-table, and the audit log with each entry's data as a JSON text and, in the last column,
    what it did in words (:mod:`.logtext`).

    The sheets' names and the column headers are Chinese and English (:func:`sheet_title`,
    :func:`export_header`); what is in them (the titles above the headers, a status, a bye, who wrote an entry)
    is in ``lang``. Each sheet keeps its header row and the columns that name a row in view as it scrolls."""
    from openpyxl import Workbook  # type: ignore[import-untyped]  # with NumPy, most of a second: only this export needs it

    _ = export_words(lang)
    wb = Workbook()
    cfg = state.cfg
    standing_cols = [label for _key, label in standing_fields(state)]
    done = state.completed_rounds
    ws = wb.active
    ws.title = sheet_title("Standings")
    _sheet(ws, standing_cols, standing_export_rows(state, lang=lang), title=standings_heading(state, lang),
           note=chain_text(state, _),
           keep=3)
    for r in range(1, done + 1):
        _sheet(wb.create_sheet(sheet_title("After R{n}", r)), standing_cols, standing_export_rows(state, r, lang),
               title=_("{name}: standings after round {n}").format(name=cfg.name, n=r), keep=3)
    _sheet(wb.create_sheet(sheet_title("Tables")), [label for _key, label in TABLE_FIELDS],
           table_export_rows(state, lang=lang), title=_("{name}: tables by number").format(name=cfg.name), keep=2)
    _sheet(wb.create_sheet(sheet_title("By team")), TEAM_COLUMNS, team_export_rows(state, lang=lang),
           title=_("{name}: tables by team name").format(name=cfg.name), keep=1)
    _sheet(wb.create_sheet(sheet_title("Cross-table")), cross_columns(state), cross_rows(state, lang),
           title=_("{name}: cross-table (per round the opponent, the seats, the result and 场分)").format(
               name=cfg.name), keep=3)
    if events:
        zone = state.zone  # people read the sheet: its times on the venue's clocks, each with its offset
        reader = LogReader(lang, zone)
        said = reader.sentences(events)
        rows = [{"Seq": d["seq"], "Type": reader.kind(d["type"]), "Actor": reader.actor(d["actor"]),
                 "At": cell(_stamp(d["at"], zone)),
                 "Data": json.dumps(readable_data(d["data"], zone=zone), ensure_ascii=False, sort_keys=True),
                 "Entry": entry} for d, entry in zip(log_records(events), said, strict=True)]
        _sheet(wb.create_sheet(sheet_title("Audit log")), LOG_COLUMNS, rows,
               title=_("Audit log (each entry's data as JSON; times in {zone})").format(
                   zone=zone_label(zone, _last_time(events))), keep=1, wide={"Data": 60, "Entry": 80})
    out = Path(path)
    wb.save(out)
    return out


def _last_time(events: Sequence[Event]) -> datetime:
    """When the log's newest entry was written (the zone's offset then names it), else now."""
    try:
        return parse_time(events[-1].at)
    except TournamentError:
        return datetime.now(UTC)


#: A column's width in the workbook is in Excel's units (about one Latin character; a Chinese character takes
#: two): at most this, unless the sheet allows a column more; a long header wraps at its spaces, in lines of
#: at least HEADER_LINE.
MAX_WIDTH = 40
HEADER_LINE = 16


def column_width(header: str, values: Iterable[Any], most: int = MAX_WIDTH) -> int:
    """How wide a column is: its widest value (:func:`~guandan.cliutil.width`, a Chinese character counting
    two) or its header, whole or wrapped at its spaces ("主队级数（写法） Home" above "level (written)"), with a margin;
    at most ``most``."""
    head = min(width(header), max([HEADER_LINE] + [width(w) for w in header.split()]))
    return min(max([head] + [width(str(v)) for v in values]) + 2, most)


def _sheet(ws: Any, columns: Sequence[str], rows: list[dict[str, Any]], title: str, note: str = "", *,
           keep: int = 1, wide: dict[str, int] | None = None) -> None:
    """A sheet: the title (and a note) above the bilingual header row, then the rows; the rows down to the
    header and the first ``keep`` columns stay in view (frozen panes); each column wide enough for its text
    (``wide`` lets a column be wider than :data:`MAX_WIDTH`); the header wraps between its Chinese and English."""
    from openpyxl.styles import Alignment, Font  # type: ignore[import-untyped]  # as in write_xlsx

    ws.append([title])
    ws["A1"].font = Font(bold=True, size=13)
    if note:
        ws.append([note])
    ws.append([export_header(c) for c in columns])
    header_row = ws.max_row
    for c in ws[header_row]:
        c.font = Font(bold=True)
        c.alignment = Alignment(wrap_text=True, vertical="top")
    for row in rows:
        ws.append([row[c] for c in columns])
    for i, col in enumerate(columns, 1):
        most = (wide or {}).get(col, MAX_WIDTH)
        letter = ws.cell(row=header_row, column=i).column_letter
        ws.column_dimensions[letter].width = column_width(export_header(col), (r[col] for r in rows), most)
    ws.freeze_panes = ws.cell(row=header_row + 1, column=keep + 1).coordinate


def csv_text(columns: Sequence[str], rows: list[dict[str, Any]]) -> str:
    """Rows keyed by ``columns`` as CSV, under the bilingual headers of :func:`export_header`."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow([export_header(c) for c in columns])
    csv.DictWriter(buf, fieldnames=list(columns), lineterminator="\n").writerows(rows)
    return buf.getvalue()


def write_csv(state: TournamentState, folder: str | Path, events: Sequence[Event] = (), lang: str = "zh") -> list[Path]:
    """standings.csv, tables.csv, by_team.csv and cross_table.csv, UTF-8 with a BOM so that Excel shows the
    Chinese headers; their headers bilingual, their words (a status, a bye, a side) in ``lang``, as the xlsx
    file's; log.json (the audit log, as stored) when ``events`` are given."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, cols, rows in (
            ("standings.csv", [label for _key, label in standing_fields(state)], standing_export_rows(state, lang=lang)),
            ("tables.csv", [label for _key, label in TABLE_FIELDS], table_export_rows(state, lang=lang)),
            ("by_team.csv", TEAM_COLUMNS, team_export_rows(state, lang=lang)),
            ("cross_table.csv", cross_columns(state), cross_rows(state, lang))):
        p = out / name
        p.write_text(csv_text(cols, rows), encoding="utf-8-sig")
        written.append(p)
    if events:
        written.append(write_log_json(events, out / "log.json"))
    return written


# ---- score slips -----------------------------------------------------------------------------------

#: Modules of light margin around every QR code: ISO/IEC 18004 asks for four.
QUIET_ZONE = 4
#: Deal rows on a slip when the event sets no deal limit.
UNLIMITED_DEAL_ROWS = 12
#: The height of a slip's deal rows together (millimetres), so that a slip stays on one A4 page.
DEAL_ROWS_MM = 64.0
#: A slip's QR codes, quiet zone included (millimetres): about 0.9 mm a module, easy for any phone.
QR_MM = 36.0


def loopback(url: str) -> bool:
    """Whether ``url``'s host is this machine only (localhost, 127.x, ::1, 0.0.0.0): no player's phone reaches it."""
    host = (urlsplit(url).hostname or "").lower()
    return host in ("localhost", "::1", "0.0.0.0") or host.startswith("127.")


def check_lang(lang: str) -> str:
    if lang not in LANGUAGES:
        raise refusal(N_("the language must be {languages}, not {value}"), languages=" or ".join(LANGUAGES),
                      value=shown(lang))
    return lang


def entry_url(base_url: str, tid: int, round_no: int, table_no: int, side: int | None = None,
              code: str | None = None) -> str:
    """The address of a table's page; with ``side`` (0 home, 1 away) the team's own, with ``code`` the
    team's code in the fragment (``#code=…``), which a browser never sends to the server."""
    url = f"{base_url.rstrip('/')}/t/{tid}/table/{round_no}/{table_no}"
    if side is not None:
        url += f"?side={SIDES[side]}"
    if code is not None:
        url += f"#code={code}"
    return url


def qr_svg(url: str, size_mm: float | None = None) -> str:
    """A QR code as SVG with a light 4-module quiet zone, without an XML declaration so that it can sit
    inside an HTML page (and with its namespace, so that it is also a valid file on its own). With
    ``size_mm`` it is that wide, quiet zone included, in millimetres (for print)."""
    import segno  # here, like openpyxl: only the slips and QR files need it

    qr = segno.make(url, error="m")
    buf = io.BytesIO()
    if size_mm is None:
        qr.save(buf, kind="svg", scale=3, border=QUIET_ZONE, light="#fff", xmldecl=False, nl=False)
    else:
        modules = qr.symbol_size(border=QUIET_ZONE)[0]
        qr.save(buf, kind="svg", scale=size_mm / modules, unit="mm", border=QUIET_ZONE, light="#fff",
                xmldecl=False, nl=False)
    return buf.getvalue().decode()


def write_qr_png(url: str, path: str | Path) -> Path:
    import segno  # as in qr_svg

    segno.make(url, error="m").save(str(path), kind="png", scale=6, border=QUIET_ZONE)
    return Path(path)


def _limits_text(state: TournamentState, tr: Translator) -> str:
    _, lim = tr.gettext, state.cfg.limits
    parts = []
    if lim.max_deals is not None:
        parts.append(tr.ngettext("at most {n} deal", "at most {n} deals", lim.max_deals).format(n=lim.max_deals))
    if lim.max_minutes is not None:
        parts.append(tr.ngettext("{n} minute", "{n} minutes", lim.max_minutes).format(n=lim.max_minutes))
        if lim.warning_minutes:
            parts.append(tr.ngettext("no new deal in the last {n} minute", "no new deal in the last {n} minutes",
                                     lim.warning_minutes).format(n=lim.warning_minutes))
    if lim.stop_on_pass_a:
        parts.append(_("passing A ends the round"))
    return " · ".join(parts)


def slip_data(state: TournamentState, round_no: int, base_url: str, qr_mm: float = QR_MM) -> list[dict[str, Any]]:
    """Per table of the round: its number, both teams, and for each team (``halves``, home first) its side,
    its code (:meth:`TournamentState.team_code`), its page's address and the QR code of that address with
    the code in the fragment."""
    rnd = state.round(round_no)
    out = []
    for ts in rnd.tables.values():
        tb = ts.table
        halves = []
        for side, team_id in enumerate(tb.teams()):
            code = state.team_code(round_no, tb.number, side)
            url = entry_url(base_url, state.id or 0, round_no, tb.number, side)
            halves.append({"side": SIDES[side], "team": state.teams[team_id], "code": code, "url": url,
                           "qr_url": f"{url}#code={code}",
                           "qr": qr_svg(f"{url}#code={code}", qr_mm)})
        out.append({"table": tb.number, "home": state.teams[tb.home], "away": state.teams[tb.away],
                    "halves": halves})
    return out


def slips_html(state: TournamentState, round_no: int, base_url: str, lang: str = "zh", *,
               pdf_url: str | None = None) -> str:
    """The round's score slips as one printable page (one A4 sheet per table, see :mod:`.prints` for the
    PDF): a box per deal, lateness, a round ended by time, the final levels and the signatures; below the
    cut line one half per team with its code and the QR code of its own page. ``pdf_url``, when given (the
    arbiter's web page), is linked at the top, with a warning when the QR codes lead to this machine only
    (on screen only)."""
    tr = translator("desk", check_lang(lang))
    _ = tr.gettext
    rnd = state.round(round_no)
    lim = state.cfg.limits
    bye = state.teams[rnd.bye] if rnd.bye is not None else None
    rows = lim.max_deals or UNLIMITED_DEAL_ROWS
    return templates.get_template("slips.html").render(
        _=_, lang=lang, cfg=state.cfg, round_no=round_no, slips=slip_data(state, round_no, base_url), bye=bye,
        qr_mm=QR_MM,
        deal_rows=range(1, rows + 1), row_mm=round(min(8.0, DEAL_ROWS_MM / rows), 2),
        limits=_limits_text(state, tr), per_deal=state.cfg.per_deal, pdf_url=pdf_url,
        local_url=base_url if pdf_url is not None and loopback(base_url) else None)


def page_counter(text: str) -> str:
    """A translated "Page {page} of {pages}" as a CSS ``content`` value with the page counters."""
    parts = []
    for chunk in re.split(r"(\{pages?\})", text):
        if chunk in ("{page}", "{pages}"):
            parts.append(f"counter({chunk[1:-1]})")
        elif chunk:
            parts.append(css_string(chunk))
    return " ".join(parts)


def css_string(text: str) -> str:
    """``text`` as a quoted CSS string, safe inside a ``<style>`` element."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ").replace("\n", " ")
    return f'"{escaped}"'


templates.filters["css_string"] = lambda text: Markup(css_string(str(text)))
templates.filters["page_counter"] = lambda text: Markup(page_counter(str(text)))
