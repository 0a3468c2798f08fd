"""Fair deals: each deal's shuffle is committed before it is played and can be checked afterwards.

Deal *n* of a match with seed *s* is shuffled by ``random.Random("guandan:{s}:{n}")`` (its *deal seed*,
:func:`deal_seed`). Its **commitment** is ``sha256("guandan:{s}:{n}")`` written in hex: published to
every seat and spectator from the deal's first frame, while the seed stays secret until the match is
over. A server-drawn seed has 128 bits of entropy, so nobody can turn a commitment back into hands;
once the seed is revealed (in the record), anyone recomputes both the hash and the shuffle
(:func:`check_deals`, ``guandan verify-deal``). Pure: hashlib and random only, no I/O.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, card_str, parse_card, parse_level
from .deal import deal_cards
from .errors import N_, GuandanError, RecordError, shown

COMMITMENT_SCHEME = "sha256-hex of the UTF-8 text guandan:{seed}:{index}"


def deal_seed(seed: int | str, index: int) -> str:
    """The text deal ``index`` of a match seeded ``seed`` seeds its generator with."""
    return f"guandan:{seed}:{index}"


def deal_rng(seed: int | str, index: int) -> random.Random:
    """The deal's own generator: its shuffle, first-deal card flip and any random tribute assignment."""
    return random.Random(deal_seed(seed, index))


def deal_commitment(seed: int | str, index: int) -> str:
    """The deal's commitment: the SHA-256 (hex) of its deal seed."""
    return hashlib.sha256(deal_seed(seed, index).encode("utf-8")).hexdigest()


def seeded_hands(seed: int | str, index: int, level: int) -> tuple[list[list[Card]], Card]:
    """The four hands (sorted) and the flipped card that the seed deals for deal ``index`` at ``level``."""
    hands, _leader, flipped = deal_cards(deal_rng(seed, index), level)
    return hands, flipped


@dataclass(frozen=True)
class DealCheck:
    """What :func:`check_deals` found for one deal of a record.

    ``fixed``: the record's configuration gave these hands (they were not shuffled from the seed);
    ``hands_match``: the recorded hands are the ones the seed deals; ``flip_match``: the recorded
    flipped card is the seed's (None when none is recorded); ``commitment``: the recorded commitment
    (None in a version-1 record, which has none); ``commitment_match``: it is the hash of the seed (None
    when a version-1 record has none to compare; False when a version-2 record lacks it).
    """

    index: int
    fixed: bool
    hands_match: bool
    flip_match: bool | None
    commitment: str | None
    commitment_match: bool | None

    @property
    def verified(self) -> bool:
        """The deal's hands follow from the seed, and so does its commitment where one is recorded."""
        return (not self.fixed and self.hands_match and self.flip_match is not False
                and self.commitment_match is not False)


def _hands(value: Any, deal: int) -> list[list[Card]]:
    """A recorded deal's hands; ``deal`` is its number as a message gives it (counted from 1)."""
    if not isinstance(value, list) or len(value) != 4 or not all(isinstance(h, list) for h in value):
        raise RecordError.said(N_("deal {deal}: 'hands' must be four lists of cards"), deal=deal)
    try:
        return [sorted(parse_card(t) for t in h) for h in value]
    except (GuandanError, TypeError) as e:
        raise RecordError.said(N_("deal {deal}: {problem}"), deal=deal, problem=e) from None


def check_deal(seed: int | str, deal: Any, position: int, fixed_first: bool = False,
               needs_commitment: bool = False) -> DealCheck:
    """Check one recorded deal (an entry of a record's ``deals``) against ``seed``. With
    ``needs_commitment`` (a version-2 record) a deal without a commitment does not verify."""
    number = position + 1
    if not isinstance(deal, dict):
        raise RecordError.said(N_("deal {deal}: not an object"), deal=number)
    index = deal.get("index", position)
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise RecordError.said(N_("deal {deal}: 'index' must be a deal number ≥ 0, not {index}"), deal=number,
                               index=shown(index))
    try:
        level = parse_level(str(deal.get("level", "2")))
    except GuandanError as e:
        raise RecordError.said(N_("deal {deal}: {problem}"), deal=number, problem=e) from None
    recorded = _hands(deal.get("hands"), number)
    commitment = deal.get("commitment")
    if commitment is not None and not isinstance(commitment, str):
        raise RecordError.said(N_("deal {deal}: 'commitment' must be a hex string"), deal=number)
    if commitment is None:
        commitment_match = False if needs_commitment else None
    else:
        commitment_match = commitment == deal_commitment(seed, index)
    fixed = fixed_first and index == 0
    if fixed:
        return DealCheck(index, True, False, None, commitment, commitment_match)
    hands, flipped = seeded_hands(seed, index, level)
    flip = deal.get("flipped")
    flip_match = None if flip is None else flip == card_str(flipped)
    return DealCheck(index, False, recorded == hands, flip_match, commitment, commitment_match)


def check_deals(data: dict[str, Any], only: Sequence[int] | None = None) -> list[DealCheck]:
    """Recompute every deal's hands (or the deals at positions ``only``, counted from 0) from a
    record's seed and compare them with the record and with its commitments. ``data`` is a record
    envelope as :func:`guandan.core.record.loads` returns it. Raises RecordError only when the record
    cannot be read; a deal that does not follow from the seed is a DealCheck that is not verified."""
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise RecordError.said(N_("the record's 'seed' must be an integer or a string"))
    config = data.get("config")
    fixed_first = isinstance(config, dict) and config.get("first_hands") is not None
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise RecordError.said(N_("'deals' must be a list"))
    version = data.get("version")
    needs_commitment = isinstance(version, int) and version >= 2
    positions = range(len(deals)) if only is None else only
    out = []
    for n in positions:
        if n not in range(len(deals)):
            raise RecordError.said(N_("the record has no deal {deal} (it has {count})"), deal=n + 1, count=len(deals))
        out.append(check_deal(seed, deals[n], n, fixed_first, needs_commitment))
    return out
