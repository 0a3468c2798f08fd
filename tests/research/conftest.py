"""Shared helpers of the research-tooling tests: the two commands on a Typer app of their own."""

from __future__ import annotations

import typer
from typer.testing import CliRunner, Result

from guandan.research.cli import mount

APP = typer.Typer()
mount(APP)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(APP, list(args))
