"""The Celtic Quest trace (sim/games/celtic_quest/trace.py) replays the game the bulk loop plays
for the same seed, and its effect lines appear under the decisions that cause them."""

import re
from functools import cache

import numpy as np
import pytest

from sim.core.registry import make_setup
from sim.games.celtic_quest.params import load_raw
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


def _setup_block(lines) -> list[str]:
    """The unindented lines between the title and the first turn (the setup, §3)."""
    out = []
    for line in lines[1:]:
        if line.startswith(" "):
            break
        out.append(line)
    return out


def _after(block, prefix) -> str:
    return next(x for x in block if x.startswith(prefix))[len(prefix) :]


@pytest.mark.parametrize("players, bots, seed", GAMES)
def test_section_3_setup_is_printed_before_the_first_turn(players, bots, seed):
    """§3 (Setup): the trace opens with the map and its resource tokens, the bastion charts,
    the bag, each seat's starting items, destiny and dealt quest, and the quest pile; the
    counts are the data file's and the cards are the ones this game plays."""
    raw = load_raw()
    tok = raw["tokens"]
    lines, res = traced(players, bots, seed)
    block = _setup_block(lines)
    assert block[0].startswith("map: generated in ")
    on_map = re.fullmatch(r"\((\d+)\): (.+)", _after(block, "resource tokens on the map "))
    assert on_map and int(on_map.group(1)) == len(on_map.group(2).split(", "))
    face_down = _after(block, "face-down tokens (out of play): ")
    n_down = 0 if face_down == "none" else len(face_down.split(", "))
    assert n_down <= raw["map"]["unconnected_spots_max"]
    assert (
        int(on_map.group(1)) + n_down
        == len(raw["game"]["resources"]) * tok["resource_on_map_per_type"]
    )
    assert sum(x.endswith(" demand: " + x.split(" demand: ")[-1]) for x in block) == 6
    bag = dict(
        (name, int(n))
        for n, name in (c.split(" ", 1) for c in _after(block, "bag (").split(": ")[1].split(", "))
    )
    for r in raw["game"]["resources"]:
        assert bag[r] == tok["resource_in_bag_per_type"]
    romans = tok["roman"] - tok["roman_removed_by_players"][str(players)]
    assert bag["Roman"] == romans
    assert [bag[k] for k in ("cycle", "orders", "Romanisation", "druid")] == [
        tok["cycle"], tok["orders"], tok["romanisation"], tok["druid"]
    ]  # fmt: skip
    unused = {it["id"]: it["count"] - sum(it["start_by_seat"][:players]) for it in raw["items"]}
    at_5 = unused if players == 5 else dict.fromkeys(unused, 0)  # five_player_items = "bag"
    assert {k: bag.get(k, 0) for k in unused} == at_5
    total = int(_after(block, "bag (").split(" ")[0])
    assert total == sum(bag.values())
    quests_seen = []
    for seat in range(players):
        line = _after(block, f"seat {seat}: ")
        m = re.fullmatch(r"items (.+); destiny (\w+); quests (.+) \(secret\)", line)
        assert m, line
        items = {name: int(n) for n, name in (c.split(" ") for c in m.group(1).split(", "))}
        start = {it["id"]: it["start_by_seat"][seat] for it in raw["items"]}
        assert items == {k: v for k, v in start.items() if v}
        final = next(x for x in lines if x.startswith(f"final: seat {seat} "))
        assert final.startswith(f"final: seat {seat} ({m.group(2)}) "), "the destiny it plays"
        held = m.group(3).split(", ")
        assert len(held) == raw["setup"]["quests_dealt"]
        quests_seen += held
    pile = re.fullmatch(r"\((\d+), top first\): (.+)", _after(block, "quest pile "))
    assert pile and int(pile.group(1)) == len(pile.group(2).split(", "))
    quests_seen += pile.group(2).split(", ")
    assert sorted(quests_seen) == sorted(q["id"] for q in raw["quests"]), "each quest once"


def test_section_4_11_the_advanced_deal_shows_both_cards_and_the_one_kept():
    """§3 item 6 and §4.11 (advanced rules): each seat's two destiny cards are printed at
    setup, and the card it keeps is one of them."""
    setup = make_setup("celtic_quest", 3, {"advanced": True}, "greedy")
    lines, res = trace(setup, 5)
    block = _setup_block(lines)
    for seat in range(3):
        m = re.search(r"; destiny to keep: (\w+) or (\w+);", _after(block, f"seat {seat}: "))
        assert m, block
        kept = next(x for x in lines if x.startswith(f"  seat {seat} keeps the destiny "))
        assert kept.split()[-1] in m.groups()
