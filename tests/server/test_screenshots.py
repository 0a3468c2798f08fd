"""`guandan screenshots` writes the README's pictures: its lobby part is run here into a temporary folder
(the table's parts play a deal, too long for the suite; they are run by hand, see the README), and the
committed pictures are checked against the README and against the sizes the command gives them."""

from __future__ import annotations

import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from guandan.server.screenshots import PARTS, expected_files

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"
MAX_FOLDER_BYTES = 3 * 1024 * 1024


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header (the signature, then the IHDR chunk)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return int(width), int(height)


@pytest.mark.timeout(300)
def test_the_lobby_part_writes_its_pngs_at_their_sizes(tmp_path: Path) -> None:
    out = tmp_path / "shots"
    r = subprocess.run([sys.executable, "-c", "from guandan.cli import main; main()", "screenshots", "--out", str(out),
                        "--only", "lobby"], capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stdout + r.stderr
    expected = expected_files(["lobby"])
    assert sorted(p.name for p in out.iterdir()) == sorted(name for name, _w, _h in expected)
    for name, width, height in expected:
        assert png_size(out / name) == (width, height), name
        assert str(out / name) in r.stdout  # the command lists what it wrote


def test_an_unknown_part_is_refused() -> None:
    r = subprocess.run([sys.executable, "-c", "from guandan.cli import main; main()", "screenshots", "--only", "nope"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "lobby" in r.stderr


def test_every_picture_the_readme_shows_is_in_docs_screenshots() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", readme) + re.findall(r"<img[^>]*\bsrc=\"([^\"]+)\"", readme)
    assert len(shown) >= 4, shown
    for rel in shown:
        assert rel.startswith("docs/screenshots/"), f"README.md shows {rel}: its pictures live in docs/screenshots"
        assert (ROOT / rel).is_file(), f"README.md shows {rel}, which is not there: run `guandan screenshots`"


def test_the_committed_pictures_are_the_commands_at_their_sizes() -> None:
    expected = expected_files(PARTS)
    for name, width, height in expected:
        assert png_size(SHOTS / name) == (width, height), name
    total = sum(p.stat().st_size for p in SHOTS.iterdir())
    assert total <= MAX_FOLDER_BYTES, f"docs/screenshots holds {total:,} bytes"


def test_a_missing_hook_of_the_table_page_is_named() -> None:
    """Until the table page has an element the command waits for, it stops with that element's name."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    from guandan.server.screenshots import HookMissing, _wait_hook

    class NoPanel:
        def wait_for_function(self, expression: str, timeout: float) -> None:
            raise PlaywrightTimeout(f"{expression} did not hold in {timeout} ms")

    with pytest.raises(HookMissing, match=r"\[data-testid=deal-end\] \(the deal-end panel\)"):
        _wait_hook(NoPanel(), "document.querySelector('[data-testid=deal-end]')",  # type: ignore[arg-type]
                   "[data-testid=deal-end]", "the deal-end panel")
