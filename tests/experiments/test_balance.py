"""`menhir balance` (issue 17) on the numpy fake game, whose answer is known.

Two seats with fixed colours: red is played by the random bot, green by a greedy bot whose edge
adds round(2 x U(0, 1)) points: 0, 1 or 2 with probabilities 1/4, 1/2, 1/4. Red's ``bonus`` (a
declared parameter; the game counts its integer part) compensates exactly at 1: the score
difference is then symmetric, so red and green win equally often; at 0 or 2 they do not.
"""

import json

import polars as pl
import pytest
from click.testing import CliRunner

import experiments
from experiments.balance_search import load_balance, trial_variants
from experiments.cli import cli
from experiments.config import ConfigError

BASE = {
    "name": "toy",
    "game": "fake_runner",
    "games": 4000,
    "seed": 5,
    "players": 2,
    "bots": "random,greedy:edge=2",
    "roles": ["red", "green"],
}


def _config(levers, tolerance=0.03, **balance):
    return BASE | {
        "balance": {
            "target": "roles",
            "tolerance": tolerance,
            "budget_games": 120_000,
            "min_games": 1000,
            "max_games": 8000,
            "max_trials": 14,
            "levers": levers,
        }
        | balance
    }


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    out = tmp_path_factory.mktemp("bal") / "toy"
    return experiments.balance(_config({"bonus": [0, 5]}), out, jobs=1, progress=False)


def test_the_solver_finds_the_known_value(solved):
    rec = json.loads((solved / "recommendation.json").read_text())
    assert rec["verdict"].startswith(("target met (", "target met within noise ("))
    assert "every colour" in rec["verdict"]  # the target in the game's words
    assert "± 3.0%" in rec["verdict"] and "+-" not in rec["verdict"]  # as the report's title
    assert rec["levers"]["bonus"] == 1  # red and green even
    for who in ("red", "green"):
        assert abs(rec["win_rates"][who]["rate"] - 0.5) <= 0.03
    assert rec["games"] <= 120_000 and rec["printed"] == {"bonus": 0.0}


def test_outputs_trials_confirmation_and_report(solved):
    trials = pl.read_parquet(solved / "trials.parquet")
    assert {"trial", "objective", "objective_low", "objective_high", "games", "lever:bonus"} <= set(
        trials.columns
    )
    assert trials["trial"].to_list() == list(range(trials.height))
    assert json.loads(trials["values"][0]) == {"bonus": 0}  # the printed value first
    manifest = json.loads((solved / "confirm" / "manifest.json").read_text())
    assert manifest["seed"] != BASE["seed"]  # fresh seeds, never used by the search
    assert manifest["games_per_variant"] == BASE["games"]
    for name in ("balance.md", "balance.html", "search_path.png", "lever_effects.png"):
        assert (solved / "report" / name).stat().st_size > 0
    assert "Verdict" in (solved / "report" / "balance.md").read_text()


def test_unreachable_target_is_said(tmp_path):
    cfg = _config({"bonus": [3, 5]}, budget_games=20_000, max_trials=3)
    out = experiments.balance(cfg, tmp_path / "far", jobs=1, progress=False)
    rec = json.loads((out / "recommendation.json").read_text())
    assert rec["verdict"].startswith("target not reachable: every setting tried (3 settings)")
    assert rec["levers"]["bonus"] >= 3


def test_same_trials_for_one_and_two_jobs_dask_and_a_resumed_search(tmp_path):
    cfg = _config({"bonus": [0.0, 5.0]}, budget_games=30_000, max_trials=5)  # a float lever
    one = experiments.balance(cfg, tmp_path / "one", jobs=1, progress=False)
    two = experiments.balance(cfg, tmp_path / "two", jobs=2, progress=False)
    cols = ["trial", "values", "games", "objective", "objective_low", "objective_high"]
    t1 = pl.read_parquet(one / "trials.parquet").select(cols)
    assert t1.equals(pl.read_parquet(two / "trials.parquet").select(cols))
    dask = experiments.balance(cfg, tmp_path / "dask", jobs=2, backend="dask", progress=False)
    assert t1.equals(pl.read_parquet(dask / "trials.parquet").select(cols))
    # a killed search: keep the first two trials, resume, end with the same table
    kill = tmp_path / "kill"
    experiments.balance(cfg, kill, jobs=1, progress=False)
    pl.read_parquet(kill / "trials.parquet").head(2).write_parquet(kill / "trials.parquet")
    experiments.balance(cfg, kill, jobs=1, progress=False, resume=True)
    assert t1.equals(pl.read_parquet(kill / "trials.parquet").select(cols))


def test_choices_and_data_levers_parse():
    cfg = load_balance(
        {
            "name": "x",
            "game": "celtic_trader",
            "players": 4,
            "balance": {
                "levers": {
                    "roles.trusted.rp_as_vp": [1, 6],
                    "roles.strongest.carrying": [[0, 14, 24, 37, 53], [0, 10, 20, 30, 45]],
                    "romans_in_play": [10, 14],
                }
            },
        }
    )
    rp, carrying, romans = cfg.levers
    assert (rp.low, rp.high, rp.integer, rp.printed) == (1, 6, True, 1)
    assert carrying.choices[1] == [0, 10, 20, 30, 45] and carrying.section == "data"
    assert romans.section == "params" and romans.printed == 12
    _, variants = trial_variants(
        cfg,
        {
            "roles.trusted.rp_as_vp": 3,
            "roles.strongest.carrying": carrying.choices[1],
            "romans_in_play": 11,
        },  # fmt: skip
    )
    assert variants[0].setup.params["romans_in_play"] == 11
    assert dict(variants[0].setup.data)["roles.trusted.rp_as_vp"] == 3


@pytest.mark.parametrize(
    ("balance", "key"),
    [
        ({"levers": {"nothing": [1, 2]}}, "balance.levers.nothing"),
        ({"levers": {"bonus": [3, 1]}}, "balance.levers.bonus"),
        ({"levers": {"bonus": [0, 1]}, "target": "sides"}, "balance.target"),
        ({"levers": {"bonus": [0, 1]}, "tolerance": 0}, "balance.tolerance"),
        ({"levers": {"bonus": [0, 1]}, "budget": 10}, "balance.budget"),
        ({}, "balance.levers"),
    ],
)
def test_bad_balance_tables_name_the_key(balance, key):
    with pytest.raises(ConfigError, match=f"key '{key}'"):
        load_balance(BASE | {"balance": balance})


def test_cli_prints_the_verdict_and_refuses_an_existing_out(solved, tmp_path):
    config = tmp_path / "c.toml"
    config.write_text('name = "toy"\ngame = "fake_runner"\n[balance]\nlevers = {bonus = [0, 1]}\n')
    result = CliRunner().invoke(cli, ["balance", str(config), "--out", str(solved)])
    assert result.exit_code == 2 and "exists" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_finite_space_ends_when_every_setting_was_tried(tmp_path):
    cfg = _config({"bonus": [3, 5]}, tolerance=0.001, max_trials=30, budget_games=200_000)
    out = experiments.balance(cfg, tmp_path / "small", jobs=1, progress=False)
    trials = pl.read_parquet(out / "trials.parquet")
    fresh = trials.filter(pl.col("repeat_of").is_null())
    assert sorted(json.loads(v)["bonus"] for v in fresh["values"]) == [3, 4, 5]
    assert trials.height < 30  # stopped once the three settings were known
    assert trials.filter(pl.col("repeat_of").is_not_null())["games_total"].sum() == 0


# ---------------------------------------------------------------------------------------------
# Issue 39: any target, honest verdicts, racing that saves games, exact counts, a second level

EDGE3 = BASE | {"bots": "random,greedy:edge=3"}  # fair between bonus 1 and 2 (edge mean 1.5)


def _edge3(levers, **balance):
    return EDGE3 | {"balance": {"target": "roles", "tolerance": 0.01, "budget_games": 120_000,
                                "min_games": 1000, "max_games": 4000, "max_trials": 10,
                                "levers": levers} | balance}  # fmt: skip


def test_one_member_is_the_target_and_is_named(tmp_path):
    cfg = _config({"bonus": [0, 5]}, target="roles.red")
    bc = load_balance(cfg)
    assert bc.goal.member == "red" and bc.goal.words() == "colour red"
    out = experiments.balance(cfg, tmp_path / "red", jobs=1, progress=False)
    rec = json.loads((out / "recommendation.json").read_text())
    assert rec["counted"] == ["red"]
    assert "colour red: red" in rec["verdict"]
    assert abs(rec["win_rates"]["red"]["rate"] - 0.5) <= 0.03


def test_a_search_cut_short_says_not_found_in_n_of_m(tmp_path):
    cfg = _edge3({"bonus": [0, 5]}, max_trials=2, tolerance=0.001)
    out = experiments.balance(cfg, tmp_path / "short", jobs=1, progress=False)
    rec = json.loads((out / "recommendation.json").read_text())
    assert rec["verdict"].startswith("target not found in 2 of 6 settings tried (max_trials spent)")
    assert rec["settings_tried"] == 2 and rec["settings"] == 6


def test_repeats_never_count_as_trials(tmp_path):
    cfg = _edge3({"bonus": [0, 2]}, max_trials=3, tolerance=0.001)
    out = experiments.balance(cfg, tmp_path / "rep", jobs=1, progress=False)
    trials = pl.read_parquet(out / "trials.parquet")
    assert trials.filter(pl.col("repeat_of").is_null()).height == 3  # every setting, once


def test_a_coarse_integer_lever_names_the_two_neighbours(tmp_path):
    cfg = _edge3({"bonus": [0, 3]})
    out = experiments.balance(cfg, tmp_path / "coarse", jobs=1, progress=False)
    rec = json.loads((out / "recommendation.json").read_text())
    verdict = rec["verdict"]
    assert verdict.startswith("target not reachable: every setting tried (4 settings)")
    assert "this lever is too coarse: bonus = 1 gives " in verdict
    assert " and 2 gives " in verdict


def test_a_scalar_target_with_a_wanted_value(tmp_path):
    cfg = _config({"bonus": [0, 5]}, target="score_margin", value=3.0, tolerance=0.5)
    bc = load_balance(cfg)
    assert bc.goal.scalar == "score_margin" and bc.goal.unit == "number"
    out = experiments.balance(cfg, tmp_path / "margin", jobs=1, progress=False)
    rec = json.loads((out / "recommendation.json").read_text())
    assert "mean margin between the first and second scores" in rec["verdict"]
    (who,) = rec["counted"]
    assert who == "score_margin" and rec["fair"][who] == 3.0


def test_racing_stops_poor_trials_before_min_games(tmp_path):
    """Successive halving: a setting far from fair stops at its first rung (an eighth of
    min_games); only the settings near the target grow, so the search spends far less than a
    sweep playing every setting to max_games."""
    cfg = _edge3({"bonus": [0, 5]}, tolerance=0.03, max_trials=6)
    out = experiments.balance(cfg, tmp_path / "race", jobs=1, progress=False)
    trials = pl.read_parquet(out / "trials.parquet").filter(pl.col("repeat_of").is_null())
    far = trials.filter(pl.col("lever:bonus").is_in(["4", "5"]))
    assert far.height and (far["games"] == 125).all()
    assert trials["games_total"].sum() < trials.height * 4000 / 2


def test_confirm_bots_checks_the_pick_at_a_second_level(tmp_path):
    cfg = _config({"bonus": [0, 5]}, confirm_bots="random,random")
    out = experiments.balance(cfg, tmp_path / "two", jobs=1, progress=False)
    rec = json.loads((out / "recommendation.json").read_text())
    assert 'with bots "random,random" it does not hold' in rec["verdict"]  # no edge to offset
    assert rec["second_level"]["holds"] == "does not hold"
    assert (out / "confirm-bots" / "manifest.json").exists()


@pytest.mark.parametrize(
    ("balance", "key"),
    [
        ({"levers": {"bonus": [0, 1]}, "target": "roles.purple"}, "balance.target"),
        ({"levers": {"bonus": [0, 1]}, "target": "score_margin"}, "balance.value"),
        ({"levers": {"bonus": [0, 1]}, "target": "everybody_lost", "value": 0.2}, "balance.target"),
        ({"levers": {"bonus": [0, 1]}, "value": 0.2}, "balance.value"),
        ({"levers": {"bonus": [0, 1]}, "objective": "mean"}, "balance.objective"),
    ],
)
def test_bad_targets_name_the_key(balance, key):
    with pytest.raises(ConfigError, match=f"key '{key}'"):
        load_balance(BASE | {"balance": balance})


@pytest.mark.parametrize(
    ("levers", "fragment"),
    [
        ({"dice": [1.5, 3.5]}, "dice is a whole number; give integer bounds"),
        ({"dice": [1, 40]}, "40 is not allowed"),
        ({"bonus": [0, 9]}, "9 is not allowed"),
    ],
)
def test_levers_are_checked_against_the_game_before_any_trial(levers, fragment, tmp_path):
    """Issue 36, defect 9: a float range on an integer lever, or an out-of-range bound, fails
    at once naming the lever, and leaves no folder to block the corrected rerun."""
    with pytest.raises(ConfigError, match=f"key 'balance.levers.{next(iter(levers))}'") as exc:
        experiments.balance(_config(levers), tmp_path / "bad", jobs=1, progress=False)
    assert fragment in str(exc.value)
    assert not (tmp_path / "bad").exists()
