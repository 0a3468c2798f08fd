"""Our protocol client reports what goes wrong in the reader's language (``lang``, by default the environment's),
from the ``cli`` catalogue: a frame it cannot read, its own agent's fault, a cut connection. They were English
whatever the language; the server's own error messages stay as the server wrote them."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from typer.testing import CliRunner, Result
from websockets.asyncio.server import ServerConnection, serve

import async_support
from guandan.agents.base import make_agent
from guandan.cli import _mount, app
from guandan.core.rules import preset
from guandan.protocol.client import ClientReport, ProtocolPlayer, play

from .helpers import FaultyLeader, FirstLegal, play_seated

BEGINNING = {"type": "notify", "stage": "beginning", "handCards": ["S3"] * 27, "myPos": 0, "curRank": "2",
             "selfRank": "2", "oppoRank": "2"}


@pytest.mark.parametrize(("frame", "zh", "en"), [
    ("[" * 10, "服务器发来的帧不是 JSON：", "the server sent a frame that is not JSON: "),
    ('"x"', "服务器发来的帧不是消息（JSON 对象）：", "the server sent a frame that is not a message (a JSON object): "),
    ('{"type": "notify", "stage": "beginning", "myPos": "x", "curRank": "2"}',
     '无法读取服务器的 "beginning" 消息（座位必须是 0、1、2 或 3，而不是 "x"）；已跳过',
     'the server\'s "beginning" message cannot be read (a seat must be 0, 1, 2 or 3, not "x"); skipped'),
    ('{"type": "notify", "stage": "beginning"}', '无法读取服务器的 "beginning" 消息（它没有 "myPos" 字段）；已跳过',
     'the server\'s "beginning" message cannot be read (it has no "myPos" field); skipped'),
    ('{"type": "notify", "stage": "tribute", "result": 5}',
     '无法读取服务器的 "tribute" 消息（某个字段的值类型或结构不对）；已跳过',
     'the server\'s "tribute" message cannot be read (a field holds a value of the wrong type or shape); skipped'),
], ids=["not-json", "not-an-object", "bad-seat", "no-mypos", "wrong-type"])
def test_a_frame_the_client_cannot_read_is_reported_in_its_language(frame: str, zh: str, en: str) -> None:
    for lang, words in (("zh", zh), ("en", en)):
        player = ProtocolPlayer(make_agent("greedy", 0), preset("competition"), lang=lang)
        player.handle(json.dumps(BEGINNING))
        assert player.handle(frame) is None
        (error,) = player.report.errors
        assert error.startswith(words), error
    act = {"type": "act", "stage": "play", "handCards": ["S3"], "actionList": [["Single", "3", ["S3"]]],
           "curRank": "K"}
    player = ProtocolPlayer(make_agent("greedy", 0), preset("competition"), lang="zh")
    player.handle(json.dumps(act))  # before any beginning message
    assert player.report.errors == ["无法读取服务器的 act 消息（在任何 beginning 消息之前收到了 act 消息）；已回答 0"]


def test_the_servers_own_error_message_is_reported_as_it_wrote_it() -> None:
    player = ProtocolPlayer(make_agent("greedy", 0), preset("competition"), lang="zh")
    player.handle(json.dumps({"type": "error", "stage": "error", "message": "room full"}))
    assert player.report.errors == ["room full"]


def test_our_agents_fault_is_said_in_chinese() -> None:
    """The faulty agent answers nothing on its first lead."""
    silent = play_seated([FaultyLeader(), FirstLegal(), FirstLegal(), FirstLegal()], lang="zh")[0]
    assert silent.errors[0] == "我方机器人什么也没有回答，不在可选的动作之中；已回答 0"


def test_a_cut_connection_and_the_connected_line_follow_the_language() -> None:
    async def cut(ws: ServerConnection) -> None:
        await ws.send(json.dumps(BEGINNING))
        await asyncio.sleep(0.1)
        assert ws.transport is not None
        ws.transport.abort()

    lines: list[str] = []

    async def body() -> ClientReport:
        async with serve(cut, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            return await play(f"ws://127.0.0.1:{port}/game/x", make_agent("greedy", 0), preset("competition"),
                              log=lines.append, lang="zh")

    report = async_support.run(body())
    assert report.errors == ["连接被切断（no close frame received or sent）"], report.errors
    assert len(lines) == 1 and lines[0].startswith("已连接到 ws://127.0.0.1:"), lines


def _client_against_a_bad_frame(lang: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Result, int]:
    """The protocol-client command run in ``lang`` against a server that sends one frame that is not JSON."""
    async def cut(ws: ServerConnection) -> None:
        await ws.send("[[[")
        await ws.close()

    async def serve_once(port_box: list[int], done: asyncio.Event) -> None:
        async with serve(cut, "127.0.0.1", 0) as server:
            port_box.append(next(iter(server.sockets)).getsockname()[1])
            await done.wait()

    monkeypatch.setenv("LANGUAGE", lang)
    _mount()
    loop = asyncio.new_event_loop()
    port: list[int] = []
    done = asyncio.Event()
    thread = threading.Thread(target=loop.run_until_complete, args=(serve_once(port, done),), daemon=True)
    thread.start()
    while not port:
        thread.join(0.01)
    try:
        r = CliRunner().invoke(app, ["protocol-client", "--url", f"ws://127.0.0.1:{port[0]}/game/x"])
    finally:
        loop.call_soon_threadsafe(done.set)
        thread.join(5)
    return r, port[0]


def test_the_command_reports_in_the_environments_language(monkeypatch: pytest.MonkeyPatch) -> None:
    r, port = _client_against_a_bad_frame("zh", monkeypatch)
    assert r.exit_code == 0, r.output
    assert "1条消息，0次决策，0次后备动作；没有结果" in r.stdout
    assert f"已连接到 ws://127.0.0.1:{port}/game/x" in r.stderr
    assert '服务器发来的帧不是 JSON："[[["' in r.stderr, r.stderr


def test_the_commands_counts_read_right_for_one_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    """The closing line gives its counts after colons, so one message reads as one."""
    r, _ = _client_against_a_bad_frame("en", monkeypatch)
    assert r.exit_code == 0, r.output
    assert "messages: 1, decisions: 0, fallbacks: 0; no result" in r.stdout
