"""Bots that play the game being measured (issue 35, item 4): every value a player weighs, as
listed in the game's levers.toml, changes greedy's decisions in paired games where its rule
comes into play, not only the scores."""

import polars as pl
import pytest
from click.testing import CliRunner

from experiments.cli import cli
from experiments.levers import changes, compare, lever_response, levers_file, read_levers
from sim.core.gamedata import get_value
from sim.core.registry import GAME_MODULES, get_game

# A clear share: the value's change alters some decision in at least this share of the paired
# games where its rule applies (the lowest measured, 200 games at 4 players: Troy's longest-road
# VP 22%, Celtic Quest's Mystic crystal VP 33% of its games; most are 60-100%).
CLEAR_SHARE = 0.2
GAMES_WITH_LEVERS = [g for g in GAME_MODULES if levers_file(g).is_file()]


def test_changes_keep_integers_and_always_move():
    assert changes(12) == [6, 18]
    assert changes(1) == [0, 2]  # 0.5 rounds to 0, 1.5 rounds to 2
    assert changes(0) == [-1, 1]
    assert changes([0, 2, 4, 7, 10]) == [[0, 1, 2, 4, 5], [0, 3, 6, 10, 15]]
    assert changes([1, 2, 4, 6, 8]) == [[1, 1, 2, 3, 4], [2, 3, 6, 9, 12]]
    assert changes([0, 1, 1]) == [[0, 2, 2]]  # no lower setting keeps positive entries positive
    assert changes("x") == [] and changes(True) == []


def _frame(acts, wins, roles):
    n = len(acts)
    return pl.DataFrame(
        {
            "game": [i // 2 for i in range(n)],
            "seat": [i % 2 for i in range(n)],
            "role": roles,
            "win": wins,
            "act_move": acts,
        }  # fmt: skip
    )


def test_compare_counts_games_with_a_changed_decision():
    printed = _frame([1, 2, 3, 4], [1.0, 0.0, 0.0, 1.0], ["a", "b", "b", "a"])
    changed = _frame([1, 2, 3, 5], [1.0, 0.0, 1.0, 0.0], ["a", "b", "b", "a"])
    got = compare(printed, changed, role=None)
    assert got["games"] == 2 and got["changed"] == 0.5
    assert got["top_group"] in ("role a", "role b") and abs(got["win_delta"]) == 0.5
    only_b = compare(printed, changed, role="b")
    assert only_b["applies"] == 2 and only_b["changed_where_applies"] == 0.5


@pytest.mark.parametrize("game", GAMES_WITH_LEVERS)
def test_every_listed_path_exists_in_the_data(game):
    raw = get_game(game).data.read()
    weighed, left_out = read_levers(game)
    assert weighed, f"{game}: levers.toml lists no weighed value"
    for lever in weighed + left_out:
        get_value(raw, lever.path)  # raises on a path the data does not have
        if lever.role:
            assert lever.role in get_game(game).roles
    for lever in left_out:
        assert lever.why, f"{lever.path}: a value left out says why"


@pytest.mark.parametrize("game", GAMES_WITH_LEVERS)
def test_every_weighed_value_changes_greedy_decisions(game):
    decl = get_game(game)
    players = 4 if decl.min_players <= 4 <= decl.max_players else decl.min_players
    table = lever_response(game, players=players, games=200, seed=3)
    weak = []
    for path, rows in table.group_by("path", maintain_order=True):
        ok = rows.filter(pl.col("error").is_null())
        best = ok["changed_where_applies"].max() if ok.height else None
        if best is None or best < CLEAR_SHARE:
            weak.append(f"{path[0]}: {best}")
    assert not weak, f"{game}: values whose change greedy does not play differently: {weak}"


def test_trusted_rp_as_vp_changes_the_trusted_players_decisions():
    """The README's rp_as_vp table was a re-scoring: at 2 VP per RP the Trusted now keeps RP
    it used to spend (it weighs each RP at its role's rate)."""
    table = lever_response(
        "celtic_trader", ["roles.trusted.rp_as_vp"], players=4, games=300, seed=5
    )
    raised = table.filter(pl.col("value") == "2").row(0, named=True)
    assert raised["changed_where_applies"] > 0.5


def test_cli_prints_one_line_per_setting_and_refuses_a_bad_path():
    result = CliRunner().invoke(
        cli, ["levers", "celtic_trader", "--path", "roles.trusted.rp_as_vp", "--games", "40"]
    )
    assert result.exit_code == 0, result.output
    assert "roles.trusted.rp_as_vp 1 -> 0: decisions changed in" in result.output
    assert "roles.trusted.rp_as_vp 1 -> 2: decisions changed in" in result.output
    bad = CliRunner().invoke(cli, ["levers", "celtic_trader", "--path", "roles.nobody.x"])
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1
