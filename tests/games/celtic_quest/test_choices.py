"""Issue 41 (item 3): the choices of the Celtic Quest rulebook the engine now offers, one test
each, named after the rulebook passage it checks (rules/celtic-quest.md; the French text in
shared/seeds/001_*.txt). Positions built by hand on the fixed map, as test_scenarios.py."""

from __future__ import annotations

import numpy as np

from sim.core.registry import make_setup
from sim.games.celtic_quest import layout as Q
from sim.games.celtic_quest.play import game_data
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.rules import init_state
from tests.games.celtic_quest.helpers import act, legal, qp, rng, set_bag, start_turn, table


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
