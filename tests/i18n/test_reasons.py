"""The operating system's and the JSON reader's reasons are said in the reader's language, and a program
reading an error's own text still gets the system's words."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from guandan.cliutil import said
from guandan.core.errors import GuandanError, RecordError
from guandan.core.params import JsonProblem, OsReason
from guandan.core.record import loads
from guandan.i18n import N_
from guandan.i18n.reasons import json_problem, os_reason, reason_text


def _os_error(tmp_path: Path, kind: str) -> OSError:
    try:
        if kind == "missing":
            (tmp_path / "nope").read_text()
        elif kind == "folder":
            tmp_path.read_text()
        else:
            (tmp_path / "file").write_text("x")
            (tmp_path / "file" / "below").read_text()
    except OSError as e:
        return e
    raise AssertionError(kind)


@pytest.mark.parametrize(("kind", "zh", "en"), [
    ("missing", "没有这个文件或文件夹", "no such file or folder"),
    ("folder", "这是文件夹，不是文件", "it is a folder, not a file"),
    ("not_dir", "路径中有一段不是文件夹", "a part of the path is not a folder"),
])
def test_a_file_systems_reason_is_said_in_each_language(tmp_path: Path, kind: str, zh: str, en: str) -> None:
    e = _os_error(tmp_path, kind)
    assert reason_text(e, "zh") == zh
    assert reason_text(os_reason(e), "en") == en
    assert str(os_reason(e)) == e.strerror  # the error's own text keeps the system's words


def test_a_reason_the_catalogue_lacks_keeps_the_systems_words() -> None:
    e = OSError(errno.ECHILD, "No child processes")
    assert reason_text(e, "zh") == "No child processes"
    assert str(OsReason(OSError("bare"))) == "bare"


def test_a_socket_timeout_is_said_as_a_timeout() -> None:
    assert reason_text(TimeoutError("timed out"), "zh") == "连接超时"
    assert reason_text(OSError(-2, "Name or service not known"), "zh") == "找不到这个名字对应的地址"  # getaddrinfo's
    assert reason_text(ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused"), "en") == \
        "the connection was refused"


@pytest.mark.parametrize(("text", "zh"), [
    ("", "此处应有一个值"),
    ("{", "此处应有一个带双引号的名称"),
    ('{"a" 1}', "此处应有冒号（:）"),
    ("[1 2]", "此处应有逗号（,）"),
    ('"abc', "字符串没有闭合"),
    ('"a\x01"', "字符串里有控制字符"),
    ('"\\u12"', "无效的 \\u 转义"),
    ('"\\q"', "无效的转义（\\）"),
    ("{}x", "值结束后还有多余内容"),
])
def test_every_json_problem_is_said_in_chinese(text: str, zh: str) -> None:
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    assert reason_text(caught.value, "zh") == zh
    assert reason_text(json_problem(caught.value), "en") != caught.value.msg  # ours, not the reader's


def test_an_error_naming_a_reason_is_said_with_it() -> None:
    with pytest.raises(RecordError) as caught:
        loads('{"format":')
    e = caught.value
    assert str(e) == "the record is not valid JSON (line 1: Expecting value)"  # for programs
    assert said(e, "zh") == "记录不是有效的 JSON（第1行：此处应有一个值）"
    assert said(e, "en") == "the record is not valid JSON (line 1: a value was expected)"
    wrapped = GuandanError.said(N_("cannot read {path}: {reason}"), path="x",
                                reason=OsReason(FileNotFoundError(errno.ENOENT, "No such file or directory")))
    assert said(wrapped, "zh") == "无法读取 x：没有这个文件或文件夹"
    assert isinstance(json_problem(json.JSONDecodeError("Extra data", "{}x", 2)), JsonProblem)
