"""Every tournament-kind rules vector (RULES.md §9) through the shared vector runner."""

from __future__ import annotations

from pathlib import Path

from guandan.vectors import format_report, load_vectors, run_vectors

KINDS = {"round_end", "round_result", "forfeit", "swiss_pairing", "ranking"}


def test_every_tournament_vector_passes(vectors_path: Path) -> None:
    vectors = [v for v in load_vectors(vectors_path) if v["kind"] in KINDS]
    assert len(vectors) >= 10
    report = run_vectors(vectors)
    assert not report.failed, format_report(report)
    assert not report.skipped, f"tournament kinds without a checker: {report.skipped}"
    assert {o.kind for o in report.outcomes} == KINDS
    assert report.passed == len(vectors)
