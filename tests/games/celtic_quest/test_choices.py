"""Issue 41 (item 3): the choices of the Celtic Quest rulebook the engine now offers, one test
each, named after the rulebook passage it checks (rules/celtic-quest.md; the French text in
shared/seeds/001_*.txt). Positions built by hand on the fixed map, as test_scenarios.py."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.datafile import DataFileError
from sim.core.params import ParamError
from sim.core.registry import make_setup
from sim.games.celtic_quest import layout as Q
from sim.games.celtic_quest.mapgen import _Board
from sim.games.celtic_quest.params import GAME_DATA
from sim.games.celtic_quest.play import game_data, map_layout
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.rules import init_state
from strategies.celtic_quest.greedy import greedy_action, greedy_defaults
from strategies.celtic_quest.placement import placement_score
from tests.games.celtic_quest.helpers import (
    BUF,
    ITEM,
    KIND,
    RES,
    act,
    completed,
    deliver,
    deliver_rings,
    disc,
    legal,
    pb,
    pouch,
    qp,
    rng,
    set_bag,
    start_turn,
    table,
)
from tests.games.celtic_quest.test_mapgen import check_layout
from tests.games.celtic_quest.test_scenarios import _at_iceni, _rp, at_stone_circle, placed


def test_regles_avancees_destiny_kept_pendant_la_preparation_de_la_partie():
    """§4.11: "chaque joueur pioche deux cartes de destinée, choisit l'une d'elles et défausse
    l'autre pendant la préparation de la partie": every seat keeps its card during set-up, in
    seat order, before the first player draws a token; then seat 0's first turn starts."""
    data, s = table(3, destinies=[None] * 3, advanced=True)
    set_bag(s, wheat=2, fish=2)
    t = start_turn(s, data, 0)
    for seat in range(3):
        assert t[S.CUR] == seat and t[S.PHASE] == Q.PH_DESTINY
        assert legal(t, data) == {Q.A_DESTINY, Q.A_DESTINY + 1}
        assert t[S.DRAWS_TOTAL] == 0 and t[S.TURNS] == 0  # nothing played yet
        pair = (int(t[qp(seat) + Q.QP_ALT0]), int(t[qp(seat) + Q.QP_ALT0 + 1]))
        t = act(t, data, Q.A_DESTINY + seat % 2)
        assert t[qp(seat) + Q.QP_DESTINY] == pair[seat % 2]
        assert t[Q.DESTINY_OUT] == seat + 1
    assert t[S.CUR] == 0 and t[S.TURNS] == 0 and t[S.ROUND] == 1
    assert t[S.DRAWS_TOTAL] == 2 and t[S.PHASE] != Q.PH_DESTINY  # seat 0 now draws
    # a seat given its card (roles = [...]) has nothing to keep: only the others choose
    data, s = table(2, destinies=["fastest", None], advanced=True)
    t = start_turn(s, data, 0)
    assert t[S.CUR] == 1 and t[S.PHASE] == Q.PH_DESTINY
    t = act(t, data, Q.A_DESTINY)
    assert t[S.CUR] == 0 and t[S.DRAWS_TOTAL] > 0


def test_regles_avancees_every_destiny_is_kept_before_the_first_draw_in_a_dealt_game():
    """The same through ``init_state`` (what the runner plays): the first decisions of a dealt
    advanced game are the n seats' destiny choices, none after a token is drawn."""
    for players in (2, 5):
        setup = make_setup(
            "celtic_quest", players, {"advanced": True, "map_mode": "fixed"}, "random"
        )
        data = game_data(setup, 1)
        s = np.zeros(Q.QSTATE_LEN, np.int32)
        init_state(data, players, S.ROLES_RANDOM, np.full(players, -1, np.int64), rng(7), s)
        for seat in range(players):
            assert s[S.CUR] == seat and s[S.PHASE] == Q.PH_DESTINY and s[S.DRAWS_TOTAL] == 0
            s = act(s, data, Q.A_DESTINY + 1)
        assert s[S.CUR] == 0 and s[S.DRAWS_TOTAL] > 0
        assert all(s[qp(seat) + Q.QP_DESTINY] >= 0 for seat in range(players))


def test_anneau_utilise_pour_gagner_2_pr_lors_de_la_livraison_d_une_ressource_rings_chosen():
    """ "Anneau – utilisé pour gagner 2 PR supplémentaires lors de la livraison d'une ressource"
    (B7: one ring per delivered token): how many rings go on a delivery is the seat's choice,
    from 1 up to min(tokens delivered, rings held); the plain delivery (none) stays legal."""
    data, s = _at_iceni(trade=1, rings=3, tokens=dict(grape=2, fish=1))
    ring_rp = int(data[Q.X_RULES + Q.X_RING_RP])  # the TOML's items.ring.amount
    assert ring_rp > 0
    got = legal(s, data)
    assert deliver("grape", 2) in got
    assert {j for j in range(1, 4) if deliver_rings("grape", 2, j) in got} == {1, 2}
    assert {j for j in range(1, 4) if deliver_rings("grape", 1, j) in got} == {1}
    base = _rp(act(s, data, deliver("grape", 2)))
    for j in (1, 2):
        t = act(s, data, deliver_rings("grape", 2, j))
        assert _rp(t) == base + j * ring_rp
        assert pouch(t, 0) == {"ring": 3 - j} and disc(t)["ring"] == j
        # the rings left may go on the next type of this visit
        assert deliver_rings("fish", 1, 1) in legal(t, data)
    # a single ring held: one ring choice per delivery, whatever the tokens
    data, s = _at_iceni(trade=1, rings=1, tokens=dict(grape=2))
    got = legal(s, data)
    assert deliver_rings("grape", 2, 1) in got and deliver_rings("grape", 2, 2) not in got
    # lever ring_bonus = per_delivery: one ring for the whole visit, never two
    data, s = _at_iceni(trade=1, rings=2, tokens=dict(grape=2), ring_bonus="per_delivery")
    got = legal(s, data)
    assert deliver_rings("grape", 2, 1) in got and deliver_rings("grape", 2, 2) not in got


def test_anneau_greedy_spends_the_rings_its_estimate_prefers():
    """Greedy weighs a ring now (``ring_extra_rp`` RP) against keeping it for a later delivery
    (worth at most the same, the game may end first): it spends every ring it may; with a
    ring worth nothing (ring_extra_rp = 0 in the data) it keeps them."""
    data, s = _at_iceni(trade=1, rings=3, tokens=dict(grape=2))
    assert _greedy(s, data) == deliver_rings("grape", 2, 2)
    data, s = _at_iceni(trade=1, rings=1, tokens=dict(grape=2))
    assert _greedy(s, data) == deliver_rings("grape", 2, 1)
    data, s = _at_iceni(trade=1, rings=2, tokens=dict(grape=2), ring_extra_rp=0)
    assert _greedy(s, data) == deliver("grape", 2)


def _greedy(s, data, seat=0):
    buf = np.zeros(BUF, np.int32)
    a = greedy_action(s, data, seat, greedy_defaults(), rng(3), buf)
    assert a in legal(s, data)
    return int(a)


def test_talisman_pioche_3_jetons_et_en_remet_1_dans_le_sac_with_a_nearly_empty_bag():
    """ "Si la quête du Talisman a été accomplie le joueur pioche 3 jetons et en remet 1 dans le
    sac", with the bag nearly empty (CT §4.4: "if the cycle token is among them, after
    resolving it draw the missing token(s) from the refilled bag"): the holder draws the 2
    tokens left, resolves the cycle token, draws the third from the refilled bag, and then
    chooses which unresolved token goes back (was: the third draw was dropped, no choice)."""
    data, s0 = table()
    s = placed(s0, 0, "T14")
    completed(s, data, 0, "talisman")
    set_bag(s, cycle=1, wheat=1)
    s[S.DISC + KIND["ore"]] = 2  # what the cycle token brings back
    t = start_turn(s, data, 0)
    assert t[S.N_PENDING] == 2 and t[S.PHASE] == S.PH_ORDER  # no return before the third
    cycle = [i for i in range(2) if t[S.PENDING + i] == KIND["cycle"]][0]
    t = act(t, data, S.A_ORDER + cycle)
    assert t[S.PHASE] == Q.PH_RETURN and t[S.DRAWS_TOTAL] == 3
    third = int(t[S.DRAWN_LOG + 2])  # from the refilled bag: an ore or the cycle again
    assert third in (RES["ore"], KIND["cycle"])
    assert sorted(int(t[S.PENDING + i]) for i in range(2)) == sorted([RES["wheat"], third])
    assert legal(t, data) == {S.A_ORDER, S.A_ORDER + 1}  # a choice per candidate token
    for slot in range(2):
        k = int(t[S.PENDING + slot])
        u = act(t, data, S.A_ORDER + slot)
        assert u[S.BAG + k] == t[S.BAG + k] + 1  # back unresolved
        assert u[S.N_PENDING] <= 1 and u[Q.RETURN_LEFT] == 0
    # greedy returns the token it wants least (its order: Roman, Romanisation, orders, cycle,
    # then resources): a Roman drawn third goes back rather than the wheat
    u = t.copy()
    u[S.PENDING + [i for i in range(2) if u[S.PENDING + i] != RES["wheat"]][0]] = KIND["roman"]
    assert (
        _greedy(u, data)
        == S.A_ORDER + [i for i in range(2) if u[S.PENDING + i] == KIND["roman"]][0]
    )
    # resolved the other way (wheat first, then the cycle): the only unresolved token is the
    # third draw, which goes back; the seat resolved the rule's 2 (wheat, cycle)
    t = start_turn(s, data, 0)
    t = act(t, data, S.A_ORDER + 1 - cycle)
    while t[S.PHASE] != Q.PH_RETURN:  # wheat: the demand it raises (the drawer's choice)
        assert t[S.PHASE] in (S.PH_RAISE, S.PH_SPOT, S.PH_ORDER)
        t = act(t, data, min(legal(t, data)))
    assert legal(t, data) == {S.A_ORDER}
    # without the Talisman: nothing is returned, the cycle's missing draw is resolved
    s = placed(s0, 0, "T14")
    set_bag(s, cycle=1, wheat=0, fish=0)
    s[S.DISC + KIND["ore"]] = 2
    t = start_turn(s, data, 0)
    assert t[S.DRAWS_TOTAL] == 2 and t[Q.RETURN_LEFT] == 0 and t[S.PHASE] != Q.PH_RETURN


# ---------------------------------------------------------------------------------------------
# §3.1 item 2: "each player draws the top tile and places it ... The placing player chooses
# among legal placements" (map_placement = "players")
# ---------------------------------------------------------------------------------------------


def test_preparation_de_la_carte_the_placing_player_chooses_random_bots_place_uniformly():
    """With every seat random, "players" builds the maps the default policy builds (uniform
    over the legal placements, the same draws): the parameter changes nothing a random table
    plays."""
    for seed in (0, 5, 11):
        maps = [
            map_layout(make_setup("celtic_quest", 3, {"map_placement": mp}, "random"), seed)[1]
            for mp in ("random", "players")
        ]
        assert maps[0] == maps[1]


def test_preparation_de_la_carte_greedy_places_each_tile_by_its_estimate():
    """A greedy seat puts every tile it draws at a legal placement its estimate ranks first
    (replayed on the board as it was), and the map stays legal (§3.1, test_mapgen's checks);
    a random seat at the same table places as before, so the map differs from all-random."""
    setup = make_setup("celtic_quest", 2, {"map_placement": "players"}, "greedy,random")
    cat, built = map_layout(setup, 3)
    assert check_layout(built.layout) == []
    board = _Board(cat)
    tiles_at = {}
    greedy_tiles = 0
    for i, (pl, seat) in enumerate(zip(built.layout, built.placed_by, strict=True)):
        pos = (pl.q, pl.r)
        if i > 0 and seat == 0:
            legal = board.legal(pl.tile)
            assert (pos, pl.rotation) in legal
            best = max(placement_score(cat, pl.tile, p, tiles_at) for p, _ in legal)
            assert placement_score(cat, pl.tile, pos, tiles_at) == best
            greedy_tiles += 1
        board.place(pl.tile, pos, pl.rotation, stone_circle=i == 0)
        tiles_at[pos] = pl.tile
    assert greedy_tiles >= 10
    plain = map_layout(make_setup("celtic_quest", 2, {}, "greedy,random"), 3)[1]
    assert plain.layout != built.layout


def test_map_placement_is_a_parameter_read_from_the_data_with_one_line_errors():
    assert make_setup("celtic_quest", 2, {}, "random").params["map_placement"] == "random"
    with pytest.raises(ParamError) as err:
        make_setup("celtic_quest", 2, {"map_placement": "by_hand"}, "random")
    assert "map_placement" in str(err.value) and "\n" not in str(err.value)
    text = GAME_DATA.file.read_text(encoding="utf-8")
    old = 'bot_placement = "random"'
    assert old in text
    with pytest.raises(DataFileError) as err:
        GAME_DATA.read(text.replace(old, 'bot_placement = "by_hand"'), "variant.toml")
    assert str(err.value).startswith("variant.toml: 'map.bot_placement") and "\n" not in str(
        err.value
    )


def test_a_game_on_a_map_the_players_placed_plays_to_its_end():
    """The engine plays games on player-placed maps (pool and per-game maps alike)."""
    for pool in (0, 2):
        setup = make_setup(
            "celtic_quest", 2, {"map_placement": "players", "map_pool": pool}, "greedy"
        )
        res = setup.decl.play(setup, np.array([1, 2], np.uint64))
        assert (res.turns > 0).all()


# ---------------------------------------------------------------------------------------------
# §4.10: items are "défaussé une fois utilisé ou sur demande" (on demand)
# ---------------------------------------------------------------------------------------------


def _is_drop(a) -> bool:
    return Q.A_DROP_ITEM <= a < Q.A_DROP_ITEM + Q.N_ITEMS


def _drops(s, data) -> set[int]:
    return {a - Q.A_DROP_ITEM for a in legal(s, data) if _is_drop(a)}


def test_articles_defausse_sur_demande_at_a_bastion_and_at_the_stone_circle():
    """An item may be discarded on demand beside the after-movement actions (delivery at a
    bastion; upgrades and the VP claim at the Stone Circle), not only in movement: one action
    per kind held; the item goes to the discard pile and the phase goes on. Without items
    nothing is added (the random bot's choices there are those of before)."""
    data, s = _at_iceni(rings=1, tokens=dict(grape=1))
    s[qp(0) + Q.QP_ITEMS + ITEM["gold"]] = 1
    assert _drops(s, data) == {ITEM["gold"], ITEM["ring"]}
    t = act(s, data, Q.A_DROP_ITEM + ITEM["gold"])
    assert pouch(t, 0) == {"ring": 1} and disc(t)["gold"] == 1
    assert t[S.PHASE] == S.PH_DELIVER and deliver("grape", 1) in legal(t, data)
    data, s = _at_iceni(tokens=dict(grape=1))
    assert _drops(s, data) == set()
    # at the Stone Circle: with RP for an upgrade, then the claim
    data, s0 = table()
    s0[pb(0) + S.P_RP] = 5
    set_bag(s0)
    s = at_stone_circle(s0, data)
    assert s[S.PHASE] in (S.PH_UPGRADE, S.PH_CLAIM)
    assert _drops(s, data) == {ITEM["gold"]}  # the first seat's starting gold
    t = act(s, data, Q.A_DROP_ITEM + ITEM["gold"])
    assert t[S.PHASE] == s[S.PHASE] and pouch(t, 0) == {} and disc(t)["gold"] == 1
    assert _drops(t, data) == set()


def test_articles_defausse_sur_demande_greedy_keeps_items_it_gains_nothing_by_dropping():
    """Greedy discards an item only for a gain: an item takes no carrying room and a 4th
    item drawn already lets it give one up, so outside movement it never drops one."""
    data, s = _at_iceni(rings=1, tokens=dict(grape=1))
    s[qp(0) + Q.QP_ITEMS + ITEM["gold"]] = 1
    assert not _is_drop(_greedy(s, data))
    data, s0 = table()
    s0[pb(0) + S.P_RP] = 5
    set_bag(s0)
    s = at_stone_circle(s0, data)
    while s[S.CUR] == 0 and s[S.PHASE] in (S.PH_UPGRADE, S.PH_CLAIM):
        a = _greedy(s, data)
        assert not _is_drop(a)
        s = act(s, data, a)
