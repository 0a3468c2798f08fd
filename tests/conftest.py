from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(scope="session")
def vectors_path() -> Path:
    path = SHARED / "rules-vectors.jsonl"
    if not path.exists():
        pytest.fail(f"the shared rules vectors are missing at {path}")
    return path
