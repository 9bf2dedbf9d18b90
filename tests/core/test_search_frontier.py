"""benchmarks/search_frontier.py, the script behind the search-budget tables of
docs/howto/bot-levels.md: its pooled win share, and one line of a real (tiny) run."""

import importlib.util
import re
from pathlib import Path

import pytest

from strategies.ladder import wilson_interval

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "search_frontier.py"


@pytest.fixture(scope="module")
def frontier():
    spec = importlib.util.spec_from_file_location("search_frontier", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pooled_share_weighs_each_seed_by_its_games(frontier):
    rows = [{"win_share": 0.5, "games": 100}, {"win_share": 0.7, "games": 300}]
    mean, low, high, games = frontier.pooled_share(rows)
    assert mean == pytest.approx(0.65)  # not the plain mean of the seeds, 0.6
    assert (low, high) == pytest.approx(wilson_interval(0.65, 400))
    assert low < mean < high
    assert games == 400


def test_a_line_names_every_seed_the_pooled_games_and_a_rate(frontier):
    line = frontier.frontier_line(
        "celtic_trader", "search:rollouts=8", players=2, games=4, seeds=[1, 2], rate_games=2
    )
    found = re.fullmatch(
        r"search:rollouts=8: against greedy ([\d.]+) \[([\d.]+), ([\d.]+)\] "
        r"\(seeds: ([\d.]+), ([\d.]+); (\d+) games\); (\d+) games per CPU second, "
        r"every seat searching",
        line,
    )
    assert found, line
    mean, low, high, first, second = (float(found.group(i)) for i in range(1, 6))
    assert low <= mean <= high
    assert mean == pytest.approx((first + second) / 2, abs=0.001)  # equal games per seed
    assert int(found.group(6)) == 8
    assert int(found.group(7)) > 0
