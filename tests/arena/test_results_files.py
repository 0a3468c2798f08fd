"""Arena results files: resume a stopped run, split one over machines, merge them, refuse mixtures."""

from __future__ import annotations

import contextlib
import gzip
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from guandan.cli import _mount, app

BASE = ["arena", "--a", "greedy", "--b", "random", "--seed", "3", "--json"]


@pytest.fixture(scope="module")
def cli() -> CliRunner:
    _mount()
    return CliRunner()


def _run(cli: CliRunner, *args: str) -> dict[str, object]:
    r = cli.invoke(app, [*BASE, *args])
    assert r.exit_code == 0, r.output
    out: dict[str, object] = json.loads(r.output)
    return out


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_a_stopped_run_resumes_without_replaying_pairs(cli: CliRunner, tmp_path: Path) -> None:
    f = tmp_path / "runs" / "a.jsonl"
    first = _run(cli, "--deals", "3", "--results", str(f))
    assert first["resumed_pairs"] == 0 and len(_lines(f)) == 3
    resumed = _run(cli, "--deals", "5", "--results", str(f))
    assert resumed["resumed_pairs"] == 3 and resumed["deal_pairs"] == 5 and len(_lines(f)) == 5
    straight = _run(cli, "--deals", "5")
    for k in ("a_deal_win_rate", "a_deal_win_ci95", "a_points_per_deal", "a_double_win_rate", "illegal_actions"):
        assert resumed[k] == straight[k], k
    assert [json.loads(x)["pair"]["index"] for x in _lines(f)] == [0, 1, 2, 3, 4]


def test_a_split_run_merges_to_the_whole(cli: CliRunner, tmp_path: Path) -> None:
    f1, f2 = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    _run(cli, "--deals", "2", "--results", str(f1))
    part = _run(cli, "--first", "2", "--deals", "3", "--results", str(f2))
    assert part["first_pair"] == 2 and part["deal_pairs"] == 3
    r = cli.invoke(app, ["arena-summary", str(f1), str(f2), str(f1), "--json"])  # a file twice is harmless
    assert r.exit_code == 0, r.output
    merged = json.loads(r.output)
    whole = _run(cli, "--deals", "5")
    assert merged["deal_pairs"] == 5 and merged["missing_pairs"] == 0
    assert merged["a"] == "greedy" and merged["seed"] == 3
    for k in ("a_deal_win_rate", "a_deal_win_ci95", "a_points_per_deal"):
        assert merged[k] == whole[k], k
    gap = cli.invoke(app, ["arena-summary", str(f2), "--json"])
    assert json.loads(gap.output)["first_pair"] == 2


def test_results_of_another_setup_are_refused_and_left_alone(cli: CliRunner, tmp_path: Path) -> None:
    f = tmp_path / "a.jsonl"
    _run(cli, "--deals", "2", "--results", str(f))
    before = f.read_bytes()
    r = cli.invoke(app, ["arena", "--a", "greedy", "--b", "random", "--seed", "4", "--deals", "2", "--results", str(f)])
    assert r.exit_code == 2 and "seed 3 in the file vs 4" in r.output
    assert f.read_bytes() == before
    other = tmp_path / "b.jsonl"
    _run(cli, "--deals", "1", "--results", str(other), "--budget-a", "0.5")
    r = cli.invoke(app, ["arena-summary", str(f), str(other)])
    assert r.exit_code == 2 and "another setup" in r.output and "--budget-a none vs 0.5" in r.output
    r = cli.invoke(app, ["arena-summary", str(other)])  # the plain table: no Python repr of a missing budget
    assert r.exit_code == 0 and re.search(r"B's seconds per decision +—", r.output) and "None" not in r.output, r.output


def test_damaged_results_lines_are_named(cli: CliRunner, tmp_path: Path) -> None:
    f = tmp_path / "a.jsonl"
    _run(cli, "--deals", "2", "--results", str(f))
    good = _lines(f)
    cases = {
        "not json": "not JSON",
        json.dumps({"format": "x"}): "not an arena pair line",
        good[0].replace('"a_won":', '"a_wins":'): 'a half has no field "a_won"',
        good[0].replace('"index":', '"index":"x","was":'): 'the pair\'s field "index" is not valid: "x"',
        good[0].replace('"a_won":', '"a_won":1,"was":'): 'a half\'s field "a_won" is not valid: 1',
    }
    for bad, message in cases.items():
        g = tmp_path / "bad.jsonl"
        g.write_text(good[0] + "\n" + bad + "\n", encoding="utf-8")
        r = cli.invoke(app, ["arena-summary", str(g)])
        assert r.exit_code == 2 and f"{g}:2" in r.output and message in r.output, r.output
        assert "'" not in r.output.replace("pair's", "").replace("half's", ""), r.output  # no Python repr
    # the same pair index with another outcome: the files disagree
    d = json.loads(good[0])
    d["pair"]["halves"][0]["a_won"] = not d["pair"]["halves"][0]["a_won"]
    g = tmp_path / "clash.jsonl"
    g.write_text(json.dumps(d) + "\n", encoding="utf-8")
    r = cli.invoke(app, ["arena-summary", str(f), str(g)])
    assert r.exit_code == 2 and "pair 0 appears twice with different results" in r.output
    r = cli.invoke(app, ["arena-summary", str(tmp_path / "none.jsonl")])
    assert r.exit_code == 2 and "is not a file" in r.output


def _on_pair(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def apply(d: dict[str, Any]) -> None:
        change(d["pair"])
    return apply


SEATING = [  # a line's pair changed, and what the error says of it in each language
    (_on_pair(lambda p: p["halves"][1].update(a_seats=0)),
     "A sat at seats 1 and 3 in both halves of pair 1, not once at 1 and 3 and once at 2 and 4",
     "第1组复式牌的两个半组中 A 都坐座位1、3，而不是一次坐座位1、3、一次坐座位2、4"),
    (_on_pair(lambda p: p["halves"][0].update(a_seats=1)),
     "A sat at seats 2 and 4 in both halves of pair 1, not once at 1 and 3 and once at 2 and 4",
     "第1组复式牌的两个半组中 A 都坐座位2、4，而不是一次坐座位1、3、一次坐座位2、4"),
    (_on_pair(lambda p: p["halves"][1].update(a_seats=5)),
     "half 2 of pair 1 has a_seats 5, not 0 (A at seats 1 and 3) or 1 (A at seats 2 and 4)",
     "第1组复式牌第2个半组的 a_seats 为 5，而不是 0（A 坐座位1、3）或 1（A 坐座位2、4）"),
    (_on_pair(lambda p: p.update(halves=p["halves"][:1])),
     "a pair has two halves; pair 1 has 1", "一组复式牌有两个半组，第1组却有1个"),
    (_on_pair(lambda p: p.update(index=-1)),
     "pair index -1 is negative: pairs are numbered from 0", "复式牌组的序号 -1 为负数：序号从0起"),
]


@pytest.mark.parametrize(("change", "en", "zh"), SEATING, ids=["both-1-3", "both-2-4", "a-seats-5", "one-half", "index"])
def test_a_pair_that_does_not_swap_the_seats_is_refused_in_words_and_left_alone(
        cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: Callable[[dict[str, Any]], None],
        en: str, zh: str) -> None:
    """A pair whose halves do not seat A once at seats 1 and 3 and once at 2 and 4 is named by file and line, with
    the seats as a player counts them (the file's a_seats 0/1 is never all it says), by every command that reads
    results; resuming onto such a file writes nothing."""
    f = tmp_path / "a.jsonl"
    _run(cli, "--deals", "2", "--results", str(f))
    good, bad = _lines(f)
    d = json.loads(bad)
    change(d)
    f.write_text(good + "\n" + json.dumps(d) + "\n", encoding="utf-8")
    before = f.read_bytes()
    for args in (["arena-summary", str(f)], ["arena-compare", "--first", str(f), "--second", str(f)],
                 [*BASE[:-1], "--deals", "3", "--results", str(f)]):
        r = cli.invoke(app, args)
        assert r.exit_code == 2 and r.output.strip() == f"error: {f}:2: {en}", r.output
        assert f.read_bytes() == before
    monkeypatch.setenv("LANGUAGE", "zh")
    r = cli.invoke(app, ["arena-summary", str(f)])
    assert r.exit_code == 2 and r.output.strip() == f"错误：{f}:2：{zh}", r.output


def test_a_match_record_given_for_results_is_named_as_one(cli: CliRunner, tmp_path: Path) -> None:
    assert cli.invoke(app, ["simulate", "--deals", "1", "--out", str(tmp_path / "recs")]).exit_code == 0
    (record,) = (tmp_path / "recs").glob("*.json")
    for args in (["arena-summary", str(record)], ["arena-compare", "--first", str(record), "--second", str(record)]):
        r = cli.invoke(app, args)
        assert r.exit_code == 2, r.output
        assert r.output.strip() == f"error: {record} is a match record, not an arena results file (arena --results " \
                                   "writes those)", r.output


def test_gzipped_results_read_like_plain_ones_and_binary_files_are_refused(cli: CliRunner, tmp_path: Path) -> None:
    f = tmp_path / "a.jsonl"
    _run(cli, "--deals", "3", "--results", str(f))
    z = tmp_path / "a.jsonl.gz"
    z.write_bytes(gzip.compress(f.read_bytes()))
    plain, zipped = (json.loads(cli.invoke(app, ["arena-summary", str(p), "--json"]).output) for p in (f, z))
    assert zipped == plain and zipped["deal_pairs"] == 3
    cases = {"b.jsonl": (b"\xff\xfe\x00binary", "is not UTF-8 text"),
             "c.jsonl.gz": (f.read_bytes(), "ends in .gz but is not gzip data"),
             "d.jsonl.gz": (z.read_bytes()[:-9], "cut short or damaged gzip data")}
    for name, (data, message) in cases.items():
        (tmp_path / name).write_bytes(data)
        r = cli.invoke(app, ["arena-summary", str(tmp_path / name)])
        assert r.exit_code == 2 and message in r.output, r.output


def test_a_run_written_to_a_gz_file_is_gzip_and_resumes(cli: CliRunner, tmp_path: Path) -> None:
    plain, z = tmp_path / "a.jsonl", tmp_path / "a.jsonl.gz"
    _run(cli, "--deals", "4", "--results", str(plain))
    _run(cli, "--deals", "2", "--results", str(z))
    resumed = _run(cli, "--deals", "4", "--results", str(z))  # appends one more gzip member
    assert resumed["resumed_pairs"] == 2
    lines = [json.loads(x) for x in gzip.decompress(z.read_bytes()).decode("utf-8").splitlines()]
    assert [(d["pair"]["index"], d["pair"]["halves"]) for d in lines] == [
        (d["pair"]["index"], d["pair"]["halves"]) for d in map(json.loads, _lines(plain))]
    summaries = [json.loads(cli.invoke(app, ["arena-summary", str(p), "--json"]).output) for p in (plain, z)]
    for k in ("deal_pairs", "a_deal_win_rate", "a_deal_win_ci95", "a_points_per_deal", "a_double_win_rate"):
        assert summaries[0][k] == summaries[1][k], k


@pytest.mark.parametrize("args, message", [
    (["--first", "-1"], "--first must be 0 or more"),
    (["--mode", "sprt", "--first", "3"], "apply to --mode duplicate only"),
    (["--mode", "match", "--results", "x.jsonl"], "apply to --mode duplicate only"),
])
def test_bad_split_options(cli: CliRunner, args: list[str], message: str) -> None:
    r = cli.invoke(app, ["arena", *args])
    assert r.exit_code == 2 and message in r.output


def test_an_unwritable_results_path_fails_before_playing(cli: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "dir.jsonl"
    folder.mkdir()  # a folder where the file should be
    r = cli.invoke(app, [*BASE, "--deals", "1", "--results", str(folder)])
    assert r.exit_code == 2 and "cannot" in r.output and str(folder) in r.output


def test_parallel_workers_write_every_pair_once(cli: CliRunner, tmp_path: Path) -> None:
    """With --jobs each pair is appended as it finishes, in whatever order: the file still holds each
    pair once and summarizes exactly like a one-process run."""
    f = tmp_path / "par.jsonl"
    par = _run(cli, "--deals", "6", "--jobs", "2", "--results", str(f))
    assert sorted(json.loads(x)["pair"]["index"] for x in _lines(f)) == [0, 1, 2, 3, 4, 5]
    straight = _run(cli, "--deals", "6")
    for k in ("deal_pairs", "a_deal_win_rate", "a_deal_win_ci95", "a_points_per_deal", "illegal_actions"):
        assert par[k] == straight[k], k


def test_two_runs_on_the_same_deals_compare_pair_by_pair(cli: CliRunner, tmp_path: Path) -> None:
    f1, f2, f3 = tmp_path / "greedy.jsonl", tmp_path / "random.jsonl", tmp_path / "seed4.jsonl"
    _run(cli, "--deals", "4", "--results", str(f1))
    r = cli.invoke(app, ["arena", "--a", "random", "--b", "random", "--seed", "3", "--deals", "6", "--results", str(f2)])
    assert r.exit_code == 0, r.output
    r = cli.invoke(app, ["arena-compare", "--first", str(f1), "--second", str(f2), "--json"])
    assert r.exit_code == 0, r.output
    c = json.loads(r.output)
    assert (c["first"], c["second"], c["b"], c["common_pairs"], c["second_only_pairs"]) == ("greedy", "random", "random", 4, 2)
    pairs = [json.loads(x)["pair"] for x in _lines(f1)], [json.loads(x)["pair"] for x in _lines(f2)][:4]
    scores = [[sum(h["a_won"] for h in p["halves"]) / 2 for p in side] for side in pairs]
    diff = sum(x - y for x, y in zip(*scores, strict=True)) / 4
    assert c["deal_win_diff"] == diff and c["deal_win_diff_ci95"][0] <= diff <= c["deal_win_diff_ci95"][1]
    assert c["first_deal_win_rate"] - c["second_deal_win_rate"] == pytest.approx(diff)
    plain = cli.invoke(app, ["arena-compare", "--first", str(f1), "--second", str(f2)])
    assert plain.exit_code == 0 and "deal-win rate, first − second, 95% interval" in plain.output and "None" not in plain.output
    # other deals (another seed) or another opponent cannot be compared deal by deal
    r = cli.invoke(app, ["arena", "--a", "random", "--b", "random", "--seed", "4", "--deals", "2", "--results", str(f3)])
    assert r.exit_code == 0, r.output
    r = cli.invoke(app, ["arena-compare", "--first", str(f1), "--second", str(f3)])
    assert r.exit_code == 2 and "not played on the same deals" in r.output and "seed 3 in --first vs 4" in r.output
    assert "greedy" not in r.output.split(":", 1)[1], "the agents compared are not named as the problem"
    later = tmp_path / "later.jsonl"
    r = cli.invoke(app, ["arena", "--a", "random", "--b", "random", "--seed", "3", "--first", "10", "--deals", "1",
                         "--results", str(later)])
    assert r.exit_code == 0, r.output
    r = cli.invoke(app, ["arena-compare", "--first", str(f1), "--second", str(later)])
    assert r.exit_code == 2 and "no deal pair in common" in r.output
    r = cli.invoke(app, ["arena-compare", "--first", str(tmp_path / "none.jsonl"), "--second", str(f2)])
    assert r.exit_code == 2 and "is not a file" in r.output


def _rewrite(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    lines = []
    for x in _lines(path):
        d = json.loads(x)
        change(d["setup"])
        lines.append(json.dumps(d))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_results_record_every_option_value_and_a_changed_default_is_not_resumed(cli: CliRunner,
                                                                                tmp_path: Path) -> None:
    f = tmp_path / "search.jsonl"
    r = cli.invoke(app, ["arena", "--a", "search:max_worlds=2:shortlist=2", "--b", "greedy", "--seed", "3", "--deals", "1",
                         "--results", str(f), "--json"])
    assert r.exit_code == 0, r.output
    setup = json.loads(_lines(f)[0])["setup"]
    assert setup["a"] == "search:max_worlds=2:shortlist=2"
    # the defaults are spelled out too: a later change of one cannot change what this file means
    assert setup["a_options"]["max_worlds"] == 2 and setup["a_options"]["win_bonus"] == 1.0
    assert setup["a_options"]["endgame"] is True and setup["b_options"] == {}
    # as if the file had been played when win_bonus defaulted to 0: the same spec, other settings
    _rewrite(f, lambda s: s["a_options"].update(win_bonus=0.0))
    before = f.read_bytes()
    r = cli.invoke(app, ["arena", "--a", "search:max_worlds=2:shortlist=2", "--b", "greedy", "--seed", "3",
                         "--deals", "2", "--results", str(f)])
    assert r.exit_code == 2 and "A's win_bonus 0 in the file vs 1" in r.output, r.output
    assert f.read_bytes() == before
    table_out = cli.invoke(app, ["arena-summary", str(f)])
    assert table_out.exit_code == 0 and "win_bonus=0" in table_out.output and "endgame=on" in table_out.output
    assert "{" not in table_out.output and "True" not in table_out.output


def test_an_option_added_since_a_file_was_written_reads_as_the_tier_played_then(cli: CliRunner,
                                                                               tmp_path: Path) -> None:
    """``returns`` and ``break_any`` came after option values were recorded: a file without them
    ran as they are off, so it resumes and joins with today's runs; an option without such a value
    (``prior``) missing from a file still refuses both."""
    spec = ["--a", "search:max_worlds=2:shortlist=2", "--b", "greedy", "--seed", "3"]
    f = tmp_path / "search.jsonl"
    r = cli.invoke(app, ["arena", *spec, "--deals", "1", "--results", str(f)])
    assert r.exit_code == 0, r.output
    _rewrite(f, lambda s: [s["a_options"].pop(k) for k in ("returns", "break_any")])
    later = tmp_path / "later.jsonl"
    r = cli.invoke(app, ["arena", *spec, "--first", "1", "--deals", "1", "--results", str(later)])
    assert r.exit_code == 0, r.output
    r = cli.invoke(app, ["arena-summary", str(f), str(later), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["deal_pairs"] == 2, r.output
    r = cli.invoke(app, ["arena", *spec, "--deals", "2", "--results", str(f), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["resumed_pairs"] == 1, r.output
    _rewrite(later, lambda s: s["a_options"].pop("prior"))
    r = cli.invoke(app, ["arena-summary", str(f), str(later)])
    assert r.exit_code == 2 and "A's prior 0.15 vs —" in r.output, r.output


def test_older_results_without_option_values_read_and_compare_but_do_not_resume(cli: CliRunner,
                                                                                tmp_path: Path) -> None:
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    _run(cli, "--deals", "2", "--results", str(old))
    _rewrite(old, lambda s: [s.pop(k) for k in ("a_options", "b_options")])
    before = old.read_bytes()
    assert json.loads(cli.invoke(app, ["arena-summary", str(old), "--json"]).output)["deal_pairs"] == 2
    r = cli.invoke(app, [*BASE, "--deals", "3", "--results", str(old)])
    assert r.exit_code == 2 and "before results files recorded every option value" in r.output, r.output
    assert old.read_bytes() == before
    r = cli.invoke(app, ["arena", "--a", "random", "--b", "random", "--seed", "3", "--deals", "2", "--results", str(new)])
    assert r.exit_code == 0, r.output
    r = cli.invoke(app, ["arena-compare", "--first", str(new), "--second", str(old), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["common_pairs"] == 2, r.output
    # one file cannot mix the two kinds of line
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(old.read_text(encoding="utf-8") + _lines(new)[0] + "\n", encoding="utf-8")
    r = cli.invoke(app, ["arena-summary", str(mixed)])
    assert r.exit_code == 2 and "option values not recorded vs recorded" in r.output, r.output


def test_option_values_of_another_opponent_are_not_compared_pair_by_pair(cli: CliRunner, tmp_path: Path) -> None:
    f1, f2 = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    _run(cli, "--deals", "1", "--results", str(f1))
    r = cli.invoke(app, ["arena", "--a", "random", "--b", "random", "--seed", "3", "--deals", "1", "--results", str(f2)])
    assert r.exit_code == 0, r.output
    _rewrite(f2, lambda s: s["b_options"].update(depth=2))
    r = cli.invoke(app, ["arena-compare", "--first", str(f1), "--second", str(f2)])
    assert r.exit_code == 2 and "B's depth — in --first vs 2" in r.output, r.output
    bad = tmp_path / "bad.jsonl"
    _rewrite(f1, lambda s: s.update(a_options={"prior": "high"}))
    bad.write_bytes(f1.read_bytes())
    r = cli.invoke(app, ["arena-summary", str(bad)])
    assert r.exit_code == 2 and "a_options must be an object of option values" in r.output, r.output


def _workers(pid: int) -> list[int]:
    """The pool's worker processes of ``pid`` (not multiprocessing's resource tracker, which leaves
    by itself once the run has gone)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
                cmdline = (d / "cmdline").read_bytes()
            except OSError:
                continue
            if int(fields[1]) == pid and b"spawn_main" in cmdline:
                out.append(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads worker processes from /proc (Linux)")
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_to_the_arena_alone_stops_its_workers_and_keeps_finished_pairs(tmp_path: Path, sig: str) -> None:
    """Ctrl-C in a terminal signals every process of the group; a signal to the main process alone
    (a supervisor, `kill`) must stop the queued pairs and the workers too, not wait for them all."""
    import os
    import signal
    import subprocess
    import sys
    import time

    f = tmp_path / "stop.jsonl"
    cmd = [str(Path(sys.executable).parent / "guandan"), "arena", "--a", "heuristic", "--b", "greedy",
           "--deals", "100000", "--jobs", "2", "--seed", "5", "--results", str(f)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (f.exists() and f.read_text(encoding="utf-8").count("\n") >= 1):
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.2)
        workers = _workers(proc.pid)
        assert workers, "the run plays in worker processes"
        proc.send_signal(getattr(signal, sig))
        _out, err = proc.communicate(timeout=30)  # 100,000 pairs would take hours: it stopped at once
        # the run ended its workers itself before it exited (what is killed below is only clean-up)
        left = [w for w in workers if _alive(w)]
    finally:  # whatever happened, nothing of the run outlives the test (its workers share its group)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == 130, err
    assert "stopped" in err and str(f) in err and "Traceback" not in err, err
    assert not left
    kept = _lines(f)
    assert 1 <= len(kept) < 100_000 and len({json.loads(x)["pair"]["index"] for x in kept}) == len(kept)
