"""What the terminal client says beyond the game's own sentences.

Events, cards, plays, seats, places and hint reasons are told by :class:`guandan.present.Presenter`
(gettext domain ``game``), seen from the human seat (你/下家/对家/上家), so the terminal, the web app
and ``guandan replay`` describe the game the same way. This module only arranges those pieces into
the client's panels (the table, the level line, the selection line) with the ``tui`` catalogue's own
UI words. Only public facts go in: events (everyone saw them) and the human seat's own observation.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.cards import BIG_JOKER, SMALL_JOKER, Card, rank_index, suit_of, wild_code
from ..core.deal import Action
from ..core.errors import GuandanError
from ..core.events import Event, FirstLead, Lead, Passed, Played, RoundWon, WentOut
from ..core.match import MatchObservation
from ..core.vocab import RANKS, ActionKind, Phase
from ..i18n import N_, Translator, translator
from ..present import Presenter, rank_text, said
from .session import Session, display_path

HUMAN = 0
PARTNER = (HUMAN + 2) % 4


def presenter(lang: str, level: int | None = None) -> Presenter:
    """The game's words seen from the human seat: 你, 下家, 对家, 上家; ``level``: the deal's, as for
    :class:`Presenter`."""
    return Presenter(lang, viewer=HUMAN, deal_level=level)


def typed_token(code: Card, level: int | None = None) -> str:
    """A card as the player types it (``H3``, ``S10``, ``LJ``, ``BJ``), ``*`` marking a wildcard (逢人配).
    The input notation of RULES.md with 10 written out, as :func:`.selection.parse_tokens` reads it."""
    if code == SMALL_JOKER:
        return "LJ"
    if code == BIG_JOKER:
        return "BJ"
    suit = suit_of(code)
    assert suit is not None
    token = suit + rank_text(RANKS[rank_index(code)])
    return token + "*" if level is not None and code == wild_code(level) else token


def typed_tokens(cards: Sequence[Card], level: int | None = None) -> str:
    return " ".join(typed_token(c, level) for c in cards)


@dataclass(frozen=True)
class SeatInfo:
    """One seat at the table as the human sees it."""

    seat: int
    name: str  # 你 / 下家 / 对家 / 上家
    count: str  # "27 cards" for the human's own hand, the 报牌 count for others, "" when unknown
    marks: list[str]  # what is due (to play, to pay tribute…), leads (接风), winning the round, its place once out
    last: str  # its last action this round: the play ("pair 9: ♠9 ♥9"), or "pass"
    last_cards: str  # the same play as its cards alone, for a narrow place ("♠9 ♥9")
    to_move: bool
    winning: bool
    reported: bool = False  # 报牌: it has 10 cards or fewer (by the rules' threshold) and is still playing


def seat_infos(obs: MatchObservation, p: Presenter, tr: Translator) -> list[SeatInfo]:
    """Per seat: its public card count (own, or 报牌), its last action this round, its place if out;
    who leads the round (接风 marked), who is winning it, whose turn it is."""
    _ = tr.gettext
    d = obs.deal
    last: dict[int, tuple[str, str]] = {}
    leader: int | None = None
    jiefeng = False
    for e in d.events:
        match e:
            case FirstLead(leader=s) | Lead(leader=s):
                leader, jiefeng, last = s, False, {}
            case RoundWon(leader=s, jiefeng=j):
                leader, jiefeng, last = s, j, {}
            case Played(player=s, cards=cards, combo=combo):
                last[s] = (p.play(cards, combo, d.level), p.played_cards(cards, combo, d.level))
            case Passed(player=s):
                text = p.action(Action(ActionKind.PASS, s))
                last[s] = (text, text)
    top_seat = d.top[0] if d.top is not None else None
    counts = d.public_counts
    out: list[SeatInfo] = []
    for seat in range(4):
        marks = []
        if d.to_move == seat:  # what is due: during tribute and return nobody plays yet
            marks.append({Phase.TRIBUTE: _("to pay tribute"), Phase.RETURN: _("to return a card"),
                          Phase.CHOOSE: _("to take a tribute card")}.get(d.phase, _("to play")))
        if seat == top_seat:
            marks.append(_("winning"))
        if seat in d.finish:
            marks.append(p.place(d.finish.index(seat) + 1))
        if seat == leader and d.phase == Phase.PLAY:  # last: where a side seat's line is cut, this goes first
            marks.append(_("leads after jiefeng") if jiefeng else _("leads"))
        n = counts.get(seat)
        count = "" if n is None else tr.ngettext("{n} card", "{n} cards", n).format(n=n)
        play, shown = last.get(seat, ("", ""))
        reported = seat in d.reported and seat not in d.finish
        out.append(SeatInfo(seat, p.seat(seat), count, marks, play, shown, d.to_move == seat, seat == top_seat, reported))
    return out


def table_lines(obs: MatchObservation, p: Presenter, tr: Translator) -> list[str]:
    """The table as lines (plain mode): ``Partner · 9 cards · winning the round: pair 9: ♠9 ♥9``."""
    _ = tr.gettext
    lines = []
    for s in seat_infos(obs, p, tr):
        head = _(" · ").join([s.name, *([s.count] if s.count else []), *s.marks])
        lines.append(_("{seat}: {last}").format(seat=head, last=s.last) if s.last else head)
    return lines


def level_line(obs: MatchObservation, p: Presenter, tr: Translator) -> list[str]:
    """``Deal 5 · playing level 2`` (``Match over after 10 deals`` at the end), ``Your team 5 : Opponents A (failed
    2×)`` and ``declarer Opponents`` (in the first deal ``no declarer yet``): the log's deal line's words (the
    levels from :meth:`~guandan.present.Presenter.team_levels`, as the log's), so that the table and the log name
    the levels and the declarer alike.
    Failures at A are told beside the level they belong to, so that the line fits an 80-column border even when
    both teams have failed at A."""
    _ = tr.gettext
    declarer = _("declarer {team}").format(team=p.team(obs.declarer)) if obs.declarer is not None else _(
        "no declarer yet")

    def level(team: int) -> str:
        text = p.level(obs.levels[team])
        # once the match is over the failures no longer count: a team that passed A kept its old tally
        if obs.levels[team] == RANKS.index("A") and obs.a_failures[team] and not obs.ended:
            text = _("{level} (failed {n}×)").format(level=text, n=obs.a_failures[team])
        return text

    if obs.ended:  # the engine counts the deal that would come next: the match ended with the one before
        head = tr.ngettext("Match over after {n} deal", "Match over after {n} deals", obs.deal_index).format(
            n=obs.deal_index)
    else:
        head = _("Deal {n} · playing level {level}").format(n=obs.deal_index + 1, level=p.level(obs.deal.level))
    return [
        head,
        p.team_levels(level(HUMAN % 2), level(1 - HUMAN % 2)),
        declarer,
    ]


def counter_entries(rows: Sequence[tuple[Card | None, str, int]], p: Presenter) -> list[str]:
    """The card counter (记牌器) rows as ``大王×1``, ``K×8``, ``10×5``: how many are still unseen."""
    return [f"{p.card(c) if c is not None else label}×{n}" for c, label, n in rows]


def counter_lines(rows: Sequence[tuple[Card | None, str, int]], p: Presenter, width: int = 4) -> list[str]:
    """The counter as a panel: both jokers on the first line, then ``width`` ranks a line, aligned."""
    entries = counter_entries(rows, p)
    jokers, ranks = entries[:2], [e.rjust(5) for e in entries[2:]]
    return ["  ".join(jokers), *(" ".join(ranks[i:i + width]).rstrip() for i in range(0, len(ranks), width))]


LAST_PLAYS = 3  # the plays and passes the end-of-deal box repeats: how the deal ended


def last_plays(events: Sequence[Event], p: Presenter, n: int = LAST_PLAYS) -> list[str]:
    """The last ``n`` plays and passes of a finished deal's ``events``, each with the seat going out after it, in the
    log's words, for the end-of-deal box, which covers the log where they were written."""
    moves = [i for i, e in enumerate(events) if isinstance(e, Played | Passed)]
    tail = events[moves[-n]:] if len(moves) >= n else events
    return [line for e in tail if isinstance(e, Played | Passed | WentOut) for line in p.event(e)]


def saved_lines(saved: tuple[Path | None, GuandanError | None], lang: str, unfinished: bool = False) -> list[str]:
    """What to tell the player about the save on the way out: where the match went, and, when the chosen
    file could not be written, why (the match then went to the data folder, or nowhere). An ``unfinished``
    match that was saved is followed by the command that goes on with it."""
    tr = translator("tui", lang)
    path, problem = saved
    lines = [said(problem, lang, "tui")] if problem is not None else []
    if path is not None:
        lines.append(tr.gettext("Saved to {path}").format(path=display_path(path)))
        if unfinished:
            lines.append(tr.gettext("To go on with this match: {command}").format(command=resume_command(path)))
    elif problem is not None:
        lines.append(tr.gettext("The match could not be saved anywhere."))
    return lines


def resume_command(path: Path) -> str:
    """The command line that goes on with the match saved in ``path``, as the player can paste it into a shell:
    the home folder written ``~`` and the rest quoted where it needs to be."""
    shown = display_path(path)
    if shown.startswith("~/"):
        return "guandan play --resume ~/" + shlex.quote(shown[2:])
    return "guandan play --resume " + shlex.quote(shown)


__all__ = ["HUMAN", "LAST_PLAYS", "PARTNER", "SeatInfo", "counter_entries", "counter_lines", "last_plays", "level_line",
           "presenter", "resume_command", "saved_lines", "seat_infos", "table_lines", "typed_token", "typed_tokens"]


def bot_failure_lines(session: Session, lang: str) -> list[str]:
    """What to tell the player, once a seat, of a bot whose moves the fallback plays: one that could not be
    created or reset (told as the match starts), or one that raised or answered no legal action."""
    tr, present = translator("tui", lang), presenter(lang)
    said = {
        "create": N_("{who} (bot, tier {tier}) could not be started: creating it failed; the fallback (the first "
                     "legal move) plays its moves for the whole match"),
        "reset": N_("{who} (bot, tier {tier}) could not be started: getting it ready for the match (reset) failed; "
                    "the fallback (the first legal move) plays its moves for the whole match"),
        "move": N_("{who} (bot, tier {tier}) failed; its move was played by the fallback (the first legal move), "
                   "as it will be whenever it fails again"),
    }
    return [tr.gettext(said[f.stage]).format(who=present.seat(f.seat), tier=f.tier) for f in session.take_bot_failures()]
