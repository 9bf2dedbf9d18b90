"""Sweep expansion: grid and zip variants, labels, swept columns, variant keys, chunk plans."""

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from experiments.config import parse_config
from experiments.runner import chunk_plan
from experiments.sweep import expand, variant_key
from sim.core import registry
from tests.experiments.conftest import FAKE


def _cfg(**raw):
    return parse_config({"game": FAKE, **raw}, "mem.toml")


def test_grid_is_the_cartesian_product_in_axis_order():
    variants = expand(_cfg(players=[2, 3], params={"bonus": 1.5, "dice": [1, 2, 3]}))
    assert [v.id for v in variants] == [f"v{i}" for i in range(6)]
    assert [v.label for v in variants] == [
        f"players={p},dice={d}" for p in (2, 3) for d in (1, 2, 3)
    ]
    assert [(v.setup.players, v.setup.params["dice"]) for v in variants] == [
        (p, d) for p in (2, 3) for d in (1, 2, 3)
    ]
    assert all(v.setup.params["bonus"] == 1.5 for v in variants)
    assert variants[0].columns == {"dice": 1}  # a swept players is already a games column


def test_the_variants_play_the_declaration_the_config_resolved(monkeypatch):
    """parse_config resolves the game once; expand passes that declaration down to every
    variant's setup and looks nothing up again (issue 43)."""
    cfg = _cfg(players=[2, 3], params={"dice": [1, 2]})
    own = dataclasses.replace(cfg.decl)  # an equal declaration, but not the registry's object
    cfg = dataclasses.replace(cfg, decl=own)
    lookups = []
    real = registry.get_game
    monkeypatch.setattr(registry, "get_game", lambda game: lookups.append(game) or real(game))
    variants = expand(cfg)
    assert [v.setup.players for v in variants] == [2, 2, 3, 3]
    assert all(v.setup.decl is own for v in variants) and lookups == []
    assert variant_key(variants[0].setup) != variant_key(variants[1].setup) and lookups == []


def test_zip_steps_the_axes_together():
    cfg = _cfg(
        players=[2, 3, 4],
        bots=["greedy", "random", "greedy:edge=2"],
        params={"dice": [4, 5, 6]},
        sweep={"mode": "zip"},
    )
    variants = expand(cfg)
    assert [(v.setup.players, str(v.setup.bots[0]), v.setup.params["dice"]) for v in variants] == [
        (2, "greedy", 4),
        (3, "random", 5),
        (4, "greedy:edge=2", 6),
    ]
    assert variants[2].columns == {"bots": "greedy:edge=2", "dice": 6}


def test_bots_and_roles_sweeps_become_string_columns():
    cfg = _cfg(
        players=2, bots=["greedy", "random,greedy"], roles=["random", "draft", ["blue", "red"]]
    )
    variants = expand(cfg)
    assert len(variants) == 6
    assert {v.columns["bots"] for v in variants} == {"greedy", "random,greedy"}
    assert {v.columns["roles"] for v in variants} == {"random", "draft", "blue,red"}
    fixed = [v for v in variants if v.columns["roles"] == "blue,red"][0]
    assert fixed.setup.roles == ("blue", "red")


def test_no_sweep_is_one_base_variant_with_resolved_defaults():
    (only,) = expand(_cfg(players=4))
    assert only.label == "base" and only.columns == {} and only.swept == {}
    assert only.setup.params["dice"] == 2  # the player-count default of the declaration


def test_paired_variants_share_key_zero_unpaired_keys_follow_content():
    paired = expand(_cfg(params={"dice": [1, 2, 3]}))
    assert {v.variant_key for v in paired} == {0}
    unpaired = expand(_cfg(paired=False, params={"dice": [1, 2, 3]}))
    keys = [v.variant_key for v in unpaired]
    assert len(set(keys)) == 3 and 0 not in keys
    # a variant's key does not depend on its position in the sweep
    reordered = expand(_cfg(paired=False, params={"dice": [3, 1]}))
    assert reordered[0].variant_key == keys[2] == variant_key(unpaired[2].setup)


@given(games=st.integers(1, 5000), chunk=st.integers(1, 700))
def test_chunk_plan_covers_every_game_once(games, chunk):
    plan = chunk_plan(games, chunk)
    covered = [g for first, n in plan for g in range(first, first + n)]
    assert covered == list(range(games))
    assert all(0 < n <= chunk for _, n in plan)


def test_variant_key_ignores_parameters_at_their_default():
    # a parameter a later version adds (at its default) must not reseed unpaired variants
    from sim.core.registry import get_game, make_setup

    defaults = get_game("celtic_trader").params.defaults(4)
    plain = make_setup("celtic_trader", 4, {}, "greedy")
    explicit = make_setup("celtic_trader", 4, {"map_mode": defaults["map_mode"]}, "greedy")
    other = make_setup("celtic_trader", 4, {"map_mode": "generated"}, "greedy")
    assert variant_key(plain) == variant_key(explicit) != variant_key(other)
