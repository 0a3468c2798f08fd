"""The review (复盘) of a finished deal of a match still in play, for the seat that asks: who may ask, and the
record it is worked out from.

A learner in a match of many deals would otherwise wait for the match's end (its replay) to learn from the deal
just played. The record here holds the match's deals up to the one reviewed and no further: a finished deal's
hands are all shown at its end, and the review engine judges each decision from the seat's own observation then,
so nothing reaches the seat that it has not seen. The record carries the match seed (the engine re-deals from it),
which would tell every deal still to come: it stays on the server; pages get the review and the finished deals'
frames (server/replays.py, without the seed's fair-deal check), never the record.

Asked only by a seat of the room, for its own decisions (a spectator has none, and a seat's review is its own
business); refused at rated and online events' tables, where a player may not consult an engine on the play of a
match in progress — its verdicts would be help for the deals still to come, as an arbiter would rule.
"""

from __future__ import annotations

import json

from ..core import record
from ..i18n import N_
from .protocol import say
from .rooms import Room
from .table import ServiceError

NOT_A_PLAYER = N_("Only a player of this table reviews its deals during the match, each their own seat's decisions.")
RATED = N_("No review during a rated match: an engine's judgement of your play would be outside help for the deals "
           "still to come. The whole match's review comes with its replay once it is over.")
EVENT = N_("No review during an event's match: an engine's judgement of your play would be outside help for the deals "
           "still to come. The whole match's review comes with its replay once it is over.")
NOT_FINISHED = N_("Deal {deal} is not finished: only a finished deal can be reviewed.")


def reviewable_seat(room: Room, token: str | None, deal: int, *, event_table: bool) -> int:
    """The seat ``token`` holds in ``room``, which may have its decisions in ``deal`` (counted from 0) reviewed
    now, or a :class:`ServiceError` saying why not."""
    seat = room.seat_of(token)
    if seat is None:
        raise ServiceError("only a seat of this room may have its decisions reviewed during the match", 403,
                           "not_a_player", words=say(NOT_A_PLAYER))
    if room.config.rated:
        raise ServiceError("no review during a rated match", 403, "rated", words=say(RATED))
    if event_table:
        raise ServiceError("no review during an online event's match", 403, "event_table", words=say(EVENT))
    if room.match is None or not 0 <= deal < len(room.match.deals):
        raise ServiceError(f"deal {deal + 1} is not finished", 409, "deal_not_finished",
                           words=say(NOT_FINISHED, deal=deal + 1))
    return seat


def deal_record(room: Room, deal: int) -> str:
    """The record of ``room``'s match up to the end of ``deal``, a finished deal (:func:`reviewable_seat`)."""
    assert room.match is not None
    players = [s.name for s in room.seats]
    seats = [{"kind": s.kind, "tier": s.tier} for s in room.seats]  # names the seats as the match's replay will
    data = record.to_dict(room.match, players=players, meta={"room": room.code, "source": "web", "seats": seats})
    # the deals after the reviewed one are left out: the frames show no further, and the review is the same
    # whichever deal the match has reached when it is asked
    data["deals"] = data["deals"][:deal + 1]
    del data["result"]  # the match's, not this deal's (a record without one replays as far as its deals go)
    return json.dumps(data, ensure_ascii=False)
