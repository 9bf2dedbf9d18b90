"""Regressions for the Celtae rule defects of issue 19 (#16 announced Builds, #17 "druids not
included" cards, #18 the solo swap's choice of slot), on hand-built states and random games."""

import numpy as np
import pytest

import sim.games.celtae.state as S
from sim.core.rng import new_streams, seed_streams
from sim.games.celtae import rules as R
from sim.games.celtae import rules_actions, rules_scoring
from sim.games.celtae.params import default_data
from strategies.celtae import random_action
from tests.games.celtae.test_scenarios import (
    DATA,
    NE,
    NW,
    ORANGE,
    SE,
    SO,
    WARRIOR,
    B,
    D,
    F,
    N,
    at,
    at_choose,
    card,
    choose,
    clean,
    do,
    legal,
    pc,
    set_active,
    set_centre,
    set_hand,
    set_progress_cards,
    set_space,
    set_tribe,
    solitairix_turn,
    solo_state,
    space,
)

# ---------------------------------------------------------------------------------------------
# #16: the options between announcing a Build and performing it keep it possible
# ---------------------------------------------------------------------------------------------


def build_needs_one_more_builder(data, seat=0):
    """Afonso's 6th disc costs 4 (PROVISIONAL costs); 1 builder active + 1 in the tribe pay
    4 - 2 = 2 cards and he holds 1 orange card: only a third builder makes the Build possible."""
    s, rng = clean(seat=seat)
    s[at(seat, S.P_DISCS)] = 9 - 5
    set_active(s, seat, [F, B, SO])
    set_tribe(s, seat, {B: 1})
    set_hand(s, seat, {card(ORANGE, WARRIOR): 1})
    return s, rng


def test_16_a_refresh_that_takes_the_needed_builder_away_is_not_offered():
    data = DATA[3]
    s, rng = build_needs_one_more_builder(data)
    s[at(0, S.P_FORCE)] = 2
    set_space(s, S.SP_CB_SOUTH, [B, F, SO])  # the one builder he needs
    set_centre(s, [F, F, SO])  # a refresh would replace it with no builder
    s = do(s, data, rng, S.A_MOVE + 1, choose(S.K_BUILD, S.SOUTH))
    # the refresh is not offered (it would make the Build impossible): straight to the swap
    assert s[S.PHASE] == S.PH_SWAP
    options = legal(s, data)
    assert options == [S.A_SWAP + 0 * 3 + 0, S.A_SWAP + 2 * 3 + 0]  # farmer or soldier out
    assert S.A_NO not in options  # no swap would leave him 2 builders: 2 cards, he has 1
    s = do(s, data, rng, S.A_SWAP + 0)  # the one possible build follows without a decision
    assert s[at(0, S.P_DISCS)] == 9 - 6


def test_16_a_refresh_that_brings_the_needed_builder_is_forced():
    data = DATA[3]
    s, rng = build_needs_one_more_builder(data)
    s[at(0, S.P_FORCE)] = 2
    set_space(s, S.SP_CB_SOUTH, [F, F, SO])  # no builder on the space...
    set_centre(s, [SO, B, F])  # ...but one in the centre, reachable by a refresh
    s = do(s, data, rng, S.A_MOVE + 1)
    assert choose(S.K_BUILD, S.SOUTH) in legal(s, data)
    s = do(s, data, rng, choose(S.K_BUILD, S.SOUTH))
    # declining the refresh would end the turn with nothing built: the refresh was made
    assert s[S.PHASE] == S.PH_SWAP and s[at(0, S.P_FORCE)] == 2 + 1 - 1
    assert space(s, S.SP_CB_SOUTH) == [SO, B, F]
    assert legal(s, data) == [S.A_SWAP + 0 * 3 + 1, S.A_SWAP + 2 * 3 + 1]
    s = do(s, data, rng, S.A_SWAP + 2 * 3 + 1)
    assert s[at(0, S.P_DISCS)] == 9 - 6


def test_16_a_swap_giving_away_a_needed_builder_is_not_offered():
    data = DATA[3]
    s, rng = clean(seat=0)
    s[at(0, S.P_DISCS)] = 9 - 5  # cost 4
    set_active(s, 0, [B, B, SO])
    set_tribe(s, 0, {B: 1})  # 3 builders: pay 1
    set_hand(s, 0, {card(ORANGE, WARRIOR): 1})
    set_space(s, S.SP_CB_SOUTH, [F, N, SO])
    s = do(s, data, rng, S.A_MOVE + 1, choose(S.K_BUILD, S.SOUTH))
    assert s[S.PHASE] == S.PH_REFRESH  # harmless: he keeps his builders either way
    s = do(s, data, rng, S.A_NO)
    assert s[S.PHASE] == S.PH_SWAP
    options = legal(s, data)
    # only his soldier may go (for the farmer or the noble); a builder may not
    assert options == sorted([S.A_SWAP + 2 * 3 + 0, S.A_SWAP + 2 * 3 + 1, S.A_NO])


def test_16_a_needed_token_cannot_be_declined():
    data = DATA[3]
    s, rng = build_needs_one_more_builder(data)
    set_space(s, S.SP_CB_SOUTH, [F, F, SO])
    set_centre(s, [F, F, SO])
    s[at(0, S.P_TOKENS)] = 1
    s[S.TOKEN_RESERVE] -= 1
    s[S.CIT_BONUS + S.SOUTH * 4 + ORANGE] = S.B_FORCE  # not a token bonus: count tokens below
    s = do(s, data, rng, S.A_MOVE + 1)
    assert choose(S.K_BUILD, S.SOUTH) in legal(s, data)  # the token as an extra builder
    s = do(s, data, rng, choose(S.K_BUILD, S.SOUTH))
    # refresh (no builder in the centre) stays optional, the swap too: the token saves the Build
    assert s[S.PHASE] == S.PH_REFRESH or s[S.PHASE] == S.PH_SWAP
    while s[S.PHASE] in (S.PH_REFRESH, S.PH_SWAP):
        s = do(s, data, rng, S.A_NO)
    # the only token is spent as a builder without a decision (declining it would end the turn
    # with nothing built), and the Build is made
    assert s[at(0, S.P_TOKENS)] == 0 and s[at(0, S.P_DISCS)] == 9 - 6


def test_16_one_token_per_action_counts_no_extra_after_an_any_space_token():
    """tokens_per_action_max = one: a token spent to reach the space leaves no extra builder."""
    data = default_data(3, tokens_per_action_max="one")
    s, rng = build_needs_one_more_builder(data)
    set_space(s, S.SP_CB_NORTH, [F, F, SO])
    set_centre(s, [F, F, SO])
    s[at(0, S.P_TOKENS)] = 2
    s[S.TOKEN_RESERVE] -= 2
    s[S.PAWN] = SE  # moves 1 to SW: CB North is not adjacent
    s = do(s, data, rng, S.A_MOVE + 1)
    options = legal(s, data)
    assert choose(S.K_BUILD, S.SOUTH) in options  # adjacent, token as extra builder
    assert choose(S.K_BUILD, S.NORTH, token=1) not in options  # token used to get there
    assert choose(S.K_CULTIVATE, S.NORTH, token=1) in options
    assert choose(S.K_BUILD, S.NORTH, token=1) in legal(s, DATA[3])  # several tokens: possible


def announced_builds(players, data, seeds):
    """Play random games; assert each Build announced at step 2 places a disc by the end of the
    turn. Returns how many were announced."""
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    announced = 0
    for seed in seeds:
        streams = new_streams(max(players, 1))
        seed_streams(streams, np.uint64(seed))
        s = np.zeros(S.STATE_LEN, np.int32)
        out = np.zeros_like(s)
        R.init_state(data, players, 0, np.zeros(players, np.int64), streams[0], s)
        pending = None  # (seat, discs before, turn number) of an announced Build
        while not R.is_over(s):
            seat = R.current_player(s)
            act = random_action(s, data, seat, np.zeros(1), streams[1 + seat], buf)
            if s[S.PHASE] == S.PH_CHOOSE and (act - S.A_CHOOSE) % 8 // 2 == S.K_BUILD:
                pending = (seat, s[at(seat, S.P_DISCS)], s[S.TURNS])
                announced += 1
            R.step(s, act, data, streams[0], out)
            s, out = out, s
            if pending is not None and (R.is_over(s) or s[S.TURNS] != pending[2]):
                made = s[at(pending[0], S.P_DISCS)] == pending[1] - 1
                assert made, f"{players}p seed {seed}: announced Build not made"
                pending = None
    return announced


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_16_every_announced_build_is_made_in_random_games(players):
    """Random bots (7.4% of their announced Builds used to end with nothing built)."""
    assert announced_builds(players, DATA[players], range(1000, 1060)) > 100


SWITCHES = [
    {"tokens_per_action_max": "one"},
    {"refresh_without_swap_allowed": False},
    {"refresh_max_per_turn": 2, "refresh_cost": 0},
    {"token_any_space_still_moves_pawn": False, "starting_tokens": 2},
    {"token_any_space_region": "player_choice", "tokens_per_action_max": "one"},
]


@pytest.mark.parametrize("switches", SWITCHES)
@pytest.mark.parametrize("players", [1, 3])
def test_16_every_announced_build_is_made_under_the_refresh_swap_and_token_switches(
    players, switches
):
    data = default_data(players, **switches)
    assert announced_builds(players, data, range(40)) > 40


# ---------------------------------------------------------------------------------------------
# #17: "5 workers, druids not included" whatever most_workers_any_counts_druids says
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("counts_druids", [False, True])
@pytest.mark.parametrize("card_id", ["P10", "P23"])
def test_17_druids_never_count_on_the_druids_not_included_cards(card_id, counts_druids):
    data = default_data(3, most_workers_any_counts_druids=counts_druids)
    s, _ = clean()
    set_progress_cards(s, [(pc(card_id), 2)])
    set_tribe(s, 0, {F: 2, B: 1, N: 1, D: 2})  # 4 workers + 2 druids
    set_tribe(s, 1, {F: 2, B: 1, N: 1, SO: 1})  # 5 workers
    assert rules_scoring.progress_count(s, data, 0, pc(card_id)) == 4
    assert not rules_scoring.progress_met(s, data, 0, pc(card_id))
    assert rules_scoring.progress_met(s, data, 1, pc(card_id))


@pytest.mark.parametrize("counts_druids", [False, True])
def test_17_the_lever_still_switches_the_most_workers_card(counts_druids):
    data = default_data(3, most_workers_any_counts_druids=counts_druids)
    s, _ = clean()
    set_tribe(s, 0, {F: 2, B: 1, N: 1, D: 2})
    assert rules_scoring.progress_count(s, data, 0, pc("P20")) == (6 if counts_druids else 4)


# ---------------------------------------------------------------------------------------------
# #18: in the solo game the player chooses which of two alike workers leaves the space
# ---------------------------------------------------------------------------------------------


def test_18_solo_swap_chooses_the_slot_among_alike_workers():
    """Space [farmer, farmer, builder]; the player swaps a soldier for a farmer. Taking the
    left or the middle farmer decides what Solitairix's "first" swap (face A section 0,
    PROVISIONAL) takes from the space on its next turn."""
    data = DATA[1]
    s, rng = solo_state()
    set_active(s, 0, [SO, SO, SO])
    set_tribe(s, 0, {})
    set_space(s, S.SP_COMBAT, [F, F, B])
    s = at_choose(s, NE)  # Combat (East) is adjacent to NE; force 0: no refresh
    s = do(s, data, rng, choose(S.K_COMBAT, S.NORTH))
    assert s[S.PHASE] == S.PH_SWAP
    left, middle = S.A_SWAP + 0 * 3 + 0, S.A_SWAP + 0 * 3 + 1
    assert legal(s, data) == sorted([left, middle, S.A_SWAP + 0 * 3 + 2, S.A_NO])
    got = []
    for action, after in ((left, [SO, F, B]), (middle, [F, SO, B])):
        t = s.copy()
        rules_actions.apply(t, action, data, rng)  # the swap alone, before the rest of the turn
        assert space(t, S.SP_COMBAT) == after
        # Solitairix's next turn swaps its worker with the leftmost worker of that space
        t[S.SOLO_FACE] = 0
        t[S.SOLO_SECTION] = 3  # + 1 rotation -> section 0: [combat, ...], swap first
        t[S.PAWN] = NW  # NW -> NE by 1: Combat in the North
        t[at(1, S.P_ACTIVE)] = N
        t[S.DTOP] = -1  # no top discard to match: move 1, rotate once
        t = solitairix_turn(t, data, rng.copy())
        got.append(int(t[at(1, S.P_ACTIVE)]))
    assert got == [SO, F]


def test_18_multiplayer_swap_still_offers_one_option_per_type_pair():
    data = DATA[3]
    s, rng = clean(seat=0)
    set_active(s, 0, [SO, SO, SO])
    set_space(s, S.SP_RECRUIT, [F, F, B])
    s = at_choose(s, NW)
    s = do(s, data, rng, choose(S.K_RECRUIT, S.NORTH))
    while s[S.PHASE] == S.PH_REFRESH:
        s = do(s, data, rng, S.A_NO)
    assert legal(s, data) == sorted([S.A_SWAP + 0, S.A_SWAP + 2, S.A_NO])
