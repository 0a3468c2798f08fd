"""Which round results play can produce under an event's rules: the check of a result a team enters.

A result slip gives the final levels (home, away), the side that passed A and the deals played. Whether play
could end so is found by exploring the round deal by deal from its start (both teams at 2), every finishing
order of every deal settled by the core's own :func:`~guandan.core.scoring.settle_deal`, so passing A, the
A-failure reset, streak bonuses and penalties and every variant rule count exactly as at a played table; a
first deal credited by the lateness rule comes from :func:`~.deals.settle_next`'s own award. Nothing here
knows how many levels a deal is worth.

The check is *exact* for every count of deals, and *sound*: it refuses a result only where no play of that
many deals gives it. Where the rules leave a choice it is lenient: an awarded first deal may or may not be
counted among the deals played, a knockout's deciding deal (加赛一副) too; a slip that gives no deal count is
checked against every count the event allows.

How it stays fast. The states a round can be in after exactly n deals (a *layer*) are explored lazily, one
deal at a time, only as far as a question needs, and memoised per (rules, award levels, whether passing A ends
the round, whether the question is about a pass of A: one that is not never follows a round past a pass).

* A state is kept only as far as it can still change a level. Streak counts are capped where a larger count
  no longer changes one (a bonus or penalty of 12 levels already moves any level to the end of 2…A; a flat
  streak is worth one level from its threshold on), and states are kept up to the symmetries of the
  settlement, which only asks which team a seat is in and who is its partner: the two seats of a team may
  trade places, and the two teams may (levels, declarer, A failures and streaks with them). A round that has
  passed A is kept with the side that passed it as home.
* The settlement is called once per (levels, declarer and A failures; winning team, partner's place, streak
  bonus and penalties it notes), not once per state and finishing order: the levels follow from the team
  that went out first and its partner's place (RULES.md §6) and from the streaks only through the bonus and
  penalties, which, like the counts after a deal, follow from the counts and the finishing order alone
  (§8.2). Those are found by settling each finishing order once per set of counts.
* A result proved to come from *every* count from some n on needs no layer past n. The proof is a set M of
  states of layer n each of which follows, one deal later, a state of M or of the states already proved so
  (the *core*): then M lies in every later layer, and so do the results of its states, and the states that
  follow. Each layer is split so into the core, which is followed once for all (each state is settled once),
  and the rest, followed deal by deal. Where layers repeat (every deal or every other one) every later count
  is known as well, and the states are dropped, only the results kept; a start none of whose layers holds
  a new state has shown every result it can give.

Under the huaian-traditional rules every result is proved to come from every count from the first that gives
it or from the seventh deal, whichever is later, except 2:3 and 3:2 (from 13 deals on) and 2:2 and 3:3 (from
14): no question explores past 14 deals, nor settles more than 15,045 of the round's 16,110 states. Measured
on the 2-core development machine with the memo cold (processor time of the whole check, other sessions
running): a result play gives is checked in 0.1–0.25 s, and the slowest, refusing 2:2 or 3:3 after 10–13
deals (every state through that count is settled), in about 0.35 s; the memo then holds about 7 MiB for those
rules and answers each later slip in well under a millisecond. The other presets: at most 15 ms. Where
passing A does not end the round, a result with a pass of A that no count gives at all is the slow case, as
every state after a pass must be seen (under huaian-traditional every such result comes from some count, and
9 deals are explored; under streaks worth a level from the first last place, about 1.2 s).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from ..core.rules import RuleSet
from ..core.scoring import StreakCounts, settle_deal
from ..core.vocab import Scoring, SettlementNote, StreakMode
from ..i18n import N_
from .deals import Track, settle_next
from .errors import Said, Word, said
from .levels import LEVEL_A, level_label, level_value
from .model import EventConfig
from .rounds import ResultSlip

#: The deals explored at most for one count: the most a round may have (RoundLimits' max_deals is 1…99).
HORIZON: Final = 99
#: Every finishing order of a deal (头游 first), as engine seats.
ORDERS: Final = tuple(itertools.permutations(range(4)))
#: The largest level step that can matter: a bonus or penalty this big moves a level to the end of 2…A.
_SPAN: Final = LEVEL_A - 2
_SIDES = (N_("home"), N_("away"))
_STREAK_NOTES: Final = frozenset({SettlementNote.STREAK_BONUS, SettlementNote.STREAK_PENALTY})

# A state between deals is one int: (levels << 1 | passed) << _SIG_BITS | streaks, where ``levels`` numbers a
# (home level, away level, declarer, home's A failures, away's) and ``streaks`` a set of first-out and last-out
# streak counts per seat (each team's two seats in order). ``passed`` is 1 once A was passed, the side that
# passed it made home. Levels are the core's rank indices (0 is level 2); -1 stands for "none".
_SIG_BITS: Final = 24
_SIG_MASK: Final = (1 << _SIG_BITS) - 1
_KEY_BITS: Final = 20  # a settlement's key (see _Reach.level_keys) in a move's key
#: A result as a slip gives it: home level, away level (2…14), the side that passed A (-1: none).
Outcome = tuple[int, int, int]
Levels = tuple[int, int, int, int, int]
Counts = tuple[int, int, int, int]

_ZERO: Final = (0, 0, 0, 0)


def _flip(side: int) -> int:
    return side if side < 0 else 1 - side


def _mirror(o: Outcome) -> Outcome:
    """The same result with the teams' places traded."""
    return (o[1], o[0], _flip(o[2]))


def _full(n: int) -> int:
    """The bits of the counts 0…n."""
    return (2 << n) - 1 if n >= 0 else 0


class _Walk:
    """The rounds from one start (the round's, or after its first deal credited to a team), explored through
    ``depth`` deals: the layer of exactly ``depth`` deals is ``core | rest``, where the states of ``core`` are
    in every later layer too (so are the states that follow them: those of ``fresh`` have not been followed
    yet), and what is known of the results after each count."""

    __slots__ = ("before", "closed", "core", "depth", "fresh", "masks", "period", "persist", "rest", "seen",
                 "settled")

    def __init__(self, start: int) -> None:
        self.depth = 0
        self.core: set[int] = set()
        self.fresh: set[int] = set()
        self.rest: frozenset[int] = frozenset({start})
        self.before: frozenset[int] | None = None  # the rest of the layer before, if the core did not grow since
        self.settled = False  # the core did not grow in the last deal
        self.masks: dict[Outcome, int] = {}  # a result: a bit per count its states of ``rest`` came from
        self.persist: dict[Outcome, int] = {}  # a result: it comes from every count from this one on
        self.period: tuple[int, int] | None = None  # from (this count on, layers repeat every so many deals)
        self.seen: set[int] = {start}  # the states of every rest so far (with the core: every state seen)
        self.closed = False  # every state from this start has been seen (no layer holds a new one)

    def _at(self, o: Outcome, d: int) -> bool:
        k = self.persist.get(o)
        return (k is not None and k <= d) or bool(self.masks.get(o, 0) >> d & 1)

    def known(self, o: Outcome, d: int) -> bool | None:
        """Whether ``o`` comes from exactly ``d`` deals, or None when that is not known yet."""
        if d <= self.depth:
            return self._at(o, d)
        k = self.persist.get(o)
        if k is not None and k <= d:
            return True
        if self.period is not None:
            start, p = self.period
            return self._at(o, start + (d - start) % p)
        return None

    def bits(self, o: Outcome, n: int) -> int | None:
        """The counts 0…n that ``o`` comes from (a bit per count), or None when they are not all known yet."""
        k = self.persist.get(o)
        if n > self.depth and self.period is None and (k is None or k > self.depth + 1):
            return None
        mask = self.masks.get(o, 0)
        if k is not None:
            mask |= _full(max(n, self.depth)) & ~_full(k - 1)
        if n > self.depth and self.period is not None:
            start, p = self.period
            for d in range(self.depth + 1, n + 1):
                mask |= self._at(o, start + (d - start) % p) << d
        return mask & _full(n)

    def first(self, o: Outcome) -> int | None:
        """The fewest deals ``o`` came from so far."""
        mask, k = self.masks.get(o, 0), self.persist.get(o)
        if not mask:
            return k
        low = _low(mask)
        return low if k is None else min(low, k)


class _Reach:
    """The rounds under one event's rules, explored lazily deal by deal from both starts."""

    def __init__(self, rules: RuleSet, award_levels: int, stop_on_pass_a: bool, passes: bool) -> None:
        self.rules, self.stop = rules, stop_on_pass_a
        self.passes = passes or stop_on_pass_a  # a passed round is followed (where it ends the round: for free)
        s = rules.streaks
        self.streaky = s is not None
        if s is None:
            self.caps = (0, 0)
        elif s.mode == StreakMode.FLAT:  # from the threshold on every deal of a streak is worth one level
            self.caps = (s.first_threshold, s.last_threshold)
        else:  # from threshold + span - 1 on a bonus or penalty moves a level past the end of 2…A
            self.caps = (s.first_threshold + _SPAN - 1, s.last_threshold + _SPAN - 1)
        # streak counts: their numbers, the same counts with the teams traded, and what each finishing order
        # makes of them: (the counts after, the settlement's key) once per distinct pair
        self.sig_ids: dict[tuple[int, ...], int] = {}
        self.sig_keys: list[tuple[int, ...]] = []
        self.sig_swap: list[int] = []
        self.rows: list[tuple[tuple[int, int], ...] | None] = []
        # levels (home, away, declarer, A failures): their numbers and the same with the teams traded
        self.lam_ids: dict[Levels, int] = {}
        self.lam_keys: list[Levels] = []
        self.lam_swap: list[int] = []
        # what a settlement depends on besides the levels: (winning team, partner's place, streak notes), and
        # a finishing order and streak counts that give it
        self.level_keys: dict[tuple[object, ...], int] = {}
        self.level_reps: list[tuple[tuple[int, ...], StreakCounts]] = []
        self.moves: dict[int, int] = {}  # (levels << _KEY_BITS | key) -> levels after << 2 | match winner + 1
        self.succ: dict[int, tuple[int, ...]] = {}
        self.one = dict[int, int]().setdefault
        self.lock = threading.RLock()
        _, awarded = settle_next(Track(), {"award": "home"}, rules, award_levels, stop_on_pass_a=stop_on_pass_a)
        self.walks = (_Walk(self._start(Track())), _Walk(self._start(awarded)))
        for w in self.walks:
            self._record(w, w.rest, False)

    # ---- states ------------------------------------------------------------------------------------
    def _start(self, t: Track) -> int:
        st = t.streaks
        lam = self._lam((t.levels[0], t.levels[1], -1 if t.declarer is None else t.declarer, t.a_failures[0],
                         t.a_failures[1]))
        sig = self._sig(st.first, st.last)
        a, b = lam << _SIG_BITS + 1 | sig, self.lam_swap[lam] << _SIG_BITS + 1 | self.sig_swap[sig]
        return min(a, b)

    def _sig(self, first: Counts, last: Counts) -> int:
        """The number of these streak counts, the two seats of each team in order."""
        if not self.streaky:
            first = last = _ZERO
        else:
            cf, cl = self.caps
            if max(first) > cf or max(last) > cl:
                first = (min(first[0], cf), min(first[1], cf), min(first[2], cf), min(first[3], cf))
                last = (min(last[0], cl), min(last[1], cl), min(last[2], cl), min(last[3], cl))
        n, s = (first[0], last[0]), (first[2], last[2])
        if s < n:
            n, s = s, n
        e, w = (first[1], last[1]), (first[3], last[3])
        if w < e:
            e, w = w, e
        key = (n[0], e[0], s[0], w[0], n[1], e[1], s[1], w[1])
        i = self.sig_ids.get(key)
        if i is None:
            i = self.sig_ids[key] = len(self.sig_keys)
            self.sig_keys.append(key)
            self.rows.append(None)
            self.sig_swap.append(i)
            self.sig_swap[i] = self._sig((key[1], key[0], key[3], key[2]), (key[5], key[4], key[7], key[6]))
        return i

    def _lam(self, key: Levels) -> int:
        i = self.lam_ids.get(key)
        if i is None:
            i = self.lam_ids[key] = len(self.lam_keys)
            self.lam_keys.append(key)
            self.lam_swap.append(i)
            l0, l1, d, f0, f1 = key
            self.lam_swap[i] = self._lam((l1, l0, _flip(d), f1, f0))
        return i

    def _row(self, sig: int) -> tuple[tuple[int, int], ...]:
        """What each finishing order makes of streak counts ``sig``: (the counts after, the settlement's key)."""
        key = self.sig_keys[sig]
        streaks = StreakCounts(key[:4], key[4:])  # type: ignore[arg-type]
        out: dict[tuple[int, int], None] = {}
        for finish in ORDERS:
            # the streak counts after a deal and the bonus and penalties noted do not depend on the levels
            # (§8.2): settled from 2:2 on a round's first deal, where A is neither passed nor failed and a
            # deal overshoots A only where it does from every level
            x = settle_deal((0, 0), None, finish, self.rules, (0, 0), streaks)
            notes = tuple((n.kind, n.team, n.amount) for n in x.notes if n.kind in _STREAK_NOTES)
            level_key = (x.declarer_after, x.partner_place, notes)
            k = self.level_keys.get(level_key)
            if k is None:
                k = self.level_keys[level_key] = len(self.level_reps)
                self.level_reps.append((finish, streaks))
            after = x.streaks_after
            out[(self._sig(after.first, after.last), k)] = None
        row = self.rows[sig] = tuple(out)
        return row

    def _move(self, lam: int, k: int) -> int:
        """The levels after a deal from levels ``lam`` settled as key ``k`` says, and its match winner."""
        l0, l1, d, f0, f1 = self.lam_keys[lam]
        finish, streaks = self.level_reps[k]
        x = settle_deal((l0, l1), None if d < 0 else d, finish, self.rules, (f0, f1), streaks)
        after = self._lam((x.levels_after[0], x.levels_after[1], x.declarer_after, x.a_failures_after[0],
                           x.a_failures_after[1]))
        m = self.moves[lam << _KEY_BITS | k] = after << 2 | (0 if x.match_winner is None else x.match_winner + 1)
        return m

    def _successors(self, s: int) -> tuple[int, ...]:
        lp, sig = s >> _SIG_BITS, s & _SIG_MASK
        lam, passed = lp >> 1, lp & 1
        if passed and self.stop:
            self.succ[s] = ()
            return ()  # passing A ended the round: no deal after it
        row = self.rows[sig] or self._row(sig)
        moves, lam_swap, sig_swap, base = self.moves, self.lam_swap, self.sig_swap, lam << _KEY_BITS
        out: set[int] = set()
        for sig2, k in row:
            m = moves.get(base | k)
            if m is None:
                m = self._move(lam, k)
            after, won = m >> 2, (m & 3) - 1
            if passed:  # the side that passed A stays home
                out.add((after << 1 | 1) << _SIG_BITS | sig2)
            elif won < 0:
                a, b = after << _SIG_BITS + 1 | sig2, lam_swap[after] << _SIG_BITS + 1 | sig_swap[sig2]
                out.add(a if a < b else b)
            elif self.passes:
                out.add((after << 1 | 1) << _SIG_BITS | sig2 if won == 0
                        else (lam_swap[after] << 1 | 1) << _SIG_BITS | sig_swap[sig2])
        one = self.one  # one int per state (each is written in several tuples): a third of the memory
        r = self.succ[s] = tuple([one(t, t) for t in out])
        return r

    def _outcomes(self, lp: int) -> tuple[Outcome, Outcome]:
        l0, l1 = self.lam_keys[lp >> 1][:2]
        o = (l0 + 2, l1 + 2, 0 if lp & 1 else -1)
        return o, _mirror(o)

    def _record(self, w: _Walk, states: Iterable[int], persist: bool) -> None:
        """Note the results of ``states``, in the layer of ``w.depth`` deals (and, with ``persist``, in every
        later one)."""
        if persist:
            for lp in {s >> _SIG_BITS for s in states}:
                for o in self._outcomes(lp):
                    w.persist.setdefault(o, w.depth)
            return
        masks, bit = w.masks, 1 << w.depth
        for lp in {s >> _SIG_BITS for s in states}:
            for o in self._outcomes(lp):
                masks[o] = masks.get(o, 0) | bit

    # ---- exploring -----------------------------------------------------------------------------------
    def _after(self, s: int) -> tuple[int, ...]:
        r = self.succ.get(s)
        return self._successors(s) if r is None else r

    def _extend(self, w: _Walk) -> None:
        """The next layer of ``w``."""
        core, grown, rest = w.core, set[int](), set[int]()
        for s in w.fresh:
            grown.update(self._after(s))
        grown -= core
        core |= grown
        for s in w.rest:
            rest.update(self._after(s))
        rest -= core
        new = frozenset(rest)
        w.depth += 1
        if not grown:
            if new == w.rest:
                w.period = (w.depth - 1, 1)
            elif w.settled and new == w.before:
                w.period = (w.depth - 2, 2)
        w.before, w.rest, w.fresh, w.settled = w.rest, new, grown, not grown
        self._record(w, new, False)
        self._record(w, grown, True)
        if not w.closed:  # the new layer (grown and new lie outside the core before) holds no unseen state?
            if new <= w.seen and grown <= w.seen:
                w.closed, w.seen = True, set()  # then so do the next layers
            else:
                w.seen |= new
        if w.period is not None:  # every later layer is known: only the results are kept
            w.core, w.fresh, w.rest, w.before, w.seen = set(), set(), frozenset(), None, set()
            if all(x.period is not None for x in self.walks):
                self.succ, self.rows, self.moves, self.one = {}, [], {}, dict[int, int]().setdefault
                self.sig_ids, self.sig_keys, self.sig_swap, self.lam_ids, self.lam_keys, self.lam_swap = (
                    {}, [], [], {}, [], [])
        else:
            self._prove(w)

    def _prove(self, w: _Walk) -> None:
        """Move to the core the states of the rest that are in every later layer: the greatest set M of them of
        which each follows a state in M or in the core (then M and the core lie in the next layer, and so on)."""
        layer = w.rest
        count = dict.fromkeys(layer, 0)
        for s in w.fresh:  # the older core states are followed by core states only: only fresh ones count
            for t in self._after(s):
                if t in count:
                    count[t] += 1
        kids: dict[int, list[int]] = {}
        for s in layer:
            k = kids[s] = [t for t in self._after(s) if t in count]
            for t in k:
                count[t] += 1
        dead = [s for s, c in count.items() if not c]
        while dead:
            for t in kids[dead.pop()]:
                count[t] -= 1
                if not count[t]:
                    dead.append(t)
        held = [s for s, c in count.items() if c]
        if held:
            w.core.update(held)
            w.fresh.update(held)
            w.rest = layer.difference(held)
            w.settled = False
            self._record(w, held, True)

    def known(self, origin: int, o: Outcome, d: int) -> bool:
        """Whether ``o`` comes from exactly ``d`` deals from start ``origin`` (0: the round's; 1: its first deal
        credited to a team)."""
        if d < 0:
            return False
        w = self.walks[origin]
        with self.lock:
            while (k := w.known(o, d)) is None:
                self._extend(w)
            return k

    def bits(self, origin: int, o: Outcome, n: int) -> int:
        """The counts 0…n (a bit per count) that ``o`` comes from, from start ``origin``."""
        w = self.walks[origin]
        with self.lock:
            while (b := w.bits(o, n)) is None:
                self._extend(w)
            return b

    def first(self, origin: int, o: Outcome, limit: int) -> int | None:
        """The fewest deals from start ``origin`` that give ``o``, if at most ``limit``; None when no count so
        small gives it (or none at all: see :meth:`never`)."""
        w = self.walks[origin]
        with self.lock:
            while (d := w.first(o)) is None and w.depth < limit and not w.closed and w.period is None:
                self._extend(w)
            return d if d is not None and d <= limit else None

    def never(self, o: Outcome) -> bool:
        """Whether it is known that ``o`` comes from no count at all (after :meth:`first` found none)."""
        return all((w.closed or w.period is not None) and w.first(o) is None for w in self.walks)

    def accepts(self, o: Outcome, n: int, decider: bool) -> bool:
        """Whether a slip may give ``o`` after ``n`` deals: played from the start, or after an awarded first deal
        counted or not; a deciding deal counted or not."""
        for m in ((n, n - 1) if decider else (n,)):
            if self.known(0, o, m) or self.known(1, o, m) or self.known(1, o, m - 1):
                return True
        return False

    def counts(self, o: Outcome, n: int, decider: bool) -> int:
        """The counts 0…n (a bit per count) a slip may give for ``o`` (see :meth:`accepts`)."""
        plain, award = self.bits(0, o, n), self.bits(1, o, n)
        c = (plain | award | award << 1) & _full(n)
        return c | c << 1 & _full(n) if decider else c

    def fewest(self, o: Outcome) -> tuple[int, int] | None:
        """The fewest deals a slip may give for ``o``, and the fewest played (an awarded first deal counted),
        through HORIZON + 1 deals; None when ``o`` comes from no count so small (see :meth:`never`)."""
        plain = self.first(0, o, HORIZON + 1)
        award = self.first(1, o, HORIZON + 1 if plain is None else plain)
        if award is None:
            return None if plain is None else (plain, plain)
        if plain is None:
            return award, award + 1
        return min(plain, award), min(plain, award + 1)


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


@lru_cache(maxsize=8)
def reach(rules: RuleSet, award_levels: int, stop_on_pass_a: bool, passes: bool = True) -> _Reach:
    """The (lazily explored) rounds of an event's rules: an event's rules do not change, so one per process.
    ``passes``: whether rounds that pass A (and, unless that ends the round, go on) are followed; a question
    about a result without a pass of A needs none of them."""
    return _Reach(rules, award_levels, stop_on_pass_a, passes or stop_on_pass_a)


def check_result(cfg: EventConfig, round_no: int, table_no: int, slip: ResultSlip) -> Said | None:
    """Why the result on ``slip`` cannot come from play at round ``round_no`` table ``table_no`` under the
    event's rules, or None when it can (or cannot be told: a forfeit, rules that score points, a count past
    the event's limit, which is refused elsewhere)."""
    if slip.levels is None or slip.forfeit is not None or cfg.rules.scoring != Scoring.LEVELS:
        return None
    o: Outcome = (level_value(slip.levels[0]), level_value(slip.levels[1]),
                  -1 if slip.passed_a is None else slip.passed_a)
    if o[2] >= 0 and o[o[2]] != LEVEL_A:
        return None  # refused by the scoring, in its own words
    limit = cfg.limits.max_deals
    n = slip.deals
    if n is not None and limit is not None and n > limit:
        return None
    stop = cfg.limits.stop_on_pass_a
    r = reach(cfg.rules, cfg.lateness.deal_award_levels, stop, stop or o[2] >= 0)
    where = {"round": round_no, "table": table_no, "result": _result_words(o)}
    if n is None or n > HORIZON:
        return _any_count(r, o, limit, where)
    decider = slip.decider is not None
    if r.accepts(o, n, decider):
        return None
    counts = r.counts(o, n, decider)
    if counts:
        return said(N_("round {round} table {table}: {result} cannot come from {deals} of play under this event's "
                       "rules; it can come from {other}"), deals=_deals(n), other=_deals(_nearest(counts, n)),
                    **where)
    fewest = r.fewest(o)
    if fewest is not None:
        return said(N_("round {round} table {table}: {result} cannot come from {deals} of play: from 2:2 {takes}"),
                    deals=_deals(n), takes=_takes(*fewest), **where)
    if r.never(o):
        return said(_NEVER, **where)
    return said(N_("round {round} table {table}: {result} cannot come from {deals} of play under this event's "
                   "rules"), deals=_deals(n), **where)


#: A result that no number of deals can give.
_NEVER = N_("round {round} table {table}: {result} cannot come from play under this event's rules, in any number "
            "of deals")


def _any_count(r: _Reach, o: Outcome, limit: int | None, where: dict[str, object]) -> Said | None:
    """A slip without a deal count (or with more than can be explored): any count the event allows."""
    if limit is None:
        if r.fewest(o) is not None or not r.never(o):
            return None  # it comes from some count (or from none as few as HORIZON + 1, which is not told)
        return said(_NEVER, **where)
    if r.first(0, o, limit) is not None or r.first(1, o, limit) is not None:
        return None
    fewest = r.fewest(o)
    if fewest is None and r.never(o):
        return said(_NEVER, **where)
    if fewest is None:
        return said(N_("round {round} table {table}: {result} cannot come from play in this event's rounds of at "
                       "most {limit}"), limit=_deals(limit), **where)
    return said(N_("round {round} table {table}: {result} cannot come from play in this event's rounds of at most "
                   "{limit}: from 2:2 {takes}"), limit=_deals(limit), takes=_takes(*fewest), **where)


def _takes(fewest: int, played: int) -> Said:
    """The fewest deals a slip may give, and the fewest played when a first deal credited for lateness (and
    not counted) makes them differ."""
    if fewest == played:
        return said(N_("it takes at least {fewest}"), fewest=_deals(fewest))
    return said(N_("it takes at least {fewest}, or {besides} after a first deal credited for lateness"),
                fewest=_deals(played), besides=_deals(fewest))


def _nearest(counts: int, n: int) -> int:
    """The count among ``counts`` (a bit per count) nearest to ``n``, the smaller on a tie."""
    return min(_bits(counts), key=lambda k: (abs(k - n), k))


def _bits(mask: int) -> Iterable[int]:
    k = 0
    while mask:
        if mask & 1:
            yield k
        mask >>= 1
        k += 1


def _deals(n: int) -> Said:
    return said(N_("one deal")) if n == 1 else said(N_("{n} deals"), n=n)


def _result_words(o: Outcome) -> str:
    levels = f"{level_label(o[0])}:{level_label(o[1])}"
    if o[2] < 0:
        return levels
    return said(N_("{levels} with {side} passing A"), levels=levels, side=Word(_SIDES[o[2]]))
