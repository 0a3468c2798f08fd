"""Rooms (房间): the configuration a room is created with, its four seats and the match it hosts.

A room is identified by a short code to share. Seats are empty, held by a human (who proves it with a
per-seat token: only a hash is kept), or by a bot tier. The match starts when every seat is filled and
every human is ready (准备); a room of four bots starts when its creator starts it, as a match to watch
(观战: TableService.watch).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..agents import agent_names
from ..agents.base import agent_description
from ..core.errors import GuandanError, RuleSetError, shown
from ..core.match import MatchConfig, MatchState, new_match
from ..core.rules import PRESET_NAMES, RuleSet, preset
from ..i18n import N_, translator

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I: codes are read aloud and typed
CODE_LENGTH = 6


def bot_tiers() -> list[str]:
    """The in-process bot tiers a seat can hold (external programs are not offered to rooms)."""
    return [n for n in agent_names() if n != "external"]


def bot_tier_descriptions(langs: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """Tier → language → one line on what it is, for the pages where a bot is chosen: the line ``guandan agents``
    prints (agents.base.TIER_DESCRIPTIONS, one source of words), a built-in tier's in the ``cli`` catalogue of each
    language, a plugin tier's the first paragraph of its own docstring as its author wrote it (the same in every
    language), "" where it has none."""
    return {tier: {lang: agent_description(tier, translator("cli", lang).gettext) for lang in langs}
            for tier in bot_tiers()}


def default_bot_tier() -> str:
    """The strongest quick tier registered: heuristic when it exists, else greedy."""
    return "heuristic" if "heuristic" in bot_tiers() else "greedy"


def _open_seats() -> list[str | None]:
    return [None, None, None, None]


class RoomConfig(BaseModel):
    """What the lobby's create form sends. Every field is validated; bad values are refused."""

    model_config = ConfigDict(extra="forbid")

    preset: str = Field(default="competition", strict=True)
    rules: dict[str, Any] = Field(default_factory=dict)  # overrides of the preset's options
    bots: list[str | None] = Field(default_factory=lambda: _open_seats())  # a tier per seat, None = open
    # turn timers as in competition practice: longer for the first play of a deal (and for tribute and
    # return), shorter after; 0 = no timer at all. Rooms stored before first_timer existed get the default
    timer: int = Field(default=15, ge=0, le=600, strict=True)
    first_timer: int = Field(default=40, ge=0, le=600, strict=True)
    next_deal_s: int = Field(default=15, ge=0, le=120, strict=True)  # the deal-end pause: players tap 继续, or it runs out
    counter: bool = Field(default=True, strict=True)  # 记牌器 allowed in this room
    max_deals: int | None = Field(default=None, ge=1, le=100, strict=True)
    seed: int | None = Field(default=None, ge=0, le=2**53, strict=True)  # practice rooms only: see seed_refusal()
    bot_delay_ms: int = Field(default=700, ge=0, le=10_000, strict=True)
    name: str = Field(default="", max_length=40, strict=True)
    # shown in the start page's open-room list (server/lobby_list.py) while it is a lobby with an open seat;
    # configs stored before this field existed load as listed
    listed: bool = Field(default=True, strict=True)
    # rated (guandan.ratings): every human seat is a logged-in account, the preset's own rules, a server-drawn
    # seed; the finished match updates its players' ratings. Configs stored before this field load as unrated
    rated: bool = Field(default=False, strict=True)
    # an online event's table where one team came late (the lateness rule's first deal): [side, levels], the
    # side that starts the match that many levels up, as declarer. Set by the server only (events_online):
    # the lobby's create form refuses it
    award: tuple[int, int] | None = None

    @field_validator("preset")
    @classmethod
    def _preset(cls, v: str) -> str:
        if v not in PRESET_NAMES:
            raise ValueError(f"preset must be one of {', '.join(PRESET_NAMES)}")
        return v

    @field_validator("award")
    @classmethod
    def _award(cls, v: tuple[int, int] | None) -> tuple[int, int] | None:
        if v is not None and (v[0] not in (0, 1) or not 1 <= v[1] <= 12):
            raise ValueError("award is [side 0 or 1, levels 1 to 12]")
        return v

    @field_validator("bots")
    @classmethod
    def _bots(cls, v: list[str | None]) -> list[str | None]:
        if len(v) != 4:
            raise ValueError("bots needs one entry per seat (4), null for an open seat")
        known = bot_tiers()
        for tier in v:
            if tier is not None and tier not in known:
                raise ValueError(f"unknown bot tier {shown(tier)}; known: {', '.join(known)}")
        return v

    def seed_refusal(self) -> str | None:
        """Why this config may not carry its seed, or None. A chosen seed reproduces every hand, so it is
        accepted only for a practice room: every seat but (at most) the creator's is a bot."""
        if self.seed is None:
            return None
        open_seats = sum(1 for tier in self.bots if tier is None)
        if open_seats <= 1:
            return None
        return (f"a seed is only accepted for a practice room, where every seat but yours is a bot: this room has "
                f"{open_seats} open seats (leave the seed empty and the server draws a secret one)")

    def rated_refusal(self) -> str | None:
        """Why this config cannot be a rated room, or None (an unrated room is always fine)."""
        if not self.rated:
            return None
        if self.seed is not None:
            return "a rated room cannot carry a seed: the server draws a secret one"
        if self.rules:
            return "a rated room plays its preset's rules as they are: leave out the rule overrides"
        if all(tier is not None for tier in self.bots):
            return "a rated room needs at least one seat for a player: every seat here is a bot"
        return None

    def ruleset(self) -> RuleSet:
        """The room's rules: its preset with its overrides. Raises the core's RuleSetError, which names the
        setting that is wrong and the values it may take, or ValueError."""
        try:
            return preset(self.preset, **self.rules)
        except RuleSetError:
            raise
        except (GuandanError, TypeError) as e:
            raise ValueError(f"rules: {e}") from None



class CreateRoomBody(RoomConfig):
    """What ``POST /api/rooms`` takes: a room's config, and ``watch``: its creator starts it at once as a match of
    four bots to watch (TableService.watch), in the same request. The start page's one tap does; two requests
    (create, then watch) would leave a lobby behind whenever the watch was refused, holding a place of the
    creator's room cap until it closed idle. Not part of the config: it is no setting of the room."""

    watch: bool = Field(default=False, strict=True)

    def config(self) -> RoomConfig:
        return RoomConfig.model_validate(self.model_dump(exclude={"watch"}))

def seat_names(seats: list[Seat], lang: str) -> list[str]:
    """Each seat as the table and its texts name it, in ``lang``: a player by name, or one who joined without
    a name as "Player 2" / "玩家2"; a bot by its seat and its tier's name ("Bot 2 · Greedy", "机器人2·贪心"),
    so that three bots of one tier are told apart (seats counted from 1 as the page counts); an open seat by
    nothing ("Seat N" is the presenter's fallback)."""
    tr = translator("web", lang)

    def name(i: int, s: Seat) -> str:
        if s.kind == "human":
            return s.name or tr.gettext(PLAYER_NAME).format(n=i + 1)
        if s.kind == "bot":
            return tr.gettext(BOT_NAME).format(n=i + 1, tier=tr.gettext(s.tier or "bot"))
        return ""

    return [name(i, s) for i, s in enumerate(seats)]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def secret_seed() -> str:
    """A match seed nobody can guess (128 bits from the secrets module, 32 hex digits): kept secret until
    the match is over, committed deal by deal (guandan.core.fair)."""
    return secrets.token_hex(16)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


SeatKind = Literal["empty", "human", "bot"]
BOT_NAME = N_("Bot {n} · {tier}")  # a bot seat's name at the table (seat_names)
PLAYER_NAME = N_("Player {n}")  # a player who joined without a name (seat_names; the lobby's open-room list)


@dataclass
class Seat:
    kind: SeatKind = "empty"
    name: str = ""
    tier: str | None = None  # bot tier (also the tier that plays 托管 for a human)
    token_hash: str | None = None
    ready: bool = False
    auto: bool = False  # 托管: a bot plays for this human seat
    connections: int = 0
    user_id: int | None = None  # the account that holds this human seat (a rated room's seats: guandan.ratings)
    # the logged-in account that took this seat of an unrated room: the match's replay joins its games list as
    # the match ends, on whatever device it next looks (a rated seat's account is user_id)
    owner_id: int | None = None

    def credited(self) -> int | None:
        """The account whose games list gets this seat's match (None: a guest's seat, or not a human's)."""
        if self.kind != "human":
            return None
        return self.owner_id if self.owner_id is not None else self.user_id

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "tier": self.tier, "ready": self.ready, "auto": self.auto,
                "online": self.connections > 0 or self.kind == "bot", "account": self.user_id is not None}

    def to_store(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "name": self.name, "tier": self.tier, "token_hash": self.token_hash,
             "ready": self.ready, "auto": self.auto}
        if self.user_id is not None:
            d["user_id"] = self.user_id
        if self.owner_id is not None:
            d["owner_id"] = self.owner_id
        return d

    @classmethod
    def from_store(cls, d: dict[str, Any]) -> Seat:
        return cls(kind=d["kind"], name=d["name"], tier=d["tier"], token_hash=d["token_hash"], ready=d["ready"],
                   auto=d["auto"], user_id=d.get("user_id"), owner_id=d.get("owner_id"))


@dataclass
class Interval:
    """The pause after a deal (局间): every hand is turned up, the result told; the next deal begins when
    every human player still at the table has tapped 继续, or at ``until`` (the service clock)."""

    deal: int  # the index of the deal that ended
    until: float
    waiting: set[int]
    reveal: list[list[str]]  # the cards each seat still held when the deal ended (摊牌)
    events: list[dict[str, Any]]  # the deal's end as told at the table (deal_over, deal_settled)
    level: str = ""  # the ended deal's playing level, as a view gives it (its wildcards in the hands turned up)


@dataclass
class Room:
    code: str
    config: RoomConfig
    rules: RuleSet
    seed: int | str  # the match seed: never in a frame or REST answer; revealed by the replay once it is over
    host_hash: str
    seats: list[Seat] = field(default_factory=lambda: [Seat() for _ in range(4)])
    status: Literal["lobby", "playing", "over"] = "lobby"
    match: MatchState | None = None
    seq: int = 0  # actions applied so far: the event sequence number clients resume from
    log: list[dict[str, Any]] = field(default_factory=list)  # per action: the public update (seq, action, events)
    replay_id: str | None = None
    # lifecycle (TableService.sweep), in memory only except ``paused`` (stored as the row's status)
    paused: bool = False  # no human was connected for Settings.unattended_pause_s: nothing moves until one returns
    held: bool = False  # an online event's arbiter paused this table (with ``paused``): only the arbiter resumes it
    creator: str | None = None  # the client address that created the room (the per-address cap)
    # a match of four bots to watch (TableService.watch): the client address it runs for, counted against
    # Settings.max_watched_per_address — the one that started it, or the spectator whose page resumed it
    runs_for: str | None = None
    touched: float = 0.0  # the service clock at the last lobby change (Settings.lobby_idle_s)
    # the service clock when the last human connection went away (at a table of four bots: the last spectator's)
    unattended_since: float | None = None
    interval: Interval | None = None  # between two deals (in memory only: a restarted table goes straight on)
    turn_started: float = 0.0  # the service clock when the seat to move got its turn (the timers)

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def is_host(self, token: str | None) -> bool:
        return bool(token) and secrets.compare_digest(self.host_hash, hash_token(token or ""))

    def owns_replay(self, token: str | None) -> bool:
        """Whether ``token`` is one the finished match's replay is kept for (the summary's ``replay_id``): a seat
        token of the room, or at a match of four bots, which no seat token played, the creator's host token."""
        return self.seat_of(token) is not None or (self.all_bots() and self.is_host(token))

    def all_bots(self) -> bool:
        """Every seat is a bot: a match of this room is one to watch (TableService.watch), no player's."""
        return all(s.kind == "bot" for s in self.seats)

    def can_start(self) -> bool:
        return self.status == "lobby" and all(
            s.kind == "bot" or (s.kind == "human" and s.ready) for s in self.seats)

    def start(self) -> None:
        config = MatchConfig(max_deals=self.config.max_deals)
        if self.config.award is not None:
            side, up = self.config.award
            levels = [0, 0]
            levels[side] = max(0, min(12, up))
            config = MatchConfig(max_deals=self.config.max_deals, start_levels=(levels[0], levels[1]),
                                 start_declarer=side)
        self.match = new_match(self.rules, self.seed, config)
        self.status = "playing"

    def bot_for(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or (s.kind == "human" and s.auto)

    def summary(self, player: bool = False, event: bool = False,
                event_table: tuple[int, int, int] | None = None) -> dict[str, Any]:
        """What anyone may see of the room. The replay's id (its private link: every hand) only for one of
        its ``player``s: a room code is short enough to guess, a replay id is not. ``event``: an online event's
        table (TableService.bound), whose page offers no review during the match (server/deal_reviews.py);
        ``event_table``: which event, round and table it is (the page names them and links the event's page)."""
        return {
            "code": self.code,
            "name": self.config.name,
            "status": self.status,
            "preset": self.config.preset,
            "rules": self.rules.to_dict(),
            "timer": self.config.timer,
            "first_timer": self.config.first_timer,
            "next_deal_s": self.config.next_deal_s,
            "counter": self.config.counter,
            "max_deals": self.config.max_deals,
            "practice": self.config.seed is not None,  # the creator chose the seed (a practice room)
            "rated": self.config.rated,
            "event": event,
            "event_table": None if event_table is None else dict(zip(("event", "round", "table"), event_table, strict=True)),
            "seats": [s.to_json() for s in self.seats],
            "seq": self.seq,
            "replay_id": self.replay_id if player else None,
            "paused": self.paused,
        }
