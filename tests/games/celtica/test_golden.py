"""The readable traces of two fixed games match the reviewed golden files byte for byte."""

import pytest

from tests.games.celtica.golden import CASES, GOLDEN_DIR, render


@pytest.mark.parametrize("name", sorted(CASES))
def test_trace_matches_golden_file(name):
    expected = (GOLDEN_DIR / name).read_text()
    regen = "python -m tests.games.celtica.golden"
    assert render(*CASES[name]) == expected, f"{name} changed: run `{regen}`, review the diff"
