"""The `guandan` commands speak the user's language: their errors and reports come from the message
catalogues (``cli``, ``game`` for simulate/replay/review, ``tui`` for play), in the language LANGUAGE/LANG
ask for or a command's --lang, and never show a Python repr. (tests/conftest.py sets LANGUAGE=en for
every test; the Chinese cases set LANGUAGE=zh themselves.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.cli import _mount, app

_mount()
runner = CliRunner()


def _refused(*args: str) -> str:
    """The output of a command that must refuse its input with exit status 2."""
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2, (args, result.output)
    return result.output


# (command line, the English message, the Chinese message): what each command says of bad input
CASES = [
    (["arena", "--a", "search:prior=99"],
     "error: --a: option prior must be from 0 to 10, not 99",
     "错误：--a：选项 prior 须在 0 到 10 之间，而不是 99"),
    (["league", "--agents", "random,greedy:prior=1"],
     'agent "greedy" has no option "prior": it takes none',
     '机器人 "greedy" 没有选项 "prior"：它不带任何选项'),
    (["arena", "--mode", "nope"],
     "error: --mode must be one of duplicate, sprt, match, not nope",
     "错误：--mode 须为 duplicate, sprt, match 之一，而不是 nope"),
    (["arena", "--deals", "0"],
     "error: --deals must be at least 1, not 0",
     "错误：--deals 至少为 1，而不是 0"),
    (["arena", "--first", "2", "--mode", "sprt"],
     "error: --first and --results apply to --mode duplicate only",
     "错误：--first 和 --results 只用于 --mode duplicate"),
    (["simulate", "--agents", "greedy,random"],
     "error: --agents needs four names, got 2",
     "错误：--agents 需要四个机器人名称，而不是2个"),
    (["simulate", "--lang", "fr"],
     "error: --lang must be one of zh, en, not fr",
     "错误：--lang 须为 zh, en 之一，而不是 fr"),
    (["league", "--agents", "random,random"],
     "error: --agents names random twice (specs are compared written canonically)",
     "错误：--agents 两次列出 random（规格按规范写法比较）"),
    (["selfplay", "--agents", "random,,random,random", "--deals", "1", "--out", "unused"],
     "error: --agents: an empty agent spec in “random,,random,random” (write specs separated by commas)",
     "错误：--agents：“random,,random,random” 中有空的机器人规格（规格之间用逗号分隔）"),
    (["selfplay", "--agents", "random,random", "--deals", "1", "--out", "unused"],
     "error: --agents needs four specs, one per seat, not 2 (“random,random”)",
     "错误：--agents 需要四个机器人规格，每个座位一个，而不是2个（“random,random”）"),
    (["bench", "server", "--warmup", "5"],
     "error: --warmup goes with --soak",
     "错误：--warmup 须与 --soak 一起使用"),
    (["bench", "server", "--abuse", "everything"],
     "error: --abuse must be one of hints, not everything",
     "错误：--abuse 须为 hints 之一，而不是 everything"),
    (["bench", "playouts", "--preset", "nope"],
     "error: --preset must be one of",
     "错误：--preset 须为"),
    (["moves", "--hand", "S3", "--mode", "all"],
     "error: --mode must be one of complete, canonical, not all",
     "错误：--mode 须为 complete, canonical 之一，而不是 all"),
    (["protocol-server", "--port", "0"],
     "error: --port must be 1…65535, not 0",
     "错误：--port 须在 1…65535 之间，而不是 0"),
    (["protocol-client", "--url", "nope"],
     "error: nope is not a ws:// URL",
     "错误：nope 不是 ws:// 地址"),
    (["restore", "/nonexistent-backup"],
     "error: there is no backup file at /nonexistent-backup",
     "错误：/nonexistent-backup 处没有备份文件"),
    (["backup", "/"],
     "error: / is a folder: name the backup file to write",
     "错误：/ 是文件夹：请给出要写入的备份文件名"),
    (["backup", "out.bak", "--db", "nope"],
     'error: --db "nope" is not a database URL',
     '错误：--db "nope" 不是数据库地址'),
    (["serve", "--db", "nope"],
     'error: --db "nope" is not a database URL',
     '错误：--db "nope" 不是数据库地址'),
    (["serve", "--redis", "nope"],
     'error: --redis must be a Redis URL such as redis://127.0.0.1:6379/0, not "nope"',
     '错误：--redis 须为 Redis 地址，例如 redis://127.0.0.1:6379/0，而不是 "nope"'),
    (["serve", "--workers", "2"],
     "error: --workers above 1 needs --redis",
     "错误：--workers 大于 1 时需要 --redis"),
    (["play", "--plain", "--lang", "fr"],
     "error: --lang must be one of zh, en, not fr",
     "错误：--lang 须为 zh, en 之一，而不是 fr"),
]


@pytest.mark.parametrize(("args", "english", "chinese"), CASES, ids=[" ".join(c[0][:2]) for c in CASES])
def test_bad_input_is_refused_in_the_users_language(args: list[str], english: str, chinese: str,
                                                    monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # selfplay's --out, should a check let it through, stays here
    said = _refused(*args)
    assert english in said and "错误" not in said
    monkeypatch.setenv("LANGUAGE", "zh")
    said = _refused(*args)
    assert chinese in said, said
    assert "error:" not in said and "'" not in said  # no English frame, no repr quotes


def test_a_missing_record_is_named_in_chinese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "nope.json"
    assert f"error: cannot read {missing}: " in _refused("review", str(missing))
    monkeypatch.setenv("LANGUAGE", "zh_CN.UTF-8")
    for command in ("review", "verify-deal", "replay"):
        said = _refused(command, str(missing))
        assert said.strip() == f"错误：无法读取 {missing}：没有这个文件或文件夹", (command, said)
        said = _refused(command, str(tmp_path))  # the system's reason too, not its English strerror
        assert said.strip() == f"错误：无法读取 {tmp_path}：这是文件夹，不是文件", (command, said)
    monkeypatch.setenv("LANGUAGE", "en")
    for command in ("review", "verify-deal"):  # a command's --lang covers the record's errors too
        said = _refused(command, str(missing), "--lang", "zh")
        assert said.startswith(f"错误：无法读取 {missing}："), (command, said)


def test_a_commands_lang_option_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    record = str(tmp_path / "unread.json")  # the options are checked before the record is read
    said = _refused("review", record, "--seat", "1", "--all", "--lang", "zh")
    assert said.strip() == "错误：请给出 --seat 或 --all，不能两者都给"
    monkeypatch.setenv("LANGUAGE", "zh")
    said = _refused("review", record, "--seat", "1", "--all", "--lang", "en")
    assert said.strip() == "error: give --seat or --all, not both"
    said = _refused("review", record, "--budget", "0")
    assert said.strip() == "错误：--budget 须为正的秒数，而不是 0.0"
    said = _refused("simulate", "--agents", "greedy", "--lang", "en")
    assert said.strip() == "error: --agents needs four names, got 1"


def test_arena_compare_speaks_chinese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    folder = tmp_path / "results"
    folder.mkdir()
    said = _refused("arena-compare", "--first", str(folder), "--second", str(folder))
    assert said.strip() == f"错误：{folder} 不是文件"
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    said = _refused("arena-summary", str(empty))
    assert said.strip() == "错误：这些文件中没有复式牌"
    said = _refused("arena-compare", "--first", str(empty), "--second", str(empty))
    assert said.strip() == "错误：--first：这些文件中没有复式牌"


RECORD_V1 = Path(__file__).parent / "data" / "record-v1.json"

# the engine core's input errors, said by the commands from the ``cli`` catalogue
ENGINE_CASES = [
    (["moves", "--hand", "S3 XX"],
     'error: bad card token "XX" at position 2 (rules notation)',
     '错误：第2张牌 "XX" 无效（rules 记法）'),
    (["moves", "--hand", "S3 S3 S3"],
     "error: S3 appears 3 times; two decks hold only 2",
     "错误：S3 出现了3次；两副牌中每张只有2张"),
    (["moves", "--hand", "S3", "--level", "Z"],
     'error: level "Z" is not one of 2 3 4 5 6 7 8 9 10 J Q K A',
     '错误：级数 "Z" 不是 2 3 4 5 6 7 8 9 10 J Q K A 之一'),
    (["moves", "--hand", "S3", "--preset", "nope"],
     'error: unknown preset "nope"; presets: competition, huaian-traditional, huaian-2009, huopin',
     '错误：未知的预设 "nope"；可用的预设：competition, huaian-traditional, huaian-2009, huopin'),
    (["simulate", "--preset", "nope"],
     'error: unknown preset "nope"; presets:',
     '错误：未知的预设 "nope"；可用的预设：'),
]


@pytest.mark.parametrize(("args", "english", "chinese"), ENGINE_CASES, ids=[" ".join(c[0]) for c in ENGINE_CASES])
def test_engine_errors_are_said_in_the_users_language(args: list[str], english: str, chinese: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    said = _refused(*args)
    assert english in said and "错误" not in said
    monkeypatch.setenv("LANGUAGE", "zh")
    said = _refused(*args)
    assert chinese in said, said
    assert "error:" not in said and "bad card" not in said and "unknown preset" not in said


def _broken_record(tmp_path: Path, change: str) -> Path:
    data = json.loads(RECORD_V1.read_text(encoding="utf-8"))
    if change == "no seed":
        del data["seed"]
    else:  # a bad card in the first deal's hands
        data["deals"][0]["hands"][0][0] = "XX"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_broken_record_is_named_in_chinese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = _broken_record(tmp_path, "no seed")
    assert _refused("replay", str(record)).strip() == f'error: {record}: the record has no "seed" field'
    monkeypatch.setenv("LANGUAGE", "zh")
    for command in ("replay", "verify-deal", "review"):
        said = _refused(command, str(record))
        assert said.strip() == f'错误：{record}：记录中没有 "seed" 字段', (command, said)
    monkeypatch.setenv("LANGUAGE", "en")
    said = _refused("verify-deal", str(record), "--lang", "zh")  # a command's --lang says the engine's errors too
    assert said.strip() == f'错误：{record}：记录中没有 "seed" 字段'


def test_an_error_inside_a_record_is_said_whole_in_chinese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # replay and verify-deal count the record's deals alike, from 1
    record = _broken_record(tmp_path, "bad card")
    # (replay names the hand too, seats counted from 1 as its output counts them)
    assert _refused("replay", str(record)).strip() == (
        f'error: {record}: deal 1, hand of seat 1: bad card token "XX" (rules notation)')
    monkeypatch.setenv("LANGUAGE", "zh")
    assert _refused("replay", str(record)).strip() == f'错误：{record}：第1副，座位1的手牌：无效的牌 "XX"（rules 记法）'
    assert _refused("verify-deal", str(record)).strip() == f'错误：{record}：第1副：无效的牌 "XX"（rules 记法）'


def test_the_figure_tables_name_their_figures_in_the_readers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """arena's, arena-summary's and league's tables label each figure from the catalogue; --json keeps the keys."""
    monkeypatch.setenv("LANGUAGE", "zh")
    arena = runner.invoke(app, ["arena", "--a", "greedy", "--b", "random", "--deals", "2", "--seed", "3"])
    assert arena.exit_code == 0, arena.output
    assert arena.output.startswith("对战场：greedy 对 random（duplicate，competition，种子 3）")
    assert "A 胜副率 95% 区间" in arena.output and "复式牌组数" in arena.output
    assert "a_deal_win_rate" not in arena.output and "deal_pairs" not in arena.output
    for mode in ("sprt", "match"):  # every mode's figures have a name (a figure without one shows its key)
        other = runner.invoke(app, ["arena", "--a", "greedy", "--b", "random", "--deals", "2", "--mode", mode])
        assert other.exit_code == 0 and not re.search(r"^[a-z0-9]+_[a-z0-9_]+ ", other.output, re.M), other.output
    keyed = runner.invoke(app, ["arena", "--a", "greedy", "--b", "random", "--deals", "2", "--seed", "3", "--json"])
    assert json.loads(keyed.output)["deal_pairs"] == 2
    league = runner.invoke(app, ["league", "--agents", "random,greedy", "--pairs", "1"])
    assert league.exit_code == 0, league.output
    assert "对阵（A 的胜副率" in league.output and "random 对 greedy：" in league.output
    assert "pairings" not in league.output and "agent" not in league.output
    monkeypatch.setenv("LANGUAGE", "en")
    arena = runner.invoke(app, ["arena", "--a", "greedy", "--b", "random", "--deals", "2", "--seed", "3"])
    assert "A's deal-win rate, 95% interval" in arena.output and "agent B" in arena.output


def test_a_damaged_or_mixed_results_file_is_named_in_chinese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """arena-summary's refusals of a results file, the setup difference inside one included."""
    f = tmp_path / "a.jsonl"
    assert runner.invoke(app, ["arena", "--a", "greedy", "--b", "random", "--deals", "1", "--results", str(f)]).exit_code == 0
    line = f.read_text(encoding="utf-8").splitlines()[0]
    other = json.loads(line)
    other["setup"]["seed"] = 9
    other["pair"]["index"] = 1
    monkeypatch.setenv("LANGUAGE", "zh")
    g = tmp_path / "bad.jsonl"
    for text, said in ((line + "\nnot json\n", f"错误：{g}:2：不是 JSON（"),
                       (line + "\n" + line.replace('"a_won":', '"a_won":1,"was":') + "\n",
                        f'错误：{g}:2：半组的字段 "a_won" 无效：1'),
                       (line + "\n" + json.dumps(other) + "\n",
                        f"错误：{g}:2：设置与前面各行不同（--seed 在前面各行中为 1，在这一行中为 9）")):
        g.write_text(text, encoding="utf-8")
        assert _refused("arena-summary", str(g)).startswith(said)


def test_the_agent_list_describes_each_option_in_the_readers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    out = runner.invoke(app, ["agents"]).output
    assert "替代着法须比 heuristic 的首选多得的升级数（0 到 10）" in out and "（on 或 off）" in out
    assert "level points" not in out


def test_the_commands_other_engines_say_their_errors_in_chinese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """review's (game catalogue), play's (tui), selfplay's, vectors' and an external bot's (cli) input errors."""
    monkeypatch.setenv("LANGUAGE", "zh")
    assert f"错误：{RECORD_V1}：记录中没有第99副，最后一副是第2副" in _refused("review", str(RECORD_V1), "--deal", "99")
    saved = tmp_path / "not-a-play.json"
    saved.write_text(RECORD_V1.read_text(encoding="utf-8"), encoding="utf-8")
    assert f"错误：{saved} 不是 `guandan play` 保存的比赛" in _refused("play", "--plain", "--resume", str(saved))
    (tmp_path / "sp").mkdir()
    (tmp_path / "sp" / "part-00000.parquet").write_bytes(b"")
    said = _refused("selfplay", "--agents", "random,random,random,random", "--deals", "1", "--out", str(tmp_path / "sp"))
    assert "中已有自对弈数据文件（part-*.parquet）；请选择一个空文件夹" in said
    empty = tmp_path / "v.jsonl"
    empty.write_text("{}\n", encoding="utf-8")
    assert f"错误：{empty} 中没有规则向量（第1行：" in _refused("vectors", str(empty))
    assert "外部机器人写作 external:MODULE:CLASS" in _refused("arena", "--a", "external:x", "--deals", "1")


def test_a_record_that_is_no_json_says_why_in_the_users_language(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "guandan-record",\n "deals": [1 2]}', encoding="utf-8")
    assert _refused("verify-deal", str(bad)).strip() == \
        f"error: {bad}: the record is not valid JSON (line 2: a comma (,) was expected)"
    monkeypatch.setenv("LANGUAGE", "zh")
    for command in ("verify-deal", "replay", "review"):
        said = _refused(command, str(bad))
        assert "记录不是有效的 JSON（第2行：此处应有逗号（,））" in said, (command, said)
        assert "Expecting" not in said


def test_a_file_where_an_output_folder_should_be_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("not a folder", encoding="utf-8")
    for args in (["simulate", "--deals", "1", "--out", str(blocker)],
                 ["simulate", "--deals", "1", "--out", str(blocker / "below")],
                 ["arena", "--a", "greedy", "--b", "random", "--deals", "1", "--results", str(blocker / "x" / "r.jsonl")]):
        assert _refused(*args).strip() == f"error: {blocker} is a file, not a folder", args
    monkeypatch.setenv("LANGUAGE", "zh")
    assert _refused("simulate", "--deals", "1", "--out", str(blocker)).strip() == f"错误：{blocker} 是文件，不是文件夹"
    assert blocker.read_text(encoding="utf-8") == "not a folder"  # nothing changed


def test_serve_names_a_database_it_cannot_use_before_taking_the_address(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file", encoding="utf-8")
    assert _refused("serve", "--data", str(blocker), "--port", "1").strip() == f"error: {blocker} is a file, not a folder"
    monkeypatch.setenv("LANGUAGE", "zh")
    assert _refused("screenshots", "--out", str(blocker)).strip() == f"错误：{blocker} 是文件，不是文件夹"
    # nothing listens on port 1: the database is refused at once, its password hidden, and no traceback
    result = runner.invoke(app, ["serve", "--db", "postgresql+psycopg://u:secret@127.0.0.1:1/x", "--port", "1"])
    assert result.exit_code == 1, result.output
    assert result.output.startswith("错误：无法使用数据库 postgresql+psycopg://u:***@127.0.0.1:1/x：")
    assert "secret" not in result.output and "Traceback" not in result.output


def test_serve_says_an_address_it_cannot_listen_on_before_serving(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    monkeypatch.setenv("LANGUAGE", "zh")
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port), "--data", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert result.output.strip() == f"错误：无法在 127.0.0.1:{port} 上监听：地址已被占用"  # and no "serving on" first
    assert not (tmp_path / "guandan.sqlite3").exists()  # refused before the database was made
