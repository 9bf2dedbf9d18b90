"""The Celtic Trader trace shows every rule that fired, one effect a line, under the decision
that caused it and in rule order (issue 19): each effect class in a seeded game where it
happens, and over many random games the lines add up to the final state."""

import re
from collections import defaultdict
from functools import cache

import numpy as np
import pytest

from sim.core.batch import trace_game
from sim.core.registry import make_setup
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader import trace as T
from sim.games.celtic_trader.play import game_data, role_mode_of
from sim.games.celtic_trader.setup import setup_state

UNORDERED = "the trace cannot order this step"


@cache
def lines_of(players: int, bots: str, seed: int, **params) -> tuple[str, ...]:
    lines, _ = trace_game(make_setup("celtic_trader", players, params, bots), seed)
    return tuple(lines)


def after(lines, pattern: str) -> list[str]:
    """The line following each line that matches ``pattern``."""
    return [lines[i + 1] for i, x in enumerate(lines[:-1]) if re.search(pattern, x)]


def test_a_delivery_shows_its_payment_then_its_demand_change_before_the_next_turn():
    lines = lines_of(4, "greedy", 3)
    i = lines.index("  seat 1 delivers 1 fish")
    assert lines[i + 1] == "  seat 1 gains 2 RP: 1 x (2 + 0 Trading) (RP 2, supply 112)"
    assert lines[i + 2] == "  Parisi fish demand 2 -> 1"
    assert lines[i + 3] == "  round 2, seat 2"


def test_setup_prints_the_charts_and_the_supply():
    lines = lines_of(4, "greedy", 3)
    assert lines[1].startswith("setup: 18 resources on the map; bag: 4 deer")
    assert lines[1].endswith("supply 114 points and 5 '+10' markers; 2 Roman(s) left in the box")
    assert lines[2] == "Belgae demand: deer 1, cloth 4, wheat 2, fish 1, ore 4, grape 2"
    assert lines[8] == "  round 1, seat 0"
    assert lines[9] == "  seat 0 takes the role strongest (blind pick from 6 face-down cards)"
    assert lines[10] == "  seat 0 draws cloth, Romanisation (bag: 37 left)"


def test_upgrades_and_claims_show_the_rp_moved():
    lines = lines_of(4, "greedy", 3)
    paid = after(lines, r"seat \d upgrades ")
    assert paid and all(
        re.fullmatch(r"  seat \d pays \d+ RP into the supply \(RP \d+, supply \d+\)", x)
        for x in paid
    )
    claimed = after(lines, r"seat \d claims \d+ VP")
    assert claimed and all(
        re.fullmatch(r"  seat \d converts (\d+) RP to \1 VP \(RP \d+, VP \d+\)", x) for x in claimed
    )


def test_supply_exhaustion_pays_what_is_left_then_exchanges_then_the_rest():
    lines = lines_of(2, "greedy", 0)
    i = next(i for i, x in enumerate(lines) if "RP due" in x)
    assert re.fullmatch(
        r"  seat (\d) gains \d+ of the \d+ RP due: .* \(RP \d+, supply 0\)", lines[i]
    )
    assert lines[i + 1] == "  the RP/VP supply is exhausted: the game ends after this turn"
    assert re.fullmatch(
        r"  seat \d exchanges 10 points for a '\+10' marker \(supply \+10\)", lines[i + 2]
    )
    assert re.fullmatch(r"  seat \d gains \d+ more RP \(RP \d+\)", lines[i + 3])
    assert re.fullmatch(r"  \w+ \w+ demand \d -> \d", lines[i + 4])
    ends = [x for x in lines if x.startswith("  end of seat")]
    assert ends == [ends[0]] and "the RP/VP supply is exhausted, the game ends" in ends[0]


TOKEN_EFFECTS = [  # (players, bots, seed), the line
    ((2, "random", 0), r"  the (\w+) token goes to \S+, the only empty \1 spot"),
    ((2, "random", 0), r"  no empty (\w+) spot: the \1 token is discarded"),
    ((2, "random", 0), r"  \w+ \w+ demand \d -> \d \(the only Celtic bastion where it can rise\)"),
    ((2, "random", 0), r"  no Celtic bastion's \w+ demand can rise: no chart changes"),
    ((2, "random", 0), r"  the cycle token puts the discard pile \(.*\) back in the bag, "
                       r"and itself \(bag: \d+\)"),
    ((2, "random", 5), r"  orders: the only Roman on the map, on \S+, is discarded"),
    ((2, "random", 34), r"  orders: no Roman on the map; the orders token is discarded"),
    ((2, "random", 0), r"  the Roman on \S+ stops seat \d: its turn ends "
                       r"\(no pick-up, no after-movement action\)"),
    ((2, "random", 0), r"  seat \d starts its turn on the Roman on \S+"),
    ((2, "random", 0), r"  pick-up 1 is over seat \d's 0 free pick-up\(s\): movement ends "
                       r"\(it may still pick up here\)"),
]  # fmt: skip


def test_a_shortfall_with_no_ten_marker_left_is_lost():
    lines = lines_of(2, "greedy", 0, ten_markers=0, supply_points=40)
    i = lines.index("  5 RP due to seat 0 cannot be paid: lost") - 3
    assert lines[i : i + 5] == (
        "  seat 0 delivers 1 cloth",
        "  seat 0 gains 5 of the 10 RP due: 1 x (8 + 2 Trading) (RP 5, supply 0)",
        "  the RP/VP supply is exhausted: the game ends after this turn",
        "  5 RP due to seat 0 cannot be paid: lost",
        "  Belgae cloth demand 8 -> 6",
    )


@pytest.mark.parametrize(("case", "pattern"), TOKEN_EFFECTS)
def test_each_automatic_token_effect_has_its_line(case, pattern):
    assert any(re.fullmatch(pattern, x) for x in lines_of(*case))


def test_a_conquest_by_romans_shows_the_roman_placed_and_removed_in_one_step():
    lines = lines_of(2, "random", 0)
    i = next(i for i, x in enumerate(lines) if x.startswith("  every road of"))
    name = lines[i].split()[3]
    assert lines[i - 1].startswith("  seat ") and "Roman" in lines[i - 1]
    assert lines[i] == f"  every road of {name} holds a Roman: it is conquered"
    m = re.fullmatch(
        rf"  {name} is Romanised \(\d of 6\): the Romans on (.*) are removed: 1 leaves the game, "
        r"(\d) to the discard pile; its chart leaves the game",
        lines[i + 1],
    )
    assert m and int(m[2]) == len(m[1].split(", ")) - 1


def test_the_last_romanisation_ends_the_game_at_once_leaving_tokens_unresolved():
    lines = lines_of(2, "random", 0)
    i = next(i for i, x in enumerate(lines) if "is the last Celtic bastion" in x)
    assert re.fullmatch(r"  Romanisation: \w+ is the last Celtic bastion", lines[i])
    assert re.match(r"  \w+ is Romanised \(6 of 6\)", lines[i + 1])
    assert lines[i + 2] == "  all 6 bastions are Romanised: the game ends at once"
    assert lines[i + 3].startswith("  not resolved: ")
    assert lines[-1].startswith("end: all_conquered")


def test_a_time_limit_ends_the_game_after_the_last_seat():
    lines = lines_of(3, "greedy", 1, turn_limit=5)
    assert "  round 5 is over: the time limit of 5 rounds ends the game" in lines
    assert lines[-1].startswith("end: turn_limit after 5 rounds")


def test_the_score_lines_give_each_component_and_the_winner():
    lines = lines_of(4, "greedy", 3)
    assert lines[-7] == (
        "score seat 0 (strongest): 19 VP + role 53 (movement 1 upgrade(s) +0, trading 0 "
        "upgrade(s) +0, carrying 4 upgrade(s) +53, 8 RP x 0 = +0) = 72"
    )
    assert lines[-3] == "winner: seat 0, seat 2 with 72"


# ---------------------------------------------------------------------------------------------
# consistency over many games
# ---------------------------------------------------------------------------------------------

GAMES = [(p, b, s) for p in (2, 3, 4, 5) for b in ("random", "greedy") for s in range(6)]
GAMES += [(3, "random", s, "start_mode", "fixed") for s in range(3)]
GAMES += [(4, "random", s, "first_placement_on_roman", "relocate_first") for s in range(3)]


def _lines(case) -> tuple[str, ...]:
    players, bots, seed, *kv = case
    return lines_of(players, bots, seed, **dict(zip(kv[::2], kv[1::2], strict=True)))


@pytest.fixture(scope="module")
def many():
    return [_lines(case) for case in GAMES]


def test_every_step_is_put_in_rule_order(many):
    assert not [
        case for case, lines in zip(GAMES, many, strict=True) if UNORDERED in "\n".join(lines)
    ]


def test_the_rp_and_vp_lines_add_up_to_each_seats_final_totals(many):
    for lines in many:
        rp, vp = defaultdict(int), defaultdict(int)
        for x in lines:
            if m := re.match(r"  seat (\d) gains (\d+)(?: of the \d+ RP due| more RP| RP)", x):
                rp[int(m[1])] += int(m[2])
            elif m := re.match(r"  seat (\d) pays (\d+) RP into the supply", x):
                rp[int(m[1])] -= int(m[2])
            elif m := re.match(r"  seat (\d) converts (\d+) RP to \d+ VP", x):
                rp[int(m[1])] -= int(m[2])
                vp[int(m[1])] += int(m[2])
        for x in lines:
            if m := re.match(r"score seat (\d) \(\w+\): (\d+) VP .* (\d+) RP x", x):
                assert (vp[int(m[1])], rp[int(m[1])]) == (int(m[2]), int(m[3])), x


def test_the_demand_lines_chain_from_the_setup_charts(many):
    for lines in many:
        now = {}
        for x in lines:
            if m := re.fullmatch(r"(\w+) demand: (.*)", x):
                for part in m[2].split(", "):
                    res, value = part.split()
                    now[m[1], res] = int(value)
            elif m := re.match(r"  (\w+) (\w+) demand (\d) -> (\d)", x):
                assert now[m[1], m[2]] == int(m[3]), x
                now[m[1], m[2]] = int(m[4])


def test_the_bag_counts_chain_through_draws_and_cycles(many):
    for lines in many:
        bag = None
        for x in lines:
            if m := re.match(r"setup: .*; bag: (.*); supply", x):
                bag = sum(int(p.split()[0]) for p in m[1].split(", "))
            elif m := re.match(r"  seat \d draws (.*) \(bag: (\d+) left\)", x):
                bag -= len(m[1].split(", "))
                assert bag == int(m[2]), x
            elif m := re.match(
                r"  the cycle token puts the discard pile \((.*)\) .* \(bag: (\d+)\)", x
            ):
                back = sum(int(p.split()[0]) for p in m[1].split(", ") if p != "nothing")
                bag += back + 1
                assert bag == int(m[2]), x


def test_a_step_the_replay_cannot_reach_is_written_as_the_raw_difference():
    setup = make_setup("celtic_trader", 2, {}, "random")
    T._DATA_CACHE["data"] = data = game_data(setup, 0)
    before = np.zeros(S.STATE_LEN, np.int32)
    setup_state(data, 2, *role_mode_of(setup), before)
    after = before.copy()
    after[S.ROMAN + 3] = 1  # a Roman from nowhere: no rule puts it there
    out = T.describe_step(before, after, None)
    assert out[0] == f"({UNORDERED}: the state difference follows)"
    assert f"Roman on {T.section_names()[3]} 0 -> 1" in out
