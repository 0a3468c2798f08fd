"""One seat's view of a match as a few lines of text, for a person: the environments' ``render()`` (and the
spectator's, :func:`public_view_lines`: the same lines without a hand, seats and teams named by number).

Only what that seat may know goes in — its own observation (its hand, the public events) and its own last
action — never another seat's cards. Every word comes from the ``game`` catalogue through
:class:`~guandan.present.Presenter`, seats named from the viewer (你/下家/对家/上家)::

    Deal 1 · playing level 2 · Your team 2 : Opponents 2
    You chose: pass
    Partner: full house 8: ♠8 ♥8 ♣8 ♠3 ♥3
    Next opponent: pass
    Your hand, 27 cards: ♠3 ♥3 ♣4 … ♥2* Small Joker Big Joker
    Your turn to play

Lines are wrapped to ``width`` terminal columns (a CJK character takes two), never inside a card.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import lv
from ..core.deal import Action
from ..core.events import Event, FirstLead, Lead, Passed, Played, Reported, RoundWon, WentOut
from ..core.match import MatchObservation, PublicMatchView
from ..core.vocab import Phase
from ..linebreak import wrap
from . import Presenter

WIDTH = 80
TRICK_LINES = 4  # the last plays, passes, reports and places of the round: what happened since the seat's turn

_ROUND_START = (FirstLead, Lead, RoundWon)
_TRICK = (Played, Passed, Reported, WentOut)


def seat_view_lines(view: MatchObservation, lang: str, own_last: Action | None = None,
                    width: int = WIDTH) -> list[str]:
    """``view`` (a seat's observation of the match) as lines of at most ``width`` columns: the deal, the playing
    level and both teams' levels; ``own_last`` (the seat's own last action this deal, told when the round's
    lines do not show it already); the round's last plays; the seat's hand in single-card order at the level,
    wildcards starred; whose turn it is. At the end of the match, the result and the final levels."""
    d = view.deal
    seat = d.seat
    p = Presenter(lang, viewer=seat, deal_level=d.level)
    _ = p._
    levels = p.levels(view.levels)  # the seat's own team first, as the terminal client writes them
    if view.ended:
        return _wrapped([_("{result} · {levels}").format(result=_result(p, view), levels=levels)], width, p)
    lines = [_("Deal {n} · playing level {level} · {levels}").format(n=view.deal_index + 1, level=p.level(d.level),
                                                                     levels=levels)]
    trick = _trick(d.events) if d.phase == Phase.PLAY else []
    if own_last is not None and not any(isinstance(e, (Played, Passed)) and e.player == seat for e in trick):
        lines.append(_("You chose: {action}").format(action=p.action(own_last, d.level)))
    lines += [line for e in trick for line in p.event(e)]
    hand = sorted(d.hand, key=lambda c: (lv(c, d.level), c))
    lines.append(p.tr.ngettext("Your hand, {n} card: {cards}", "Your hand, {n} cards: {cards}", len(hand)).format(
        n=len(hand), cards=p.cards(hand, d.level)))
    if d.to_move == seat:
        lines.append({Phase.TRIBUTE: _("Your turn to pay tribute"), Phase.CHOOSE: _("Your turn to take a tribute card"),
                      Phase.RETURN: _("Your turn to give a card back")}.get(d.phase, _("Your turn to play")))
    elif d.to_move is not None:
        lines.append(_("{who} is to move").format(who=p.seat(d.to_move)))
    return _wrapped(lines, width, p)


def seat_view_text(view: MatchObservation, lang: str, own_last: Action | None = None, width: int = WIDTH) -> str:
    """:func:`seat_view_lines` as one text, a line each."""
    return "\n".join(seat_view_lines(view, lang, own_last, width))


def public_view_lines(view: PublicMatchView, lang: str, width: int = WIDTH) -> list[str]:
    """``view`` (what a spectator may know: the public view of the match) as lines of at most ``width``
    columns, seats and teams named by number: the deal, the playing level and both teams' levels; the round's
    last plays; who is to move. At the end of the match, the result and the final levels. No hand."""
    d = view.deal
    p = Presenter(lang, deal_level=d.level)
    _ = p._
    # a spectator has no team of its own: Team 1's first, in the words of a seat's view (Presenter.team_levels)
    levels = _("{us} {a} : {them} {b}").format(us=p.team(0), a=p.level(view.levels[0]), them=p.team(1),
                                                b=p.level(view.levels[1]))
    if view.ended:
        n, winner = view.deal_index, view.winner
        result = (p.tr.ngettext("Match over after {n} deal (deal limit): no winner",
                                "Match over after {n} deals (deal limit): no winner", n).format(n=n)
                  if winner is None else
                  p.tr.ngettext("Match over after {n} deal: {team} wins", "Match over after {n} deals: {team} wins",
                                n).format(n=n, team=p.team(winner)))
        return _wrapped([_("{result} · {levels}").format(result=result, levels=levels)], width, p)
    lines = [_("Deal {n} · playing level {level} · {levels}").format(n=view.deal_index + 1, level=p.level(d.level),
                                                                     levels=levels)]
    trick = _trick(d.events) if d.phase == Phase.PLAY else []
    lines += [line for e in trick for line in p.event(e)]
    if d.to_move is not None:
        lines.append(_("{who} is to move").format(who=p.seat(d.to_move)))
    return _wrapped(lines, width, p)


def public_view_text(view: PublicMatchView, lang: str, width: int = WIDTH) -> str:
    """:func:`public_view_lines` as one text, a line each."""
    return "\n".join(public_view_lines(view, lang, width))


def _result(p: Presenter, view: MatchObservation) -> str:
    """``Match over after 3 deals: Your team wins`` (the engine counts the deal that would come next)."""
    n, winner = view.deal_index, view.winner
    if winner is None:
        return p.tr.ngettext("Match over after {n} deal (deal limit): no winner",
                             "Match over after {n} deals (deal limit): no winner", n).format(n=n)
    if winner != view.deal.seat % 2:
        return p.tr.ngettext("Match over after {n} deal: the opponents win",
                             "Match over after {n} deals: the opponents win", n).format(n=n)
    return p.tr.ngettext("Match over after {n} deal: {team} wins", "Match over after {n} deals: {team} wins",
                         n).format(n=n, team=p.team(winner))


def _trick(events: Sequence[Event]) -> list[Event]:
    """The round's last events worth telling: its start (who leads) while nothing is played yet, else its last
    :data:`TRICK_LINES` plays, passes, reports (报牌) and places."""
    start = max((i for i, e in enumerate(events) if isinstance(e, _ROUND_START)), default=None)
    if start is None:
        return []
    told: list[Event] = [e for e in events[start + 1:] if isinstance(e, _TRICK)]
    return told[-TRICK_LINES:] if told else [events[start]]


def _wrapped(lines: Sequence[str], width: int, p: Presenter) -> list[str]:
    """Each line broken to rows of at most ``width`` columns as the terminal client's plain mode breaks its own
    (:func:`guandan.linebreak.wrap`), never inside a name such as Small Joker, full house or Previous opponent
    (:meth:`~guandan.present.Presenter.whole_names`)."""
    return [row for line in lines for row in wrap(line, width, p.whole_names())]


__all__ = ["WIDTH", "public_view_lines", "public_view_text", "seat_view_lines", "seat_view_text"]
