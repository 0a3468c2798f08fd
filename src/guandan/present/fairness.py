"""Fair-deal checks (:mod:`guandan.core.fair`) in words: one verdict per deal and a summary, in the
game catalogue's languages. ``guandan verify-deal`` prints these lines; the replay page shows them."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.fair import DealCheck
from . import Presenter


def short_hash(commitment: str) -> str:
    """A commitment as a person compares it at a glance: its first 12 hex digits and an ellipsis."""
    return commitment[:12] + "…"


def deal_check_lines(p: Presenter, check: DealCheck) -> list[str]:
    """The verdict on one deal: a line saying it is verified, or one line per thing that does not match."""
    _ = p.tr.gettext
    n = check.index + 1
    if check.fixed:
        return [_("Deal {n}: not verified: the record's configuration fixes these hands, they were not "
                  "shuffled from the seed").format(n=n)]
    if check.verified:
        if check.commitment is None:
            return [_("Deal {n}: verified: the hands follow from the seed (this version-1 record holds no "
                      "commitment)").format(n=n)]
        return [_("Deal {n}: verified: the hands follow from the seed, and the commitment {commitment} is its "
                  "hash").format(n=n, commitment=short_hash(check.commitment))]
    lines = []
    if not check.hands_match:
        lines.append(_("Deal {n}: MISMATCH: the recorded hands are not the ones the seed deals").format(n=n))
    if check.flip_match is False:
        lines.append(_("Deal {n}: MISMATCH: the recorded flipped card is not the one the seed turns").format(n=n))
    if check.commitment_match is False:
        if check.commitment is None:
            lines.append(_("Deal {n}: MISMATCH: the record holds no commitment for this deal").format(n=n))
        else:
            lines.append(_("Deal {n}: MISMATCH: the recorded commitment {commitment} is not the hash of the "
                           "seed").format(n=n, commitment=short_hash(check.commitment)))
    return lines


def checks_summary(p: Presenter, checks: Sequence[DealCheck]) -> str:
    """One line for the whole record: every deal verified, or which deals are not."""
    _ = p.tr.gettext
    bad = [c.index + 1 for c in checks if not c.verified]
    if not bad:
        return _("Verified: the hands of every deal ({count}) follow from the revealed seed").format(count=len(checks))
    return _("Not verified: deals {deals} do not follow from the revealed seed").format(
        deals=_(", ").join(str(n) for n in bad))


def seed_line(p: Presenter, seed: int | str, count: int) -> str:
    """What is being checked: the revealed seed, how many deals, and what a commitment is the hash of."""
    return p.tr.gettext("Seed {seed} · deals: {count} · the commitment of deal n is the SHA-256 of "
                        "“guandan:{seed}:n−1”").format(seed=seed, count=count)
