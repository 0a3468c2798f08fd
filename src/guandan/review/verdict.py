"""From values to a verdict: the loss of a decision, its label, a reason, and accuracy figures.

* **loss** = value of the best candidate − value of the played action, in level points, ≥ 0
  (:attr:`guandan.review.engine.Evaluation.loss`), with the standard error of that paired difference.
* **label**: ``good`` below ``INACCURACY``; ``inaccuracy`` from ``INACCURACY``; ``mistake`` from
  ``MISTAKE``; ``blunder`` from ``BLUNDER`` — and a loss within ``SIGNIFICANCE`` standard errors of
  zero is ``good`` whatever its size (too few worlds to tell it from noise).
* **accuracy** of a decision = ``100 · exp(−loss / ACCURACY_SCALE)``; of a player over a deal or a
  match, the mean of its decisions' accuracies (forced decisions, with one legal action, are not
  counted). 100 is a player whose every decision was the engine's best; it falls strictly as any loss
  grows.
* **reason**: a fact about the played action next to the best one, worked out from the seat's
  observation (:func:`reason_for`); ``None`` where none of the patterns applies.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from enum import StrEnum

from ..agents.decompose import Decomposer
from ..core.cards import lv
from ..core.deal import Action
from ..core.match import MatchObservation
from ..core.tribute import partner
from ..core.vocab import ActionKind, ComboType

INACCURACY = 0.2  # level points
MISTAKE = 0.5
BLUNDER = 1.0
SIGNIFICANCE = 2.0  # standard errors a loss must clear to be more than "good"
ACCURACY_SCALE = 0.5  # level points: a decision losing this much scores 100/e ≈ 36.8


class Label(StrEnum):
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


LABELS = (Label.GOOD, Label.INACCURACY, Label.MISTAKE, Label.BLUNDER)


def label_for(loss: float, se: float = 0.0) -> Label:
    """The label of a loss (level points) measured with standard error ``se``."""
    if loss < INACCURACY or loss < SIGNIFICANCE * se:
        return Label.GOOD
    if loss < MISTAKE:
        return Label.INACCURACY
    if loss < BLUNDER:
        return Label.MISTAKE
    return Label.BLUNDER


def decision_accuracy(loss: float) -> float:
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


def accuracy(losses: Sequence[float]) -> float | None:
    """A player's accuracy over decisions with these losses (None when there are none)."""
    if not losses:
        return None
    return sum(decision_accuracy(x) for x in losses) / len(losses)


class Reason(StrEnum):
    """Why the played action was worse, as the engine can tell from the seat's observation."""

    MISSED_GOING_OUT = "missed_going_out"  # the best action plays the last cards; the played one does not
    BOMBED_PARTNER = "bombed_partner"  # a bomb on the partner's winning play
    OVERTOOK_PARTNER = "overtook_partner"  # beat the partner's winning play without a bomb
    BROKE_UNIT = "broke_unit"  # took cards from a bomb or straight flush of the hand for a smaller play
    WASTED_BOMB = "wasted_bomb"  # a bomb where the best action spends none
    PASSED = "passed"  # passed where a play was better
    SHOULD_PASS = "should_pass"  # played where passing was better
    TOO_HIGH = "too_high"  # a higher play of the same kind than the best one
    GAVE_HIGHER = "gave_higher"  # tribute or return: a higher card than the best one


def _is_bomb(a: Action) -> bool:
    return a.combo is not None and a.combo.is_bomb


def broken_unit(obs: MatchObservation, action: Action, dec: Decomposer) -> ComboType | None:
    """The type of the bomb or straight flush of the seat's hand (its decomposition before the play)
    that ``action`` takes cards from without playing it whole, if any."""
    if action.kind != ActionKind.PLAY or _is_bomb(action):
        return None
    units = dec(obs.deal.hand).units
    loose = Counter(c for u in units if not u.is_bomb for c in u.cards)
    need = Counter(action.cards)
    for u in units:
        if u.is_bomb and any(need[c] > loose[c] for c in u.cards):
            return u.combo.type
    return None


def reason_for(obs: MatchObservation, played: Action, best: Action, dec: Decomposer) -> tuple[Reason, dict[str, object]] | None:
    """A reason the played action was worse than ``best``, with the facts its words need
    (``unit``/``play``: combo types, ``card``/``better``: cards), or None."""
    if played == best:
        return None
    d = obs.deal
    hand_size = len(d.hand)
    if best.kind in (ActionKind.TRIBUTE, ActionKind.RETURN, ActionKind.CHOOSE):
        if lv(played.cards[0], d.level) > lv(best.cards[0], d.level) and played.kind != ActionKind.CHOOSE:
            return Reason.GAVE_HIGHER, {"card": played.cards[0], "better": best.cards[0]}
        return None
    if best.kind == ActionKind.PLAY and len(best.cards) == hand_size:
        return Reason.MISSED_GOING_OUT, {}
    mate_on_top = d.top is not None and d.top[0] == partner(d.seat)
    if mate_on_top and _is_bomb(played) and not _is_bomb(best):
        return Reason.BOMBED_PARTNER, {}
    if mate_on_top and played.kind == ActionKind.PLAY and best.kind == ActionKind.PASS:
        return Reason.OVERTOOK_PARTNER, {}
    unit = broken_unit(obs, played, dec)
    if unit is not None and broken_unit(obs, best, dec) is None:
        assert played.combo is not None
        return Reason.BROKE_UNIT, {"unit": unit, "play": played.combo.type}
    if _is_bomb(played) and not _is_bomb(best):
        return Reason.WASTED_BOMB, {}
    if played.kind == ActionKind.PASS and best.kind == ActionKind.PLAY:
        return Reason.PASSED, {}
    if played.kind == ActionKind.PLAY and best.kind == ActionKind.PASS:
        return Reason.SHOULD_PASS, {}
    if (played.combo is not None and best.combo is not None and not _is_bomb(played)
            and played.combo.type == best.combo.type and played.combo.size == best.combo.size
            and played.combo.value > best.combo.value):
        return Reason.TOO_HIGH, {}
    return None


__all__ = ["ACCURACY_SCALE", "BLUNDER", "INACCURACY", "LABELS", "MISTAKE", "SIGNIFICANCE", "Label", "Reason",
           "accuracy", "broken_unit", "decision_accuracy", "label_for", "reason_for"]
