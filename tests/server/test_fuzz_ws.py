"""Fuzzing the table WebSocket with hypothesis: valid and mutated frames of every client type, in
every phase (the lobby, 进贡 tribute, 还贡 return, 出牌 play, and the finished match).

The room has two people on one team (seats 0 and 2) and two greedy bots (seats 1 and 3), watched by a
spectator. While a person is to move the table is still — the bots wait for them — so whatever that
person, their partner or the spectator sends can be checked exactly: every frame is answered (an error
names its code and says why), the socket stays open, and a refused frame changes nothing — the
table's ``seq`` (a ``ping`` after every frame) and each socket's view and room (a ``resume`` after
every few frames) are as before, and no update goes out. Then the person makes a legal move and the
bots play on. Frames are drawn from the live context: the mover's hand and legal actions, cards they
do not hold, stale and huge sequence numbers, wrong types, missing and extra fields, unicode, deep
nesting, binary and oversized frames.

The people lose a deal on purpose (they pass) so that a later deal opens with their tribute, then play
the server's hints to win one so that a later deal has them return a card; once every phase has been
fuzzed and enough frames sent, they switch 托管 on and the bots finish the match, which is fuzzed too.

Deterministic: a fixed match seed and hypothesis seeded per turn (no example database, no shrinking:
the table is live). Rate limits are raised through Settings for the fuzz.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession

from guandan.core.cards import card_str, parse_card
from guandan.core.combos import ComboType
from guandan.core.errors import GuandanError
from guandan.core.vocab import RANKS, SUITS, ActionKind
from guandan.core.vocab import Phase as GamePhase
from guandan.server.app import create_app
from guandan.server.protocol import MAX_FRAME_BYTES, Act, Auto, Hint, Ping, ProtocolError, Readings, Resume, parse_message
from guandan.server.table import Settings

pytestmark = pytest.mark.timeout(180)
Frame = dict[str, Any]

MATCH_SEED = 20240611
PEOPLE = (0, 2)  # one team; seats 1 and 3 are greedy bots
FRAMES_WANTED = 10_000  # fuzz frames in all (the pings and resumes that check them come on top)
EXAMPLES_PER_TURN = 8  # hypothesis examples at each still table, 8–24 frames each
ALL_CARDS = [f"{s}{r}" for s in SUITS for r in RANKS] + ["LJ", "BJ"]
ODD_TOKENS = ["♠3", "🂡", "S３", "s3", " S3 ", "H10", "10H", "S1", "SA ", "X", "", "LJJ", "jb", "红桃A", "\u0000",
              "S\u200b3", "Ｓ3", "ZZ", "AS", "3S"]
ERROR_CODES = {"bad_message", "too_large", "rate_limited", "spectator", "not_playing", "not_your_turn", "stale",
               "illegal", "bad_seq", "busy"}  # busy: heavy work refused while the workers are full
REPLIES = {"error", "pong", "hint", "readings", "catchup", "snapshot"}


# --- the room and its sockets ------------------------------------------------------------------------
_SETTINGS = {f.name for f in dataclasses.fields(Settings)}


def _settings() -> Settings:
    """No rate limit or work budget for the fuzz, heavy work on one thread, a person's turn never times
    out, and the match seed fixed (each only where this server has the setting)."""
    wanted: dict[str, Any] = {
        "bot_delay_ms": 0, "next_deal_s": 0, "disconnect_grace_s": 3600.0, "msg_rate": 1e9, "msg_burst": 1e9,
        "work_rate": 1e9, "work_burst": 1e9, "address_work_rate": 1e9, "address_work_burst": 1e9, "workers": 0,
        "seed_source": lambda: f"fuzz-{MATCH_SEED}"}  # a room with two people plays the server's seed
    return Settings(**{k: v for k, v in wanted.items() if k in _SETTINGS})


def _room_config() -> Frame:
    config: Frame = {"bots": [None, "greedy", None, "greedy"], "timer": 0, "max_deals": 5, "name": "fuzz"}
    if "seed_source" not in _SETTINGS:
        config["seed"] = MATCH_SEED  # before server-drawn seeds, the creator's seed made the deal
    return config


@dataclass
class Sock:
    """One socket and what it last saw: its view (without events), room summary and sequence number."""

    name: str
    ws: WebSocketTestSession
    seat: int | None
    view: Frame | None = None
    room: Frame | None = None
    seq: int = 0
    moves: Counter[int] = field(default_factory=Counter)  # the updates seen, by the seat that moved

    def see(self, f: Frame) -> None:
        if f["type"] == "update":
            self.moves[f["action"]["seat"]] += 1
        if f["type"] in ("update", "snapshot", "catchup"):
            self.seq = f["seq"]
            if f.get("view") is not None:
                self.view = {k: v for k, v in f["view"].items() if k != "events"}
        if f["type"] == "snapshot" or f["type"] == "room":
            self.room = f["room"]

    def recv(self) -> Frame:
        f: Frame = self.ws.receive_json()
        assert isinstance(f, dict) and f.get("type"), f
        self.see(f)
        return f

    def sync(self) -> int:
        """Everything queued for this socket read; the table's seq as the server answers it now."""
        self.ws.send_json({"type": "ping"})
        while True:
            f = self.recv()
            if f["type"] == "pong":
                return int(f["seq"])


@dataclass
class Tally:
    frames: int = 0  # fuzz frames sent
    checks: int = 0  # the pings and resumes that checked them
    skipped: int = 0  # drawn frames that the table would have accepted (a legal move): not sent mid-burst
    by_type: Counter[str] = field(default_factory=Counter)
    by_phase: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    answers: Counter[str] = field(default_factory=Counter)


@dataclass
class Still:
    """The table at rest: who is to move and what each socket must still see after a refused frame."""

    status: str
    seq: int
    phase: str
    mover: int | None
    hand: list[str]
    legal: list[Frame]
    views: dict[str, Frame | None]
    rooms: dict[str, Frame | None]


# --- frames -------------------------------------------------------------------------------------------
# Cheap strategies (no recursion, no flatmap): the fuzz draws ~10,000 frames and must stay fast.
LEAVES = st.sampled_from([None, True, False, 0, 1, -1, 3, 2**31, 2**63, -(2**63), 10**30, 1.5, -0.0, 1e308, "", "x",
                          "S3", "BJ", "pass", "中文", "😀", "\u200b", "null", " ", "a" * 300])
JSON_VALUES = st.one_of(LEAVES, st.integers(), st.text(max_size=10), st.lists(LEAVES, max_size=3),
                        st.dictionaries(st.sampled_from(["", "a", "type", "seat", "座"]), LEAVES, max_size=2))
EXTRA_KEYS = st.sampled_from(["seat", "token", "player", "room", "Type", "__proto__", "座位", "cards ", "", "kind2"])
RETYPES = st.sampled_from(["act", "hint", "readings", "resume", "auto", "ping", "Act", "PING", "chat", "move", "",
                           None, 1, ["act"]])
GARBAGE = st.one_of(st.text(max_size=30), st.sampled_from(["", "null", "1e999", "NaN", '"ping"', "{}", "[]", "true",
                                                           "{'type': 'ping'}", '{"type":"ping"', "\ufeff{}"]),
                    JSON_VALUES.map(json.dumps))
MODES = st.sampled_from(["clean"] * 5 + ["mutated"] * 3 + ["damaged", "garbage", "binary"])
WHO = st.sampled_from([0, 0, 0, 0, 1, 2])  # 0 the mover (or the first person), 1 their partner, 2 the spectator


def _context_frames(still: Still) -> st.SearchStrategy[Frame]:
    """Frames of every client type, well formed, built from the live context: the mover's hand (cards
    held, held fewer times than asked, not held), its legal actions, the table's seq and numbers around it."""
    held = sorted(set(still.hand)) or ALL_CARDS
    not_held = [c for c in ALL_CARDS if c not in still.hand] or ALL_CARDS
    token = st.sampled_from(held) | st.sampled_from(not_held) | st.sampled_from(ODD_TOKENS)
    cards = st.one_of(st.lists(st.sampled_from(held), min_size=1, max_size=6),
                      st.lists(st.sampled_from(not_held), min_size=1, max_size=3),
                      st.lists(token, max_size=6), st.lists(st.sampled_from(ALL_CARDS), min_size=28, max_size=32),
                      st.just([]))
    combo = st.none() | st.fixed_dictionaries({}, optional={
        "type": st.sampled_from([t.value for t in ComboType]), "key": st.sampled_from([*RANKS, "LJ", "BJ", "JOKERS"]),
        "size": st.integers(-1, 30), "suit": st.sampled_from(SUITS), "x": st.integers(0, 9)}) | JSON_VALUES
    s = still.seq
    seqs = st.one_of(st.just(s), st.integers(s + 1, s + 50), st.integers(0, max(s - 1, 0)), st.just(10**30))
    kinds = st.sampled_from([k.value for k in ActionKind])
    act = st.fixed_dictionaries({"type": st.just("act"), "kind": kinds, "cards": cards},
                                optional={"combo": combo, "seq": seqs})
    frames = [act, act,
              st.fixed_dictionaries({"type": st.just("hint")}, optional={"k": st.integers(-1, 11)}),
              st.fixed_dictionaries({"type": st.just("readings"), "cards": cards}),
              st.fixed_dictionaries({"type": st.just("resume"), "since": st.integers(0, s + 3) | st.just(10**25)}),
              st.just({"type": "auto", "on": False}), st.just({"type": "ping"})]
    if still.legal:  # a legal action with a sequence number that is not the table's: refused as stale
        wrong = st.integers(s + 1, s + 9) | st.just(2**63) | (st.integers(0, s - 1) if s > 0 else st.just(s + 1))
        frames.append(st.builds(_stale, st.sampled_from(still.legal), wrong))
    return st.one_of(frames)


def _stale(action: Frame, seq: int) -> Frame:
    return {**{k: v for k, v in action.items() if k != "seat"}, "type": "act", "seq": seq}


def _mutated(draw: st.DrawFn, frame: Frame) -> Frame:
    keys = sorted(frame)
    how = draw(st.sampled_from(["drop", "add", "replace", "replace", "retype"]))
    if how == "drop":
        k = keys[draw(st.integers(0, len(keys) - 1))]
        return {x: v for x, v in frame.items() if x != k}
    if how == "add":
        return {**frame, draw(EXTRA_KEYS): draw(JSON_VALUES)}
    if how == "replace":
        return {**frame, keys[draw(st.integers(0, len(keys) - 1))]: draw(JSON_VALUES)}
    return {**frame, "type": draw(RETYPES)}


def _damaged(draw: st.DrawFn, text: str) -> str:
    """JSON text cut short, wrapped, padded past the size limit (in ASCII and in 3- and 4-byte UTF-8), or
    nested deeper than any parser goes."""
    how = draw(st.integers(0, 6))
    if how == 0:
        return text[:draw(st.integers(0, max(len(text) - 1, 0)))]
    if how == 1:
        return f"[{text}]"
    if how == 2:  # past the limit in characters, or only in UTF-8 bytes (3000 × 中 is 9,000 bytes)
        pad = draw(st.sampled_from(["x" * MAX_FRAME_BYTES, "中" * MAX_FRAME_BYTES, "中" * 3000, "😀" * 2100]))
        return text[:-1] + ',"pad":"' + pad + '"}'
    if how == 3:
        n = draw(st.integers(100, 3000))
        return "[" * n + "]" * n
    if how == 4:
        n = draw(st.integers(50, 1500))
        return '{"type":"act","kind":"play","cards":[],"combo":' + '{"a":' * n + "1" + "}" * n + "}"
    if how == 5:
        return text.replace("{", '{"type":"ping",', 1)  # a repeated key
    return f" \n{text}\t "


def _payloads(still: Still) -> st.SearchStrategy[tuple[int, str | bytes]]:
    """(which socket, the frame): mostly well formed, else mutated, damaged, garbage or binary."""
    structured = _context_frames(still)

    @st.composite
    def payload(draw: st.DrawFn) -> tuple[int, str | bytes]:
        who, mode = draw(WHO), draw(MODES)
        if mode == "binary":
            return who, draw(st.binary(max_size=40) | st.just(b'{"type":"ping"}'))
        if mode == "garbage":
            return who, draw(GARBAGE)
        frame = draw(structured)
        if mode != "clean":
            frame = _mutated(draw, frame)
        text = json.dumps(frame, ensure_ascii=draw(st.booleans()))
        return who, _damaged(draw, text) if mode == "damaged" else text

    return payload()


# --- the oracle ---------------------------------------------------------------------------------------
def _canonical(cards: list[str]) -> Counter[str] | None:
    try:
        return Counter(card_str(parse_card(c)) for c in cards)
    except GuandanError:
        return None


def _might_be_accepted(msg: Any, sender: int | None, still: Still) -> bool:
    """A frame the table may apply (a legal move with no or the current seq, or 托管 on): it would change
    the table, which is not what a burst of refused and harmless frames is for."""
    if sender is None or still.status != "playing":
        return False
    if isinstance(msg, Auto):
        return bool(msg.on)
    if isinstance(msg, Act) and sender == still.mover and (msg.seq is None or msg.seq == still.seq):
        mine = _canonical(msg.cards)
        return mine is not None and any(a["kind"] == msg.kind and Counter(a["cards"]) == mine for a in still.legal)
    return False


def _expected(payload: str | bytes, sender: int | None, still: Still) -> tuple[str, str | None]:
    """The answer a frame must get: (frame type, error code or None for any code / no error)."""
    if isinstance(payload, bytes):
        return "error", "bad_message"
    if len(payload.encode()) > MAX_FRAME_BYTES:  # the documented limit: 8 KiB as sent, in UTF-8
        return "error", "too_large"
    try:
        msg = parse_message(payload)
    except ProtocolError as e:
        return "error", e.code
    if isinstance(msg, Ping):
        return "pong", None
    if isinstance(msg, Resume):
        return ("error", "bad_seq") if msg.since > still.seq else ("catchup|snapshot", None)
    if sender is None:
        return "error", "spectator"
    if isinstance(msg, Auto):
        return ("error", "not_playing") if still.status != "playing" else ("room", None)
    if still.status != "playing":
        return "error", "not_playing"
    if sender != still.mover:
        return "error", "not_your_turn"
    if isinstance(msg, Hint):
        return "hint|error", None  # a hint, or a refusal (e.g. a budget for heavy work)
    if isinstance(msg, Readings):
        if still.phase != GamePhase.PLAY:
            return "error", "illegal"
        mine = _canonical(msg.cards)
        held = Counter(still.hand)
        if mine is None or any(held[c] < n for c, n in mine.items()):
            return "error", "illegal"  # a bad token, or a card not held (as often as asked)
        return "readings", None
    assert isinstance(msg, Act)
    if msg.seq is not None and msg.seq != still.seq:
        return "error", "stale"
    return "error", "illegal"


class Fuzzer:
    def __init__(self, socks: list[Sock], tally: Tally) -> None:
        self.socks = socks  # the two people (seats 0 and 2) and the spectator
        self.tally = tally

    def sock_for(self, who: int, still: Still) -> Sock:
        if who == 2:
            return self.socks[2]
        people = sorted(self.socks[:2], key=lambda s: s.seat != still.mover)  # the mover first
        return people[who]

    def still(self) -> Still:
        seqs = {s.name: s.sync() for s in self.socks}
        assert len(set(seqs.values())) == 1, seqs
        first = self.socks[0]
        room = first.room
        assert room is not None
        view = first.view
        mover = view["to_move"] if view is not None and room["status"] == "playing" else None
        mover_sock = next((s for s in self.socks if mover is not None and s.seat == mover), None)
        mv = mover_sock.view if mover_sock is not None else None
        return Still(status=room["status"], seq=seqs[first.name],
                     phase=view["phase"] if view is not None else "lobby", mover=mover,
                     hand=list(mv["hand"]) if mv is not None else list((view or {}).get("hand") or []),
                     legal=list(mv.get("legal") or []) if mv is not None else [],
                     views={s.name: s.view for s in self.socks}, rooms={s.name: s.room for s in self.socks})

    def send_one(self, who: int, payload: str | bytes, still: Still) -> None:
        sock = self.sock_for(who, still)
        if isinstance(payload, str):
            try:
                msg = parse_message(payload)
            except ProtocolError:
                msg = None
            if msg is not None and _might_be_accepted(msg, sock.seat, still):
                self.tally.skipped += 1
                return
        want, code = _expected(payload, sock.seat, still)
        if isinstance(payload, bytes):
            sock.ws.send_bytes(payload)
        else:
            sock.ws.send_text(payload)
        self.tally.frames += 1
        self.tally.by_phase[still.phase if still.status == "playing" else still.status] += 1
        self.tally.by_type[_frame_type(payload)] += 1
        where = f"{sock.name} sent {payload[:200]!r} in {still.phase} at seq {still.seq}"
        while True:  # every frame gets one answer; nothing else may come but the room, unchanged
            f = sock.recv()
            assert f["type"] != "update", f"{where}: the table moved: {f}"
            if f["type"] == "room":
                assert _same_room(f["room"], still, sock.name), f"{where}: the room changed: {f}"
                if want == "room":
                    break  # 托管 off, already off: the room is broadcast, unchanged
                continue  # another socket's 托管 off
            break
        assert f["type"] in want.split("|"), f"{where}: wanted {want}, got {f}"
        if code is not None:
            assert f["code"] == code, f"{where}: wanted {code}, got {f}"
        if f["type"] == "error":
            assert f.get("code") in ERROR_CODES and isinstance(f.get("message"), str) and f["message"].strip(), \
                f"{where}: an error must name its code and say why: {f}"
            self.tally.errors[f["code"]] += 1
        else:
            self.tally.answers[f["type"]] += 1
        if "seq" in f and f["type"] != "room":
            assert f["seq"] == still.seq, f"{where}: the seq moved: {f}"
        if f["type"] in ("catchup", "snapshot"):
            assert {k: v for k, v in (f["view"] or {}).items() if k != "events"} == (still.views[sock.name] or {}), \
                f"{where}: the view changed"

    def check_seq(self, still: Still) -> None:
        """After each few frames: the table's seq, as every socket is answered, is as it was."""
        for s in self.socks:
            s.ws.send_json({"type": "ping"})
            self.tally.checks += 1
            while True:
                f = s.recv()
                assert f["type"] not in ("update", "snapshot"), f"{s.name}: the table moved: {f}"
                if f["type"] == "room":
                    assert _same_room(f["room"], still, s.name), f
                    continue
                assert f["type"] == "pong" and f["seq"] == still.seq, f
                break

    def check_views(self, still: Still) -> None:
        """After a burst: each socket's view and room are as they were (a resume: everything since the
        still table's seq, which must be nothing)."""
        for s in self.socks:
            s.ws.send_json({"type": "resume", "since": still.seq})
            self.tally.checks += 1
            while True:
                f = s.recv()
                if f["type"] == "room":
                    assert _same_room(f["room"], still, s.name), f
                    continue
                assert f["type"] in ("catchup", "snapshot"), f
                break
            assert f["seq"] == still.seq, f
            if f["type"] == "catchup":
                assert f["updates"] == []
            assert s.view == still.views[s.name], f"{s.name}: the view changed after refused frames"
            assert s.room is not None and _same_room(s.room, still, s.name)

    def burst(self, still: Still, turn: int) -> None:
        @seed(turn)
        @settings(max_examples=EXAMPLES_PER_TURN, database=None, deadline=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck), derandomize=False, print_blob=False)
        @given(frames=st.lists(_payloads(still), min_size=8, max_size=24))
        def run(frames: list[tuple[int, str | bytes]]) -> None:
            for who, payload in frames:
                self.send_one(who, payload, still)
            self.check_seq(still)

        run()
        self.check_views(still)


def _same_room(room: Frame, still: Still, name: str) -> bool:
    """The room summary as it was (its ``seq`` is the table's, as of when the summary was sent)."""
    before = still.rooms[name] or {}
    return {k: v for k, v in room.items() if k != "seq"} == {k: v for k, v in before.items() if k != "seq"} \
        and room.get("seq") in (before.get("seq"), still.seq)


def _frame_type(payload: str | bytes) -> str:
    if isinstance(payload, bytes):
        return "binary"
    try:
        return parse_message(payload).type
    except ProtocolError as e:
        return e.code


# --- the match ----------------------------------------------------------------------------------------
@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TestClient, str, list[str]]]:
    app = create_app(f"sqlite:///{tmp_path / 'fuzz.sqlite3'}", _settings())
    with TestClient(app) as c:
        r = c.post("/api/rooms", json=_room_config())
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        tokens = []
        for seat in PEOPLE:
            j = c.post(f"/api/rooms/{code}/join", json={"seat": seat, "name": f"p{seat}"})
            assert j.status_code == 200, j.text
            tokens.append(j.json()["token"])
        yield c, code, tokens


def _move(fz: Fuzzer, still: Still, goal: str, turn: int) -> None:
    """The mover's legal move: pass when losing on purpose, the server's hint when trying to win."""
    sock = fz.sock_for(0, still)
    legal = still.legal
    passes = [a for a in legal if a["kind"] == ActionKind.PASS]
    if still.phase != GamePhase.PLAY:
        action = legal[turn % len(legal)]
    elif goal == "lose" and passes:
        action = passes[0]
    elif goal == "win":
        sock.ws.send_json({"type": "hint", "k": 1})
        while True:
            f = sock.recv()
            if f["type"] in ("hint", "error"):
                break
        action = f["hints"][0]["action"] if f["type"] == "hint" and f["hints"] else legal[0]
    else:
        action = legal[(turn * 7) % len(legal)]
    frame: Frame = {"type": "act", "kind": action["kind"], "cards": action["cards"]}
    if "combo" in action:
        frame["combo"] = action["combo"]
    if turn % 2:
        frame["seq"] = still.seq
    sock.ws.send_json(frame)
    while True:
        f = sock.recv()
        assert f["type"] != "error", (frame, f)
        if f["type"] == "update" and f["seq"] == still.seq + 1:
            assert f["action"]["seat"] == still.mover
            return


def _next_still(fz: Fuzzer) -> Still:
    """Wait (reading the first socket) until a person is to move or the match is over."""
    while True:
        still = fz.still()
        if still.status != "playing" or still.mover in PEOPLE:
            return still
        fz.socks[0].recv()  # a bot is to move: it will


def test_fuzzed_frames_in_every_phase_change_nothing_and_the_bots_play_on(
        table: tuple[TestClient, str, list[str]]) -> None:
    c, code, tokens = table
    tally = Tally()
    with c.websocket_connect(f"/ws/{code}?token={tokens[0]}") as w0, \
            c.websocket_connect(f"/ws/{code}?token={tokens[1]}") as w2, \
            c.websocket_connect(f"/ws/{code}") as spec:
        socks = [Sock("seat 0", w0, 0), Sock("seat 2", w2, 2), Sock("spectator", spec, None)]
        for s in socks:
            assert s.recv()["type"] == "welcome"
        fz = Fuzzer(socks, tally)
        turn = 0
        fz.burst(fz.still(), turn)  # the lobby
        for tok in tokens:
            assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200
        seen: set[str] = set()  # the phases fuzzed with a person to move
        firsts: dict[str, int] = {}  # the turn each was first reached
        everything = {GamePhase.TRIBUTE, GamePhase.RETURN, GamePhase.PLAY}
        while True:
            still = _next_still(fz)
            if still.status != "playing":
                break
            turn += 1
            firsts.setdefault(still.phase, turn)
            seen.add(still.phase)
            fz.burst(still, turn)
            if everything <= seen and tally.frames >= FRAMES_WANTED:
                # 托管 on for both people: the bots finish the match through the same path as every move
                for s in socks[:2]:
                    s.ws.send_json({"type": "auto", "on": True})
                while (socks[0].room or {}).get("status") != "over":
                    socks[0].recv()
                break
            goal = "lose" if GamePhase.TRIBUTE not in seen else "win" if GamePhase.RETURN not in seen else "any"
            _move(fz, still, goal, turn)
        still = fz.still()
        assert still.status == "over"
        fz.burst(still, turn + 1)  # the finished match
        bot_moves = socks[0].moves
    print(f"\nws fuzz: {tally.frames} frames ({tally.skipped} legal moves held back), {tally.checks} checks, "
          f"{turn} turns (phases first reached at turns {firsts}), moves by seat {dict(bot_moves)}; "
          f"by phase {dict(tally.by_phase)}; by type {dict(tally.by_type)}; errors {dict(tally.errors)}; "
          f"answers {dict(tally.answers)}")
    assert everything <= seen, (seen, MATCH_SEED)
    assert tally.frames >= FRAMES_WANTED
    assert {"lobby", "over"} <= set(tally.by_phase)
    assert {"act", "hint", "readings", "resume", "ping", "auto", "bad_message", "too_large", "binary"} \
        <= set(tally.by_type), tally.by_type
    assert bot_moves[1] > 0 and bot_moves[3] > 0  # the bots played on
    assert c.get(f"/api/rooms/{code}").json()["status"] == "over"


def test_the_size_limit_counts_bytes_as_sent(table: tuple[TestClient, str, list[str]]) -> None:
    """The fuzz's find, pinned: the 8 KiB limit counted characters, so 3,000 中 (9,000 bytes in UTF-8) or
    8,000 emoji (32,000) were parsed instead of refused."""
    c, code, _ = table
    with c.websocket_connect(f"/ws/{code}") as ws:
        assert ws.receive_json()["type"] == "welcome"
        ws.receive_json()  # the snapshot
        for pad in ("中" * 3000, "😀" * 8000, "x" * MAX_FRAME_BYTES):
            ws.send_text(json.dumps({"type": "ping", "pad": pad}, ensure_ascii=False))
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "too_large", err
        ws.send_text(json.dumps({"type": "ping", "pad": "中" * 2000}, ensure_ascii=False))  # 6,000 bytes: parsed
        err = ws.receive_json()
        assert err["code"] == "bad_message" and "pad" in err["message"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"  # the socket stays open
