"""Shared paths for the puzzlec package's tests."""

from pathlib import Path

import pytest

#: The repository's models folder.
MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.fixture
def models() -> Path:
    """The repository's models folder."""
    return MODELS
