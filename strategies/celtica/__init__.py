"""Celtica bots: random (code 0), greedy (code 1); code 2 is left for the search bot.

Every policy has the signature ``policy(state, data, seat, params, rng, buf) -> action`` and reads
only what ``seat`` may know: its own Druid and XP hands, and the public board (druid positions,
the display, every player's fragments, hand sizes, the discards and the size of every pile).

Greedy values a fragment collection by its amulet layers (rules/celtica.md §6): a player with
``c_t`` fragments of type ``t`` has amulets of sizes ``s_j = #{t : c_t >= j}``, and greedy
scores ``sum_j s_j ** 2`` plus ``complete_bonus`` per complete amulet. A fragment is worth the
most when it is missing from the fullest amulet still lacking it, and a ruin costs least when it
takes duplicates. It weighs a ruin's losses against the XP card it pays, charges each card
played, and at a sacred place draws while other players still hold cards; when nobody else does
(so its next move comes at once, the «C.» example) it draws only if the expected best move with
the unknown card beats declining.
"""

import numpy as np

import sim.games.celtica.decisions as decisions  # the kinds the search's skip names
from sim.core.kernel import counted, leaf
from sim.core.params import Param, ParamSet
from sim.core.registry import BotDecl
from sim.core.rng import randint
from sim.core.scratch import stack_int32
from sim.games.celtica.params import (
    G_CARDS,
    G_DRUIDS,
    G_FINISH,
    G_MAX_DIG,
    G_MAX_RUIN,
    G_OVERSHOOT_FORBID,
    G_RUIN_XP,
    G_SACRED_DRAW,
    G_SWAP_PRICE,
    G_TAKE_PRICE,
    G_TYPES,
    G_XP_NEEDS_DRUID,
)
from sim.games.celtica.rules import (  # search hook (bot levels): advance..step
    advance,
    current_player,
    determinize,
    hand_count,
    is_over,
    legal_actions,
    scores,
    step,
)
from sim.games.celtica.state import (
    A_DECLINE,
    A_DRAW,
    A_PASS,
    A_RETURN,
    A_TAKE,
    A_XDONE,
    A_XSWAP,
    A_XTAKE,
    DISCARD,
    DISCARD_N,
    DISPLAY,
    FRAG,
    HAND,
    K_DIG,
    K_RUIN,
    K_SACRED,
    MAX_LAYERS,
    MAX_LOCATIONS,
    MAX_TYPES,
    N_COLOURS,
    NP,
    PH_DIG,
    PH_EXCHANGE,
    PH_RUIN,
    PH_SACRED,
    PHASE,
    PILE_N,
    POS,
    XP,
    XP_DISCARD_N,
    XP_PILE_N,
)
from strategies.search import SEARCH_CODE, make_search_bot, search_bot_decl  # search hook

RANDOM_CODE, GREEDY_CODE = 0, 1

GREEDY_PARAMS = ParamSet(
    (
        Param(
            "complete_bonus",
            "float",
            10.0,
            "value of completing an amulet, on top of its layer value",
            low=0.0,
            high=1000.0,
        ),
        Param("xp_gain", "float", 3.0, "value of an XP card drawn at a ruin", low=0.0, high=1000.0),
        Param("xp_spend", "float", 6.0, "cost of playing an XP card to move", low=0.0, high=1000.0),
        Param("card_cost", "float", 5.0, "cost of each Druid card played", low=0.0, high=1000.0),
        Param(
            "sacred_value",
            "float",
            8.0,
            "value of a sacred-place draw while other players still hold cards (draws if >= 0)",
            low=-1000.0,
            high=1000.0,
        ),
    )
)
# Defaults tuned by seat-rotated head-to-head play against the first guesses (10, 6, 6, 1, 2):
# the tuned bot wins 62% at 2 players and 41% at 4 players against three of them.
P_COMPLETE, P_XP_GAIN, P_XP_SPEND, P_CARD_COST, P_SACRED = range(5)

RANDOM_DECL = BotDecl("random", RANDOM_CODE, "uniform over the legal actions")
GREEDY_DECL = BotDecl(
    "greedy",
    GREEDY_CODE,
    "one-move lookahead on amulet layers: fragments it lacks, ruins vs XP, sacred draw by who "
    "still holds cards",
    GREEDY_PARAMS,
)
# search hook (bot levels): code 2, the search budget then greedy's weights for the rollouts;
# defaults measured at 0.61 against greedy, 31 games/s on one core (2 players, search_measure).
# same=3 cut=0.5 (issue 20; was same=4 cut=1): 1.2x the games/s (4 players, every seat
# searching: 67 -> 81). Against greedy, 2 players, 3,000 games, seeds 0, 1, 2: same=4 0.607,
# 0.606, 0.619; same=3 0.608, 0.607, 0.618; same=3 cut=0.5 0.594, 0.608, 0.604 (rollouts=48
# 0.594 and same=2 0.597 at seed 0 were weaker for no more speed). Then cut_after=3 same=2 (the
# cut may act from the third round): seeds 0-4 0.605, 0.588, 0.612, 0.604, 0.605 against 0.594,
# 0.608, 0.604, 0.596, 0.619 (mean 0.603 against 0.604), 1.2x the games/s (89 -> 106); rejected:
# cut_after=2 same=2 0.602, 0.584, 0.601; rollouts=48 same=2 0.594, 0.583, 0.601
# Issue 42: horizon=6, cut_after=2 and the fragments taken at a dig site or returned at a ruin
# left to greedy (skip). Profiled per kind (benchmarks/search_kinds.py, 4 players, every seat
# searching, 30 games), the search overruled greedy in 6.6% of the takes and 10% of the returns,
# 43% of its time; skipping them alone cost strength (takes: 0.579 at seed 0), as did every
# cheaper budget alone (horizon=3 0.544, 0.545; width=3 0.565, 0.559; rollouts=32 0.564;
# same=1 cut_after=2 0.582, 0.563, 0.585), but the two more turns per rollout buy it back.
# Against greedy, 2 players, 3,000 games, seeds 0-4: 0.600, 0.605, 0.616, 0.614, 0.608 (mean
# 0.609; Wilson 95% intervals about +-0.018, e.g. [0.583, 0.618] at seed 0) against 0.605,
# 0.588, 0.612, 0.604, 0.605 (mean 0.603); 4 players, 2,400 games, seeds 0, 1: 0.438, 0.449
# against 0.433, 0.442 (ladder win share).
# Games per CPU second, 4 players, every seat searching, back to back: 1.53x and 1.60x (123 ->
# 197), about 137 -> 215 on the quiet-machine bench. Measured on the way (seeds 0-2):
# horizon=5 skip=take,return cut_after=2 0.590, 0.588, 0.600 (1.8x); horizon=5 skip=take
# cut_after=2 0.579, 0.599, 0.604 (1.5x); cut_after=2 alone 0.602, 0.584, 0.601 (1.2x)
# Issue 35, the ladder ordered at 4 players: the horizon counts turns, so 6 turns looked three
# rounds ahead at 2 players but a round and a half at 4, where the search lost to greedy (ladder
# win share against greedy, 4 players, 1,200 games, seeds 0, 1: 0.441, 0.465; horizon=3 0.366,
# horizon=9 0.488). Three rounds at every player count (horizon = 3 x players): 0.545, 0.558 at
# 4 players (horizon=12 rollouts=32: 0.530, 1.2x the games/s); 2 players unchanged (6).
# Issue 42, 48 rollouts at 4 and 5 players: against greedy, seats rotated, seeds 10-14, 8,050
# games (8,100 at 5 players; benchmarks/search_frontier.py), 4 players 0.552 [0.541, 0.563]
# against 0.544 [0.533, 0.555] with 64, 1.23x the games/s (99 -> 122, every seat searching);
# 5 players 0.542 against 0.542, 85 -> 100. 40 rollouts at 4 players 0.543 (132/s), 32 0.530,
# 24 0.519, 16 0.491: fewer cost strength. 3 players keep 64 (48: 0.544 against 0.549).
SEARCH_DECL = search_bot_decl(
    GREEDY_DECL,
    decisions.DECISION_KINDS,
    rollouts={2: 64, 3: 64, 4: 48, 5: 48},
    horizon={players: 3 * players for players in range(2, 6)},
    margin=1.0,
    same=2,
    cut=0.5,
    cut_after=2,
    skip=("take_fragment", "return_fragment"),
)
BOTS = (RANDOM_DECL, GREEDY_DECL, SEARCH_DECL)

NEG = -1e18

MAX_PICKS = 20  # fragments one landing can take or return (display size and site values <= 20)

# Greedy keeps its small work arrays in the policy's int32 ``buf`` (no allocation): integers,
# then the float64 dig/ruin values (2 * (MAX_PICKS + 1) of them, two int32 slots each, 8-byte
# aligned as the buffer is)
S_COUNTS, S_GE, S_DISPLAY, S_HAND, S_XP, S_UNSEEN, S_VALUES = 0, 16, 32, 48, 64, 80, 96
N_VALUES = 2 * (MAX_PICKS + 1)
SCRATCH_LEN = S_VALUES + 2 * N_VALUES
N_GE = MAX_LAYERS + 2  # load_collection's amulet sizes, on the stack in search_values


# ---------------------------------------------------------------------------------------------
# Fragment values. ``counts[t]`` = fragments of type t; ``ge[j]`` = #{t : counts[t] >= j}, the
# size of amulet j, kept beside the counts so that a gain or a loss costs O(1).
# ---------------------------------------------------------------------------------------------


@leaf(inline="always")
def load_collection(state, seat, types, counts, ge):
    """Fill ``counts`` with ``seat``'s fragments and ``ge`` with its amulet sizes (a histogram of
    the counts, then its suffix sums: no loop whose length depends on the data)."""
    for j in range(MAX_LAYERS + 2):
        ge[j] = 0
    for t in range(types):
        c = state[FRAG + seat * MAX_TYPES + t]
        counts[t] = c
        ge[c] += 1
    for j in range(MAX_LAYERS, 0, -1):
        ge[j] += ge[j + 1]
    ge[0] = 0


@leaf(inline="always")
def add_gain(counts, ge, types, t, bonus):
    """Value gained by one more fragment of type ``t``: it joins amulet ``counts[t] + 1``."""
    s = ge[counts[t] + 1]
    g = 2.0 * s + 1.0
    if s + 1 == types:
        g += bonus
    return g


@leaf(inline="always")
def remove_loss(counts, ge, types, t, bonus):
    """Value lost by giving up one fragment of type ``t`` (it leaves amulet ``counts[t]``)."""
    s = ge[counts[t]]
    loss = 2.0 * s - 1.0
    if s == types:
        loss += bonus
    return loss


@leaf(inline="always")
def _add(counts, ge, t):
    counts[t] += 1
    ge[counts[t]] += 1


@leaf(inline="always")
def _remove(counts, ge, t):
    ge[counts[t]] -= 1
    counts[t] -= 1


@leaf(inline="always")
def best_take(counts, ge, display, types, bonus):
    """The display type adding most to the collection (-1 if the display is empty)."""
    best, best_t = NEG, -1
    for t in range(types):
        if display[t] > 0:
            g = add_gain(counts, ge, types, t, bonus)
            if g > best:
                best, best_t = g, t
    return best_t


@leaf(inline="always")
def best_return(counts, ge, types, bonus):
    """The own type whose loss hurts least (-1 if no fragment)."""
    best, best_t = -NEG, -1
    for t in range(types):
        if counts[t] > 0:
            loss = remove_loss(counts, ge, types, t, bonus)
            if loss < best:
                best, best_t = loss, t
    return best_t


@leaf
def pick_values(state, data, seat, bonus, buf, dig, ruin, max_dig, max_ruin):
    """``dig[n]``: value of taking n display fragments one by one, each the best one, for n up
    to ``max_dig``; ``ruin[n]``: value lost by returning the n least useful fragments one by
    one, for n up to ``max_ruin``."""
    types = data.rules[G_TYPES]
    counts = buf[S_COUNTS : S_COUNTS + MAX_TYPES]
    ge = buf[S_GE : S_GE + MAX_LAYERS + 2]
    display = buf[S_DISPLAY : S_DISPLAY + MAX_TYPES]
    load_collection(state, seat, types, counts, ge)
    for t in range(MAX_TYPES):
        display[t] = state[DISPLAY + t]
    ruin[0] = 0.0
    for n in range(1, max_ruin + 1):  # returns first, then undo them
        t = best_return(counts, ge, types, bonus)
        ruin[n] = ruin[n - 1]
        if t >= 0:
            ruin[n] += remove_loss(counts, ge, types, t, bonus)
            _remove(counts, ge, t)
            display[t] -= 1  # remember what to put back, in the display's spare room
    for t in range(types):
        while display[t] < state[DISPLAY + t]:
            display[t] += 1
            _add(counts, ge, t)
    dig[0] = 0.0
    for n in range(1, max_dig + 1):
        t = best_take(counts, ge, display, types, bonus)
        dig[n] = dig[n - 1]
        if t >= 0:
            dig[n] += add_gain(counts, ge, types, t, bonus)
            _add(counts, ge, t)
            display[t] -= 1


@leaf(inline="always")
def landing_value(state, data, loc, params, dig, ruin):
    """What landing a druid on location ``loc`` is worth (``dig``/``ruin`` from pick_values)."""
    kind = data.loc_kind[loc]
    value = min(data.loc_value[loc], MAX_PICKS)
    r = data.rules
    if kind == K_DIG:
        return dig[value]
    if kind == K_RUIN:
        cards = min(r[G_RUIN_XP], state[XP_PILE_N] + state[XP_DISCARD_N])
        return params[P_XP_GAIN] * cards - ruin[value]
    if kind == K_SACRED and r[G_SACRED_DRAW] > 0 and state[PILE_N] + state[DISCARD_N] > 0:
        return params[P_SACRED]
    return 0.0


# ---------------------------------------------------------------------------------------------
# Choosing a move
# ---------------------------------------------------------------------------------------------


@leaf
def reach_limits(state, data, hand, xp):
    """The largest dig and ruin values among the locations ``hand``/``xp`` can reach, at most
    MAX_PICKS (the data's ``reach`` table: the largest of each over the next ``d`` locations,
    at most MAX_SITE_VALUE, the same 20)."""
    r = data.rules
    finish = r[G_FINISH]
    max_dig, max_ruin = 0, 0
    for c in range(r[G_DRUIDS]):
        pos = state[POS + c]
        if pos == finish:
            continue
        d = min(hand[c] + xp[c], MAX_LOCATIONS)  # farther only stops on the finish again
        max_dig = max(max_dig, data.reach[0, pos, d])
        max_ruin = max(max_ruin, data.reach[1, pos, d])
    return max_dig, max_ruin


@leaf
def best_play(state, data, hand, xp, params, dig, ruin):
    """Best (value, action) over the plays of ``hand``/``xp`` (counts per colour); for each
    colour and distance it spends the cheaper kind of card first."""
    r = data.rules
    finish = r[G_FINISH]
    held = 0
    for c in range(N_COLOURS):
        held += hand[c]
    xp_ok = held > 0 or r[G_XP_NEEDS_DRUID] == 0
    card_cost = params[P_CARD_COST]
    xp_cost = params[P_XP_SPEND]
    best, best_a = NEG, -1
    if held == 0:
        best, best_a = 0.0, A_PASS
    for c in range(r[G_DRUIDS]):
        hd = hand[c]
        hx = xp[c] if xp_ok else 0
        pos = state[POS + c]
        for k in range(1, hd + hx + 1):
            if card_cost <= xp_cost:
                kd = min(k, hd)
                kx = k - kd
            else:
                kx = min(k, hx)
                kd = k - kx
            if pos == finish:
                land = 0.0
            elif pos + k > finish and r[G_OVERSHOOT_FORBID]:
                break
            else:
                land = landing_value(state, data, min(pos + k, finish), params, dig, ruin)
            v = land - card_cost * kd - xp_cost * kx
            if v > best:
                best, best_a = v, c * 1024 + kd * 32 + kx
    return best, best_a


@leaf
def others_hold_cards(state, seat):
    """Does any other player still hold a Druid card (hand sizes are public)?"""
    for s in range(state[NP]):  # noqa: SIM110 (a plain loop compiles to the fastest code)
        if s != seat and hand_count(state, s) > 0:
            return True
    return False


@leaf
def _sacred_choice(state, data, seat, params, buf, dig, ruin):
    """Nobody else holds a card, so the next move comes at once: draw only if the expected best
    move with the unknown card is at least as good as declining."""
    r = data.rules
    hand = buf[S_HAND : S_HAND + N_COLOURS]
    xp = buf[S_XP : S_XP + N_COLOURS]
    unseen = buf[S_UNSEEN : S_UNSEEN + N_COLOURS]
    held = 0
    for c in range(N_COLOURS):
        hand[c] = state[HAND + seat * N_COLOURS + c]
        xp[c] = state[XP + seat * N_COLOURS + c]
        held += hand[c]
    decline = 0.0
    if held > 0:
        decline, _ = best_play(state, data, hand, xp, params, dig, ruin)
    # Nobody else holds a card, so the unseen Druid cards are exactly the draw pile; if it is
    # empty the discard is reshuffled first.
    total = 0
    for c in range(N_COLOURS):
        unseen[c] = r[G_CARDS] - state[DISCARD + c] - hand[c] if c < r[G_DRUIDS] else 0
        total += unseen[c]
    if total == 0:
        for c in range(N_COLOURS):
            unseen[c] = state[DISCARD + c]
            total += unseen[c]
    if total == 0:
        return A_DECLINE
    ev = 0.0
    for c in range(N_COLOURS):
        if unseen[c] > 0:
            hand[c] += 1
            v, _ = best_play(state, data, hand, xp, params, dig, ruin)
            hand[c] -= 1
            ev += v * unseen[c] / total
    # the drawn card is an extra one: spending it costs nothing this round
    return A_DRAW if ev + params[P_CARD_COST] >= decline else A_DECLINE


@leaf
def _exchange_choice(state, data, seat, params, buf):
    """Final exchange: the take or swap with the best value per XP card, while one gains."""
    r = data.rules
    types = r[G_TYPES]
    bonus = params[P_COMPLETE]
    xp = 0
    for c in range(N_COLOURS):
        xp += state[XP + seat * N_COLOURS + c]
    counts = buf[S_COUNTS : S_COUNTS + MAX_TYPES]
    ge = buf[S_GE : S_GE + MAX_LAYERS + 2]
    load_collection(state, seat, types, counts, ge)
    best_eff, best_a = 0.0, A_XDONE
    if xp >= r[G_TAKE_PRICE]:
        for t in range(types):
            if state[DISPLAY + t] > 0:
                eff = add_gain(counts, ge, types, t, bonus) / r[G_TAKE_PRICE]
                if eff > best_eff:
                    best_eff, best_a = eff, A_XTAKE + t
    if xp >= r[G_SWAP_PRICE]:
        for a in range(types):
            if counts[a] == 0:
                continue
            loss = remove_loss(counts, ge, types, a, bonus)
            _remove(counts, ge, a)
            for b in range(types):
                if b != a and state[DISPLAY + b] > 0:
                    eff = (add_gain(counts, ge, types, b, bonus) - loss) / r[G_SWAP_PRICE]
                    if eff > best_eff:
                        best_eff, best_a = eff, A_XSWAP + a * 16 + b
            _add(counts, ge, a)
    return best_a


@leaf
def greedy_action(state, data, seat, params, rng, buf):
    """The greedy policy (bot code 1): deterministic; ``rng`` is unused and ``buf`` (int32, at
    least SCRATCH_LEN long) is its scratch space."""
    phase = state[PHASE]
    types = data.rules[G_TYPES]
    bonus = params[P_COMPLETE]
    if phase in (PH_DIG, PH_RUIN):
        counts = buf[S_COUNTS : S_COUNTS + MAX_TYPES]
        ge = buf[S_GE : S_GE + MAX_LAYERS + 2]
        load_collection(state, seat, types, counts, ge)
        if phase == PH_RUIN:
            return A_RETURN + best_return(counts, ge, types, bonus)
        return A_TAKE + best_take(counts, ge, state[DISPLAY : DISPLAY + MAX_TYPES], types, bonus)
    if phase == PH_EXCHANGE:
        return _exchange_choice(state, data, seat, params, buf)
    if phase == PH_SACRED and others_hold_cards(state, seat):
        return A_DRAW if params[P_SACRED] >= 0.0 else A_DECLINE
    values = buf[S_VALUES : S_VALUES + 2 * N_VALUES].view(np.float64)
    dig = values[: MAX_PICKS + 1]
    ruin = values[MAX_PICKS + 1 :]
    r = data.rules
    if phase == PH_SACRED:
        pick_values(state, data, seat, bonus, buf, dig, ruin, r[G_MAX_DIG], r[G_MAX_RUIN])
        return _sacred_choice(state, data, seat, params, buf, dig, ruin)
    hand = buf[S_HAND : S_HAND + N_COLOURS]
    xp = buf[S_XP : S_XP + N_COLOURS]
    for c in range(N_COLOURS):
        hand[c] = state[HAND + seat * N_COLOURS + c]
        xp[c] = state[XP + seat * N_COLOURS + c]
    max_dig, max_ruin = reach_limits(state, data, hand, xp)
    pick_values(state, data, seat, bonus, buf, dig, ruin, max_dig, max_ruin)
    _, action = best_play(state, data, hand, xp, params, dig, ruin)
    return action


@leaf
def random_action(state, data, seat, params, rng, buf):
    """Uniform over the legal actions (bot code 0)."""
    n = legal_actions(state, data, buf)
    return buf[randint(rng, n)]


@leaf
def search_values(state, data, params, out):
    """Search hook (bot levels): each seat's position as greedy values it, for the search bot's
    rollouts cut at a horizon. The amulet layers ``sum_j s_j ** 2`` plus ``complete_bonus`` per
    complete amulet, plus ``xp_gain`` per XP card while the game (and its final exchange) is not
    over. ``params`` are greedy's weights; returns the seat count."""
    types = data.rules[G_TYPES]
    bonus = params[P_COMPLETE]
    xp_value = 0.0 if is_over(state) else params[P_XP_GAIN]
    counts = stack_int32(MAX_TYPES)
    ge = stack_int32(N_GE)
    for s in range(state[NP]):
        load_collection(state, s, types, counts, ge)
        v = 0.0
        for j in range(MAX_LAYERS):  # amulet j + 1 holds the types held more than j times
            size = ge[j + 1]
            if size == 0:
                break
            v += size * size
            if size == types:
                v += bonus
        xp = 0
        for c in range(N_COLOURS):
            xp += state[XP + s * N_COLOURS + c]
        out[s] = v + xp_value * xp
    return state[NP]


@leaf
def kind_of(state, data, action):
    """The decision kind of ``action``, as the search's skip parameter asks for it."""
    return decisions.decision_kind(state, action)


# search hook (bot levels): the game-agnostic search kernel; determinize re-deals hidden cards,
# search_values judges a rollout cut at the horizon
search_action = make_search_bot(
    step,
    legal_actions,
    current_player,
    is_over,
    greedy_action,
    scores,
    determinize,
    search_values,
    policy_memory=False,  # greedy's buf is scratch, written before it is read
    advance=advance,  # rollouts step in place
    decision_kind=kind_of,  # what the skip parameter names
)


@leaf(inline="always")  # into its loops: a call level and a compiled module fewer
def choose_plain(state, data, seat, code, params, rng, buf):
    """Random and greedy seats only: a chunk with no searching seat runs a loop built on this
    dispatch, which never compiles the search (issue 42: a third of the game's cold compile)."""
    if code == GREEDY_CODE:
        return greedy_action(state, data, seat, params, rng, buf)
    return random_action(state, data, seat, params, rng, buf)


@counted(inline="always")  # into its loops; inlines the search, which allocates
def choose_action(state, data, seat, code, params, rng, buf):
    """Dispatch on the seat's bot code.

    The search bot (code 2) hooks in as one more branch, on the public kernels::

        _search = make_search_bot(step, legal_actions, current_player, is_over,
                                  greedy_action, scores, determinize,
                                  search_values)                          # module level
        ...
        if code == SEARCH_CODE:
            return _search(state, data, seat, params, rng, buf)

    with ``search_bot_decl(GREEDY_DECL, ...)`` appended to ``BOTS``. ``scores`` ranks exactly
    like the rulebook, ``determinize`` re-deals the hands and piles the seat cannot see, and
    ``search_values`` values a rollout cut at the horizon (with ``margin > 0``).
    """
    if code == SEARCH_CODE:  # search hook (bot levels)
        return search_action(state, data, seat, params, rng, buf)
    return choose_plain(state, data, seat, code, params, rng, buf)
