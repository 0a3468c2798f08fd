"""A review in words and as JSON: labels, reasons and summaries in zh and en.

Every sentence is a msgid of the game catalogue (gettext domain ``game``) and is translated by a
:class:`guandan.present.Presenter`, which also names the seats, cards and plays — so the review says
"对9: ♠9 ♥9" exactly as ``guandan replay`` and the terminal client do. The JSON form
(docs/review-format.md) carries machine codes (labels, reasons, cards in record notation) next to
the text in the chosen language. Every action and card of a decision is told with its deal's level
(:func:`action_text`), so that its wildcards are starred and its plays read in combination order, as at
the table, in the text, the JSON and the HTML report alike.
"""

from __future__ import annotations

from typing import Any

from ..core.cards import card_str
from ..core.deal import Action
from ..i18n import N_
from ..present import Presenter
from .engine import Candidate
from .report import FORMAT, VERSION, Decision, Review, SeatReview, engine_info
from .verdict import LABELS, Label, Reason, accuracy

LABEL_WORDS: dict[Label, str] = {
    Label.GOOD: N_("good"),
    Label.INACCURACY: N_("inaccuracy"),
    Label.MISTAKE: N_("mistake"),
    Label.BLUNDER: N_("blunder"),
}
LABEL_PLURALS: dict[Label, str] = {
    Label.GOOD: N_("good {n}"),
    Label.INACCURACY: N_("inaccuracies {n}"),
    Label.MISTAKE: N_("mistakes {n}"),
    Label.BLUNDER: N_("blunders {n}"),
}
REASON_WORDS: dict[Reason, str] = {
    Reason.MISSED_GOING_OUT: N_("missed going out: the better play was the last cards in hand"),
    Reason.BOMBED_PARTNER: N_("bombed the partner's winning trick"),
    Reason.OVERTOOK_PARTNER: N_("beat the partner's winning play"),
    Reason.BROKE_UNIT: N_("broke a {unit} for a {play}"),
    Reason.WASTED_BOMB: N_("spent a bomb where none was needed"),
    Reason.PASSED: N_("passed where playing was better"),
    Reason.SHOULD_PASS: N_("played where passing was better"),
    Reason.TOO_HIGH: N_("played higher than needed"),
    Reason.GAVE_HIGHER: N_("gave {card} where {better} was better"),
}


def label_text(p: Presenter, label: Label) -> str:
    return p.tr.gettext(LABEL_WORDS[label])


def action_text(p: Presenter, d: Decision, action: Action) -> str:
    """An action of decision ``d`` (the move played, a better one, a candidate) as the table tells it: in the
    order its combination reads, the wildcards of ``d``'s deal starred (``straight 4–8: ♥4 ♥2* ♦6 ♣7 ♠8``)."""
    return p.action(action, d.level)


def reason_text(p: Presenter, d: Decision) -> str | None:
    if d.reason is None:
        return None
    facts = d.reason_facts
    words: dict[str, str] = {}
    if "unit" in facts:
        words["unit"] = p.combo_type(facts["unit"])
        words["play"] = p.combo_type(facts["play"])
    if "card" in facts:
        words["card"] = p.card(facts["card"], d.level)
        words["better"] = p.card(facts["better"], d.level)
    return p.tr.gettext(REASON_WORDS[d.reason]).format(**words)


def points(x: float) -> str:
    """Level points for people: signed, two decimals (``+0.25``, ``−1.10``)."""
    text = f"{x:+.2f}"
    return text.replace("-", "−")


def percent(x: float | None) -> str:
    return "—" if x is None else f"{x:.1f}"


def cost(p: Presenter, d: Decision) -> str:
    """What a decision cost, for people: its label alone for the best move found, else the label and about how
    many level points the move played gave away against the best one (``blunder: costs about 1.48 level points
    (± 0.12)``); the ± is the standard error of that difference."""
    label = label_text(p, d.label)
    if d.evaluation.best.action == d.played:
        return label
    if d.label is Label.GOOD:
        # within the margin of the measure: "costs" would call it a loss the label says is not established
        return p.tr.gettext("{label}: not clearly worse than the best found ({loss} ± {se} level points)").format(
            label=label, loss=f"{d.loss:.2f}", se=f"{d.evaluation.se:.2f}")
    return p.tr.gettext("{label}: costs about {loss} level points (± {se})").format(
        label=label, loss=f"{d.loss:.2f}", se=f"{d.evaluation.se:.2f}")


def decision_line(p: Presenter, d: Decision, number: int | None = None) -> str:
    """One decision: what was played, its label and cost, the better action and why."""
    _ = p.tr.gettext
    ev = d.evaluation
    head = _("Deal {deal}, move {move}: {who}: {action}").format(
        deal=d.deal + 1, move=d.index + 1, who=p.seat(d.seat), action=action_text(p, d, d.played))
    parts = [head, cost(p, d)]
    if ev.best.action != d.played:
        parts.append(_("better: {action}").format(action=action_text(p, d, ev.best.action)))
    why = reason_text(p, d)
    if why:
        parts.append(why)
    line = _(" · ").join(parts)
    return f"{number}. {line}" if number is not None else line


def hindsight_line(p: Presenter, d: Decision) -> str | None:
    h = d.hindsight
    if h is None:
        return None
    return p.tr.gettext("hindsight, with every hand known: best {action} (expected {value} level points); the move "
                        "played cost {loss}").format(action=action_text(p, d, h.best), value=points(h.best_value),
                                                     loss=f"{h.loss:.2f}")


def tally(p: Presenter, decisions: list[Decision]) -> str:
    counts = {lab: sum(d.label == lab for d in decisions) for lab in LABELS}
    return p.tr.gettext(" · ").join(p.tr.gettext(LABEL_PLURALS[lab]).format(n=counts[lab]) for lab in LABELS)


def seat_lines(p: Presenter, s: SeatReview, review: Review, moves: bool = True) -> list[str]:
    """A seat's review: per deal its accuracy, costliest decisions and (``moves``) every decision; then
    the match when more than one deal was reviewed."""
    _ = p.tr.gettext
    lines: list[str] = []
    for deal in review.deals:
        ds = s.deal_decisions(deal)
        acc = accuracy([d.loss for d in ds])
        lines.append(p.tr.ngettext("Review of deal {n}: {who}: accuracy {accuracy} over {count} decision",
                                   "Review of deal {n}: {who}: accuracy {accuracy} over {count} decisions",
                                   len(ds)).format(n=deal + 1, who=p.seat(s.seat), accuracy=percent(acc),
                                                   count=len(ds)))
        lines.append("  " + tally(p, ds))
        forced = s.forced_by_deal.get(deal, 0)
        if forced:
            lines.append("  " + p.tr.ngettext("{n} forced decision (one legal action) not counted",
                                              "{n} forced decisions (one legal action) not counted",
                                              forced).format(n=forced))
        if ds:
            lines += ["  " + line for line in costliest_lines(p, s.costliest(deal))]
        if moves and ds:
            lines.append("  " + _("Move by move (the level points the team could expect after the move played):"))
            for d in ds:
                lines.append("    " + _("{value} · {line}").format(value=points(d.evaluation.played_candidate.value),
                                                                   line=decision_line(p, d)))
                h = hindsight_line(p, d)
                if h:
                    lines.append("      " + h)
    if len(review.deals) > 1:
        lines.append(p.tr.ngettext("Review of the match: {who}: accuracy {accuracy} over {count} decision",
                                   "Review of the match: {who}: accuracy {accuracy} over {count} decisions",
                                   len(s.decisions)).format(who=p.seat(s.seat), accuracy=percent(s.accuracy),
                                                            count=len(s.decisions)))
        lines.append("  " + tally(p, s.decisions))
        if s.decisions:
            lines += ["  " + line for line in costliest_lines(p, s.costliest())]
    return lines


def costliest_lines(p: Presenter, worst: list[Decision]) -> list[str]:
    """The costliest decisions under their heading, numbered; when none was an inaccuracy or worse, one line that
    says so (rather than no heading at all, or a list of moves labelled good)."""
    if not worst:
        return [p.tr.gettext("Costliest decisions: none was an inaccuracy, a mistake or a blunder")]
    return [p.tr.gettext("Costliest decisions:")] + ["  " + decision_line(p, d, i) for i, d in enumerate(worst, 1)]


def intro_line(p: Presenter) -> str:
    """The review's first line: what it measures, and in what."""
    return p.tr.gettext("Engine review (复盘): each decision against the best move the engine found, in level points")


def level_points_line(p: Presenter) -> str:
    """What a level point is, for a player who has not read docs/review-format.md."""
    return p.tr.gettext("Level points: the levels a deal is expected to bring the team, from +3 (a 1-2 finish) to "
                        "−3 (the other team's 1-2 finish).")


def settings_line(p: Presenter, review: Review) -> str:
    """How the review was worked out (the worlds, the budget and the seed of docs/review-format.md), for people."""
    st = review.settings
    return p.tr.gettext("How it was worked out: {worlds} deals drawn at random for each decision from what the player "
                        "could know at that moment (effort {budget}, seed {seed}: the same review every time).").format(
        worlds=st.worlds, budget=f"{st.budget:g}", seed=st.seed)


def review_lines(p: Presenter, review: Review, moves: bool = True) -> list[str]:
    """The review as text: what it measures, each seat's review, then (the secondary part) what a level point
    is and how the review was worked out."""
    lines = [intro_line(p)]
    for s in review.seats:
        lines += seat_lines(p, s, review, moves)
    lines += ["", level_points_line(p), settings_line(p, review)]
    if review.settings.hindsight:
        lines.append(p.tr.gettext("Hindsight lines value the moves with every hand known: information no player "
                                  "had at the table, shown for study only."))
    return lines


# --- JSON ------------------------------------------------------------------------------------------

def _r(x: float) -> float:
    return round(x, 4)


def action_json(a: Action) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": a.kind.value}
    if a.cards:
        d["cards"] = [card_str(c) for c in a.cards]
    if a.combo is not None:
        d["combo"] = a.combo.to_dict()
    return d


def _candidate_json(p: Presenter, d: Decision, c: Candidate) -> dict[str, Any]:
    return {"action": action_json(c.action), "text": action_text(p, d, c.action), "value": _r(c.value), "gain": _r(c.gain),
            "se": _r(c.se), "heuristic_rank": c.heuristic_rank}


def decision_json(p: Presenter, d: Decision) -> dict[str, Any]:
    ev = d.evaluation
    out: dict[str, Any] = {
        "deal": d.deal,
        "action": d.index,
        "seat": d.seat,
        "phase": d.phase.value,
        "played": action_json(d.played),
        "text": action_text(p, d, d.played),
        "legal": d.legal,
        "value": _r(ev.played_candidate.value),
        "best_value": _r(ev.best.value),
        "loss": _r(d.loss),
        "se": _r(ev.se),
        "label": d.label.value,
        "label_text": label_text(p, d.label),
        "cost_text": cost(p, d),
        "accuracy": _r(d.accuracy),
        "reason": d.reason.value if d.reason else None,
        "reason_text": reason_text(p, d),
        "best": _candidate_json(p, d, ev.best),
        "candidates": [_candidate_json(p, d, c) for c in ev.candidates],
        "worlds": ev.worlds,
        "exact_worlds": ev.exact_worlds,
    }
    if d.hindsight is not None:
        h = d.hindsight
        out["hindsight"] = {"best": action_json(h.best), "text": action_text(p, d, h.best), "best_value": _r(h.best_value),
                            "value": _r(h.played_value), "loss": _r(h.loss), "exact": h.exact}
    return out


def _costly_json(p: Presenter, ds: list[Decision]) -> list[dict[str, Any]]:
    return [{"deal": d.deal, "action": d.index, "loss": _r(d.loss), "label": d.label.value, "text": decision_line(p, d)}
            for d in ds]


def seat_json(p: Presenter, s: SeatReview, review: Review) -> dict[str, Any]:
    def acc(x: float | None) -> float | None:
        return None if x is None else _r(x)

    deals = []
    for deal in review.deals:
        ds = s.deal_decisions(deal)
        deals.append({
            "deal": deal,
            "accuracy": acc(accuracy([d.loss for d in ds])),
            "decisions": len(ds),
            "forced": s.forced_by_deal.get(deal, 0),
            "labels": {lab.value: sum(d.label == lab for d in ds) for lab in LABELS},
            "costliest": _costly_json(p, s.costliest(deal)),
            "graph": [[d.index, _r(d.evaluation.played_candidate.value), _r(d.evaluation.best.value)] for d in ds],
        })
    name = review.players[s.seat] if s.seat < len(review.players) else ""
    return {
        "seat": s.seat,
        "player": name,
        "accuracy": acc(s.accuracy),
        "forced": s.forced,
        "labels": {lab.value: sum(d.label == lab for d in s.decisions) for lab in LABELS},
        "costliest": _costly_json(p, s.costliest()),
        "deals": deals,
        "decisions": [decision_json(p, d) for d in s.decisions],
    }


def review_json(p: Presenter, review: Review, single: bool) -> dict[str, Any]:
    """The review as the JSON object of docs/review-format.md; ``single``: one seat, at the top level."""
    st = review.settings
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "engine": engine_info(),
        "settings": {"budget": st.budget, "worlds": st.worlds, "seed": st.seed, "shortlist": st.shortlist,
                     "hindsight": st.hindsight},
        "record": {"sha256": review.record_digest, "players": review.players, "deals": review.deals},
        "rules": review.rules.name,
        "lang": p.lang,
    }
    seats = [seat_json(p, s, review) for s in review.seats]
    if single:
        out.update(seats[0])
    else:
        out["seats"] = seats
    return out

__all__ = ["LABEL_WORDS", "REASON_WORDS", "action_json", "action_text", "cost", "costliest_lines", "decision_json",
           "decision_line", "intro_line", "label_text", "level_points_line", "points", "reason_text", "review_json",
           "review_lines", "seat_json", "seat_lines", "settings_line"]
