"""The Celtic Quest trace (sim/games/celtic_quest/trace.py) replays the game the bulk loop plays
for the same seed, and its effect lines appear under the decisions that cause them."""

import re
from functools import cache

import numpy as np
import pytest

from sim.core.registry import make_setup
from sim.games.celtic_quest.play import play
from sim.games.celtic_quest.trace import trace

GAMES = [  # (players, bots, seed)
    (2, "greedy", 0),
    (3, "random", 1),
    (4, "greedy", 2),
    (5, "greedy,random,greedy,random,greedy", 3),
    (4, "random,greedy,random,greedy", 4),
]


@cache
def traced(players: int, bots: str, seed: int):
    return trace(make_setup("celtic_quest", players, {}, bots), seed)


def blocks(lines) -> list[tuple[str, list[str]]]:
    """(decision line, its effect lines) for every decision of a trace."""
    out: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("    ") and out:
            out[-1][1].append(line.strip())
        elif line.startswith("  seat "):
            out.append((line.strip(), []))
    return out


@pytest.mark.parametrize("players, bots, seed", GAMES)
def test_trace_plays_the_game_of_the_bulk_loop(players, bots, seed):
    setup = make_setup("celtic_quest", players, {}, bots)
    lines, res = traced(players, bots, seed)
    bulk = play(setup, np.array([seed], np.uint64))
    assert res.score.tolist() == bulk.score.tolist()
    assert res.components.tolist() == bulk.components.tolist()
    assert res.actions.tolist() == bulk.actions.tolist()  # decision counts by kind and seat
    assert res.role.tolist() == bulk.role.tolist()
    assert res.extras.tolist() == bulk.extras.tolist()
    assert (res.rounds[0], res.turns[0], res.end_reason[0]) == (
        bulk.rounds[0], bulk.turns[0], bulk.end_reason[0]
    )  # fmt: skip
    decisions = [x for x in lines if x.startswith("  seat ")]
    assert len(decisions) == int(bulk.actions.sum())
    for seat in range(players):
        final = next(x for x in lines if x.startswith(f"final: seat {seat} "))
        assert f") {bulk.score[0, seat]} = " in final


def test_an_enchantment_shows_the_tile_flipped_and_its_crystals():
    seen = with_crystals = 0
    for game in GAMES:
        for decision, effects in blocks(traced(*game)[0]):
            m = re.fullmatch(r"seat \d enchants (.+)", decision)
            if m is None:
                continue
            tile = m.group(1)
            assert f"{tile} is enchanted" in effects, (decision, effects)
            assert sum(x.endswith("is enchanted") for x in effects) == 1
            seen += 1
            with_crystals += any(
                re.fullmatch(rf"\d crystal\(s\) placed on {re.escape(tile)}", x) for x in effects
            )
    assert seen > 0 and with_crystals > 0  # the crystal supply (16) lasts several enchantments


def test_a_crystal_delivery_moves_the_crystals_and_the_spell_marker():
    seen = 0
    for game in GAMES:
        delivered: dict[str, int] = {}
        for decision, effects in blocks(traced(*game)[0]):
            m = re.fullmatch(r"seat (\d) delivers (\d) crystal\(s\)", decision)
            if m is None:
                continue
            seat, k = m.group(1), int(m.group(2))
            delivered[seat] = delivered.get(seat, 0) + k
            assert f"seat {seat} has delivered {delivered[seat]} crystal(s)" in effects
            assert any(x.startswith("spell track: box ") for x in effects)
            seen += 1
    assert seen > 0


def test_a_quest_completion_is_counted_and_matches_the_result():
    seen = 0
    for game in GAMES:
        lines, res = traced(*game)
        done = [0] * game[0]
        for decision, effects in blocks(lines):
            m = re.fullmatch(r"seat (\d) completes the quest (\w+)", decision)
            if m is None:
                continue
            seat = int(m.group(1))
            done[seat] += 1
            assert f"seat {seat} quest completed ({done[seat]} in all), ability active" in effects
            seen += 1
        assert done == res.extras[0, :, 0].tolist()  # the quests_completed column
    assert seen > 0
