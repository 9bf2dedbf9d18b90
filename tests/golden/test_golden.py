"""The readable traces of fixed games of every engine match the reviewed golden files."""

import pytest

from tests.golden import CASES, path_of, render


@pytest.mark.parametrize("case", sorted(CASES), ids=lambda c: f"{c[0]}-{c[1]}")
def test_trace_matches_golden_file(case):
    expected = path_of(*case).read_text()
    regen = "python -m tests.golden"
    assert render(case[0], *CASES[case]) == expected, f"{case} changed: run `{regen}`, review"
