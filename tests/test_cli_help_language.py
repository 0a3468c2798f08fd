"""`guandan --help` and Click's own words speak the user's language: every help text of the command tree
and every word Typer prints is in the ``help`` and ``click`` catalogues, in Chinese and English, and a
command line is answered in the language its --lang or the environment asks for."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po
from typer import rich_utils

from guandan.cli import command, main
from guandan.clihelp import TYPE_WORDS, click_msgids, help_texts, lang_of, option_help_texts, speak
from guandan.i18n import catalogue_path
from guandan.i18n.check import missing
from test_cli_help import _paths


@pytest.fixture(autouse=True)
def library_words_restored() -> Iterator[None]:
    """speak() rebinds Typer's words for the process: each test leaves them as the libraries have them."""
    yield
    speak(None)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_help_text_of_the_command_tree_is_translated(lang: str) -> None:
    texts = set(help_texts(command(None))) | set(TYPE_WORDS) | option_help_texts()
    assert len(texts) > 300  # every command, group, option and argument was walked, every agent option too
    assert missing("help", lang, texts) == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_word_typer_prints_is_translated(lang: str) -> None:
    ids = click_msgids()
    assert {"Options", "Usage: ", "[default: {}]", "no such option: {option}"} <= {
        i if isinstance(i, str) else i[0] for i in ids}
    assert missing("click", lang, ids) == []


@pytest.mark.parametrize("domain", ["help", "click"])
def test_translations_keep_placeholders_and_paragraphs(domain: str) -> None:
    with catalogue_path(domain, "zh").open("rb") as f:
        catalog = read_po(f, locale="zh")
    fields = string.Formatter()

    def names(text: str) -> set[str]:
        return {f for _, f, _, _ in fields.parse(text) if f}

    for msg in catalog:
        if not msg.id:
            continue
        assert isinstance(msg.id, str) and isinstance(msg.string, str)
        assert names(msg.string) == names(msg.id), msg.id
        assert msg.string.count("\n\n") == msg.id.count("\n\n"), msg.id  # the same paragraphs
        if domain == "help":
            for option in {w.rstrip(".,;:)") for w in msg.id.split() if w.startswith("--")}:
                assert option in msg.string, (msg.id, option)  # an option is named as it is typed


def test_lang_of_reads_the_command_line_before_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "zh_CN.UTF-8")
    assert lang_of(["arena", "--help"]) == "zh"
    assert lang_of(["simulate", "--lang", "en", "--help"]) == "en"
    assert lang_of(["simulate", "--lang=en"]) == "en"
    assert lang_of(["simulate", "--lang", "fr"]) == "zh"  # no such catalogue: the environment's
    monkeypatch.setenv("LANGUAGE", "en")
    assert lang_of(["simulate", "--lang", "zh"]) == "zh"


_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # Rich styles the usage line where the environment asks for colour


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as ended:
        main(list(args))
    out = capsys.readouterr()
    code = ended.value.code
    return (code if isinstance(code, int) else 0), _ANSI.sub("", out.out + out.err)


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # one line per option: the assertions read whole sentences


def test_help_in_chinese(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, wide: None) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = _run(capsys, "moves", "--help")
    assert code == 0
    assert "用法：guandan moves" in out and "选项" in out and "显示本帮助并退出。" in out
    assert "[必填]" in out and "[默认：complete]" in out
    assert "Options" not in out and "Usage" not in out and "Show this message" not in out
    assert "[complete|canonical]" in out and "CARDS" in out  # values and placeholders stay as typed
    assert "手牌，用 RULES.md 记法" in out  # an option's help


def test_help_of_a_group_lists_its_commands_in_chinese(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch, wide: None) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = _run(capsys, "tournament", "--help")
    assert code == 0 and "命令" in out and "Commands" not in out
    assert "Create a tournament" not in out  # a command's one-line summary is translated too


def test_help_in_english_keeps_bracketed_text(capsys: pytest.CaptureFixture[str], wide: None) -> None:
    code, out = _run(capsys, "moves", "--help")
    assert code == 0 and "Usage: guandan moves" in out and "Options" in out
    assert "2020-protocol [type, rank, cards] triples" in out  # not taken for Rich markup and dropped


def test_lang_option_picks_the_help_language(capsys: pytest.CaptureFixture[str], wide: None) -> None:
    code, out = _run(capsys, "simulate", "--lang", "zh", "--help")
    assert code == 0 and "用法：" in out and "Usage" not in out


# (command line, the Chinese message): what Typer's Click says of a bad command line, in Chinese
USAGE_ERRORS = [
    (["arena", "--deals", "x"], "'--deals' 的值无效：不是整数"),
    (["arena", "--budget-a", "x"], "'--budget-a' 的值无效：不是数字"),
    (["play", "--delay", "20"], "'--delay' 的值无效：20 超出范围：须在 0 到 10 之间"),
    (["simulate", "--deals", "0"], "'--deals' 的值无效：0 太小：至少须为 1"),
    (["arena", "--deals"], "选项 --deals 需要一个值"),
    (["arena", "extra"], "多余的参数：extra"),
    (["moves"], "缺少选项 '--hand'"),
    (["nope"], "没有命令 'nope'。"),
    (["tournament", "teams"], "没有命令 'teams'。是不是 'deals'？"),  # Typer's guess, said in Chinese too
    (["arena", "--dels", "3"], "没有选项 --dels（是不是 --deals、--help、--mode？）"),
]


@pytest.mark.parametrize(("args", "said"), USAGE_ERRORS, ids=[" ".join(a) for a, _ in USAGE_ERRORS])
def test_usage_errors_in_chinese(args: list[str], said: str, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch, wide: None) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = _run(capsys, *args)
    assert code == 2
    assert said in out and "错误" in out
    assert "Usage" not in out and "Error" not in out and "Invalid value" not in out and "Missing" not in out


def test_usage_errors_in_english(capsys: pytest.CaptureFixture[str], wide: None) -> None:
    code, out = _run(capsys, "arena", "--deals", "x")
    assert code == 2 and "invalid value for '--deals': not an integer" in out and "Usage: guandan arena" in out
    code, out = _run(capsys, "arena", "--dels", "3")
    assert code == 2 and "no such option: --dels (did you mean --deals, --help, --mode?)" in out
    code, out = _run(capsys, "tournament", "teams")
    assert code == 2 and "No such command 'teams'. Did you mean 'deals'?" in out


@pytest.mark.parametrize(("args", "said"), [
    (["play", "--delay", "20"], "invalid value for '--delay': 20 is out of range: it must be from 0 to 10"),
    (["play", "--delay", "-1"], "invalid value for '--delay': -1 is out of range: it must be from 0 to 10"),
    (["simulate", "--deals", "0"], "invalid value for '--deals': 0 is too small: it must be at least 1"),
    (["play", "--delay", "x"], "invalid value for '--delay': not a number"),
])
def test_a_number_out_of_range_is_told_its_range(args: list[str], said: str, capsys: pytest.CaptureFixture[str],
                                                 wide: None) -> None:
    code, out = _run(capsys, *args)
    assert code == 2 and said in out


def test_speak_none_gives_typer_its_own_words_back() -> None:
    speak("zh")
    assert rich_utils.OPTIONS_PANEL_TITLE == "选项"
    speak(None)
    assert rich_utils.OPTIONS_PANEL_TITLE == "Options" and rich_utils.DEFAULT_STRING == "[default: {}]"


_CJK = re.compile("[\u3000-\u9fff\uff00-\uffef]")


def _commands(cmd: Any) -> list[Any]:
    return [cmd] + [c for sub in getattr(cmd, "commands", {}).values() for c in _commands(sub)]


def test_no_chinese_help_is_cut_short_in_an_80_column_terminal(capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich wraps Chinese between characters (clihelp.wrap_cjk): without that it cuts a long sentence
    with "…" where the column ends. Every "…" left in any command's help is one the text itself has,
    or cuts a word too wide for the column in any language (a URL)."""
    monkeypatch.setenv("COLUMNS", "80")
    with catalogue_path("help", "zh").open("rb") as f:
        written = "".join(str(m.string) for m in read_po(f, locale="zh") if m.id)
    tree = command(None)
    written += "".join(p.metavar or "" for c in _commands(tree) for p in c.params)  # 2…A
    # and a list option's type word: 路径… (PATH…), 文本…, 整数…
    allowed = {written[i - 1] for i in range(1, len(written)) if written[i] == "…"} | {"径", "本", "数"}
    paths = _paths(tree)
    assert len(paths) > 60
    monkeypatch.setenv("LANGUAGE", "zh")
    for path in paths:
        code, out = _run(capsys, *path, "--help")
        assert code == 0, path
        for line in out.splitlines():
            for i, ch in enumerate(line):
                if ch == "…" and line[i - 1] not in allowed:
                    # a cut may only fall in a word wider than the column, as in English (a long URL)
                    token = line[:i].rsplit(" ", 1)[-1]
                    assert not _CJK.search(token) and len(token) > 12, (path, line)


_CHOICES = re.compile(r"\[([^\[\]\s]+\|[^\[\]\s]+)\]")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_choice_is_broken_inside_its_name_at_80_columns(capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """An option's choices (``[competition|huaian-traditional|huaian-2009|huopin]``) wrap in a narrow column
    after a ``|``, never inside a name: ``huaian-traditi`` / ``onal`` read as two words."""
    tree = command(None)
    names = {name for c in _commands(tree) for name in _choices(c)}
    assert "huaian-traditional" in names
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LANGUAGE", lang)
    checked = 0
    for path in _paths(tree):
        if not _choices_of(tree, path):
            continue
        code, out = _run(capsys, *path, "--help")
        assert code == 0, path
        cells = [line.split("│")[1] if line.count("│") >= 2 else line for line in out.splitlines()]
        for choice in _choices_of(tree, path):
            checked += 1
            # each name whole on one line of the option list (not only as a part of a longer one)
            assert any(re.search(rf"(?<![\w-]){re.escape(choice)}(?![\w-])", cell) for cell in cells), (path, choice)
    assert checked > 25


def _choices_of(tree: Any, path: tuple[str, ...]) -> list[str]:
    cmd = tree
    for name in path:
        cmd = cmd.commands[name]
    return _choices(cmd)


def _choices(cmd: Any) -> list[str]:
    """The names of the choices a command's options list in their metavars (cliutil.choices)."""
    return [name for p in cmd.params for m in _CHOICES.finditer(p.metavar or "") for name in m.group(1).split("|")]
