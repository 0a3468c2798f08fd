"""Knockout events (淘汰赛), pure logic: drawing partners, the bracket, byes, later rounds, ties, placings.

The format of the 2013 company event of RULES.md's source S004: players enter alone and are paired at random
(小组搭档随机安排), the pairs play a single-elimination bracket, and there are prizes for the champion (冠军), the
runner-up (亚军) and everyone else (阳光普照奖).

* **The bracket** has the smallest power of two of places that holds every team (6 teams: 8 places, 3
  rounds). Teams are seeded, by rating when any team has one (rated teams first, best first; the unrated
  after them in a seeded random order), otherwise in a seeded random order, and placed as a standard
  bracket places seeds: 1 meets the last seed, seeds 1 and 2 can only meet in the final, 1–4 only from the
  semi-finals on, and so on. The places left over are byes; they go to the best seeds, so no two byes ever
  meet and they are spread over the halves of the bracket. A bye is scored as the event's ``bye_score``
  (A:6 by default), like the Swiss bye.
* **Later rounds** keep the bracket's places: the winners of matches 1 and 2 of a round meet in match 1 of
  the next, and so on; the upper one sits North–South (home). A winner who withdraws before the next round
  is paired leaves the place empty, and the team drawn against the empty place advances on a bye.
* **Ties.** A knockout match needs a winner. A round that ends with equal levels (nobody passed A) is decided
  by one more deal (加赛一副), played on at the levels reached: the team whose player goes out first (头游)
  wins the match. The table enters it as the result's ``decider`` (home or away). The round itself stays a
  draw for 级差 and 场分; only who advances is decided. [ASSUMPTION: S004 names no tie rule; one extra deal is
  the usual practice and keeps the match at the table.]
* **Placings.** The winner of the final is 1st (冠军), its loser 2nd (亚军); the losers of the semi-finals
  share 3rd place, those of the quarter-finals 5th, and so on (a loser of round ``r`` of ``R`` is placed
  ``2**(R-r) + 1``). There is no match for 3rd place: S004 awards no 3rd prize.

Nothing here reads the audit log; :mod:`.state` applies the events and :mod:`.bracket` presents them.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import shown
from ..i18n import N_
from ..present import rank_text
from .errors import refusal, refused, said
from .levels import level_name
from .model import Team
from .rounds import RoundResult

#: A match of a round: the upper and the lower place of the bracket, each a team number or None (empty).
Match = tuple[int | None, int | None]

#: The prizes of S004, in order: 冠军一组（2人）, 亚军一组（2人）, 阳光普照奖（若干）.
PRIZES = ("champion", "runner_up", "sunshine")
PLAYER_NAME_MAX = 40


@dataclass(frozen=True)
class Player:
    """A player entered alone, in an event whose partners are drawn; ``id`` is the registration number."""

    id: int
    name: str
    club: str | None = None
    rating: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "club": self.club, "rating": self.rating}


def new_player(data: dict[str, Any], pid: int, existing: Iterable[Player]) -> Player:
    """Validate a ``player_registered`` entry's player against those already registered."""
    name = str(data["name"]).strip()
    if not name or len(name) > PLAYER_NAME_MAX:
        raise refusal(N_("a player's name must be 1…{most} characters, not {name}"), most=PLAYER_NAME_MAX,
                      name=shown(data["name"]))
    if name.isdigit():
        raise refusal(N_("a player's name cannot be only digits ({name}): it would read as a player number"),
                      name=shown(name))
    if any(p.name.casefold() == name.casefold() for p in existing):
        raise refusal(N_("a player named {name} is already registered: tell the two apart, e.g. {example}"),
                      name=shown(name), example=shown(name + " (2)"))
    rating = data.get("rating")
    if rating is not None and (isinstance(rating, bool) or not isinstance(rating, int | float)):
        raise refusal(N_("a rating must be a number, not {rating}"), rating=shown(rating))
    club = str(data.get("club") or "").strip() or None
    if club is not None and len(club) > 100:
        raise refusal(N_("a club name must be at most 100 characters, not {n}"), n=len(club))
    return Player(pid, name, club, None if rating is None else float(rating))


# ---- sizes --------------------------------------------------------------------------------------------
def bracket_size(teams: int) -> int:
    """The smallest power of two that holds ``teams`` (at least 2)."""
    if teams < 2:
        raise refusal(N_("a knockout needs at least two teams, not {n}"), n=teams)
    return 1 << (teams - 1).bit_length()


def rounds_for(teams: int) -> int:
    """How many rounds a knockout of ``teams`` plays: ⌈log2 teams⌉ (0 for fewer than two teams)."""
    return 0 if teams < 2 else bracket_size(teams).bit_length() - 1


def room_problem(teams: int, max_rounds: int) -> str | None:
    """Why ``teams`` do not fit an event that allows ``max_rounds`` rounds (0: any number), or None."""
    if max_rounds == 0 or teams <= 1 << max_rounds:
        return None
    return said(N_("{teams} teams need {rounds} knockout rounds, and this event allows at most {most} (at most "
                   "{room} teams); create it with more rounds, or with --rounds 0 for no limit"),
                teams=teams, rounds=rounds_for(teams), most=max_rounds, room=1 << max_rounds)


def stage(round_no: int, total_rounds: int) -> str:
    """The round's name as a key: ``final``, ``semi_final``, ``quarter_final`` or ``round_of_16`` (32, …)."""
    left = total_rounds - round_no
    if left < 0:
        raise refusal(N_("round {round} is past the final (round {final})"), round=round_no, final=total_rounds)
    return {0: "final", 1: "semi_final", 2: "quarter_final"}.get(left, f"round_of_{2 << left}")


def place_of_loser(round_no: int, total_rounds: int) -> int:
    """The shared place of a team that lost in ``round_no``: the final's loser 2nd, semi-finals' 3rd, …"""
    return (1 << (total_rounds - round_no)) + 1


# ---- drawing ----------------------------------------------------------------------------------------
def draw_partners(player_ids: Collection[int], seed: int) -> list[tuple[int, int]]:
    """Pairs of players drawn at random (seeded): the first two of a shuffle form team 1, the next two team 2, …"""
    ids = sorted(player_ids)
    if len(ids) < 4 or len(ids) % 2:
        raise refused(partners_problem(len(ids)) or "the partners cannot be drawn")
    random.Random(f"partners/{seed}").shuffle(ids)
    return [(ids[i], ids[i + 1]) for i in range(0, len(ids), 2)]


def partners_problem(players: int) -> str | None:
    """Why ``players`` cannot be drawn into pairs (an odd number, fewer than four), or None."""
    if players < 4:
        return said(N_("at least four players are needed to draw two teams, {n} registered"), n=players)
    if players % 2:
        return said(N_("{n} players are registered: partners are drawn in pairs, so the number must be even; "
                       "register one more player or withdraw one"), n=players)
    return None


def drawn_team(name: str, players: Sequence[Player], existing: Iterable[Team], tid: int) -> Team:
    """The team two drawn players form. Its club is theirs if they share one; its rating their mean rating
    (of those rated), so that a strong player is seeded apart from the other strong ones."""
    check_team_name(name, existing)
    a, b = players
    ratings = [p.rating for p in players if p.rating is not None]
    club = a.club if a.club is not None and a.club == b.club else None
    return Team(tid, name.strip(), (a.name, b.name), club, sum(ratings) / len(ratings) if ratings else None)


def team_name(a: Player, b: Player) -> str:
    return f"{a.name} / {b.name}"


def check_team_name(name: Any, existing: Iterable[Team]) -> None:
    text = str(name).strip()
    if not text or len(text) > 100:
        raise refusal(N_("a team name must be 1…100 characters, not {name}"), name=shown(name))
    if text.isdigit():
        raise refusal(N_("a team name cannot be only digits ({name}): it would read as a team number"), name=shown(text))
    if any(t.name.casefold() == text.casefold() for t in existing):
        raise refusal(N_("a team named {name} is already registered"), name=shown(text))


def seeding(teams: Sequence[Team], seed: int) -> tuple[list[int], str, int | None]:
    """The teams best first, the method (``rating`` or ``random``) and the seed used (None when unused).

    Rated teams come first, by rating (equal ratings: registration order); the unrated follow in a seeded
    random order. With no rating at all the whole order is random.
    """
    rated = sorted((t for t in teams if t.rating is not None), key=lambda t: (-(t.rating or 0.0), t.id))
    unrated = sorted(t.id for t in teams if t.rating is None)
    if unrated:
        random.Random(f"bracket/{seed}").shuffle(unrated)
    return [t.id for t in rated] + unrated, "rating" if rated else "random", seed if unrated else None


def seed_positions(size: int) -> list[int]:
    """The seed (1-based) at each place of a standard bracket of ``size`` places, top to bottom.

    Built by doubling: every seed ``s`` of the bracket of half the size is followed by its opponent
    ``size + 1 - s``, so 8 places give 1, 8, 4, 5, 2, 7, 3, 6.
    """
    if size < 2 or size & (size - 1):
        raise refusal(N_("a bracket has a power of two of places, not {n}"), n=size)
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def place_teams(order: Sequence[int]) -> list[int | None]:
    """The bracket's places (round 1, top to bottom) for teams listed best first; None is a bye."""
    size = bracket_size(len(order))
    return [order[s - 1] if s <= len(order) else None for s in seed_positions(size)]


def pair_places(places: Sequence[int | None]) -> tuple[Match, ...]:
    """The matches of one round: places 1 and 2, 3 and 4, …"""
    return tuple((places[i], places[i + 1]) for i in range(0, len(places), 2))


def check_slots(slots: Any, active: Collection[int]) -> tuple[int | None, ...]:
    """Validate a drawn bracket: the right size, every active team exactly once, no two byes meeting."""
    if not isinstance(slots, list | tuple):
        raise refusal(N_("a bracket is a list of places (team numbers or null), not {slots}"), slots=shown(slots))
    places: list[int | None] = []
    for x in slots:
        if x is not None and (isinstance(x, bool) or not isinstance(x, int)):
            raise refusal(N_("a bracket place holds a team number or null, not {place}"), place=shown(x))
        places.append(x)
    teams = [x for x in places if x is not None]
    dup = sorted({x for x in teams if teams.count(x) > 1})
    if dup:
        raise refusal(N_("the bracket places team(s) {teams} more than once"), teams=", ".join(map(str, dup)))
    unknown = sorted(set(teams) - set(active))
    if unknown:
        raise refusal(N_("the bracket places team(s) {teams} that are not in the event"),
                      teams=", ".join(map(str, unknown)))
    missing = sorted(set(active) - set(teams))
    if missing:
        raise refusal(N_("the bracket leaves out team(s) {teams}"), teams=", ".join(map(str, missing)))
    if len(active) < 2:
        raise refusal(N_("a knockout needs at least two teams, {n} entered"), n=len(active))
    if len(places) != bracket_size(len(active)):
        raise refusal(N_("{teams} teams need a bracket of {size} places, not {n}"), teams=len(active),
                      size=bracket_size(len(active)), n=len(places))
    for i, (a, b) in enumerate(pair_places(places), 1):
        if a is None and b is None:
            raise refusal(N_("match {match} of round 1 would be a bye against a bye"), match=i)
    return tuple(places)


def check_matches(data: Any) -> tuple[Match, ...]:
    """A ``knockout_paired`` entry's matches as tuples, checked for shape only."""
    if not isinstance(data, list | tuple) or not data:
        raise refusal(N_("a knockout round is a list of matches [upper, lower], not {matches}"), matches=shown(data))
    out: list[Match] = []
    for m in data:
        if not (isinstance(m, list | tuple) and len(m) == 2
                and all(x is None or (isinstance(x, int) and not isinstance(x, bool)) for x in m)):
            raise refusal(N_("a match is two places, each a team number or null, not {match}"), match=shown(m))
        out.append((m[0], m[1]))
    return tuple(out)


# ---- results -----------------------------------------------------------------------------------------
def winning_side(result: RoundResult, decider: int | None) -> int | None:
    """The side that goes through: the round's winner, or on equal levels the winner of the deciding deal."""
    return result.winner if result.winner is not None else decider


def result_problem(round_no: int, table_no: int, result: RoundResult, decider: int | None) -> str | None:
    """Why a knockout table's result cannot stand (a draw with no decider, a decider with a winner), or None."""
    levels = f"{rank_text(level_name(result.levels[0]))}:{rank_text(level_name(result.levels[1]))}"
    if result.winner is None and decider is None:
        return said(N_("round {round} table {table}: a knockout match needs a winner, and the levels are equal "
                       "({levels}). One more deal is played (加赛一副); enter the team whose player went out first as "
                       "the decider (home or away)"), round=round_no, table=table_no, levels=levels)
    if result.winner is not None and decider is not None:
        how = levels
        if result.passed_a is not None:
            how = said(N_("{levels}, passed A"), levels=how)
        if result.forfeit is not None:
            how = said(N_("{levels}, a forfeit"), levels=how)
        return said(N_("round {round} table {table}: the match already has a winner ({how}); a decider is only "
                       "for a round that ends level"), round=round_no, table=table_no, how=how)
    return None


def next_places(winners: Sequence[int | None], withdrawn: Collection[int]) -> list[int | None]:
    """The places of the next round: each match's winner, or None where the match was empty or the winner
    has withdrawn since."""
    return [None if w is None or w in withdrawn else w for w in winners]
