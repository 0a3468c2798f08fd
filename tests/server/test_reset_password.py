"""`guandan reset-password NAME`: the site keeps no e-mail address, so a player who forgot the password asks
the site's operator, who gives the account a new random one from the command line. The old password and every
session of the account stop working; the new password logs in. An unknown name, or no database where the
command looks, is refused and changes nothing."""

from __future__ import annotations

import re
from pathlib import Path

from argon2 import profiles
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from guandan.cli import _mount, app
from guandan.server.accounts_service import AccountSettings
from guandan.server.app import create_app
from guandan.server.table import Settings

runner = CliRunner()
_mount()
OLD = "the password I forgot"
EN = {"LANGUAGE": "en", "LANG": "en_US.UTF-8", "GUANDAN_DB_URL": ""}  # the reader's language; no database named


def test_the_operator_gives_a_forgotten_account_a_new_password(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    site = create_app(url, Settings(workers=0), accounts=AccountSettings(password_parameters=profiles.CHEAPEST))
    with TestClient(site) as phone, TestClient(site) as laptop:
        assert phone.post("/api/auth/signup", json={"username": "Forgetful", "password": OLD}).status_code == 201
        assert laptop.post("/api/auth/login", json={"username": "forgetful", "password": OLD}).status_code == 200
        for _ in range(5):  # the account's wrong guesses are at their limit: the right password is refused too
            laptop.post("/api/auth/login", json={"username": "forgetful", "password": "a wrong guess"})
        assert laptop.post("/api/auth/login", json={"username": "forgetful", "password": OLD}).status_code == 429

        done = runner.invoke(app, ["reset-password", "forgetful", "--db", url], env=EN)
        assert done.exit_code == 0, done.output
        found = re.search(r"new password of forgetful: (\S+)", done.stdout)
        assert found, done.output
        new = found.group(1)
        assert len(new) >= 16 and new != OLD
        assert "Every session of the account has ended" in done.stderr

        assert phone.get("/api/me").status_code == 401  # its sessions ended
        assert laptop.post("/api/auth/login", json={"username": "forgetful", "password": OLD}).status_code == 401
        assert laptop.post("/api/auth/login", json={"username": "forgetful", "password": new}).status_code == 200
        # the owner chooses another with it, as the account page asks
        csrf = laptop.get("/api/me").json()["csrf"]
        r = laptop.post("/api/auth/password", json={"old_password": new, "new_password": "my own again"},
                        headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200, r.text


def test_an_unknown_name_or_a_missing_database_is_refused_in_the_readers_language(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    with TestClient(create_app(url, Settings(workers=0))):
        pass  # the database, with its tables and no account
    done = runner.invoke(app, ["reset-password", "nobody", "--db", url], env={**EN, "LANGUAGE": "zh", "LANG": "zh_CN.UTF-8"})
    assert (done.exit_code, done.stderr.strip()) == (1, "错误：没有名为 nobody 的账号")
    missing = tmp_path / "elsewhere"
    done = runner.invoke(app, ["reset-password", "nobody", "--data", str(missing)], env=EN)
    assert done.exit_code == 2
    assert f"no database at {missing.resolve() / 'guandan.sqlite3'}" in done.stderr
    assert not missing.exists()  # nothing made where the command looked
