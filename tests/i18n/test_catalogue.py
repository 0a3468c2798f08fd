"""The message catalogues: complete for every msgid the clients use, consistent placeholders, and
loadable straight from the .po files (no build step)."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from guandan.i18n import I18nError, catalogue_path, default_lang, languages, normalize_lang, translator
from guandan.i18n.check import extract_msgids, main, missing

SRC = Path(__file__).resolve().parents[2] / "src" / "guandan"
# the command-line modules of the ``cli`` domain (tui/cli.py speaks ``tui``; sim, review and schema ``game``), and
# the engine core, whose input errors (guandan.core.errors.N_) the commands say from the ``cli`` catalogue
CLI_MODULES = [SRC / m for m in ("cli.py", "cliutil.py", "bench.py", "verify_deal.py", "arena/cli.py", "research/cli.py",
                                 "server/cli.py", "server/backup_cli.py", "agents/cli.py", "protocol/cli.py", "core",
                                 "arena/report.py", "arena/results.py", "arena/runner.py", "research/league.py",
                                 "agents/base.py", "agents/fallback.py",
                                 "arena/ray_pool.py", "vectors.py", "protocol/adapter.py", "research/selfplay.py",
                                 "server/bench.py", "server/bench_site.py", "server/bench_page.py",
                                 "server/ratings_bench.py", "i18n/reasons.py", "db/backup.py", "db/engine.py", "db/migrate.py",
                                 "server/supervisor.py",
                                 "vector_kinds.py", "protocol/server.py", "env",
                                 "protocol/client.py", "protocol/tracker.py", "protocol/notation.py", "protocol/worker.py")]
DOMAINS = {"tui": [SRC / "tui"], "game": [SRC / "present", SRC / "sim.py", SRC / "schema.py", SRC / "review"],
           "cli": CLI_MODULES}


@pytest.mark.parametrize("domain", sorted(DOMAINS))
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_msgid_in_code_is_translated(domain: str, lang: str) -> None:
    ids = extract_msgids(DOMAINS[domain])
    assert len(ids) > 50  # the extractor really found the messages
    assert missing(domain, lang, ids) == []


@pytest.mark.parametrize("domain", sorted(DOMAINS))
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_translations_keep_the_placeholders(domain: str, lang: str) -> None:
    with catalogue_path(domain, lang).open("rb") as f:
        catalog = read_po(f)
    fields = string.Formatter()

    def names(texts: str | tuple[str, ...]) -> set[str]:
        return {f for t in ((texts,) if isinstance(texts, str) else texts) for _, f, _, _ in fields.parse(t) if f}

    checked = 0
    for msg in catalog:
        if not msg.id:
            continue
        assert isinstance(msg.id, (str, tuple)) and isinstance(msg.string, (str, tuple))
        strings = (msg.string,) if isinstance(msg.string, str) else msg.string
        for text in strings:  # each plural form keeps the placeholders (Chinese has one form)
            assert names(text) == names(msg.id), msg.id
        checked += 1
    assert checked > 50


def test_missing_reports_an_untranslated_msgid() -> None:
    assert missing("tui", "zh", {"no such message in any catalogue", "hint"}) == ["no such message in any catalogue"]


def test_check_command_exits_nonzero_when_something_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "m.py").write_text('_("a message nobody translated")\n', encoding="utf-8")
    assert main(["tui", str(tmp_path)]) == 1
    assert "a message nobody translated" in capsys.readouterr().out
    assert main(["tui", str(SRC / "tui")]) == 0


def test_translator_loads_chinese_from_the_po_file() -> None:
    zh = translator("game", "zh_CN.UTF-8")
    assert zh.gettext("Partner") == "对家"
    assert zh.gettext("{who}: pass").format(who="上家") == "上家：不要"
    assert translator("game", "en").gettext("Partner") == "Partner"
    assert zh.gettext("not in the catalogue") == "not in the catalogue"
    assert translator("tui", "zh").gettext("hint") == "提示"


def test_unknown_language_or_domain_is_a_clear_error() -> None:
    with pytest.raises(I18nError, match=r'language "fr"; available: en, zh'):
        translator("tui", "fr")
    with pytest.raises(I18nError, match="no message catalogue for domain \"nope\""):
        translator("nope", "zh")


def test_language_names_and_default() -> None:
    assert normalize_lang("zh-Hans") == "zh"
    assert normalize_lang("en_GB.UTF-8") == "en"
    assert default_lang({"LANG": "zh_CN.UTF-8"}) == "zh"
    assert default_lang({"LANGUAGE": "fr:zh_TW", "LANG": "en_US"}) == "zh"
    assert default_lang({"LANG": "C.UTF-8"}) == "en"
    assert {"zh", "en"} <= set(languages("tui"))


#: What counts a number in Chinese: 第2副, 共8副, 3次, 27张, 座位2, 30秒 (the desk's catalogue keeps the same rule).
_MEASURES = "(?:轮|桌|副|队|支|页|次|个|名|场|张|组|行|秒|毫秒|条|种|局|级|位|号|手|步|人|分钟|字节)(?!成)"
_SPACED = re.compile(
    r"(第|共)\s+(\{\w+\}|\d)"  # 第 {deal} 副
    r"|(\{\w+\}|\b\d+)\s+(" + _MEASURES + ")"  # {n} 张
    r"|[\u4e00-\u9fff，：（]\s+(\{\w+\}|\d+)(" + _MEASURES + ")")  # 剩 {n}张


@pytest.mark.parametrize("domain", ["cli", "tui", "web", "game", "help", "click"])
def test_chinese_counts_and_ordinals_take_no_spaces(domain: str) -> None:
    """Chinese writes a number against 第/共 and its measure word (第1副, 共8副, 27张, 3次, 座位2), as the desk
    does: "第 1 副" read as set in type by a machine. A space stays for a name, a path, a code or a value
    (种子 {seed}, {size} KB)."""
    with catalogue_path(domain, "zh").open("rb") as f:
        catalog = read_po(f)
    bad = []
    for msg in catalog:
        strings = (msg.string,) if isinstance(msg.string, str) else tuple(msg.string or ())
        bad += [s for s in strings if msg.id and s and _SPACED.search(s)]
    assert bad == []


@pytest.mark.parametrize("domain", ["cli", "tui", "web", "game", "help", "click"])
def test_chinese_names_a_seat_as_the_table_does(domain: str) -> None:
    """A seat is 座位2 in Chinese on every face (the table, the review, the env, the command line, the arena), never
    2号位, the official platform's client's word (its seats are numbered from 0)."""
    with catalogue_path(domain, "zh").open("rb") as f:
        catalog = read_po(f)
    bad = []
    for msg in catalog:
        strings = (msg.string,) if isinstance(msg.string, str) else tuple(msg.string or ())
        bad += [s for s in strings if msg.id and s and "号位" in s]
    assert bad == []


def test_the_spacing_rule_finds_a_spaced_ordinal() -> None:
    """The rule above is not vacuous: the spacings the catalogues had are caught, the kept ones are not."""
    for wrong in ("第 {deal} 副：{problem}", "剩 {n} 张", "{n} 号位", "全部 108 张牌", "而不是 {count} 个", "共 {count} 副"):
        assert _SPACED.search(wrong), wrong
    for right in ("第{deal}副：{problem}", "剩{n}张", "座位{seat}的手牌", "{size} KB", "种子 {seed}"):
        assert not _SPACED.search(right), right


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_web_writes_a_bombs_size_as_the_presentation_layer_does(lang: str) -> None:
    """The browser's combo names (common.js comboName) take the bomb's size from the web catalogue, the terminal
    and the review from the game one: one spelling in both (炸弹 9×5, bomb 9 ×5)."""
    msgid = "{bomb} ×{n}"
    assert translator("web", lang).gettext(msgid) == translator("game", lang).gettext(msgid)
    assert translator("web", "zh").gettext(msgid) == "{bomb}×{n}"
