"""The Celtica trace shows every rule that fired (issue 19): what the rules did on their own is
written, one effect a line, under the choice that caused it; each effect class in a seeded game
where it happens, and over many games the lines agree with the turn order and the final hands."""

import re
from collections import defaultdict
from functools import cache

import pytest

from sim.core.batch import trace_game
from sim.core.registry import make_setup


@cache
def lines_of(players: int, bots: str, seed: int, **params) -> tuple[str, ...]:
    lines, _ = trace_game(make_setup("celtica", players, params, bots), seed)
    return tuple(lines)


# One line a case: players, bots, seed, an optional lever=value, then the line the game must hold.
EFFECTS = r"""
2 random 0 | seat 1 holds no Druid card: skipped, seat 0 plays again
2 random 0 | no player holds a Druid card: round \d ends \(seat \d made the last move\)
2 random 0 | the Druid pile ran out while dealing seat \d's hand: the discard was reshuffled into a new draw pile
2 random 0 | the \w+ druid is the first on the finish: this round is the last
2 random 0 | seat \d pays \d XP: .*
2 greedy 0 | the Druid pile is empty: the discard is reshuffled into a new draw pile
2 greedy 0 | the reserve is empty: the returned pile is reshuffled into it
3 random 0 | seat \d holds no Druid card: skipped, seat \d plays
3 random 0 | the game ends: all druids are on the finish
3 random 0 | seat \d discards its hand: .*
3 random 0 | seat \d has no exchange it can make \(\d+ XP\): passed over
3 random 0 | every seat has had its final exchange: the game is over
3 greedy 0 | no fragment left to refill the display \(\d shown\)
4 random 0 | the XP pile is empty: the XP discard is reshuffled into a new XP pile
4 greedy 0 | the display holds only (\d): seat \d takes \1 of \d
4 greedy 0 | the game ends: no fragment is left on the display or in the reserve
4 random 1 | seat \d holds only (\d) fragment\(s\): it returns \1 of \d
4 random 1 | seat \d has no fragment to return
2 random 0 xp_cards_per_colour=0 | seat \d draws no XP card: none is left
2 random 0 sacred_draw=0 | sacred place: no draw \(lever\)
"""  # noqa: E501


@pytest.mark.parametrize("case", EFFECTS.strip().splitlines())
def test_each_automatic_effect_has_its_line(case):
    game, pattern = case.split(" | ")
    players, bots, seed, *levers = game.split()
    params = {k: int(v) for k, v in (x.split("=") for x in levers)}
    lines = lines_of(int(players), bots, int(seed), **params)
    assert any(re.fullmatch(f"  {pattern}", x) for x in lines)


def test_a_ruin_with_nothing_to_return_still_draws_its_xp_card_on_the_next_line():
    lines = lines_of(4, "random", 1)
    i = next(i for i, x in enumerate(lines) if x.endswith("has no fragment to return"))
    assert re.fullmatch(r"seat (\d) plays .*\(ruin \d\)", lines[i - 1])
    rest = [x for x in lines[i + 1 : i + 3] if "reshuffled" not in x]
    assert re.fullmatch(r"  seat \d draws XP: 1 \w+", rest[0])


def test_the_round_end_names_the_last_mover_and_the_next_round_starts_left_of_it():
    lines = lines_of(4, "greedy", 3)
    ends = [i for i, x in enumerate(lines) if "round" in x and "made the last move" in x]
    assert ends
    for i in ends:
        last = int(re.search(r"seat (\d) made the last move", lines[i])[1])
        assert re.match(rf"round \d+: seat {(last + 1) % 4} starts; hands dealt", lines[i + 1])


def test_the_end_comes_with_its_reason_the_hands_discarded_and_the_ranking():
    lines = lines_of(3, "random", 0)
    i = lines.index("  the game ends: all druids are on the finish")
    j = next(j for j in range(i, len(lines)) if lines[j].startswith("game ends (all_druids_home)"))
    assert all(re.fullmatch(r"  seat \d discards its hand: .*", x) for x in lines[i + 1 : j])
    assert re.fullmatch(r"ranking: 1\. seat \d(, \d\. seat \d){2}", lines[-2])


# ---------------------------------------------------------------------------------------------
# consistency over many games
# ---------------------------------------------------------------------------------------------

GAMES = [(p, b, s) for p in (2, 3, 4, 5) for b in ("random", "greedy") for s in range(6)]


@pytest.fixture(scope="module")
def many():
    return [lines_of(*case) for case in GAMES]


def test_after_a_skip_line_the_named_seat_plays(many):
    for lines in many:
        for i, x in enumerate(lines[:-1]):
            if m := re.fullmatch(
                r"  seats? [\d, ]+ holds? no Druid card: skipped, seat (\d) .*", x
            ):
                nxt = next(y for y in lines[i + 1 :] if not y.startswith(" "))
                assert nxt.startswith(f"seat {m[1]} plays"), (x, nxt)


def test_a_turn_with_no_skip_line_passes_to_the_left_neighbour(many):
    for (players, _, _), lines in zip(GAMES, many, strict=True):
        turns = [
            (i, int(x.split()[1])) for i, x in enumerate(lines) if re.match(r"seat \d plays", x)
        ]
        for (i, seat), (j, nxt) in zip(turns, turns[1:], strict=False):
            between = "\n".join(lines[i:j])
            if "skipped" not in between and "hands dealt" not in between:
                assert nxt == (seat + 1) % players, lines[i:j]


def test_the_xp_lines_add_up_to_the_xp_left_at_the_end(many):
    for lines in many:
        xp = defaultdict(int)
        for x in lines:
            if m := re.fullmatch(r"  seat (\d) draws XP: (\d) \w+", x):
                xp[int(m[1])] += int(m[2])
            elif (m := re.match(r"seat (\d) plays \d+ \w+ \+ (\d+) XP", x)) or (
                m := re.match(r"  seat (\d) pays (\d+) XP", x)
            ):
                xp[int(m[1])] -= int(m[2])
        for x in lines:
            if m := re.match(r"seat (\d): fragments .*, (\d+) XP unused", x):
                assert xp[int(m[1])] == int(m[2]), x
