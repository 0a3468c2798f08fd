"""The table's sounds, synthesised: short mono 16-bit PCM WAV files at 22050 Hz, made from sines and a
seeded noise source with the standard library only, so the project ships no recorded audio of unknown
origin and the committed files are exactly what this module makes.

* ``play``: a soft card slap (90 ms): a low-passed noise burst over a short low body.
* ``bomb``: a low thump falling in pitch under a crack of noise (350 ms).
* ``pass``: a soft low tick (80 ms).
* ``turn``: a two-note chime, a fourth up (250 ms).
* ``warn``: a short high beep (120 ms), for the last seconds of the turn timer.
* ``deal_end``: a three-note rising arpeggio (600 ms).

Every sound is normalised to its own peak level and faded in and out over a few milliseconds, so none
starts or stops with a click. ``python -m guandan.server.sounds [OUT_DIR]`` writes them all (by default
into the web app's ``static/sounds/``).
"""

from __future__ import annotations

import io
import math
import struct
import sys
import wave
from collections.abc import Callable, Sequence
from pathlib import Path

RATE = 22050
OUT_DIR = Path(__file__).parent / "static" / "sounds"
FADE_IN_MS = 3.0
FADE_OUT_MS = 12.0
TAU = 2 * math.pi

Samples = list[float]


def _frames(ms: float) -> int:
    return round(RATE * ms / 1000)


def _noise(n: int, seed: int) -> Samples:
    """``n`` samples of white noise in [-1, 1) from a 32-bit xorshift generator: integer arithmetic
    only, so the same on every machine and Python version (``random``'s algorithm is not promised)."""
    state = seed & 0xFFFFFFFF or 1
    out = []
    for _ in range(n):
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        out.append(state / 2**31 - 1.0)
    return out


def _lowpass(samples: Samples, cutoff_hz: float) -> Samples:
    alpha = 1 - math.exp(-TAU * cutoff_hz / RATE)
    out, y = [], 0.0
    for x in samples:
        y += alpha * (x - y)
        out.append(y)
    return out


def _highpass(samples: Samples, cutoff_hz: float) -> Samples:
    return [x - low for x, low in zip(samples, _lowpass(samples, cutoff_hz), strict=True)]


def _decay(n: int, time_constant_ms: float) -> Samples:
    k = 1000 / (time_constant_ms * RATE)
    return [math.exp(-i * k) for i in range(n)]


def _tone(n: int, freq: float, partials: Sequence[tuple[float, float]] = ((1.0, 1.0),)) -> Samples:
    """A steady tone of ``n`` samples: ``partials`` are (multiple of ``freq``, amplitude)."""
    return [sum(a * math.sin(TAU * freq * m * i / RATE) for m, a in partials) for i in range(n)]


def _mix(*parts: Samples) -> Samples:
    n = max(len(p) for p in parts)
    return [sum(p[i] for p in parts if i < len(p)) for i in range(n)]


def _times(a: Samples, b: Samples) -> Samples:
    return [x * y for x, y in zip(a, b, strict=True)]


def _delayed(samples: Samples, ms: float, total: int) -> Samples:
    start = _frames(ms)
    return ([0.0] * start + samples)[:total] + [0.0] * max(0, total - start - len(samples))


def _bell(n: int, freq: float, time_constant_ms: float) -> Samples:
    # a soft attack of 4 ms, then an exponential ring: a struck-bell shape without the clang
    attack = _frames(4)
    env = [min(1.0, i / attack) for i in range(n)]
    ring = _tone(n, freq, ((1.0, 1.0), (2.0, 0.3), (3.0, 0.08)))
    return _times(_times(ring, env), _decay(n, time_constant_ms))


def _finish(samples: Samples, peak: float) -> Samples:
    """Normalised to ``peak`` (of full scale) and faded in and out with raised-cosine ramps."""
    top = max(abs(x) for x in samples)
    out = [x * peak / top for x in samples]
    n_in, n_out = _frames(FADE_IN_MS), _frames(FADE_OUT_MS)
    for i in range(n_in):
        out[i] *= 0.5 - 0.5 * math.cos(math.pi * i / n_in)
    for i in range(n_out):
        out[-1 - i] *= 0.5 - 0.5 * math.cos(math.pi * i / n_out)
    return out


def synth_play() -> Samples:
    n = _frames(90)
    slap = _times(_lowpass(_noise(n, 0x5EED01), 2500), _decay(n, 14))
    body = _times(_tone(n, 190, ((1.0, 1.0), (1.51, 0.4))), _decay(n, 20))
    return _finish(_mix([4 * x for x in slap], [0.5 * x for x in body]), 0.5)


def synth_bomb() -> Samples:
    n = _frames(350)
    # the thump's pitch falls from 110 Hz to 40 Hz: the phase is the integral of the falling frequency
    phase, thump = 0.0, []
    for i in range(n):
        freq = 40 + 70 * math.exp(-i / (0.06 * RATE))
        phase += TAU * freq / RATE
        thump.append(math.sin(phase))
    thump = _times(thump, _decay(n, 110))
    crack = _times(_highpass(_noise(n, 0xB0B), 1200), _decay(n, 18))
    return _finish(_mix(thump, [0.8 * x for x in crack]), 0.9)


def synth_pass() -> Samples:
    n = _frames(80)
    tick = _times(_tone(n, 300, ((1.0, 1.0), (2.0, 0.2))), _decay(n, 12))
    click = _times(_lowpass(_noise(n, 0x7A55), 1500), _decay(n, 4))
    return _finish(_mix(tick, [0.6 * x for x in click]), 0.35)


def synth_turn() -> Samples:
    n = _frames(250)
    first = _bell(_frames(120), 659.25, 60)  # E5
    second = _bell(n - _frames(100), 880.0, 70)  # A5
    return _finish(_mix(_delayed(first, 0, n), _delayed(second, 100, n)), 0.55)


def synth_warn() -> Samples:
    n = _frames(120)
    beep = _tone(n, 1320, ((1.0, 1.0), (3.0, 0.1)))
    # held, then a gentle release over its last 40 ms
    release = _frames(40)
    env = [min(1.0, (n - i) / release) for i in range(n)]
    return _finish(_times(beep, env), 0.45)


def synth_deal_end() -> Samples:
    n = _frames(600)
    notes = ((0, 523.25), (140, 659.25), (280, 783.99))  # C5 E5 G5
    parts = [_delayed(_bell(n - _frames(ms), freq, 120), ms, n) for ms, freq in notes]
    return _finish(_mix(*parts), 0.55)


SOUNDS: dict[str, Callable[[], Samples]] = {
    "play": synth_play,
    "bomb": synth_bomb,
    "pass": synth_pass,
    "turn": synth_turn,
    "warn": synth_warn,
    "deal_end": synth_deal_end,
}


def render(name: str) -> bytes:
    """The WAV file of the sound ``name`` (a key of SOUNDS)."""
    samples = SOUNDS[name]()
    pcm = struct.pack(f"<{len(samples)}h", *(max(-32767, min(32767, round(x * 32767))) for x in samples))
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm)
    return buf.getvalue()


def write_all(out_dir: Path = OUT_DIR) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in SOUNDS:
        path = out_dir / f"{name}.wav"
        path.write_bytes(render(name))
        paths.append(path)
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1:
        print("usage: python -m guandan.server.sounds [OUT_DIR]", file=sys.stderr)
        return 2
    for path in write_all(Path(args[0]) if args else OUT_DIR):
        print(f"{path}  {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
