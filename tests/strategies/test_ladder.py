"""The ladder: seat arrangements, Wilson intervals, the Elo fit, and `menhir ladder`."""

import itertools

import numpy as np
import pytest
from click.testing import CliRunner

from experiments.cli import cli
from sim.core.registry import SetupError
from strategies.ladder import (
    arrangements,
    bootstrap_elo,
    fit_elo,
    format_ladder,
    games_to_separate,
    ladder_verdict,
    levels_ordered,
    run_ladder,
    verdict_lines,
    wilson_interval,
)


def test_arrangements_seat_both_levels_equally_often():
    assert arrangements(2) == [(0, 1), (1, 0)]
    three = arrangements(3)
    assert len(three) == 6 and len(set(three)) == 6
    assert sum(sum(a) for a in three) == 9  # level 1 fills half of the 18 seats
    for seat in range(3):
        assert sum(a[seat] for a in three) == 3
    assert len(arrangements(4)) == 14


def test_wilson_interval_matches_the_textbook_values():
    low, high = wilson_interval(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson_interval(1.0, 20)
    assert high == 1.0 and low == pytest.approx(0.8389, abs=1e-4)


def test_elo_fit_recovers_known_ratings():
    true = np.array([0.0, 150.0, 400.0])
    games = np.full((3, 3), 100_000.0) - np.diag([100_000.0] * 3)
    expected = 1.0 / (1.0 + 10 ** ((true[None, :] - true[:, None]) / 400.0))
    wins = expected * games
    fitted = fit_elo(wins, games)
    assert fitted[0] == 0.0
    assert np.allclose(fitted, true, atol=2.0)


def test_elo_orders_a_chain_and_stays_finite_when_a_level_wins_everything():
    games = np.array([[0, 50, 50], [50, 0, 50], [50, 50, 0]], float)
    wins = np.array([[0, 0, 0], [50, 0, 20], [50, 30, 0]], float)
    elo = fit_elo(wins, games)
    assert np.all(np.isfinite(elo)) and elo[0] < elo[1] < elo[2]
    # two levels: the fit is the closed form, virtual drawn game included
    sparse = fit_elo(np.array([[0, 10.0], [30.0, 0]]), np.array([[0, 40.0], [40.0, 0]]))
    assert sparse[1] == pytest.approx(400 * np.log10(30.5 / 10.5), rel=1e-6)


@pytest.fixture(scope="module")
def toy_ladder(toy):
    return run_ladder("toy_pig", 2, 300, ["random", "greedy", "search:rollouts=64"], seed=1)


def test_ladder_table_on_the_toy_game_is_ordered_and_consistent(toy_ladder):
    table = toy_ladder
    assert table.height == 6
    assert table["games"].to_list() == [300] * 6 and table["players"].to_list() == [2] * 6
    shares = {(r["bot"], r["opponent"]): r["win_share"] for r in table.iter_rows(named=True)}
    for a, b in itertools.permutations(["random", "greedy", "search:rollouts=64"], 2):
        assert shares[(a, b)] + shares[(b, a)] == pytest.approx(1.0)
    assert (
        (table["ci_low"] <= table["win_share"]) & (table["win_share"] <= table["ci_high"])
    ).all()
    assert shares[("greedy", "random")] > 0.6
    assert shares[("search:rollouts=64", "greedy")] > 0.55
    assert levels_ordered(table)
    elo = dict(table.select("bot", "elo").unique().iter_rows())
    assert elo["random"] == 0.0 and elo["random"] < elo["greedy"] < elo["search:rollouts=64"]
    lines = format_ladder(table)
    assert lines[0].split()[:2] == ["bot", "elo"] and len(lines) == 4


def test_ladder_is_deterministic_and_rounds_games_to_whole_arrangements(toy, toy_ladder):
    again = run_ladder("toy_pig", 2, 300, ["random", "greedy", "search:rollouts=64"], seed=1)
    assert again.equals(toy_ladder)
    three = run_ladder("toy_pig", 3, 20, ["random", "greedy"], seed=1)
    assert three["games"].to_list() == [24, 24]  # 6 arrangements x 4 games
    assert three["players"].to_list() == [3, 3]


def test_ladder_default_levels_are_the_games_bots_by_code(toy):
    table = run_ladder("toy_pig", games=10)
    assert table["bot"].unique(maintain_order=True).to_list() == ["random", "greedy", "search"]


def test_ladder_default_games_per_pair_is_the_games_own(toy):
    from sim.core.registry import get_game

    table = run_ladder("toy_pig", 2, bots=["random", "greedy"])
    assert table["games"].to_list() == [get_game("toy_pig").ladder_games] * 2
    assert get_game("catan").ladder_games > get_game("celtic_trader").ladder_games


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"bots": ["greedy"]}, "at least two bot levels"),
        ({"bots": ["greedy", "greedy"]}, "bot levels must differ"),
        ({"bots": ["greedy", "alpha"]}, "unknown bot 'alpha'"),
        ({"players": 9}, "players = 9 is not allowed for toy_pig: 2 to 4"),
        ({"games": 0}, "games = 0 is not allowed"),
    ],
)
def test_ladder_user_errors(toy, kwargs, fragment):
    with pytest.raises(ValueError) as err:
        run_ladder("toy_pig", **{"games": 4, **kwargs})
    assert fragment in str(err.value)


def test_unknown_game_is_a_setup_error():
    with pytest.raises(SetupError, match="unknown game 'nope'"):
        run_ladder("nope")


def test_ladder_command_prints_the_table(toy):
    result = CliRunner().invoke(
        cli, ["ladder", "toy_pig", "--games", "40", "--bots", "random,greedy", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "toy_pig 2p ladder: 40 games per pair, seats rotated, seed 3" in result.output
    assert "vs random" in result.output and "vs greedy" in result.output
    assert "levels ordered:" in result.output
    assert "skill expression: greedy vs random wins" in result.output


def test_skill_expression_maps_the_share_to_the_outcomes_a_policy_decides(toy_ladder):
    from strategies.ladder import ladder_verdict, skill_lines

    lines = skill_lines(toy_ladder)
    pairs = ladder_verdict(toy_ladder)["pairs"]
    assert len(lines) == len(pairs)
    for line, p in zip(lines, pairs, strict=True):
        assert f"decides about {max(0.0, 2 * p['share'] - 1):.0%}" in line


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["nope"], "unknown game 'nope'"),
        (["toy_pig", "--games", "0"], "--games: '0' is not allowed: an integer in [1, 100000000]"),
        (["toy_pig", "--jobs", "0"], "--jobs: '0' is not allowed: an integer >= 1"),
        (["toy_pig", "--bots", "random,search:rollouts=0"], "'rollouts' = 0 is not allowed"),
        (["toy_pig", "-p", "1"], "players = 1 is not allowed"),
    ],
)
def test_ladder_command_errors_exit_2_with_one_line(toy, args, fragment):
    result = CliRunner().invoke(cli, ["ladder", *args])
    assert result.exit_code == 2
    assert fragment in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_ladder_with_two_jobs_gives_the_same_table_as_one_job():
    """Game i's streams come from (seed, game index) only, so worker processes change nothing;
    CHUNK-sized tasks are split and joined in order (a real game: workers import the registry)."""
    levels = ["random", "greedy", "search:rollouts=8"]
    one = run_ladder("celtic_trader", 2, 12, levels, seed=5, jobs=1)
    two = run_ladder("celtic_trader", 2, 12, levels, seed=5, jobs=2)
    assert one.height == 6 and one["games"].to_list() == [12] * 6
    assert two.equals(one)
    # the pairs were really played: the table is not a constant that any run would give
    assert one["win_share"].n_unique() > 1


def test_elo_fit_of_a_batch_equals_one_fit_per_resample():
    rng = np.random.default_rng(2)
    games = np.full((3, 3), 40.0) - np.diag([40.0] * 3)
    batch = []
    for _ in range(3):
        upper = np.triu(rng.integers(0, 41, (3, 3)).astype(float), 1)
        batch.append(upper + np.tril(40.0 - upper.T, -1))
    batch = np.stack(batch)
    fitted = fit_elo(batch, np.broadcast_to(games, batch.shape))
    for b in range(3):
        assert np.allclose(fitted[b], fit_elo(batch[b], games), atol=1e-6)


def test_bootstrap_elo_intervals_narrow_with_more_games():
    rng = np.random.default_rng(4)
    widths = []
    for n in (50, 800):
        s_j = (rng.random(n) < 0.7).astype(float)
        boot = bootstrap_elo({(0, 1): (1.0 - s_j, s_j)}, 2, seed=1)
        assert boot.shape == (400, 2) and np.all(boot[:, 0] == 0)
        low, high = np.percentile(boot[:, 1], [2.5, 97.5])
        point = fit_elo(np.array([[0, n - s_j.sum()], [s_j.sum(), 0]]), np.array([[0, n], [n, 0]]))
        assert low < point[1] < high
        widths.append(high - low)
    assert widths[1] < widths[0] / 3


def _table(shares: dict, games: int):
    """A ladder table from the upper level's share of each adjacent pair (levels a < b < c)."""
    rows = []
    for (lower, upper), share in shares.items():
        for bot, opp, x in ((lower, upper, 1 - share), (upper, lower, share)):
            rows.append({"bot": bot, "opponent": opp, "games": games, "win_share": x})
    import polars as pl

    return pl.DataFrame(rows)


def test_verdict_needs_every_adjacent_pair_separated_after_holm():
    # 0.583 over 12 games (the example): nowhere near separated
    verdict = ladder_verdict(_table({("a", "b"): 0.9, ("b", "c"): 0.583}, 12))
    assert not verdict["ordered"]
    open_ = [p for p in verdict["pairs"] if not p["separated"]]
    assert [(p["lower"], p["upper"]) for p in open_] == [("b", "c")]
    assert open_[0]["low"] < 0.5 < open_[0]["high"]
    assert open_[0]["games_needed"] == games_to_separate(0.583) and games_to_separate(0.583) > 250
    # a share just significant alone (p ~ 0.03) is not once Holm counts two pairs and the
    # other pair is not clear either
    both = ladder_verdict(_table({("a", "b"): 0.55, ("b", "c"): 0.55}, 1600))
    assert all(p["p_holm"] < 0.05 for p in both["pairs"]) and both["ordered"]
    weak = ladder_verdict(_table({("a", "b"): 0.5275, ("b", "c"): 0.5275}, 1600))
    assert not weak["ordered"]  # p ~ 0.028 each: Holm gives 0.056 to the first
    # Holm stops at the first pair kept: a later pair's interval then contains 0.5 as well
    mixed = ladder_verdict(_table({("a", "b"): 0.5271, ("b", "c"): 0.5257}, 1600))  # p .03, .04
    for p in mixed["pairs"]:
        assert not p["separated"] and p["low"] < 0.5 and p["p_holm"] >= 0.05
    # a level that loses to the one below it never counts as ordered, whatever the games
    down = ladder_verdict(_table({("a", "b"): 0.9, ("b", "c"): 0.4}, 10_000))
    assert not down["ordered"] and down["pairs"][1]["games_needed"] is None


def test_ladder_at_12_games_claims_no_order_and_at_enough_games_does(toy, toy_ladder):
    few = run_ladder("toy_pig", 2, 12, ["random", "greedy", "search:rollouts=64"], seed=1)
    assert not levels_ordered(few)
    lines = verdict_lines(few)
    assert lines[0] == "levels ordered: not shown"
    assert any("not separated from 0.5; about" in x and "games per pair" in x for x in lines)
    assert levels_ordered(toy_ladder)  # 300 games per pair
    assert verdict_lines(toy_ladder)[0].startswith("levels ordered: yes")
    assert (toy_ladder["elo_low"] <= toy_ladder["elo"]).all()
    assert (toy_ladder["elo"] <= toy_ladder["elo_high"]).all()
    assert ((toy_ladder["p_value"] >= 0) & (toy_ladder["p_value"] <= 1)).all()


def test_ladder_command_names_the_pair_not_separated(toy):
    result = CliRunner().invoke(
        cli, ["ladder", "toy_pig", "--games", "12", "--bots", "random,greedy,search"]
    )
    assert result.exit_code == 0, result.output
    assert "levels ordered: yes" not in result.output
    assert "games per pair would separate it" in result.output or "does not win" in result.output


def test_ctrl_c_of_a_parallel_ladder_is_one_line_and_ends_its_workers():
    """Issue 19, defect 9: the terminal's SIGINT reaches the pool workers too; only the parent
    answers it, with one line, and the workers end with it. (A game the workers can import:
    the toy game is registered in this process only.)"""
    import contextlib
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    import psutil

    repo = Path(__file__).resolve().parents[2]
    args = ["ladder", "celtic_trader", "--bots", "random,greedy", "--games", "2000000"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "experiments.cli", *args, "--jobs", "2"],
        cwd=repo,
        env={**os.environ, "PYTHONPATH": str(repo)},
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.time() + 180
        while time.time() < deadline:
            busy = [
                w
                for w in psutil.Process(proc.pid).children()
                if "LokyProcess" in " ".join(w.cmdline()) and w.cpu_times().user > 1.0
            ]
            if len(busy) >= 2:
                break
            time.sleep(0.2)
        workers = psutil.Process(proc.pid).children(recursive=True)
        assert len(busy) >= 2, "the workers did not start playing"
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        _, alive = psutil.wait_procs(workers, timeout=15)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert not alive
    assert proc.returncode == 130
    assert err.strip() == "menhir: interrupted; nothing was written", err
