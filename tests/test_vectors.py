"""The shared rules vectors through the runner: every covered kind must pass."""

from __future__ import annotations

from pathlib import Path

from guandan.vectors import format_report, load_vectors, run_vectors

ENGINE_KINDS = {
    "classify", "compare", "return_eligible", "level_order", "report", "deal", "first_lead_flip",
    "tribute", "trick", "deal_result", "huopin_score",
}


def test_every_engine_vector_passes(vectors_path: Path) -> None:
    report = run_vectors(load_vectors(vectors_path))
    assert not report.failed, format_report(report)
    covered = {o.kind for o in report.outcomes}
    assert covered >= ENGINE_KINDS, f"kinds not run: {ENGINE_KINDS - covered}"
    assert report.passed >= 162
