"""The review (复盘) engine: bad moves are found and labelled, the best move found is the right one,
nothing hidden reaches a verdict, the tiers are told apart; labels, accuracy and determinism."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from guandan.agents.counting import read
from guandan.agents.decompose import Decomposer
from guandan.agents.heuristic import HeuristicAgent
from guandan.core.cards import BIG_JOKER, SMALL_JOKER, lv, wild_code
from guandan.core.deal import Action
from guandan.core.errors import GuandanError
from guandan.core.match import MatchConfig, MatchObservation
from guandan.core.record import to_dict
from guandan.core.rules import RuleSet, preset
from guandan.core.tribute import partner
from guandan.core.vocab import ActionKind, Phase
from guandan.present import said
from guandan.review.bench import bootstrap_ci, play_deal
from guandan.review.engine import (
    MIN_WORLDS,
    WORLDS_PER_SECOND,
    Settings,
    _PlayValuer,
    candidates,
    evaluate,
    hindsight,
    worlds_for,
)
from guandan.review.report import Decision, collect, review_record, review_task
from guandan.review.verdict import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Label,
    Reason,
    accuracy,
    decision_accuracy,
    label_for,
    reason_for,
)

from .helpers import fixed_config, positions, replayed, reshuffle

BAD = (Label.MISTAKE, Label.BLUNDER)
COMPETITION = preset("competition")


# --- definitions ------------------------------------------------------------------------------------

def test_labels_follow_the_documented_thresholds() -> None:
    assert label_for(0.0) == Label.GOOD
    assert label_for(INACCURACY - 1e-9) == Label.GOOD
    assert label_for(INACCURACY) == Label.INACCURACY
    assert label_for(MISTAKE) == Label.MISTAKE
    assert label_for(BLUNDER) == Label.BLUNDER
    assert label_for(5.0) == Label.BLUNDER
    # a loss within two standard errors of zero cannot be told from noise: good
    assert label_for(BLUNDER, se=BLUNDER / 2 + 0.01) == Label.GOOD
    assert label_for(BLUNDER, se=BLUNDER / 2 - 0.01) == Label.BLUNDER


def test_accuracy_is_100_for_no_loss_and_falls_strictly_with_any_loss() -> None:
    assert decision_accuracy(0.0) == 100.0
    assert accuracy([]) is None
    assert accuracy([0.0, 0.0]) == 100.0
    losses = [0.0, 0.1, 0.3, 1.2]
    base = accuracy(losses)
    assert base is not None and 0 < base < 100
    for i in range(len(losses)):
        worse = list(losses)
        worse[i] += 0.05
        assert accuracy(worse) < base  # type: ignore[operator]
    assert accuracy([40.0]) == pytest.approx(0.0, abs=1e-9)


def test_the_budget_buys_a_fixed_number_of_worlds() -> None:
    assert worlds_for(1.0) == WORLDS_PER_SECOND
    assert worlds_for(0.0001) == MIN_WORLDS
    assert Settings(budget=0.5).worlds == round(0.5 * WORLDS_PER_SECOND)
    for bad in (0.0, -1.0, math.nan, math.inf):
        with pytest.raises(GuandanError, match="positive number"):
            worlds_for(bad)


def test_bootstrap_interval_brackets_the_mean() -> None:
    values = [float(x) for x in range(20)]
    lo, hi = bootstrap_ci(values, seed=3)
    assert lo < sum(values) / len(values) < hi


# --- deliberately bad moves -----------------------------------------------------------------------

def test_a_bomb_on_the_partners_winning_trick_is_a_blunder_and_passing_is_best() -> None:
    # the partner plays one of its last cards and the opponent after it passes: the round is the
    # partner's unless this seat overtakes it. Bombing it is the bad move.
    for p in positions(COMPETITION, range(80)):
        d = p.obs.deal
        if d.phase != Phase.PLAY or d.top is None or d.top[0] != partner(p.seat):
            continue
        if len(p.match.deal.hands[partner(p.seat)]) > 3:  # type: ignore[union-attr]  # the test's own pick
            continue
        bombs = [a for a in p.legal if a.combo is not None and a.combo.is_bomb]
        if bombs:
            bomb = min(bombs, key=lambda a: (a.combo.power, a.combo.value))  # type: ignore[union-attr]
            break
    else:
        pytest.fail("no position with a bomb over a partner about to go out")
    ev = evaluate(p.obs, bomb, COMPETITION, Settings(budget=0.15), p.name)
    label = label_for(ev.loss, ev.se)
    assert label in BAD, (ev.loss, ev.se)
    assert ev.best.action.kind == ActionKind.PASS
    why = reason_for(p.obs, ev.played, ev.best.action, Decomposer(COMPETITION, d.level))
    assert why is not None and why[0] == Reason.BOMBED_PARTNER


def test_giving_back_the_highest_card_is_a_mistake_and_a_low_card_is_best() -> None:
    rules = preset("competition", return_rule="any")  # any card may go back: the highest is a big joker
    for p in positions(rules, range(40), max_deals=3):
        d = p.obs.deal
        if d.phase == Phase.RETURN and any(a.cards[0] == BIG_JOKER for a in p.legal):
            break
    else:
        pytest.fail("no return decision with a big joker to give")
    highest = max(p.legal, key=lambda a: (lv(a.cards[0], d.level), a.cards[0]))
    assert highest.cards[0] == BIG_JOKER
    ev = evaluate(p.obs, highest, rules, Settings(budget=0.3), p.name)
    assert label_for(ev.loss, ev.se) in BAD, (ev.loss, ev.se)
    best = ev.best.action.cards[0]
    assert best not in (BIG_JOKER, SMALL_JOKER, wild_code(d.level)) and lv(best, d.level) <= 12  # at most a queen...
    assert lv(best, d.level) < lv(highest.cards[0], d.level)
    why = reason_for(p.obs, ev.played, ev.best.action, Decomposer(rules, d.level))
    assert why is not None and why[0] == Reason.GAVE_HIGHER


def test_passing_with_a_winning_play_in_an_exactly_solved_endgame_is_a_blunder() -> None:
    # at most 10 cards left in all hands: every world is solved exactly, and with every hand known a
    # play wins at least a level more than passing
    for p in positions(COMPETITION, range(40)):
        d = p.obs.deal
        if d.phase != Phase.PLAY or d.top is None or sum(read(p.obs).counts) > 10:
            continue
        passing = Action(ActionKind.PASS, p.seat)
        if passing not in p.legal or not any(a.kind == ActionKind.PLAY for a in p.legal):
            continue
        truth = [list(h) for h in p.match.deal.hands]  # type: ignore[union-attr]
        seen = hindsight(p.obs, passing, COMPETITION, Settings(), truth)
        if seen.exact and seen.loss >= 1.0:
            break
    else:
        pytest.fail("no endgame where passing loses a level")
    ev = evaluate(p.obs, passing, COMPETITION, Settings(budget=0.06), p.name)
    assert ev.exact_worlds == ev.worlds  # solved exactly, world by world
    assert label_for(ev.loss, ev.se) == Label.BLUNDER and ev.loss >= 1.0
    assert ev.best.action.kind == ActionKind.PLAY
    # the best play found is right: with every hand known it is worth as much as the true best
    actions, _ = candidates(p.obs, passing, COMPETITION)
    values, exact = _PlayValuer(p.obs, actions, COMPETITION, Decomposer(COMPETITION, d.level), True).values(truth)
    assert exact and values[actions.index(ev.best.action)] == seen.best_value


# --- nothing hidden reaches a verdict ---------------------------------------------------------------

def _decision_at(rules: RuleSet, config: MatchConfig, wanted: Callable[[MatchObservation], bool],
                 ) -> tuple[list[Action], int, MatchObservation, list[Action]]:
    """Heuristic play of a fixed deal up to the first non-forced decision satisfying ``wanted``."""
    agents = [HeuristicAgent(s) for s in range(4)]
    for s, agent in enumerate(agents):
        agent.reset(s, rules)
    m = replayed(rules, config, [])
    done: list[Action] = []
    while not m.ended:
        mover = m.to_move
        assert mover is not None
        obs, legal = m.observation(mover), m.legal_actions()
        if len(legal) > 1 and wanted(obs):
            return done, mover, obs, legal
        action = agents[mover].choose(obs, legal)
        done.append(action)
        m.apply(action)
    raise AssertionError("no such decision")


@pytest.mark.parametrize(("case", "seed", "prev_finish"), [
    ("mid-game play", 5, None),
    ("exact endgame", 11, None),
    ("return", 7, (0, 1, 2, 3)),  # seat 0 won the last deal 1-3: seat 3, last, paid it a tribute
])
def test_reshuffling_the_hidden_cards_does_not_change_the_verdict(case: str, seed: int,
                                                                 prev_finish: tuple[int, ...] | None) -> None:
    rules = COMPETITION
    config = fixed_config(seed, prev_finish)

    def wanted(obs: MatchObservation) -> bool:
        d = obs.deal
        if case == "return":
            return d.phase == Phase.RETURN
        if case == "exact endgame":  # and two other hands: hidden cards to move between them
            counts = read(obs).counts
            return d.phase == Phase.PLAY and sum(counts) <= 12 and sum(c > 0 for c in counts) >= 3
        return d.phase == Phase.PLAY and len(d.hand) < 20

    actions, seat, obs, legal = _decision_at(rules, config, wanted)
    played = legal[-1]
    truth = replayed(rules, config, actions)
    keep = [prev_finish[3]] if prev_finish else []  # the payer's paid tribute must stay its highest card
    settings = Settings(budget=0.03)
    verdict = evaluate(obs, played, rules, settings, "0:x")
    def from_record(config: MatchConfig) -> Decision:
        """The decision as `guandan review` sees it: collected from the record, then reviewed."""
        got = collect(to_dict(replayed(rules, config, [*actions, played])), [seat])
        (task,) = [t for t in got.tasks if t.index == len(actions)]
        return review_task(task, rules, settings)

    by_record = from_record(config)
    assert by_record.evaluation == evaluate(obs, played, rules, settings, f"0:{len(actions)}")
    rng = random.Random(seed)
    for _ in range(3):
        hands = reshuffle(truth, seat, rng, keep)
        other = replace(config, first_hands=hands)
        again = replayed(rules, other, actions)
        assert again.deal is not None and truth.deal is not None
        assert [sorted(h) for h in again.deal.hands] != [sorted(h) for h in truth.deal.hands]  # the table differs
        assert again.observation(seat) == obs  # … and the seat sees exactly the same
        assert evaluate(again.observation(seat), played, rules, settings, "0:x") == verdict
        assert from_record(other) == by_record
    if case == "exact endgame":
        assert verdict.exact_worlds == verdict.worlds > 0


def test_the_worlds_come_from_the_seed_and_the_decisions_name() -> None:
    p = next(p for p in positions(COMPETITION, range(3)) if p.obs.deal.phase == Phase.PLAY and len(p.legal) > 5)
    a = evaluate(p.obs, p.legal[1], COMPETITION, Settings(budget=0.03), "k")
    assert evaluate(p.obs, p.legal[1], COMPETITION, Settings(budget=0.03), "k") == a
    assert evaluate(p.obs, p.legal[1], COMPETITION, Settings(budget=0.03, seed=9), "k") != a


# --- every kind of decision, and the tiers --------------------------------------------------------

def test_tribute_choice_and_return_decisions_are_reviewed() -> None:
    rules = preset("competition", equal_tribute_assignment="winners_choose")
    seen: set[Phase] = set()
    for p in positions(rules, [23], max_deals=4):  # a match (found by a scan) with all three
        ph = p.obs.deal.phase
        if ph == Phase.PLAY or ph in seen or len(p.legal) < 2:
            continue
        ev = evaluate(p.obs, p.legal[-1], rules, Settings(budget=0.02), p.name)
        assert ev.worlds == MIN_WORLDS and ev.loss >= 0 and all(c.action in p.legal for c in ev.candidates)
        assert {c.action for c in ev.candidates} >= {p.legal[-1]}
        seen.add(ph)
        if len(seen) == 3:
            break
    assert seen == {Phase.TRIBUTE, Phase.CHOOSE, Phase.RETURN}


def test_a_random_seat_is_far_less_accurate_than_a_heuristic_seat() -> None:
    losses: dict[str, list[float]] = {"random": [], "heuristic": []}
    for k in range(3):
        data, seats = play_deal(["random", "heuristic"], k, 7)
        review = review_record(data, [0, 1], None, Settings(budget=0.03, seed=1))
        for s in review.seats:
            losses[seats[s.seat]] += [d.loss for d in s.decisions]
    rand, heur = accuracy(losses["random"]), accuracy(losses["heuristic"])
    assert rand is not None and heur is not None
    print(f"accuracy: random {rand:.1f}, heuristic {heur:.1f}")
    assert heur - rand >= 10, (rand, heur)


def test_collect_takes_only_the_seats_decisions_and_counts_the_forced_ones() -> None:
    data, _ = play_deal(["heuristic"], 0, 3)
    got = collect(data, [2])
    assert got.tasks and all(t.seat == 2 and len(t.obs.deal.legal) > 1 for t in got.tasks)
    assert all(t.truth is None for t in got.tasks)  # no hidden hand travels without --hindsight
    assert got.forced[(2, 0)] > 0
    assert [t.index for t in got.tasks] == sorted(t.index for t in got.tasks)
    with pytest.raises(GuandanError, match="no deal 2"):
        collect(data, [0], [1])
    with pytest.raises(GuandanError, match="seats are"):
        collect(data, [4])


def test_a_deal_the_record_lacks_is_refused_in_words_for_one_deal_and_for_many() -> None:
    data, _ = play_deal(["heuristic"], 0, 3)
    cases = [(data, 2, "the record has no deal 2; its last deal is 1", "记录中没有第2副，最后一副是第1副"),
             ({**data, "deals": data["deals"] * 3}, 5, "the record has no deal 5; its last deal is 3",
              "记录中没有第5副，最后一副是第3副"),
             ({**data, "deals": []}, 1, "the record holds no deal", "记录中没有任何一副")]
    for record, deal, en, zh in cases:
        with pytest.raises(GuandanError) as caught:
            collect(record, [0], [deal - 1])
        assert (said(caught.value, "en", "game"), said(caught.value, "zh", "game")) == (en, zh)


def test_a_record_cut_mid_deal_is_reviewed_up_to_its_last_action() -> None:
    data, _ = play_deal(["heuristic"], 1, 3)
    data["deals"][0]["actions"] = data["deals"][0]["actions"][:30]
    for key in ("finish", "levels_after", "result", "declarer", "levels_before"):
        data["deals"][0].pop(key, None)
    data["result"]["ended"] = False
    got = collect(data, [0, 1, 2, 3])
    assert got.tasks and max(t.index for t in got.tasks) < 30


def test_config_of_the_fixed_deal_is_valid() -> None:
    config = fixed_config(1)
    assert isinstance(config, MatchConfig) and config.first_hands is not None
