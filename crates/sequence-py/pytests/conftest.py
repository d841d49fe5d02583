"""Shared fixtures of the sequence_game tests (run by scripts/test.sh)."""

import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture
def repo() -> pathlib.Path:
    return REPO
