"""The table's sounds: the committed WAV files are exactly what guandan.server.sounds makes, each is a
short, audible, unclipped mono 16-bit file at 22050 Hz that starts and ends in silence, and the web app
serves them as audio that its Content-Security-Policy lets the page play."""

from __future__ import annotations

import io
import struct
import wave
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from guandan.server import sounds
from guandan.server.app import STATIC

from .test_headers import directives

COMMITTED = STATIC / "sounds"
# name → the length asked for, in milliseconds
LENGTHS_MS = {"play": 90, "bomb": 350, "pass": 80, "turn": 250, "warn": 120, "deal_end": 600}
FULL_SCALE = 32767


def header(data: bytes) -> tuple[int, int, int, str, int]:
    """(channels, bytes per sample, frame rate, compression, frames) of a WAV file."""
    with wave.open(io.BytesIO(data), "rb") as w:
        return w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getcomptype(), w.getnframes()


def samples(data: bytes) -> tuple[int, ...]:
    with wave.open(io.BytesIO(data), "rb") as w:
        n = w.getnframes()
        return struct.unpack(f"<{n}h", w.readframes(n))


def test_every_sound_is_made_and_committed() -> None:
    assert set(sounds.SOUNDS) == set(LENGTHS_MS)
    assert sorted(p.name for p in COMMITTED.iterdir()) == sorted(f"{n}.wav" for n in LENGTHS_MS)


@pytest.mark.parametrize("name", sorted(LENGTHS_MS))
def test_the_committed_file_is_what_the_generator_makes(name: str) -> None:
    assert (COMMITTED / f"{name}.wav").read_bytes() == sounds.render(name)


def test_main_writes_every_file(tmp_path: Path) -> None:
    assert sounds.main([str(tmp_path)]) == 0
    for name in LENGTHS_MS:
        assert (tmp_path / f"{name}.wav").read_bytes() == (COMMITTED / f"{name}.wav").read_bytes()
    assert sounds.main([str(tmp_path), "extra"]) == 2


def test_rendering_twice_gives_the_same_bytes() -> None:
    assert [sounds.render(n) for n in LENGTHS_MS] == [sounds.render(n) for n in LENGTHS_MS]


@pytest.mark.parametrize("name", sorted(LENGTHS_MS))
def test_each_file_is_a_short_mono_16_bit_wav(name: str) -> None:
    data = (COMMITTED / f"{name}.wav").read_bytes()
    channels, width, rate, compression, frames = header(data)
    assert (channels, width, rate, compression) == (1, 2, 22050, "NONE")
    assert abs(frames - LENGTHS_MS[name] * 22050 / 1000) <= 1
    assert len(data) == 44 + 2 * frames  # a plain header and the samples, nothing else
    assert len(samples(data)) == frames
    assert len(data) < 30_000


def test_all_sounds_together_are_small() -> None:
    assert sum((COMMITTED / f"{n}.wav").stat().st_size for n in LENGTHS_MS) < 120_000


@pytest.mark.parametrize("name", sorted(LENGTHS_MS))
def test_each_sound_is_audible_unclipped_and_starts_and_ends_quietly(name: str) -> None:
    pcm = samples((COMMITTED / f"{name}.wav").read_bytes())
    peak = max(abs(s) for s in pcm)
    assert 0.2 * FULL_SCALE < peak < 0.95 * FULL_SCALE
    # the fades: a sound that jumped from or to silence would click
    assert pcm[0] == 0 and pcm[-1] == 0
    near = 5  # samples, about a quarter of a millisecond
    assert max(abs(s) for s in pcm[:near] + pcm[-near:]) < 0.05 * FULL_SCALE


def test_the_sounds_differ_from_one_another() -> None:
    assert len({sounds.render(n) for n in LENGTHS_MS}) == len(LENGTHS_MS)


def test_the_app_serves_the_sounds_as_audio_the_page_may_play(client: TestClient) -> None:
    for name in LENGTHS_MS:
        r = client.get(f"/static/sounds/{name}.wav")
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("audio/")
        assert r.content == (COMMITTED / f"{name}.wav").read_bytes()
    csp = directives(client.get("/r/ABCDEF").headers["content-security-policy"])
    # an <audio> element's source falls under media-src, and without one under default-src
    assert csp.get("media-src", csp["default-src"]) == ["'self'"]
