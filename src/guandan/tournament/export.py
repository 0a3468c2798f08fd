"""What the desk prints: standings with every tie-break column, table lists, score slips; Excel and CSV.

Rows are plain dicts keyed by the column headers below, so the CLI, the web pages, Excel and CSV show the
same thing.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import segno
from jinja2 import Environment, PackageLoader, select_autoescape
from openpyxl import Workbook  # type: ignore[import-untyped]
from openpyxl.styles import Font  # type: ignore[import-untyped]

from ..present import rank_text
from .levels import level_name
from .standings import describe_chain
from .state import FINAL, TableState, TournamentState

STANDING_COLUMNS = ("名次 Rank", "No.", "Team", "Club", "Players", "场分 MP", "对手分 Opp MP", "级差分 Level diff",
                    "升级数 Levels gained", "Played", "W", "D", "L", "Byes")
TABLE_COLUMNS = ("Round", "Table", "Home (N–S)", "Away (E–W)", "Result", "Winner", "Status", "Source")
TEAM_COLUMNS = ("Team", "No.", "Round", "Table", "Seats", "Opponent")

templates = Environment(loader=PackageLoader("guandan.tournament", "templates"), autoescape=select_autoescape())
templates.filters["rank"] = rank_text  # a stored level ("T") as people read it ("10")


def standings_rows(state: TournamentState, through_round: int | None = None) -> list[dict[str, Any]]:
    out = []
    for s in state.standings(through_round):
        t = state.teams[s.team_id]
        name = t.name + (" (withdrawn)" if t.id in state.withdrawn else "")
        out.append(dict(zip(STANDING_COLUMNS, (
            s.rank, t.id, name, t.club or "", " / ".join(t.players), s.match_points, s.opponents_points,
            s.level_diff, s.levels_gained, s.played, s.wins, s.draws, s.losses, s.byes), strict=True)))
    return out


def result_text(ts: TableState) -> str:
    """"A:6" style, home first; a pass of A or a forfeit is marked."""
    if ts.result is None:
        if ts.pending is not None and ts.pending.levels is not None:
            return f"({rank_text(ts.pending.levels[0])}:{rank_text(ts.pending.levels[1])})"
        return ""
    r = ts.result
    text = f"{rank_text(level_name(r.levels[0]))}:{rank_text(level_name(r.levels[1]))}"
    if r.passed_a is not None:
        text += " 过A"
    if r.forfeit is not None:
        text += " forfeit"
    return text


def table_rows(state: TournamentState, round_no: int | None = None) -> list[dict[str, Any]]:
    out = []
    for r in sorted(state.rounds.values(), key=lambda r: r.number):
        if round_no is not None and r.number != round_no:
            continue
        for ts in r.tables.values():
            tb = ts.table
            winner = "" if ts.result is None else "draw" if ts.result.winner is None else \
                state.teams[tb.teams()[ts.result.winner]].name
            out.append(dict(zip(TABLE_COLUMNS, (
                r.number, tb.number, state.teams[tb.home].name, state.teams[tb.away].name, result_text(ts), winner,
                ts.status, ts.source or ""), strict=True)))
        if r.bye is not None:
            out.append(dict(zip(TABLE_COLUMNS, (r.number, "bye", state.teams[r.bye].name, "", "bye", "", FINAL, "rule"),
                                strict=True)))
    return out


def team_rows(state: TournamentState, round_no: int | None = None) -> list[dict[str, Any]]:
    """Where every team plays, sorted by team name: what a venue pins up next to the table list."""
    out = []
    for r in sorted(state.rounds.values(), key=lambda r: r.number):
        if round_no is not None and r.number != round_no:
            continue
        for tid in state.teams:
            ts = r.table_of(tid)
            if ts is not None:
                side = ts.table.side_of(tid)
                opp = state.teams[ts.table.teams()[1 - side]].name
                out.append(dict(zip(TEAM_COLUMNS, (state.teams[tid].name, tid, r.number, ts.table.number,
                                                   "N–S" if side == 0 else "E–W", opp), strict=True)))
            elif r.bye == tid:
                out.append(dict(zip(TEAM_COLUMNS, (state.teams[tid].name, tid, r.number, "bye", "", ""), strict=True)))
    return sorted(out, key=lambda row: (row["Round"], row["Team"].casefold()))


def write_xlsx(state: TournamentState, path: str | Path, events: Sequence[Any] = ()) -> Path:
    """Standings (current, and after each completed round), tables by number and by team, the audit log."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Standings"
    cfg = state.cfg
    _sheet(ws, STANDING_COLUMNS, standings_rows(state),
           title=f"{cfg.name} — standings after {state.completed_rounds} of {cfg.rounds} rounds",
           note=f"Order: {describe_chain(cfg.tiebreaks)}")
    for r in range(1, state.completed_rounds + 1):
        _sheet(wb.create_sheet(f"After R{r}"), STANDING_COLUMNS, standings_rows(state, r),
               title=f"{cfg.name} — standings after round {r}")
    _sheet(wb.create_sheet("Tables"), TABLE_COLUMNS, table_rows(state), title=f"{cfg.name} — tables by number")
    _sheet(wb.create_sheet("By team"), TEAM_COLUMNS, team_rows(state), title=f"{cfg.name} — tables by team name")
    if events:
        rows = [{"Seq": e.seq, "Type": e.type, "Actor": e.actor, "At": e.at,
                 "Data": str(e.to_dict()["data"])} for e in events]
        _sheet(wb.create_sheet("Audit log"), ("Seq", "Type", "Actor", "At", "Data"), rows, title="Audit log")
    out = Path(path)
    wb.save(out)
    return out


def _sheet(ws: Any, columns: Sequence[str], rows: list[dict[str, Any]], title: str, note: str = "") -> None:
    ws.append([title])
    ws["A1"].font = Font(bold=True, size=13)
    if note:
        ws.append([note])
    ws.append(list(columns))
    for cell in ws[ws.max_row]:
        cell.font = Font(bold=True)
    for row in rows:
        ws.append([row[c] for c in columns])
    for i, col in enumerate(columns, 1):
        width = max([len(str(col))] + [len(str(r[col])) for r in rows]) + 2
        ws.column_dimensions[ws.cell(row=1, column=i).column_letter].width = min(width, 40)


def csv_text(columns: Sequence[str], rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(columns), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def write_csv(state: TournamentState, folder: str | Path) -> list[Path]:
    """standings.csv, tables.csv and by_team.csv, UTF-8 with a BOM so that Excel shows the Chinese headers."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, cols, rows in (("standings.csv", STANDING_COLUMNS, standings_rows(state)),
                             ("tables.csv", TABLE_COLUMNS, table_rows(state)),
                             ("by_team.csv", TEAM_COLUMNS, team_rows(state))):
        p = out / name
        p.write_text(csv_text(cols, rows), encoding="utf-8-sig")
        written.append(p)
    return written


# ---- score slips ---------------------------------------------------------------------------------

def entry_url(base_url: str, tid: int, round_no: int, table_no: int) -> str:
    return f"{base_url.rstrip('/')}/t/{tid}/table/{round_no}/{table_no}"


def qr_svg(url: str) -> str:
    """An inline SVG QR code (no XML declaration, so it can sit inside an HTML page)."""
    return str(segno.make(url, error="m").svg_inline(scale=3, border=2))


def write_qr_png(url: str, path: str | Path) -> Path:
    segno.make(url, error="m").save(str(path), kind="png", scale=6, border=2)
    return Path(path)


def slips_html(state: TournamentState, round_no: int, base_url: str) -> str:
    """A printable page: one score slip per table, with its QR code to the entry page and its PIN."""
    rnd = state.round(round_no)
    slips = []
    for ts in rnd.tables.values():
        url = entry_url(base_url, state.id or 0, round_no, ts.table.number)
        slips.append({"table": ts.table, "home": state.teams[ts.table.home], "away": state.teams[ts.table.away],
                      "url": url, "qr": qr_svg(url), "pin": state.pin(round_no, ts.table.number)})
    bye = state.teams[rnd.bye] if rnd.bye is not None else None
    return templates.get_template("slips.html").render(cfg=state.cfg, round_no=round_no, slips=slips, bye=bye)
