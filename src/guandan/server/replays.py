"""Replays (复盘) of finished matches: every step with all four hands, from the open record format.

A match is over, so its hands are no longer secret; the hands still come from each seat's
observation, the one door hidden information leaves the engine by.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any

from ..core import record
from ..core.deal import DealState
from ..core.errors import RecordError
from ..core.events import DealOver
from ..core.fair import DealCheck, check_deals
from ..core.vocab import RANKS
from ..present import Presenter
from ..present.fairness import checks_summary, deal_check_lines, seed_line
from .store import Store, new_replay_id
from .wire import action_json, cards_json, event_json, texts_for

MAX_RECORD_BYTES = 5_000_000


def _hands(state: DealState) -> list[list[str]]:
    return [cards_json(state.observation(s).hand) for s in range(4)]


def _check_lines(check: DealCheck, p: Presenter) -> list[str]:
    return deal_check_lines(p, check)


def replay_frames(text: str) -> dict[str, Any]:
    """The record re-run step by step: per deal, its steps (action, events, the four hands after it)."""
    data = record.loads(text)
    players = data.get("players")
    names = [p if isinstance(p, str) else "" for p in players] if isinstance(players, list) else []
    texts = texts_for(names)
    deals: list[dict[str, Any]] = []
    for action, events, match in record.replay(data):
        finished = any(isinstance(e, DealOver) for e in events)
        state = match.deals[-1].state if finished else match.deal
        assert state is not None
        if action is None:
            deals.append({"index": len(deals), "level": RANKS[state.level], "levels": [RANKS[x] for x in match.levels],
                          "declarer": match.declarer, "steps": []})
        deals[-1]["steps"].append({
            "action": action_json(action) if action is not None else None,
            "events": [event_json(e, texts) for e in events],
            "hands": _hands(state),
            "to_move": state.to_move,
            "phase": state.phase,
        })
    # the match is over, so its seed is revealed: every deal is dealt again from it and checked against the
    # record's hands and the commitment shown at the table (guandan.core.fair; `guandan verify-deal` too)
    checks = check_deals(data)
    for entry, check in zip(deals, checks, strict=True):
        entry["commitment"] = check.commitment
        entry["check"] = {"verified": check.verified, "text": texts(partial(_check_lines, check))}
    seed = data["seed"]
    fair = {"verified": all(c.verified for c in checks), "seed": seed,
            "text": texts(lambda p: [checks_summary(p, checks), seed_line(p, seed, len(checks))])}
    return {"players": data.get("players", []), "meta": data.get("meta", {}), "result": data.get("result"),
            "rules": data.get("rules", {}).get("name"), "deals": deals, "fair": fair}


def import_record(store: Store, text: str, owners: Iterable[str] = ()) -> str:
    """Check a record file by replaying it completely, then keep it under a new replay id, private to
    ``owners`` (token hashes)."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"a record is limited to {MAX_RECORD_BYTES} bytes")
    data = record.loads(text)
    for _ in record.replay(data):
        pass
    replay_id = new_replay_id()
    store.save_replay(replay_id, text, None, imported=True, owners=owners)
    return replay_id
