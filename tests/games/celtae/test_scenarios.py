"""Rulebook scenarios T01-T30 of rules/celtae.md §11, one test each, on hand-built states run
through the real kernels (``init_state``, ``legal_actions``, ``step``, ``settle``, scoring).

Seats: Afonso = 0, Joana = 1, Inês = 2 (3-player games unless a test says otherwise). Positions
0 SE (start), 1 SW, 2 NW, 3 NE; spaces 0 CB_NORTH, 1 CB_SOUTH, 2 RECRUIT, 3 COMBAT (PROVISIONAL
geometry, §9). Expected values come from the scenario text (or the TOML data for PROVISIONAL
numbers), never from running the engine.
"""

import numpy as np

import sim.games.celtae.state as S
from sim.core.results import ChunkResult, rank_and_win
from sim.core.rng import new_streams, seed_streams
from sim.games.celtae import rules as R
from sim.games.celtae import rules_actions, rules_scoring, rules_shared, rules_turn
from sim.games.celtae.params import default_data, load_raw
from sim.games.celtae.play import PLAYER_EXTRAS, SCORE_COMPONENTS, TIEBREAK, write_results

RAW = load_raw()
DATA = {n: default_data(n) for n in (1, 2, 3, 4)}

F, B, SO, N, D = S.FARMER, S.BUILDER, S.SOLDIER, S.NOBLE, S.DRUID
SE, SW, NW, NE = 0, 1, 2, 3
PINK, ORANGE, TURQUOISE, VIOLET = range(4)
WARRIOR, TRAP, FORTRESS = range(3)
LEADERS = list(RAW["names"]["leaders"])
BOADICEE = LEADERS.index("boadicee")
PROGRESS_IDS = [c[0] for c in RAW["progress_cards"]["cards"]]


def card(colour, icon):
    return colour * 3 + icon


def pc(card_id):
    """Index (0..25) of a progress card by its id (``P01``..``P26``)."""
    return PROGRESS_IDS.index(card_id)


def army_id(strength):
    """Tile id of the Roman army of that strength (ids: 1-point tiles first, TOML order)."""
    arm = RAW["armies"]
    return (arm["one_point_strengths"] + arm["two_point_strengths"]).index(strength)


def druid_id(req):
    """Tile id of the druid tile requiring ``req`` (e.g. "FN")."""
    dt = RAW["druid_tiles"]
    return (dt["one_point"] + dt["two_point"]).index(req)


def at(seat, off):
    return S.PLAYERS + seat * S.PW + off


# ---------------------------------------------------------------------------------------------
# State builders
# ---------------------------------------------------------------------------------------------


def new_game(players, seed=1, role_mode=2, leaders=None, data=None):
    """A real setup (``init_state``) and its chance stream."""
    data = DATA[players] if data is None else data
    streams = new_streams(max(players, 1))
    seed_streams(streams, np.uint64(seed))
    rng = streams[0]
    s = np.zeros(S.STATE_LEN, np.int32)
    fixed = np.array(list(range(players)) if leaders is None else leaders, np.int64)
    R.init_state(data, players, role_mode, fixed, rng, s)
    return s, rng


def clean(players=3, seat=0, seed=1, leaders=None, data=None):
    """A mid-game state right after setup: hands emptied (cards back in the deck), no tokens,
    force 0, first player 0 holding Teutates, ``seat`` to move from the start position."""
    s, rng = new_game(players, seed, leaders=leaders, data=data)
    s[S.SETUP_LEFT] = 0
    s[S.FIRST] = 0
    s[S.TEUTATES] = -1 if players == 1 else 0
    for p in range(players):
        set_hand(s, p, {})
        s[S.TOKEN_RESERVE] += s[at(p, S.P_TOKENS)]
        s[at(p, S.P_TOKENS)] = 0
        s[at(p, S.P_TOKENS_NEW)] = 0
        s[at(p, S.P_FORCE)] = 0
    s[S.PAWN] = SE
    s[S.SEAT] = s[S.DSEAT] = seat
    s[S.PHASE] = S.PH_MOVE
    return s, rng


def set_hand(s, seat, cards):
    """Replace a hand (kind -> count); cards come from / go back to the deck when possible."""
    for k in range(S.N_CARDS):
        n = s[at(seat, S.P_HAND + k)]
        s[S.DECK + k] += n
        s[S.DECK_N] += n
        s[at(seat, S.P_HAND + k)] = 0
    s[at(seat, S.P_HAND_N)] = 0
    for k, n in cards.items():
        take = min(n, s[S.DECK + k])
        s[S.DECK + k] -= take
        s[S.DECK_N] -= take
        s[at(seat, S.P_HAND + k)] = n
        s[at(seat, S.P_HAND_N)] += n


def set_deck(s, cards):
    """Replace the deck (kind -> count)."""
    s[S.DECK : S.DECK + S.N_CARDS] = 0
    for k, n in cards.items():
        s[S.DECK + k] = n
    s[S.DECK_N] = sum(cards.values())


def set_active(s, seat, types):
    for i in range(S.ACTIVE):
        s[at(seat, S.P_ACTIVE + i)] = types[i] if i < len(types) else -1


def set_tribe(s, seat, counts):
    for t in range(S.N_WTYPES):
        s[at(seat, S.P_TRIBE + t)] = counts.get(t, 0)
    s[at(seat, S.P_TRIBE_N)] = sum(counts.values())


def set_space(s, space, types):
    for k in range(S.SLOTS):
        s[S.SPACES + space * S.SLOTS + k] = types[k]


def set_centre(s, types):
    for k in range(S.SLOTS):
        s[S.CENTRE + k] = types[k]


def set_bag(s, counts):
    for t in range(S.N_BAGTYPES):
        s[S.BAG + t] = counts.get(t, 0)


def set_pile(s, pile, tiles):
    base = S.PILES + pile * S.MAX_PILE
    for k, t in enumerate(tiles):
        s[base + k] = t
    s[S.PILE_POS + pile] = 0
    s[S.PILE_END + pile] = len(tiles)


def set_market(s, region, kinds):
    for i in range(S.MARKET_SIZE):
        s[S.MARKET + region * S.MARKET_SIZE + i] = kinds[i]


def market(s, region):
    base = S.MARKET + region * S.MARKET_SIZE
    return [int(x) for x in s[base : base + S.MARKET_SIZE]]


def space(s, sp):
    return [int(x) for x in s[S.SPACES + sp * S.SLOTS : S.SPACES + (sp + 1) * S.SLOTS]]


def active(s, seat):
    return sorted(int(s[at(seat, S.P_ACTIVE + i)]) for i in range(S.ACTIVE))


def hand(s, seat, kind):
    return int(s[at(seat, S.P_HAND + kind)])


def cit(region, colour):
    return region * 4 + colour


def set_progress_cards(s, cards):
    """Lay out progress cards: list of (card index 0..25, pawns on it)."""
    for j in range(S.MAX_PCARDS):
        s[S.PCARD + j] = -1
        s[S.PCARD_CAP + j] = 0
        s[S.PCARD_PAWNS + j] = 0
    slots = {i: c[1] for i, c in enumerate(RAW["progress_cards"]["cards"])}
    for j, (c, pawns) in enumerate(cards):
        s[S.PCARD + j] = c
        s[S.PCARD_CAP + j] = slots[c]
        s[S.PCARD_PAWNS + j] = pawns


# ---------------------------------------------------------------------------------------------
# Driving the kernels
# ---------------------------------------------------------------------------------------------


def legal(s, data):
    buf = np.zeros(S.MAX_ACTIONS, np.int32)
    n = R.legal_actions(s, data, buf)
    return sorted(int(a) for a in buf[:n])


def do(s, data, rng, *actions):
    """Step each action in turn, checking that it is legal first."""
    for a in actions:
        options = legal(s, data)
        assert a in options, f"action {a} not legal in phase {s[S.PHASE]}: {options}"
        out = np.zeros_like(s)
        R.step(s, a, data, rng, out)
        s = out
    return s


def decline(s, data, rng, phases=(S.PH_REFRESH, S.PH_SWAP, S.PH_TOKEN)):
    """Answer "no" to the optional refresh / swap / token decisions."""
    while s[S.PHASE] in phases:
        s = do(s, data, rng, S.A_NO)
    return s


def choose(kind, region, token=0):
    return S.A_CHOOSE + token * 8 + kind * 2 + region


def at_choose(s, pos):
    """Put the state at step 2 (choose the action) with the pawn on ``pos``, without moving."""
    s[S.PAWN] = pos
    s[S.DSEAT] = s[S.SEAT]
    s[S.PHASE] = S.PH_CHOOSE
    return s


def start_action(s, data, rng, kind, region, pos):
    """From a hand-built step 2, choose (kind, region) and decline refresh/swap/token."""
    s = at_choose(s, pos)
    s = do(s, data, rng, choose(kind, region))
    return decline(s, data, rng)


def first_legal(s, data, rng):
    return do(s, data, rng, legal(s, data)[0])


# ---------------------------------------------------------------------------------------------
# Scenarios
# ---------------------------------------------------------------------------------------------


def test_T01_movement_force_deltas():
    data = DATA[3]
    s, rng = clean()
    force = at(0, S.P_FORCE)
    assert S.A_MOVE + 3 not in legal(s, data)  # force 0: a move of 3 is illegal
    assert {S.A_MOVE + 1, S.A_MOVE + 2} <= set(legal(s, data))
    assert do(s, data, rng, S.A_MOVE + 1)[force] == 1
    assert do(s, data, rng, S.A_MOVE + 2)[force] == 0
    s[force] = 3
    assert S.A_MOVE + 3 in legal(s, data)
    assert do(s, data, rng, S.A_MOVE + 3)[force] == 0


def test_T02_joana_moves_two():
    """PROVISIONAL geometry: SE -> NW by 2 reaches the North (Recruit, Cultivate/Build)."""
    data = DATA[3]
    s, rng = clean(seat=1)
    s[at(1, S.P_FORCE)] = 2
    set_hand(s, 1, {card(PINK, WARRIOR): 1})  # a legal build exists in either region
    track = s[S.TRACK]
    t = do(s, data, rng, S.A_MOVE + 2)
    assert t[S.PAWN] == NW
    assert t[at(1, S.P_FORCE)] == 2
    assert t[S.TRACK] == track  # no river crossing
    assert t[S.PHASE] == S.PH_CHOOSE and t[S.DSEAT] == 1
    north = [choose(S.K_RECRUIT, S.NORTH), choose(S.K_CULTIVATE, S.NORTH)]
    north.append(choose(S.K_BUILD, S.NORTH))
    assert legal(t, data) == sorted(north)
    # moving 1 would have left her in the South (SW)
    u = do(s, data, rng, S.A_MOVE + 1)
    assert u[S.PAWN] == SW
    south = [choose(S.K_RECRUIT, S.SOUTH), choose(S.K_CULTIVATE, S.SOUTH)]
    south.append(choose(S.K_BUILD, S.SOUTH))
    assert legal(u, data) == sorted(south)


def test_T03_refresh_then_swap():
    """PROVISIONAL geometry: Recruit chosen from NW (North)."""
    data = DATA[3]
    s, rng = clean(seat=1)
    s[at(1, S.P_FORCE)] = 1
    set_active(s, 1, [F, B, SO])
    set_space(s, S.SP_RECRUIT, [F, F, SO])
    set_centre(s, [N, B, F])
    set_bag(s, {})  # the bag then holds exactly the 3 workers returned by the refresh
    s = at_choose(s, NW)
    s = do(s, data, rng, choose(S.K_RECRUIT, S.NORTH))
    assert s[S.PHASE] == S.PH_REFRESH
    s = do(s, data, rng, S.A_YES)
    assert s[at(1, S.P_FORCE)] == 0
    assert sorted(space(s, S.SP_RECRUIT)) == sorted([N, B, F])  # former centre workers
    assert space(s, S.SP_RECRUIT) == [N, B, F]  # centre slot k -> space slot k (PROVISIONAL)
    centre = sorted(int(x) for x in s[S.CENTRE : S.CENTRE + 3])
    assert centre == sorted([F, F, SO])  # drawn from a bag holding the 3 returned workers
    assert all(s[S.BAG + t] == 0 for t in range(S.N_BAGTYPES))
    assert s[S.PHASE] == S.PH_SWAP
    j = space(s, S.SP_RECRUIT).index(N)
    s = do(s, data, rng, S.A_SWAP + 2 * 3 + j)  # her soldier (active slot 2) for the noble
    assert space(s, S.SP_RECRUIT)[j] == SO
    assert N in active(s, 1) and SO not in active(s, 1)


def test_T04_ines_cultivates_with_two_farmers():
    """PROVISIONAL geometry: NW -> NE by 1, Cultivate in the North."""
    data = DATA[3]
    s, rng = clean(seat=2)
    s[S.PAWN] = NW
    set_active(s, 2, [F, SO, B])
    set_tribe(s, 2, {})
    set_space(s, S.SP_CB_NORTH, [F, B, B])
    kinds = [card(PINK, WARRIOR), card(PINK, TRAP), card(PINK, FORTRESS)]
    kinds += [card(ORANGE, WARRIOR), card(ORANGE, TRAP), card(ORANGE, FORTRESS)]
    set_market(s, S.NORTH, kinds)
    refill = card(VIOLET, FORTRESS)
    set_deck(s, {refill: 3})
    s = do(s, data, rng, S.A_MOVE + 1)
    assert s[at(2, S.P_FORCE)] == 1
    s = do(s, data, rng, choose(S.K_CULTIVATE, S.NORTH))
    s = decline(s, data, rng, (S.PH_REFRESH,))
    s = do(s, data, rng, S.A_SWAP + 1 * 3 + 0)  # her soldier for the farmer
    assert active(s, 2) == sorted([F, F, B])
    assert s[S.PHASE] == S.PH_CULT
    assert hand(s, 2, kinds[0]) == 1  # slot 1 taken for free
    # bit k = market slot k + 2: two of {2,3,4}, one of {5,6}, one of {2,3,4}, or none
    expected = {0, 1, 2, 4, 1 | 2, 1 | 4, 2 | 4, 8, 16}
    assert {a - S.A_CULT for a in legal(s, data)} == expected
    s = do(s, data, rng, S.A_CULT + (1 | 2))  # slots 2 and 3
    assert s[at(2, S.P_HAND_N)] == 3
    assert all(hand(s, 2, k) == 1 for k in kinds[:3])
    assert market(s, S.NORTH) == kinds[3:] + [refill] * 3
    assert s[S.DECK_N] == 0


def test_T05_ines_builds_for_five_cards():
    """PROVISIONAL disc costs [1, 2, 2, 3, 3, 4, 4, 5, 5]: the 8th disc costs 5; PROVISIONAL
    geometry: Build North from NW."""
    data = DATA[3]
    assert RAW["player_board"]["disc_costs"][7] == 5
    s, rng = clean(seat=2)
    s[at(2, S.P_DISCS)] = 9 - 7
    set_active(s, 2, [F, SO, N])
    set_tribe(s, 2, {})
    set_space(s, S.SP_CB_NORTH, [F, SO, N])
    pink = card(PINK, WARRIOR)
    set_hand(s, 2, {pink: 5, card(ORANGE, TRAP): 4})
    c = cit(S.NORTH, PINK)
    s[S.CIT_BONUS + c] = S.B_CARDS
    s[S.CIT_FILLED + c] = 0
    discards = s[S.DISCARD_N]
    s = start_action(s, data, rng, S.K_BUILD, S.NORTH, NW)
    # the only affordable colour is pink (4 orange < 5), the 5 cards are all the same kind
    assert hand(s, 2, pink) == 0 and hand(s, 2, card(ORANGE, TRAP)) == 4
    assert s[S.DISCARD_N] == discards + 5
    assert s[at(2, S.P_DISCS)] == 1
    assert s[S.CIT_DISCS + c * S.MAX_PLAYERS + 2] == 1
    assert s[S.PHASE] == S.PH_TAKE2  # bonus: 2 free cards of the North market
    before = market(s, S.NORTH)
    held = [hand(s, 2, k) for k in range(S.N_CARDS)]
    s = do(s, data, rng, S.A_TAKE2 + 1 * 6 + 3)  # market slots 2 and 4
    assert s[at(2, S.P_HAND_N)] == 4 + 2
    for k in range(S.N_CARDS):
        assert hand(s, 2, k) == held[k] + [before[1], before[3]].count(k)
    after = market(s, S.NORTH)
    assert after[:4] == [before[0], before[2], before[4], before[5]]  # slide left
    assert all(k >= 0 for k in after)  # refilled


def test_T06_joana_completes_the_pink_citadel():
    """PROVISIONAL geometry (Build North from NW) and citadel sizes (North pink: 3 slots)."""
    data = DATA[3]
    s, rng = clean(seat=1)
    c = cit(S.NORTH, PINK)
    assert s[S.CIT_CAP + c] == 3 and s[S.CIT_FILLED + c] == 0  # 3 players: 3 usable slots
    s[S.CIT_FILLED + c] = 2
    s[S.CIT_DISCS + c * S.MAX_PLAYERS + 0] = 1
    s[S.CIT_DISCS + c * S.MAX_PLAYERS + 2] = 1
    s[at(0, S.P_DISCS)] = 8
    s[at(2, S.P_DISCS)] = 8
    s[S.CIT_BONUS + c] = S.B_CARDS
    set_hand(s, 1, {card(PINK, TRAP): 1})
    comp = np.zeros(rules_scoring.N_COMPONENTS, np.int64)
    R.components(s, data, 0, comp)
    assert comp[rules_scoring.C_CITADELS] == 0  # not complete yet
    s = start_action(s, data, rng, S.K_BUILD, S.NORTH, NW)
    assert s[S.PHASE] == S.PH_TAKE2  # the bonus: 2 free North cards
    s = do(s, data, rng, S.A_TAKE2 + 0 * 6 + 1)
    assert s[at(1, S.P_HAND_N)] == 2
    assert s[S.CIT_FILLED + c] == 3 and s[S.CIT_DONE + c] == 1
    assert s[at(1, S.P_BONUS_TILES)] == 1
    for seat, own in ((0, 1), (1, 1), (2, 1)):
        R.components(s, data, seat, comp)
        assert comp[rules_scoring.C_CITADELS] == own  # 1 point per own disc on the complete citadel
    R.components(s, data, 1, comp)
    assert comp[rules_scoring.C_BONUS_TILES] == 1


def test_T07_afonso_builds_cost_four_minus_three_builders():
    """PROVISIONAL disc costs: the 6th disc costs 4; PROVISIONAL geometry: SE -> SW by 1."""
    data = DATA[3]
    assert RAW["player_board"]["disc_costs"][5] == 4
    s, rng = clean(seat=0)
    s[at(0, S.P_DISCS)] = 9 - 5
    set_active(s, 0, [F, B, SO])
    set_tribe(s, 0, {B: 1})
    set_space(s, S.SP_CB_SOUTH, [B, F, SO])
    orange = card(ORANGE, WARRIOR)
    set_hand(s, 0, {orange: 2, card(PINK, TRAP): 1})
    c = cit(S.SOUTH, ORANGE)
    assert s[S.CIT_CAP + c] - s[S.CIT_FILLED + c] == 3
    s[S.CIT_FILLED + c] = 2
    s[S.CIT_DISCS + c * S.MAX_PLAYERS + 1] = 1
    s[S.CIT_DISCS + c * S.MAX_PLAYERS + 2] = 1
    s[S.CIT_BONUS + c] = S.B_TOKEN
    reserve = s[S.TOKEN_RESERVE]
    s = do(s, data, rng, S.A_MOVE + 1, choose(S.K_BUILD, S.SOUTH))
    s = decline(s, data, rng, (S.PH_REFRESH,))
    s = do(s, data, rng, S.A_SWAP + 0 * 3 + 0)  # his farmer for the builder
    assert s[S.PHASE] == S.PH_BUILD
    assert rules_shared.build_pay(s, data, 0, 0) == 1  # max(1, 4 - (2 active + 1 tribe))
    # apply without settling to look at the end of the Build action
    rules_actions.apply(s, S.A_BUILD + ORANGE, data, rng)
    assert s[S.PHASE] == S.PH_DISCARD and s[S.DISC_LEFT] == 1
    assert legal(s, data) == [S.A_CARD + orange]  # the paid card must be orange
    rules_actions.apply(s, S.A_CARD + orange, data, rng)
    assert hand(s, 0, orange) == 1 and hand(s, 0, card(PINK, TRAP)) == 1
    assert s[S.CIT_DISCS + c * S.MAX_PLAYERS + 0] == 1 and s[at(0, S.P_DISCS)] == 3
    assert s[at(0, S.P_TOKENS)] == 1 and s[S.TOKEN_RESERVE] == reserve - 1
    assert rules_shared.usable_tokens(s, 0) == 0  # gained this turn: usable from a later turn
    assert s[S.CIT_DONE + c] == 0 and s[at(0, S.P_BONUS_TILES)] == 1
    rules_turn.settle(s, data, rng)
    assert s[S.SEAT] == 1 and rules_shared.usable_tokens(s, 0) == 1
    # T07b: cost 2 with 3 builders -> pay max(1, -1) = 1
    t, _ = clean(seat=0)
    t[at(0, S.P_DISCS)] = 9 - 1
    assert RAW["player_board"]["disc_costs"][1] == 2
    set_active(t, 0, [B, B, B])
    set_tribe(t, 0, {})
    assert rules_shared.build_pay(t, data, 0, 0) == 1
    # T07c: with a single orange card Afonso may still choose Build: the swap of step 2 (after
    # the choice) brings his third builder, so pay = 1 (rulebook: he decides to build, then
    # swaps "pour avoir plusieurs bâtisseurs")
    u, rng = clean(seat=0)
    u[at(0, S.P_DISCS)] = 9 - 5
    set_active(u, 0, [F, B, SO])
    set_tribe(u, 0, {B: 1})
    set_space(u, S.SP_CB_SOUTH, [B, F, SO])
    set_hand(u, 0, {orange: 1})
    u = do(u, data, rng, S.A_MOVE + 1)
    assert choose(S.K_BUILD, S.SOUTH) in legal(u, data)
    u = do(u, data, rng, choose(S.K_BUILD, S.SOUTH))
    u = decline(u, data, rng, (S.PH_REFRESH,))
    u = do(u, data, rng, S.A_SWAP + 0 * 3 + 0)
    assert hand(u, 0, orange) == 0 and u[at(0, S.P_DISCS)] == 3


def test_T08_afonso_combat_three_warriors_two_soldiers():
    """PROVISIONAL geometry: NW -> NE by 1, Combat in the North."""
    data = DATA[3]
    s, rng = clean(seat=0)
    s[S.PAWN] = NW
    s[at(0, S.P_FORCE)] = 3
    set_active(s, 0, [SO, SO, B])
    set_tribe(s, 0, {})
    set_space(s, S.SP_COMBAT, [SO, SO, SO])
    warriors = [card(c, WARRIOR) for c in range(4)]
    fortress = card(PINK, FORTRESS)
    set_hand(s, 0, {**{w: 1 for w in warriors}, fortress: 1})
    ten = army_id(10)
    assert RAW["armies"]["two_point_strengths"].count(10) == 1  # a 2-point tile
    set_pile(s, S.PILE_ARMY_N, [ten, army_id(11)])
    trap_slot = RAW["garrisons"]["north"].index(["trap", "all"])
    s[S.GARRISON + trap_slot] = 1  # the North trap slot is already occupied
    s = do(s, data, rng, S.A_MOVE + 1)
    assert s[S.PAWN] == NE and s[at(0, S.P_FORCE)] == 4
    s = do(s, data, rng, choose(S.K_COMBAT, S.NORTH))
    s = decline(s, data, rng)
    assert s[S.PHASE] == S.PH_DISCARD
    s = do(s, data, rng, *(S.A_CARD + w for w in warriors[:3]))
    assert s[at(0, S.P_FORCE)] == 10  # + 3 x min(2, 4)
    s = do(s, data, rng, S.A_STOP)
    assert s[S.PHASE] == S.PH_FIGHT
    s = do(s, data, rng, S.A_YES)
    assert s[at(0, S.P_FORCE)] == 0
    assert s[at(0, S.P_ARMY2)] == 1 and s[at(0, S.P_ARMY1)] == 0
    assert s[S.PHASE] == S.PH_GARRISON
    options = legal(s, data)
    icons = RAW["garrisons"]["north"]
    slots = {(a - S.A_GARR) // 4 for a in options if a != S.A_NO}
    assert trap_slot not in slots
    assert {icons[k][0] for k in slots} == {"warrior", "fortress"}
    f_slot = icons.index(["fortress", "all"])
    s = do(s, data, rng, S.A_GARR + f_slot * 4 + PINK)
    assert s[S.GARRISON + f_slot] == 0
    assert s[at(0, S.P_CUBES)] == 3 and hand(s, 0, fortress) == 0
    assert s[at(0, S.P_FORCE)] == 0


def test_T09_force_per_card_capped_at_four():
    """PROVISIONAL geometry: Combat North from NE."""
    data = DATA[3]
    trap = card(ORANGE, TRAP)
    for act, tribe, gain in (
        ([SO, SO, F], {SO: 2, D: 1}, 12),  # 5 soldiers -> 4 per card
        ([SO, F, B], {}, 3),
        ([SO, SO, SO], {}, 9),
    ):
        s, rng = clean(seat=0)
        set_active(s, 0, act)
        set_tribe(s, 0, tribe)
        set_hand(s, 0, {trap: 3, card(PINK, WARRIOR): 1})
        assert rules_shared.strength(s, 0, SO) == len([t for t in act if t == SO]) + tribe.get(
            SO, 0
        ) + (tribe.get(D, 0))
        s = start_action(s, data, rng, S.K_COMBAT, S.NORTH, NE)
        s = do(s, data, rng, *([S.A_CARD + trap] * 3))
        assert s[at(0, S.P_FORCE)] == gain


def test_T10_combat_without_cards_or_without_fighting():
    """PROVISIONAL geometry (Combat North from NE) and army strengths (4..13)."""
    data = DATA[3]
    # (a) force 7 against a top army of strength 7, no discard
    s, rng = clean(seat=0)
    s[at(0, S.P_FORCE)] = 7
    set_pile(s, S.PILE_ARMY_N, [army_id(7), army_id(12)])
    set_hand(s, 0, {card(VIOLET, TRAP): 1})
    s = start_action(s, data, rng, S.K_COMBAT, S.NORTH, NE)
    s = do(s, data, rng, S.A_STOP)  # discard nothing
    assert s[S.PHASE] == S.PH_FIGHT and S.A_YES in legal(s, data)
    s = do(s, data, rng, S.A_YES)
    assert s[at(0, S.P_FORCE)] == 0
    assert s[at(0, S.P_ARMY1)] + s[at(0, S.P_ARMY2)] == 1
    assert s[at(0, S.P_HAND_N)] == 1
    # (b) force 0, 1 soldier: discard 2 fortress cards, no fight -> force 2, no cube
    s, rng = clean(seat=0)
    set_active(s, 0, [SO, F, B])
    set_tribe(s, 0, {})
    set_hand(s, 0, {card(PINK, FORTRESS): 1, card(ORANGE, FORTRESS): 1})
    garrison = s[S.GARRISON : S.GARRISON + 10].copy()
    s = start_action(s, data, rng, S.K_COMBAT, S.NORTH, NE)
    s = do(s, data, rng, S.A_CARD + card(PINK, FORTRESS), S.A_CARD + card(ORANGE, FORTRESS))
    if s[S.PHASE] == S.PH_FIGHT:
        s = do(s, data, rng, S.A_NO)
    assert s[S.PHASE] == S.PH_MOVE and s[S.SEAT] == 1  # the turn is over
    assert s[at(0, S.P_FORCE)] == 2
    assert s[at(0, S.P_CUBES)] == 4
    assert (s[S.GARRISON : S.GARRISON + 10] == garrison).all()
    assert s[at(0, S.P_ARMY1)] + s[at(0, S.P_ARMY2)] == 0


def test_T11_joana_recruits_with_one_noble():
    """PROVISIONAL geometry: Recruit North from NW."""
    data = DATA[3]
    s, rng = clean(seat=1)
    set_active(s, 1, [F, SO, B])
    set_tribe(s, 1, {N: 1})
    set_space(s, S.SP_RECRUIT, [F, SO, B])
    set_centre(s, [SO, N, F])
    set_bag(s, {B: 5})  # the centre refill draw is a builder
    s[S.PILE_POS + S.PILE_DRUID_N] = s[S.PILE_END + S.PILE_DRUID_N]  # no Druidic Order
    s = start_action(s, data, rng, S.K_RECRUIT, S.NORTH, NW)
    assert s[S.PHASE] == S.PH_RECRUIT and s[S.R_MAX] == 2
    assert S.A_STOP not in legal(s, data)  # the first recruit is mandatory
    s = do(s, data, rng, S.A_WORKER + F)
    assert S.A_STOP in legal(s, data)
    s = do(s, data, rng, S.A_WORKER + SO)
    assert s[at(1, S.P_TRIBE + F)] == 1 and s[at(1, S.P_TRIBE + SO)] == 1
    assert s[at(1, S.P_TRIBE_N)] == 3
    assert active(s, 1) == sorted([-1, -1, B])  # 1 active worker left
    assert s[S.PHASE] == S.PH_REFILL
    s = do(s, data, rng, S.A_WORKER + SO)
    assert sorted(int(x) for x in s[S.CENTRE : S.CENTRE + 3]) == sorted([B, N, F])
    s = do(s, data, rng, S.A_WORKER + B)
    assert active(s, 1) == sorted([SO, B, B])
    assert s[S.BAG + B] == 3
    assert s[S.PHASE] == S.PH_MOVE and s[S.SEAT] == 2  # tribe of 3 <= 8: the turn ends


def test_T12_ines_druidic_order():
    """PROVISIONAL geometry: SE -> SW by 1, Recruit in the South."""
    data = DATA[3]
    s, rng = clean(seat=2)
    set_active(s, 2, [F, SO, B])
    set_tribe(s, 2, {B: 1})
    set_space(s, S.SP_RECRUIT, [N, F, F])
    set_centre(s, [SO, SO, SO])
    set_bag(s, {})  # the bag then holds exactly the workers returned by the Order
    fn = druid_id("FN")
    assert fn < len(RAW["druid_tiles"]["one_point"])  # a 1-point tile
    set_pile(s, S.PILE_DRUID_S, [fn, druid_id("FBS")])
    set_hand(s, 2, {card(TURQUOISE, TRAP): 2})
    reserve = s[S.RESERVE + S.SOUTH]
    s = do(s, data, rng, S.A_MOVE + 1)
    assert s[at(2, S.P_FORCE)] == 1
    s = do(s, data, rng, choose(S.K_RECRUIT, S.SOUTH))
    s = decline(s, data, rng, (S.PH_REFRESH,))
    s = do(s, data, rng, S.A_SWAP + 1 * 3 + 0)  # her soldier for the noble
    assert s[S.PHASE] == S.PH_RECRUIT and s[S.R_MAX] == 2
    s = do(s, data, rng, S.A_WORKER + F, S.A_WORKER + N)
    assert s[S.PHASE] == S.PH_ORDER
    s = do(s, data, rng, S.A_YES)
    assert s[at(2, S.P_DRUID1)] == 1 and s[at(2, S.P_DRUID2)] == 0
    assert s[S.PHASE] == S.PH_DRUID
    s = do(s, data, rng, S.A_YES)  # druid worker: 0 + 1 = 1 card
    assert s[at(2, S.P_HAND_N)] == 1
    assert s[S.RESERVE + S.SOUTH] == reserve - 1
    # refill: 2 centre picks, each followed by a draw from the bag (which holds F and N)
    while s[S.PHASE] == S.PH_REFILL:
        s = do(s, data, rng, S.A_WORKER + SO)
    assert active(s, 2) == sorted([B, SO, SO])
    centre = sorted(int(x) for x in s[S.CENTRE : S.CENTRE + 3])
    assert centre == sorted([SO, F, N])
    assert s[at(2, S.P_TRIBE + D)] == 1 and s[at(2, S.P_TRIBE + B)] == 1
    assert s[at(2, S.P_TRIBE + F)] == 0 and s[at(2, S.P_TRIBE + N)] == 0
    assert s[at(2, S.P_TRIBE_N)] == 2
    comp = np.zeros(rules_scoring.N_COMPONENTS, np.int64)
    R.components(s, data, 2, comp)
    assert comp[rules_scoring.C_DRUID_TILES] == 1


def test_T13_rising_druid_price():
    """PROVISIONAL geometry (Recruit South from SW) and druid tile "BS"."""
    data = DATA[3]
    bs = druid_id("BS")
    for cards, gets_druid in ((2, True), (1, False)):
        s, rng = clean(seat=0)
        set_active(s, 0, [F, B, SO])
        set_tribe(s, 0, {B: 1, SO: 1, D: 1})
        set_space(s, S.SP_RECRUIT, [F, F, F])
        set_pile(s, S.PILE_DRUID_S, [bs, druid_id("FBS")])
        set_hand(s, 0, {card(PINK, WARRIOR): cards})
        reserve = s[S.RESERVE + S.SOUTH]
        s = start_action(s, data, rng, S.K_RECRUIT, S.SOUTH, SW)
        s = do(s, data, rng, S.A_WORKER + F)
        s = do(s, data, rng, S.A_YES)  # Druidic Order: returns builder + soldier
        if gets_druid:
            assert s[S.PHASE] == S.PH_DRUID
            s = do(s, data, rng, S.A_YES)
        assert s[at(0, S.P_DRUID1)] == 1  # the tile is kept either way
        assert s[at(0, S.P_TRIBE + D)] == (2 if gets_druid else 1)
        assert s[at(0, S.P_HAND_N)] == (0 if gets_druid else 1)  # the 2nd druid costs 2
        assert s[S.RESERVE + S.SOUTH] == reserve - (1 if gets_druid else 0)


def test_T14_tribe_cap_of_eight():
    """PROVISIONAL geometry: Recruit North from NW."""
    data = DATA[3]
    s, rng = clean(seat=0)
    set_active(s, 0, [F, B, SO])
    set_tribe(s, 0, {N: 2, F: 2, B: 2, SO: 1})
    set_space(s, S.SP_RECRUIT, [F, F, F])
    set_centre(s, [F, B, SO])
    s[S.PILE_POS + S.PILE_DRUID_N] = s[S.PILE_END + S.PILE_DRUID_N]
    s = start_action(s, data, rng, S.K_RECRUIT, S.NORTH, NW)
    assert s[S.R_MAX] == 3
    s = do(s, data, rng, S.A_WORKER + F, S.A_WORKER + B, S.A_WORKER + SO)
    assert s[at(0, S.P_TRIBE_N)] == 10  # over the cap during the action
    while s[S.PHASE] == S.PH_REFILL:
        s = first_legal(s, data, rng)
    assert s[S.PHASE] == S.PH_OVERFLOW and s[at(0, S.P_TRIBE_N)] == 10
    bag = s[S.BAG : S.BAG + 4].copy()
    s = do(s, data, rng, S.A_WORKER + F, S.A_WORKER + N)  # workers of his choice
    assert s[at(0, S.P_TRIBE_N)] == 8
    assert s[at(0, S.P_TRIBE + F)] == 2 and s[at(0, S.P_TRIBE + N)] == 1
    assert s[S.BAG + F] == bag[F] + 1 and s[S.BAG + N] == bag[N] + 1
    assert s[S.PHASE] == S.PH_MOVE and s[S.SEAT] == 1


def test_T15_progress_joana_crosses_afonso_places():
    """PROVISIONAL geometry: NE -> SE crosses the river."""
    data = DATA[3]
    s, rng = clean(seat=1)
    s[S.PAWN] = NE
    s[S.TEUTATES] = 0
    s[S.TRACK] = 5
    most = pc("P20")  # most recruited workers (any)
    set_progress_cards(s, [(pc("P01"), 0), (most, 0), (pc("P05"), 0)])
    set_tribe(s, 0, {F: 2, B: 2})
    set_tribe(s, 1, {F: 1})
    s = do(s, data, rng, S.A_MOVE + 1)
    assert s[S.PHASE] == S.PH_PAWN and s[S.DSEAT] == 0  # Afonso places
    assert legal(s, data) == [S.A_PAWN + j for j in range(3)]
    s = do(s, data, rng, S.A_PAWN + 1)
    assert s[S.TRACK] == 4
    assert s[S.PCARD_PAWNS + 1] == 1
    assert s[S.TEUTATES] == 1  # passed to Joana, on his left
    assert s[S.SEAT] == 1 and s[S.DSEAT] == 1 and s[S.PHASE] == S.PH_CHOOSE
    assert s[S.PAWN] == SE
    assert rules_scoring.progress_met(s, data, 0, most)


def test_T16_last_track_pawn_and_final_double_turn():
    """PROVISIONAL geometry: Afonso crosses NE -> SE."""
    data = DATA[3]
    s, rng = clean(seat=0)
    s[S.PAWN] = NE
    s[S.TEUTATES] = 2  # Inês
    s[S.TRACK] = 1
    s = do(s, data, rng, S.A_MOVE + 1)
    assert s[S.PHASE] == S.PH_PAWN and s[S.DSEAT] == 2
    s = do(s, data, rng, legal(s, data)[0])
    assert s[S.TRACK] == 0 and s[S.TRIGGERED] == 1
    assert s[S.TEUTATES] == 0  # back to the first player
    assert s[S.SEAT] == 0 and s[S.DSEAT] == 0 and not s[S.OVER]  # Afonso finishes his action
    seats = []
    start = last = None
    guard = 0
    while not s[S.OVER]:
        if s[S.PHASE] == S.PH_MOVE and s[S.TURNS] != last:
            if start is None:
                start = s[S.TURNS]
            seats.append(int(s[S.SEAT]))
            last = s[S.TURNS]
        s = first_legal(s, data, rng)
        guard += 1
        assert guard < 5000
    assert seats == [1, 2, 0, 0, 1, 1, 2, 2]
    assert s[S.TURNS] - start == 8
    assert s[S.REASON] == S.R_TRACK_EMPTY


def test_T17_joana_defeats_last_south_army_with_empty_hand():
    """PROVISIONAL geometry: Combat in the South from SE (set directly, no move)."""
    data = DATA[3]
    for track in (4, 1):  # 4: no flip at 3; 1: no end trigger
        s, rng = clean(seat=1)
        s[S.TEUTATES] = 2
        s[S.TRACK] = track
        s[at(1, S.P_FORCE)] = 9
        set_pile(s, S.PILE_ARMY_S, [army_id(9)])
        set_progress_cards(s, [(pc("P01"), 0), (pc("P12"), 0), (pc("P14"), 0)])
        s = start_action(s, data, rng, S.K_COMBAT, S.SOUTH, SE)
        assert s[S.PHASE] == S.PH_FIGHT
        s = do(s, data, rng, S.A_YES)
        assert s[at(1, S.P_ARMY2)] == 1 and s[at(1, S.P_FORCE)] == 0
        assert s[S.PHASE] == S.PH_PAWN and s[S.DSEAT] == 1  # Joana places the pile pawn
        assert s[at(1, S.P_CUBES)] == 4  # no card: no garrison cube
        s = do(s, data, rng, S.A_PAWN + 1)
        assert s[S.PCARD_PAWNS + 1] == 1 and s[S.PILE_PAWN + S.PILE_ARMY_S] == 0
        assert s[S.TRACK] == track and s[S.TEUTATES] == 2
        assert s[S.TRIGGERED] == 0
        assert s[S.PHASE] == S.PH_MOVE and s[S.SEAT] == 2  # no flip decision, next turn
        assert all(s[at(p, S.P_SIDE)] == S.SIDE_A for p in range(3))


def test_T18_leader_flip_at_three_remaining():
    """PROVISIONAL geometry: crossings NE -> SE."""
    data = DATA[3]
    s, rng = clean(seat=0)
    s[S.PAWN] = NE
    s[S.TRACK] = 4
    s = do(s, data, rng, S.A_MOVE + 1)
    s = do(s, data, rng, S.A_PAWN + 0)
    assert s[S.TRACK] == 3
    assert s[S.PHASE] == S.PH_FLIP
    sides = {0: S.A_SIDE_B, 1: S.A_SIDE_A, 2: S.A_SIDE_B}
    asked = []
    while s[S.PHASE] == S.PH_FLIP:
        asked.append(int(s[S.DSEAT]))
        s = do(s, data, rng, sides[int(s[S.DSEAT])])
    assert sorted(asked) == [0, 1, 2]  # every player decides
    assert [s[at(p, S.P_SIDE)] for p in range(3)] == [S.SIDE_B, S.SIDE_A, S.SIDE_B]
    assert s[S.SEAT] == 0 and s[S.PHASE] == S.PH_CHOOSE
    # a later crossing that leaves 2: no new decision, sides final
    s[S.PAWN] = NE
    s[S.SEAT] = s[S.DSEAT] = 1
    s[S.PHASE] = S.PH_MOVE
    s = do(s, data, rng, S.A_MOVE + 1)
    assert s[S.PHASE] == S.PH_PAWN
    s = do(s, data, rng, S.A_PAWN + 1)
    assert s[S.TRACK] == 2 and s[S.PHASE] == S.PH_CHOOSE and s[S.DSEAT] == 1
    assert [s[at(p, S.P_SIDE)] for p in range(3)] == [S.SIDE_B, S.SIDE_A, S.SIDE_B]
    # a pile pawn moved while 3 remain: no decision
    s, rng = clean(seat=0)
    s[S.TRACK] = 3
    s[at(0, S.P_FORCE)] = 9
    set_pile(s, S.PILE_ARMY_N, [army_id(9)])
    s = start_action(s, data, rng, S.K_COMBAT, S.NORTH, NE)
    s = do(s, data, rng, S.A_YES)
    assert s[S.PHASE] == S.PH_PAWN
    s = do(s, data, rng, S.A_PAWN + 0)
    assert s[S.TRACK] == 3 and s[S.PHASE] == S.PH_MOVE and s[S.SEAT] == 1


def test_T19_category_i_leftover():
    data = DATA[3]
    s, _ = clean()
    comp = np.zeros(rules_scoring.N_COMPONENTS, np.int64)
    for force, cards, points in ((6, 4, 2), (6, 5, 2), (5, 4, 1), (4, 2, 1)):
        s[at(0, S.P_FORCE)] = force
        set_hand(s, 0, {card(PINK, WARRIOR): cards})
        R.components(s, data, 0, comp)
        assert comp[rules_scoring.C_LEFTOVER] == points


def afonso_27():
    """Afonso's final position of the SCORE FINAL example (3 players)."""
    s, _ = clean(players=3, leaders=[BOADICEE, 0, 1])

    def put(c, seat, n):
        s[S.CIT_DISCS + c * S.MAX_PLAYERS + seat] += n
        s[S.CIT_FILLED + c] += n
        s[at(seat, S.P_DISCS)] -= n

    # 6 of Afonso's 7 discs on completed citadels (4 orange, 5 in the North)
    put(cit(S.NORTH, ORANGE), 0, 2)
    put(cit(S.NORTH, ORANGE), 1, 1)
    put(cit(S.NORTH, PINK), 0, 2)
    put(cit(S.NORTH, PINK), 2, 1)
    put(cit(S.SOUTH, ORANGE), 0, 2)
    put(cit(S.SOUTH, ORANGE), 1, 1)
    put(cit(S.NORTH, VIOLET), 0, 1)
    for c in (cit(S.NORTH, ORANGE), cit(S.NORTH, PINK), cit(S.SOUTH, ORANGE)):
        assert s[S.CIT_FILLED + c] == s[S.CIT_CAP + c]
    assert s[S.CIT_FILLED + cit(S.NORTH, VIOLET)] < s[S.CIT_CAP + cit(S.NORTH, VIOLET)]
    s[at(0, S.P_BONUS_TILES)] = 3
    s[at(0, S.P_DRUID1)] = 1
    s[at(0, S.P_DRUID2)] = 1
    s[at(0, S.P_ARMY2)] = 1
    s[at(1, S.P_ARMY1)] = 2  # Joana has the most army tiles
    # garrison: Afonso 1 North cube, Joana 2: no majority for Afonso
    s[S.GARRISON + 0] = 0
    s[S.GARRISON + 1] = 1
    s[S.GARRISON + 2] = 1
    s[at(0, S.P_CUBES)] = 3
    s[at(1, S.P_CUBES)] = 2
    set_tribe(s, 0, {F: 2, B: 1, SO: 1})
    set_tribe(s, 1, {F: 1, N: 1, SO: 2})
    set_tribe(s, 2, {B: 2})
    s[at(0, S.P_FORCE)] = 4
    set_hand(s, 0, {card(VIOLET, TRAP): 2})
    s[at(0, S.P_SIDE)] = S.SIDE_B
    set_progress_cards(
        s,
        [
            (pc("P21"), 0),  # 1: most bonus tiles, no pawn
            (pc("P20"), 2),  # 2: most recruited workers, tied 4-4
            (pc("P05"), 1),  # 3: most discs in the North
            (pc("P09"), 1),  # 4: 2+ druid workers: failed
            (pc("P17"), 2),  # 5: 2+ orange discs: met
            (pc("P11"), 2),  # 6: 3+ druid tiles: failed
            (pc("P12"), 1),  # 7: most army tiles: failed
        ],
    )
    return s


def test_T20_afonso_final_score_27():
    """PROVISIONAL point icons (tribe slots 4/6/8, disc slots 3/5/7/9) and card layout."""
    data = DATA[3]
    assert RAW["progress"]["two_slot_cards"][2] + RAW["progress"]["three_slot_cards"][2] == 7
    s = afonso_27()
    comp = np.zeros(rules_scoring.N_COMPONENTS, np.int64)
    total = R.components(s, data, 0, comp)
    expected = {
        rules_scoring.C_CITADELS: 6,
        rules_scoring.C_BONUS_TILES: 3,
        rules_scoring.C_DRUID_TILES: 3,
        rules_scoring.C_ARMIES: 2,
        rules_scoring.C_GARRISON: 0,
        rules_scoring.C_TRIBE: 1,
        rules_scoring.C_BOARD: 3,
        rules_scoring.C_ALL_CUBES: 0,
        rules_scoring.C_LEFTOVER: 1,
        rules_scoring.C_PROGRESS: 5,
        rules_scoring.C_LEADER: 3,
    }
    assert {k: int(comp[k]) for k in expected} == expected
    assert total == 27
    assert len(SCORE_COMPONENTS) == rules_scoring.N_COMPONENTS == 11
    assert rules_scoring.progress_met(
        s, data, 0, pc("P21")
    )  # he meets card 1, but it holds no pawn


def test_T21_leader_points_k():
    data = DATA[3]
    s, _ = clean(leaders=[BOADICEE, 0, 1])
    comp = np.zeros(rules_scoring.N_COMPONENTS, np.int64)
    for side, discs, points in (
        (S.SIDE_A, 3, 1),
        (S.SIDE_A, 2, 0),
        (S.SIDE_B, 7, 3),
        (S.SIDE_B, 6, 0),
    ):
        s[at(0, S.P_SIDE)] = side
        s[at(0, S.P_DISCS)] = 9 - discs
        R.components(s, data, 0, comp)
        assert comp[rules_scoring.C_LEADER] == points, (side, discs)


def test_T22_garrison_majority_e():
    data = DATA[4]
    s, _ = clean(players=4)
    assert (s[S.GARRISON : S.GARRISON + 10] == -1).all()  # 4 players: no neutral cube
    north = [0, 0, 1, 1, 2]  # P1 = 2, P2 = 2, P3 = 1: full
    for k, seat in enumerate(north):
        s[S.GARRISON + k] = seat
    s[S.GARRISON + 5] = 2  # South: P3 = 1
    for seat, placed in ((0, 2), (1, 2), (2, 2), (3, 0)):
        s[at(seat, S.P_CUBES)] = 4 - placed
    comp = np.zeros(rules_scoring.N_COMPONENTS, np.int64)
    got = []
    for seat in range(4):
        R.components(s, data, seat, comp)
        got.append(int(comp[rules_scoring.C_GARRISON]))
    assert got == [2, 2, 1, 0]


def tie_state(p1, p2):
    """Two players with (discs placed, tribe, 1-point armies, 2-point armies, druid tiles);
    discs on a citadel that never completes, BOADICÉE side A for both, nothing else."""
    s, _ = clean(players=2, leaders=[BOADICEE, BOADICEE])
    set_progress_cards(s, [])
    for seat, (discs, tribe, army1, army2, druid1) in enumerate((p1, p2)):
        c = cit(S.NORTH, VIOLET) if seat == 0 else cit(S.SOUTH, PINK)
        s[S.CIT_DISCS + c * S.MAX_PLAYERS + seat] = discs
        s[S.CIT_FILLED + c] += discs
        s[S.CIT_CAP + c] = 20  # never complete (A = 0)
        s[at(seat, S.P_DISCS)] = 9 - discs
        set_tribe(s, seat, tribe)
        s[at(seat, S.P_ARMY1)] = army1
        s[at(seat, S.P_ARMY2)] = army2
        s[at(seat, S.P_DRUID1)] = druid1
    return s


def results_of(s, data, players):
    """play.write_results of one finished game: (score, extras, solo win)."""
    res = ChunkResult.empty(1, players, len(SCORE_COMPONENTS), len(PLAYER_EXTRAS))
    win = np.zeros((1, players), np.float64)
    write_results(
        s, data, 0, res.rounds, res.turns, res.end_reason, res.score, res.components,
        res.role, res.side, res.extras, win,
    )  # fmt: skip
    return res.score, res.extras, win


def win_shares(score, extras):
    keys = [score[:, :, None]]
    for name in TIEBREAK:
        keys.append(extras[:, :, PLAYER_EXTRAS.index(name)][:, :, None])
    return rank_and_win(np.concatenate(keys, axis=2).astype(np.int64))[1][0].tolist()


def test_T23_tie_breaks():
    """PROVISIONAL point icons: equal totals built from the rules (C 1, D 2, F 1, G 2, K 1 for
    P1; C 1, D 1, F 1, G 3, K 1 for P2: 7 each)."""
    data = DATA[2]
    p1 = (6, {F: 3, B: 2}, 2, 0, 1)  # 6 discs + 5 tribe; 2 armies + 1 druid tile
    p2 = (7, {F: 2, B: 2}, 1, 0, 1)  # 7 discs + 4 tribe; 1 army + 1 druid tile
    s = tie_state(p1, p2)
    comp = np.zeros(rules_scoring.N_COMPONENTS, np.int64)
    assert R.components(s, data, 0, comp) == R.components(s, data, 1, comp) == 7
    assert rules_scoring.tiebreaks(s, data, 0) == (11, 3)
    assert rules_scoring.tiebreaks(s, data, 1) == (11, 2)
    score, extras, _ = results_of(s, data, 2)
    assert score[0, 0] == score[0, 1]
    assert win_shares(score, extras) == [1.0, 0.0]  # P1 wins on the second tie-break
    # equal on both tie-breaks: shared win (PROVISIONAL)
    s = tie_state(p2, p2)
    score, extras, _ = results_of(s, data, 2)
    assert score[0, 0] == score[0, 1]
    assert win_shares(score, extras) == [0.5, 0.5]


def solo_state(seed=1):
    s, rng = clean(players=1, seed=seed, leaders=[BOADICEE])
    assert s[S.SOLO] == 1
    return s, rng


def test_T24_solo_progress_negative_points():
    data = DATA[1]
    s, _ = solo_state()
    set_progress_cards(
        s,
        [
            (pc("P20"), 1),  # A: most workers (any), solo minimum 6
            (pc("P06"), 2),  # B: most farmers, solo minimum 3
            (pc("P01"), 0),  # C: no pawn
            (pc("P03"), 2),  # D: 2+ discs on turquoise
            (pc("P25"), 3),  # E: 3+ army tiles
        ],
    )
    set_tribe(s, 0, {F: 2, B: 2, SO: 2})
    c = cit(S.NORTH, TURQUOISE)
    s[S.CIT_DISCS + c * S.MAX_PLAYERS + 0] = 2
    s[S.CIT_FILLED + c] += 2
    s[at(0, S.P_DISCS)] = 7
    s[at(0, S.P_ARMY1)] = 1
    s[at(0, S.P_ARMY2)] = 2
    comp = np.zeros(rules_scoring.N_COMPONENTS, np.int64)
    R.components(s, data, 0, comp)
    assert comp[rules_scoring.C_PROGRESS] == 1 - 2 + 0 + 2 + 3


def solitairix_turn(s, data, rng):
    """Run one Solitairix turn (automatic) from a hand-built state."""
    s[S.SOLO_ACTING] = 1
    s[S.SEAT] = s[S.DSEAT] = 0
    s[S.PHASE] = S.AU_SOLO_START
    rules_turn.settle(s, data, rng)
    return s


def test_T25_a_solitairix_turn():
    """PROVISIONAL geometry (SW -> NW by 1); face A section 3 is the example's section."""
    data = DATA[1]
    s, rng = solo_state()
    assert RAW["solo"]["face_a"][2] == [["build", "cultivate"], "first", [1, 2, 5, 6]]
    s[S.SOLO_FACE] = 0
    s[S.SOLO_SECTION] = 0  # two rotations -> section 2
    s[S.PAWN] = SW
    violet_warrior = card(VIOLET, WARRIOR)
    s[S.DISCARD : S.DISCARD + S.N_CARDS] = 0
    s[S.DISCARD + violet_warrior] = 1
    s[S.DISCARD_N] = 1
    s[S.DTOP] = violet_warrior
    drawn = card(TURQUOISE, WARRIOR)
    set_deck(s, {drawn: 10})
    c = cit(S.NORTH, TURQUOISE)
    s[S.CIT_FILLED + c] = s[S.CIT_CAP + c]  # complete
    kinds = [card(PINK, TRAP), card(PINK, FORTRESS), card(ORANGE, TRAP)]
    kinds += [card(ORANGE, FORTRESS), card(VIOLET, TRAP), card(VIOLET, FORTRESS)]
    set_market(s, S.NORTH, kinds)
    x = 1  # Solitairix's block
    s[at(x, S.P_ACTIVE)] = SO
    set_space(s, S.SP_CB_NORTH, [F, B, N])
    discs = s[at(x, S.P_DISCS)]
    s = solitairix_turn(s, data, rng)
    assert s[S.PAWN] == NW  # moved 1 (colour differs)
    assert s[S.SOLO_SECTION] == 2  # rotated twice (same icon)
    assert s[at(x, S.P_DISCS)] == discs  # no build: the turquoise citadel is complete
    assert space(s, S.SP_CB_NORTH) == [SO, B, N]  # swapped with the leftmost worker
    assert s[at(x, S.P_ACTIVE)] == F
    assert market(s, S.NORTH) == [kinds[2], kinds[3], drawn, drawn, drawn, drawn]
    for k in (kinds[0], kinds[1], kinds[4], kinds[5]):
        assert s[S.DISCARD + k] == 1
    assert s[S.DTOP] == drawn  # the drawn card ends on top of the discard pile
    assert s[S.DISCARD + drawn] == 1 and s[S.DISCARD_N] == 1 + 4 + 1
    assert s[S.PHASE] == S.PH_MOVE and s[S.SOLO_ACTING] == 0


def test_T26_solitairix_on_empty_piles():
    """PROVISIONAL solo tile sections and geometry (SE -> SW and SW -> NW by 1)."""
    data = DATA[1]
    x = 1
    # (a) [Combat, Cultivate] with an empty army pile -> Cultivate
    assert RAW["solo"]["face_b"][2][0] == ["combat", "cultivate"]
    s, rng = solo_state()
    s[S.SOLO_FACE] = 1
    s[S.SOLO_SECTION] = 1  # one rotation -> section 2
    s[S.PAWN] = SW
    s[S.DTOP] = card(ORANGE, WARRIOR)
    set_deck(s, {card(PINK, TRAP): 20})  # other colour, other icon: move 1, rotate 1
    s[S.PILE_POS + S.PILE_ARMY_N] = s[S.PILE_END + S.PILE_ARMY_N]
    before = market(s, S.NORTH)
    discard_n = s[S.DISCARD_N]
    s = solitairix_turn(s, data, rng)
    assert s[S.SOLO_SECTION] == 2 and s[S.PAWN] == NW
    assert s[at(x, S.P_ARMY1)] + s[at(x, S.P_ARMY2)] == 0
    assert market(s, S.NORTH)[:2] == before[4:6]  # positions 1-4 discarded
    assert s[S.DISCARD_N] == discard_n + 4 + 1
    # (b) Recruit in the South takes the last druid tile: its pile pawn is discarded
    assert RAW["solo"]["face_a"][1][0] == ["recruit", "cultivate"]
    s, rng = solo_state()
    s[S.SOLO_FACE] = 0
    s[S.SOLO_SECTION] = 0
    s[S.PAWN] = SE
    s[S.DTOP] = card(ORANGE, WARRIOR)
    set_deck(s, {card(PINK, TRAP): 20})
    set_pile(s, S.PILE_DRUID_S, [druid_id("FBS")])
    reserve = s[S.RESERVE + S.SOUTH]
    pawns = int(s[S.PCARD_PAWNS : S.PCARD_PAWNS + S.MAX_PCARDS].sum())
    s = solitairix_turn(s, data, rng)
    assert s[S.PAWN] == SW
    assert s[at(x, S.P_DRUID2)] == 1
    assert s[at(x, S.P_TRIBE + D)] == 1 and s[S.RESERVE + S.SOUTH] == reserve - 1
    assert s[S.PILE_PAWN + S.PILE_DRUID_S] == 0
    assert int(s[S.PCARD_PAWNS : S.PCARD_PAWNS + S.MAX_PCARDS].sum()) == pawns
    assert s[S.PAWNS_DISCARDED] == 1
    assert s[S.PHASE] == S.PH_MOVE  # the human was not asked to place it
    # (c) Combat with a drawn fortress card; the region's fortress slot is occupied
    assert RAW["solo"]["face_a"][0][0][0] == "combat"
    s, rng = solo_state()
    s[S.SOLO_FACE] = 0
    s[S.SOLO_SECTION] = 3  # one rotation -> section 0
    s[S.PAWN] = SW
    s[S.DTOP] = card(ORANGE, WARRIOR)
    set_deck(s, {card(PINK, FORTRESS): 20})
    icons = RAW["garrisons"]["north"]
    for k, (icon, _) in enumerate(icons):
        if icon == "fortress" and s[S.GARRISON + k] == -1:
            s[S.GARRISON + k] = 0  # occupied by the player
    garrison = s[S.GARRISON : S.GARRISON + 10].copy()
    s = solitairix_turn(s, data, rng)
    assert s[S.SOLO_SECTION] == 0 and s[S.PAWN] == NW
    assert s[at(x, S.P_ARMY1)] + s[at(x, S.P_ARMY2)] == 1  # it fought
    assert s[at(x, S.P_CUBES)] == 4  # no cube placed
    assert (s[S.GARRISON : S.GARRISON + 10] == garrison).all()


def test_T27_solo_victory_thresholds():
    s, _ = solo_state()
    comp = np.zeros(rules_scoring.N_COMPONENTS, np.int64)
    for target, score, won in ((30, 30, True), (30, 29, False), (25, 25, True), (35, 34, False)):
        data = default_data(1, solo_target=target)
        s[at(0, S.P_BONUS_TILES)] = score  # category B only (1 point each)
        assert R.components(s, data, 0, comp) == score
        got, _, win = results_of(s, data, 1)
        assert got[0, 0] == score
        assert win[0, 0] == (1.0 if won else 0.0), (target, score)
    assert RAW["solo"]["target"] == 30  # Normal is the default


def test_T28_setup_counts():
    """PROVISIONAL pile sizes, track, druid slots, neutral discs/cubes and citadel slots."""
    expect = {
        # players: leaders shown, track, druids, pile, neutral discs, neutral cubes, usable
        2: (3, 8, 6, 3, 8, 4, 20),
        3: (4, 9, 8, 4, 4, 2, 24),
        4: (5, 12, 10, 5, 0, 0, 28),
    }
    for n, (shown, track, druids, pile, ndiscs, ncubes, usable) in expect.items():
        data = DATA[n]
        s, rng = new_game(n, seed=n, role_mode=1)
        assert s[S.PHASE] == S.PH_DRAFT
        assert s[S.DSEAT] == (s[S.FIRST] + n - 1) % n  # the last player picks first
        assert int(s[S.OFFER : S.OFFER + 8].sum()) == shown
        pool = int(s[S.BAG : S.BAG + 4].sum())
        pool += int(
            (s[S.SPACES : S.SPACES + 12] >= 0).sum() + (s[S.CENTRE : S.CENTRE + 3] >= 0).sum()
        )
        assert pool == 44
        assert s[S.TRACK] == track
        assert s[S.RESERVE] + s[S.RESERVE + 1] == druids
        for p in range(4):
            assert s[S.PILE_END + p] - s[S.PILE_POS + p] == pile
        assert int(s[S.CIT_FILLED : S.CIT_FILLED + 8].sum()) == ndiscs
        assert int((s[S.GARRISON : S.GARRISON + 10] == -2).sum()) == ncubes
        caps = int(s[S.CIT_CAP : S.CIT_CAP + 8].sum())
        assert caps - ndiscs == usable
        while s[S.PHASE] in (S.PH_DRAFT, S.PH_DISCARD):
            s = first_legal(s, data, rng)
        assert s[S.PHASE] == S.PH_MOVE and s[S.SEAT] == s[S.FIRST]
        assert s[S.TEUTATES] == s[S.FIRST]
        leaders = set()
        for p in range(n):
            assert s[at(p, S.P_HAND_N)] == 3
            assert s[at(p, S.P_TOKENS)] == 1
            assert s[at(p, S.P_FORCE)] == 0
            assert s[at(p, S.P_SIDE)] == S.SIDE_A
            assert active(s, p) == sorted([F, B, SO])
            leaders.add(int(s[at(p, S.P_LEADER)]))
        assert len(leaders) == n and -1 not in leaders
    # solo: like 2 players, 3 leaders drawn, keep 1; Solitairix 9 discs, 4 cubes, 1 worker
    data = DATA[1]
    s, rng = new_game(1, seed=5, role_mode=1)
    assert s[S.PHASE] == S.PH_DRAFT and int(s[S.OFFER : S.OFFER + 8].sum()) == 3
    pool = int(s[S.BAG : S.BAG + 4].sum())
    pool += int((s[S.SPACES : S.SPACES + 12] >= 0).sum() + (s[S.CENTRE : S.CENTRE + 3] >= 0).sum())
    assert pool == 44 + 2
    assert s[S.TRACK] == 8 and s[S.TEUTATES] == -1
    assert int(s[S.CIT_FILLED : S.CIT_FILLED + 8].sum()) == 8
    x = 1
    assert s[at(x, S.P_DISCS)] == 9 and s[at(x, S.P_CUBES)] == 4
    assert active(s, x)[:2] == [-1, -1] and active(s, x)[2] in (F, B, SO)
    assert s[at(x, S.P_HAND_N)] == 0 and s[at(x, S.P_TOKENS)] == 0
    while s[S.PHASE] in (S.PH_DRAFT, S.PH_DISCARD):
        s = first_legal(s, data, rng)
    assert int(s[S.OFFER : S.OFFER + 8].sum()) == 0  # the 2 others are discarded
    assert s[at(0, S.P_HAND_N)] == 3 and s[at(0, S.P_TOKENS)] == 1
    assert s[S.PHASE] == S.PH_MOVE and s[S.SEAT] == 0


def test_T29_river_crossing_table():
    """PROVISIONAL geometry."""
    data = DATA[3]
    crossing = {(NE, 1), (NE, 2), (NE, 3), (NW, 2), (NW, 3), (SW, 3)}
    for pos in (SE, SW, NW, NE):
        for d in (1, 2, 3):
            expected = (pos, d) in crossing
            assert rules_shared.crosses(pos, d) == expected, (pos, d)
            s, rng = clean(seat=0)
            s[S.PAWN] = pos
            s[S.TRACK] = 5
            s[at(0, S.P_FORCE)] = 3
            s = do(s, data, rng, S.A_MOVE + d)
            assert s[S.PAWN] == (pos + d) % 4
            assert (s[S.TRACK] == 4) == expected, (pos, d)
            assert (s[S.PHASE] == S.PH_PAWN) == expected, (pos, d)


def test_T30_bonus_token():
    """PROVISIONAL geometry for (b): SW -> NW by 1, Combat is not adjacent to NW."""
    data = DATA[3]
    # (a) 1 farmer + a token used as an extra farmer: slots 1 + 5
    s, rng = clean(seat=0)
    set_active(s, 0, [F, B, SO])
    set_tribe(s, 0, {})
    set_space(s, S.SP_CB_NORTH, [B, B, B])
    s[at(0, S.P_TOKENS)] = 1
    s[S.TOKEN_RESERVE] -= 1
    reserve = s[S.TOKEN_RESERVE]
    m = market(s, S.NORTH)
    s = at_choose(s, NW)
    s = do(s, data, rng, choose(S.K_CULTIVATE, S.NORTH))
    s = decline(s, data, rng, (S.PH_REFRESH, S.PH_SWAP))
    assert s[S.PHASE] == S.PH_TOKEN
    without = decline(s, data, rng)
    assert S.A_CULT + 8 not in legal(without, data)  # 1 farmer: slot 5 out of reach
    s = do(s, data, rng, S.A_YES)
    assert s[S.PHASE] == S.PH_CULT
    assert s[at(0, S.P_TOKENS)] == 0 and s[S.TOKEN_RESERVE] == reserve + 1
    assert S.A_CULT + 8 in legal(s, data)  # farmers = 2
    s = do(s, data, rng, S.A_CULT + 8)
    assert s[at(0, S.P_HAND_N)] == 2
    for k in {m[0], m[4]}:
        assert hand(s, 0, k) == [m[0], m[4]].count(k)
    # (b) token "any space" from NW: Combat in the North (the pawn's region)
    s, rng = clean(seat=0)
    s[S.PAWN] = SW
    s[at(0, S.P_TOKENS)] = 1
    s[S.TOKEN_RESERVE] -= 1
    s = do(s, data, rng, S.A_MOVE + 1)
    assert s[S.PAWN] == NW and s[S.PHASE] == S.PH_CHOOSE
    options = legal(s, data)
    assert choose(S.K_COMBAT, S.NORTH, token=1) in options
    assert choose(S.K_COMBAT, S.SOUTH, token=1) not in options
    assert choose(S.K_CULTIVATE, S.SOUTH, token=1) in options  # CB South keeps its region
    assert choose(S.K_COMBAT, S.NORTH) not in options  # not adjacent without the token
    t = do(s, data, rng, choose(S.K_COMBAT, S.NORTH, token=1))
    assert t[S.REGION] == S.NORTH and t[S.SPACE] == S.SP_COMBAT and t[S.KIND] == S.K_COMBAT
    assert t[S.PAWN] == NW and t[at(0, S.P_TOKENS)] == 0
    u = do(s, data, rng, choose(S.K_CULTIVATE, S.SOUTH, token=1))
    assert u[S.REGION] == S.SOUTH and u[S.PAWN] == NW
    # variant player_choice: the South is possible too
    variant = default_data(3, token_any_space_region="player_choice")
    assert choose(S.K_COMBAT, S.SOUTH, token=1) in legal(s, variant)
