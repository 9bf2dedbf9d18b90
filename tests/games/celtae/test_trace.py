"""The Celtae trace shows every rule effect a step makes, one line each (issue 19, "Traces show
every rule that fired"): a test per kind of effect, on a hand-built situation or a seeded game,
and a property over many random games that the trace's payment, gain and force lines add up to
what the hands, boards and force tracks show, so the trace cannot drift from the kernels.
"""

import re
from collections import Counter

import numpy as np
import pytest

import sim.games.celtae.state as S
import sim.games.celtae.trace_effects as TE
from sim.core.registry import make_setup
from sim.games.celtae.trace import _Names, step_lines, trace
from tests.games.celtae.test_scenarios import (
    DATA,
    NW,
    ORANGE,
    PINK,
    SO,
    TRAP,
    WARRIOR,
    B,
    F,
    N,
    at,
    card,
    cit,
    clean,
    set_active,
    set_hand,
    set_space,
    set_tribe,
    start_action,
)

NM = _Names()
GAMES = [(1, "greedy", 2), (1, "random", 3), (2, "greedy", 3), (2, "random", 2), (3, "greedy", 5)]


@pytest.fixture(scope="module")
def traces():
    return {g: trace(make_setup("celtae", g[0], {}, g[1]), g[2])[0] for g in GAMES}


def lines_of(s, action, data, rng):
    out = np.zeros_like(s)
    return step_lines(s, action, data, rng, out, NM), out


def found(traces, pattern):
    rx = re.compile(pattern)
    return [line for lines in traces.values() for line in lines if rx.search(line)]


# -- hand-built situations ---------------------------------------------------------------------


def test_build_payment_each_card_and_the_disc_and_bonus():
    """Rulebook T05: the 8th disc costs 5 pink cards, every one paid on its own line (the engine
    makes the discards itself: one kind only), then the disc and the citadel's bonus."""
    data = DATA[3]
    s, rng = clean(seat=2)
    s[at(2, S.P_DISCS)] = 9 - 7
    set_active(s, 2, [F, SO, N])
    set_tribe(s, 2, {})
    set_space(s, S.SP_CB_NORTH, [F, SO, N])
    set_hand(s, 2, {card(PINK, WARRIOR): 5, card(ORANGE, TRAP): 5})  # two colours: a choice
    c = cit(S.NORTH, PINK)
    s[S.CIT_BONUS + c] = S.B_CARDS
    s[S.CIT_FILLED + c] = 0
    s = start_action(s, data, rng, S.K_BUILD, S.NORTH, NW)
    lines, after = lines_of(s, S.A_BUILD + PINK, data, rng)
    assert "  seat 2 must pay 5 pink card(s) for this Build (builders and tokens count)" in lines
    pays = [x for x in lines if "seat 2 pays pink warrior (Build payment" in x]
    assert [p.split(", ")[-1] for p in pays] == [f"{k} more to pay)" for k in (4, 3, 2, 1, 0)]
    assert sum("(only option): discards pink warrior" in x for x in lines) == 5
    assert any("seat 2 places a disc on the pink citadel in the north (1 of" in x for x in lines)
    bonus = "the pink citadel in the north gives its bonus: take two market cards"
    assert any(bonus in x for x in lines)
    # the bonus: two market cards into the hand, the market slides and refills
    lines, _ = lines_of(after, S.A_TAKE2 + 1 * 6 + 3, data, rng)
    assert sum(" takes " in x and "into the hand" in x for x in lines) == 2
    assert any("the north market slides left and draws " in x for x in lines)


def test_refill_from_the_centre_names_the_worker_drawn_even_when_nothing_seems_to_change():
    """A worker taken from the centre and the same type drawn back from the bag: the state
    difference of the step shows nothing in the centre, the trace still says both."""
    data = DATA[3]
    s, rng = clean(seat=0)
    set_active(s, 0, [F, -1, -1])
    s[S.CENTRE : S.CENTRE + 3] = [B, B, B]
    s[S.BAG : S.BAG + 4] = [0, 5, 0, 0]  # only builders: the draw is a builder
    s[S.PHASE] = S.PH_REFILL
    s[S.KIND] = S.K_RECRUIT
    lines, after = lines_of(s, S.A_WORKER + B, data, rng)
    assert list(after[S.CENTRE : S.CENTRE + 3]) == [B, B, B]
    assert "  seat 0 takes a builder from the centre into active slot 2" in lines
    assert "  centre slot 1: builder drawn from the bag" in lines


def test_a_replay_that_drifts_from_step_stops_the_trace(monkeypatch):
    """If the sub-step replay ever stops following ``settle`` (here: an end of turn that also
    moves the round on), the trace refuses to print rather than tell another game."""
    real = TE.AUTOMATIC[S.AU_END_TURN]

    def drifted(s, data, rng):
        real(s, data, rng)
        s[S.ROUND] += 1

    monkeypatch.setitem(TE.AUTOMATIC, S.AU_END_TURN, drifted)
    with pytest.raises(RuntimeError, match="drifted"):
        trace(make_setup("celtae", 2, {}, "random"), 1)


# -- seeded games: one test per kind of effect -------------------------------------------------


@pytest.mark.parametrize(
    "pattern",
    [
        r"^  seat \d pays .+ \(starting hand\)$",  # setup discards
        r"^  seat \d force \d+ -> \d+ \([+-]\d+, move\)$",  # move cost / gain
        r"^  seat \d force \d+ -> \d+ \(-\d+, refresh\)$",  # refresh cost
        r"^  refresh of .+: \[.+\] back to the bag, the centre's \[.+\] onto the space, "
        r"\[.+\] drawn",
        r"^  seat \d swaps: active \w+ \(slot \d\) goes onto .+, its \w+ comes into the active row",
        r"^  seat \d spends a bonus token as an extra worker \(tokens \d -> \d\)$",
        r"^  seat \d spends a bonus token to reach any space",
        r"^ +seat \d gains a bonus token, usable from its next turn",
        r"^  seat \d must pay \d \w+ card\(s\) for this Build",
        r"^ +seat \d pays .+ \(Build payment, \d more to pay\)$",
        r"^  seat \d \(only option\): discards ",  # forced payment
        r"^ +seat \d places a disc on the \w+ citadel in the \w+ \(\d of \d filled\)$",
        r"^ +the \w+ citadel in the \w+ gives its bonus: (a bonus token|gain force|recruit one"
        r" worker|take two market cards)",
        r"^ +the \w+ citadel in the \w+ is complete \(bonus tile to ",
        r"^ +seat \d force \d+ -> \d+ \(\+\d+, citadel bonus\)$",
        r"^  seat \d takes the card in slot 1 of the \w+ market$",  # Cultivate's free card
        r"^ +seat \d takes .+ into the hand$",
        r"^ +the \w+ market slides left and draws ",
        r"^  seat \d pays .+ \(Combat\)$",
        r"^  seat \d force \d+ -> \d+ \(\+\d+, Combat card\)$",
        r"^  seat \d force \d+ -> \d+ \(-\d+, army fought\)$",
        r"^  seat \d takes an army tile",
        r"^  seat \d pays .+ \(garrison\)$",
        r"^  seat \d places a garrison cube on the \w+ slot \d$",
        r"^  seat \d may recruit up to \d worker\(s\)",
        r"^ +seat \d's active \w+ \(slot \d\) joins the tribe$",
        r"^  seat \d's tribe returns \w+ x\d to the bag \(Druidic Order\)$",
        r"^  seat \d takes a druid tile",
        r"^  seat \d must pay \d card\(s\) for a druid$",
        r"^  seat \d pays .+ \(druid payment, \d more to pay\)$",
        r"^ +seat \d's tribe gains druid x1 \(from the druid reserve\)$",
        r"^ +\w+ druid reserve \d -> \d$",
        r"^ +seat \d takes a \w+ from the centre into active slot \d$",
        r"^ +centre slot \d: \w+ drawn from the bag$",
        r"^ +bag: ",
        r"^ +seat \d's tribe returns \w+ x\d to the .+ \(tribe over its cap\)$",
        r"^ +river crossed: track \d+ -> \d+ pawns; (seat \d \(Teutates\)|the player) places it",
        r"^  a progress pawn goes onto P\d\d \(\d of \d\)$",
        r"^  Teutates passes to seat \d$",
        r"^ +\d pawns left on the track: each player decides whether to flip the leader",
        r"^  seat \d will flip to side B \(revealed when every player has decided\)$",
        r"^ +seat \d reveals side B$",
        r"^ +the \w+ (army|druid) pile is empty: its progress pawn ",
        r"^ +the progress track is empty: the end is triggered$",
        r"^ +final round: every player takes a double turn$",
        r"^ +the game is over \(the final round is played\): final scoring$",
        r"^ +the deck is rebuilt from the discard pile$",
        # Solitairix's automatic turn, one line per thing it does
        r"^  Solitairix's turn:$",
        r"^  Solitairix's turn continues:$",  # after the player placed the crossing's pawn
        r"^    Solitairix draws .+ and moves the pawn \d.*: \w\w -> \w\w$",
        r"^    Solitairix turns its tile by \d to section \d$",
        r"^    Solitairix swaps its \w+ for a \w+ of the action space$",
        r"^    refresh of .+ back to the bag",
        r"^    Solitairix builds on the \w+ citadel \(its card's colour\)$",
        r"^    Solitairix places a disc on the ",
        r"^    Solitairix fights: takes an army tile",
        r"^    Solitairix places a garrison cube on the \w+ slot \d$",
        r"^    Solitairix recruits: takes a druid tile",
        r"^    Solitairix takes a druid from the reserve$",
        r"^    Solitairix cultivates: discards the market cards its tile shows$",
        r"^    .+ goes from slot \d of the \w+ market to the discard pile$",
        r"^    Solitairix discards its card ",
    ],
)
def test_each_kind_of_effect_has_its_line(traces, pattern):
    assert found(traces, pattern), pattern


def test_final_score_one_line_per_component(traces):
    from sim.games.celtae.play import SCORE_COMPONENTS

    lines = traces[(3, "greedy", 5)]
    k = lines.index("-- final state --")
    for seat in range(3):
        head = next(i for i in range(k, len(lines)) if lines[i].startswith(f"  seat {seat} scores"))
        total = int(lines[head].split()[3].rstrip(":"))
        parts = lines[head + 1 : head + 1 + len(SCORE_COMPONENTS)]
        assert [p.split()[0] for p in parts] == list(SCORE_COMPONENTS)
        assert sum(int(p.split()[1]) for p in parts) == total


# -- the trace cannot drift --------------------------------------------------------------------

HAND = re.compile(r"hand (.*)$")
PLAYER = re.compile(
    r"^  seat (\d): .* force (\d+), tokens (\d+), .* discs (\d+), cubes (\d+), armies (\d+)x1 "
    r"(\d+)x2, druid tiles (\d+)x1 (\d+)x2"
)


def _holdings(line):
    m = PLAYER.match(line)
    hand = HAND.search(line).group(1)
    cards = Counter()
    if hand != "empty":
        for part in hand.split(", "):
            name, n = part.rsplit("x", 1)
            cards[name] = int(n)
    seat, force, tokens, discs, cubes, a1, a2, d1, d2 = (int(x) for x in m.groups())
    return seat, {"cards": cards, "force": force, "tokens": tokens, "discs": discs,
                  "cubes": cubes, "armies": a1 + a2, "druid tiles": d1 + d2}  # fmt: skip


def _replay_lines(lines, start):
    """What the effect lines say each seat paid and gained, from the start holdings."""
    rx = {
        "pay": re.compile(r"^ +seat (\d) pays (\w+ \w+) \("),
        "take": re.compile(r"^ +seat (\d) takes (\w+ \w+) into the hand$"),
        "force": re.compile(r"^ +seat (\d) force (\d+) -> (\d+) \(([+-]\d+),"),
        "spend": re.compile(r"^ +seat (\d) spends a bonus token"),
        "gain": re.compile(r"^ +seat (\d) gains a bonus token"),
        "disc": re.compile(r"^ +seat (\d) places a disc on "),
        "cube": re.compile(r"^ +seat (\d) places a garrison cube "),
        "army": re.compile(r"^ +seat (\d) takes an army tile"),
        "druid": re.compile(r"^ +seat (\d) takes a druid tile"),
    }
    h = start
    for line in lines:
        for key, r in rx.items():
            m = r.match(line)
            if not m:
                continue
            seat = int(m.group(1))
            if key == "pay":
                h[seat]["cards"][m.group(2)] -= 1
            elif key == "take":
                h[seat]["cards"][m.group(2)] += 1
            elif key == "force":
                assert int(m.group(2)) == h[seat]["force"], line
                assert int(m.group(3)) - int(m.group(2)) == int(m.group(4)), line
                h[seat]["force"] = int(m.group(3))
            else:
                field = {"spend": "tokens", "gain": "tokens", "disc": "discs", "cube": "cubes",
                         "army": "armies", "druid": "druid tiles"}[key]  # fmt: skip
                h[seat][field] += 1 if key in ("gain", "army", "druid") else -1
    return h


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_payment_and_gain_lines_add_up_to_the_holdings(players):
    """Over random games (50 in all), starting holdings + every pay / take / force / token /
    disc / cube / tile line of the trace = the final holdings the state shows."""
    for seed in range(100, 100 + (14 if players > 1 else 8)):
        lines, _ = trace(make_setup("celtae", players, {}, "random"), seed)
        k = lines.index("-- final state --")
        start = dict(_holdings(x) for x in lines[2 : 2 + players])
        end = dict(_holdings(x) for x in lines[k + 1 :] if PLAYER.match(x))
        got = _replay_lines(lines[2 + players : k], start)
        for seat in range(players):
            paid = {k: v for k, v in got[seat]["cards"].items() if v}
            assert paid == dict(end[seat]["cards"]), (seed, seat)
            for field in ("force", "tokens", "discs", "cubes", "armies", "druid tiles"):
                assert got[seat][field] == end[seat][field], (seed, seat, field)
