"""The account and event pages' scripts, and the account's parts of the other pages (its name in the header, its seats
on other devices, a rated seat), reach the REST API through common.js's api() alone (with the session's CSRF token
where a change needs it): one place says a refusal or an unreachable server in the page's language, and carries the
field a refusal names, for every one of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "guandan" / "server" / "static"


@pytest.mark.parametrize("script", ["account.js", "event.js", "event_new.js", "event_arbiter.js", "site_header.js",
                                    "account_seats.js", "rated.js"])
def test_the_page_sends_its_requests_through_common_api(script: str) -> None:
    source = (STATIC / script).read_text(encoding="utf-8")
    assert re.search(r"\bfetch\(", source) is None, f"{script} calls fetch() itself"
    assert re.search(r"import \{[^}]*\bapi\b[^}]*\} from \"\./common\.js\"", source), script
