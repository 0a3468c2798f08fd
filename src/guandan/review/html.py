"""The review as one self-contained HTML page: no script, no external file, every text escaped.

Per reviewed seat and deal: the accuracy, an inline SVG graph of the evaluation decision by decision
(the value of the move played for the seat's team, and of the best move found, dashed), the three
costliest decisions and a table of every decision with its label.
"""

from __future__ import annotations

from html import escape

from ..present import Presenter
from .report import Decision, Review, SeatReview
from .verdict import Label, accuracy
from .words import (
    action_text,
    decision_line,
    hindsight_line,
    intro_line,
    label_text,
    level_points_line,
    percent,
    points,
    reason_text,
    settings_line,
    tally,
)

WIDTH, HEIGHT, PAD = 640, 200, 28
COLOURS = {Label.GOOD: "#2e7d32", Label.INACCURACY: "#f9a825", Label.MISTAKE: "#ef6c00", Label.BLUNDER: "#c62828"}
STYLE = """
body { font-family: system-ui, "PingFang SC", "Noto Sans CJK SC", sans-serif; margin: 2em auto; max-width: 60em;
       padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; margin-top: 2em; } h3 { font-size: 1.05em; }
table { border-collapse: collapse; width: 100%; font-size: 0.9em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.4em; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.good { color: #2e7d32; } .inaccuracy { color: #b28704; } .mistake { color: #ef6c00; }
.blunder { color: #c62828; font-weight: bold; }
.note { color: #666; font-size: 0.9em; } .hindsight { color: #6a1b9a; }
svg { background: #fafafa; border: 1px solid #ddd; max-width: 100%; height: auto; }
"""


def _y(v: float) -> float:
    v = max(-3.0, min(3.0, v))
    return PAD + (3.0 - v) / 6.0 * (HEIGHT - 2 * PAD)


def graph(p: Presenter, ds: list[Decision]) -> str:
    """An inline SVG of the played and best values over the deal (level points, −3…+3)."""
    _ = p.tr.gettext
    n = len(ds)
    if n == 0:
        return ""

    def x(i: int) -> float:
        return PAD + (i + 0.5) * (WIDTH - 2 * PAD) / n

    played = " ".join(f"{x(i):.1f},{_y(d.evaluation.played_candidate.value):.1f}" for i, d in enumerate(ds))
    best = " ".join(f"{x(i):.1f},{_y(d.evaluation.best.value):.1f}" for i, d in enumerate(ds))
    title = escape(_("Evaluation over the deal, in level points for the team: the move played (solid) and the "
                     "best move found (dashed)"))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
             f'height="{HEIGHT}" role="img" aria-label="{title}"><title>{title}</title>']
    for v in (-3, 0, 3):
        dash = "" if v == 0 else ' stroke-dasharray="2,4"'
        parts.append(f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{_y(v):.1f}" y2="{_y(v):.1f}" stroke="#999"{dash}/>')
        parts.append(f'<text x="2" y="{_y(v) + 4:.1f}" font-size="11" fill="#666">{escape(points(v))}</text>')
    parts.append(f'<polyline points="{best}" fill="none" stroke="#999" stroke-dasharray="5,3"/>')
    parts.append(f'<polyline points="{played}" fill="none" stroke="#1565c0" stroke-width="1.5"/>')
    for i, d in enumerate(ds):
        tip = escape(decision_line(p, d))
        parts.append(f'<circle cx="{x(i):.1f}" cy="{_y(d.evaluation.played_candidate.value):.1f}" r="4" '
                     f'fill="{COLOURS[d.label]}"><title>{tip}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)


def _table(p: Presenter, ds: list[Decision]) -> str:
    _ = p.tr.gettext
    head = "".join(f"<th>{escape(h)}</th>" for h in (
        _("move"), _("played"), _("value (level points)"), _("label"), _("cost (level points)"), _("better"),
        _("reason")))
    rows = []
    for d in ds:
        ev = d.evaluation
        better = action_text(p, d, ev.best.action) if ev.best.action != d.played else ""
        hind = hindsight_line(p, d)
        extra = f'<br><span class="hindsight">{escape(hind)}</span>' if hind else ""
        rows.append(
            "<tr>"
            f'<td class="num">{d.index + 1}</td>'
            f"<td>{escape(action_text(p, d, d.played))}</td>"
            f'<td class="num">{escape(points(ev.played_candidate.value))}</td>'
            f'<td class="{d.label.value}">{escape(label_text(p, d.label))}</td>'
            f'<td class="num">{d.loss:.2f} ± {ev.se:.2f}</td>'
            f"<td>{escape(better)}</td>"
            f"<td>{escape(reason_text(p, d) or '')}{extra}</td>"
            "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _costly(p: Presenter, ds: list[Decision]) -> str:
    if not ds:
        none = p.tr.gettext("Costliest decisions: none was an inaccuracy, a mistake or a blunder")
        return f"<p>{escape(none)}</p>"
    items = "".join(f'<li class="{d.label.value}">{escape(decision_line(p, d))}</li>' for d in ds)
    heading = p.tr.gettext("Costliest decisions:")
    return f"<h4>{escape(heading)}</h4><ol>{items}</ol>"


def _seat(p: Presenter, s: SeatReview, review: Review) -> str:
    _ = p.tr.gettext
    acc_text = _("accuracy {accuracy}")
    out = [f"<section><h2>{escape(p.seat(s.seat))} · {escape(acc_text.format(accuracy=percent(s.accuracy)))}</h2>",
           f"<p>{escape(tally(p, s.decisions))}</p>"]
    if len(review.deals) > 1:
        out.append(_costly(p, s.costliest()))
    for deal in review.deals:
        ds = s.deal_decisions(deal)
        acc = accuracy([d.loss for d in ds])
        heading = _("Deal {n}").format(n=deal + 1)
        out.append(f"<h3>{escape(heading)} · {escape(acc_text.format(accuracy=percent(acc)))}</h3>")
        out.append(graph(p, ds))
        if ds:
            out += [_costly(p, s.costliest(deal)), _table(p, ds)]
    out.append("</section>")
    return "".join(out)


def review_html(p: Presenter, review: Review) -> str:
    """The whole page."""
    _ = p.tr.gettext
    title = escape(_("Engine review (复盘)"))
    body = [f"<h1>{title}</h1>", f"<p>{escape(intro_line(p))}</p>"]
    body += [_seat(p, s, review) for s in review.seats]
    body += [f'<p class="note">{escape(note)}</p>' for note in (level_points_line(p), settings_line(p, review))]
    if review.settings.hindsight:
        note = _("Hindsight lines value the moves with every hand known: information no player had at the table, "
                 "shown for study only.")
        body.append(f'<p class="note hindsight">{escape(note)}</p>')
    lang = escape(p.lang)
    return (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>'
            f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")


__all__ = ["graph", "review_html"]
