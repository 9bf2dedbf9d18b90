"""The game-agnostic search bot (bot code 2): flat Monte Carlo over the legal actions.

For each candidate action the bot plays continuations to the end of the game (or to a horizon)
with the game's greedy policy for every seat, scores them, and plays the action with the best
mean value. Candidates are compared on common random numbers: rollout *r* of every candidate
draws its chance from the same sub-stream, so a candidate wins on its merit, not on luck.

Randomness. The bot receives only its own seat's stream (``streams[1 + seat]``); the real
game's chance stream never reaches this module, so thinking longer never moves the real dice or
bag draws. Each decision hashes the seat stream's current state with the position into a 64-bit
base (without advancing the stream) and seeds rollout *r*'s chance from ``mix64(base + r *
golden)``; the stream itself is advanced only by the greedy policy's own call, exactly as when
greedy plays. So a search that keeps greedy's pick replays the greedy game draw for draw, whatever
its budget (the tests use this on every game). Hidden bag order is re-sampled in every rollout
(bags are histograms and draws come from the rng given to ``step``), never read; the hash mixes
the whole state, but only to decorrelate decisions, never to choose. Games with hidden cards
pass a ``determinize`` kernel that re-deals what the seat cannot see.

Budget: ``rollouts`` per decision, at most (or spread by UCB1); ``width`` limits the candidates
to greedy's pick plus random others; ``horizon`` stops a rollout after that many further turns (a
turn ends when the deciding seat changes), which is what keeps long games affordable; forced
moves (one legal action) cost no rollout. ``skip`` leaves to greedy, without a rollout, the
decisions whose greedy pick is of a listed kind (the game's decision kinds, as counted in the
``act_<kind>`` columns): profiled per kind (issue 20), the search changed greedy's pick in none
or almost none of Celtic Trader's orders, deliveries and claims, which took a third of its
time, while a few kinds (movement, Catan's end of turn) carry its strength. Each game's default
names the kinds measured to cost it no strength; ``skip=0`` searches every decision.
``follow=1`` leaves to greedy the decisions where its pick follows a plan it made at an earlier
decision (the game's ``follows_plan`` kernel: the later steps of a Celtic Trader move, 37% of
its search's time, where the search overruled greedy in 1.1%).
``opening`` names the kinds (a game's setup placements) whose rollouts are valued with
``opening_margin`` instead of ``margin`` (issue 35): a rollout cut at the horizon during the
setup ends with the same VP whatever the candidate, so its win share says nothing and only the
game's ``evaluate`` (the seats' positions, e.g. production) tells the candidates apart. Such a
decision gets ``opening_rollouts`` and ``opening_horizon``, and its alternatives are drawn
first from greedy's own softmax (the places greedy values nearly as much as its pick), then at
random.

Choosing. Flat Monte Carlo with few rollouts over many candidates crowns noise (the winner's
curse): on Celtic Trader an unguarded search lost most games to the greedy policy it rolls out
with, and on Celtica (issue 5, "bot levels") a full-game search that played the best mean lost
82% of its games to greedy. So without UCB1 the candidates run a paired race against greedy's
pick: each candidate gets at least ``MIN_PER_CANDIDATE`` rollouts (fewer candidates otherwise,
greedy's pick always among them; under 8 rollouts the bot plays greedy); from then on, after
every round, an alternative whose mean paired gain plus ``cut`` standard errors is below ``keep``
is dropped, and the rollouts it would have used go to the survivors (the race stops at once when
only greedy's pick is left, which is what makes clear-cut decisions cheap: 1.25x the games/s of
an equal split on Celtica at its default budget, at the same strength). An alternative
replaces greedy's pick only when its paired mean gain clears ``keep`` plus ``z`` standard
errors. ``same`` drops earlier the alternatives that change nothing: one whose every rollout so
far, on the paired draws, was valued exactly as greedy's pick's (zero gain, zero spread; the
common case when the horizon's leader does not depend on the move) is dropped after ``same``
rounds. Profiled by phase (issue 20), the bot spent almost all of its time in rollouts whose
value equalled greedy's, 98% of the alternatives still alive at the end of a Celtic Trader race
were such, and a race ran its whole budget on them; an alternative with one differing rollout in
``same + 1`` can never clear ``z = 1`` anyway. UCB1 (``ucb > 0``) plays the best mean (plus
``keep``) instead. MCTS/UCT was not implemented: tree reuse needs per-game state hashing, and
the flat race meets the targets on both games.

Rollout value, from the searching seat's point of view. ``scores`` gives each seat's score if
the game ended now (win share: 1 if strictly first, 1/k in a k-way tie, else 0); ``evaluate``
(optional, default: ``scores``) gives each seat a value on a smooth scale, the game's heuristic
of how good its position is, which is what judges a rollout cut at the horizon::

    value = win share + margin * (own value - best other value)

With one player (solo games) the value is the own score. Why ``evaluate`` exists: on Celtica the
score is a lexicographic amulet key, so "who leads now" after a few turns says little about who
wins, and binary win shares are too noisy to separate candidates; with the greedy policy's own
collection value at the horizon (``margin = 1``) the search beats greedy, without it it lost.

How one implementation serves every game under numba with ``cache=True``. A factory,
:func:`make_search_bot`, closes a plain ``@njit`` kernel over the game's kernels (step,
legal_actions, current_player, is_over, greedy policy, scores, optional determinize and
evaluate). The game's own cached
``choose_action`` calls that closure, so the search code is compiled into the game's cached
dispatch once and loaded from the numba cache in later sessions. Measured with numba 0.68:
passing the kernels as first-class function arguments makes the caller uncacheable ("dynamic
globals") and recompiles the callee every process; a closure marked ``cache=True`` misses the
cache in every new process (its closure cells pickle differently) and grows the cache
directory. A plain-``njit`` closure inlined into a cached caller has neither problem, once
each game's closures carry names of their own (:func:`_own_names`: a symbol is the
qualified name plus a counter that every process restarts, so two games compiled in two
processes collided).
numba invalidates a cached function only when its own file changes; menhir keys its whole
cache folder by a digest of the sources instead (sim/numba_cache.py), so an edit here is always
compiled into the games' cached dispatch.

Bot parameters: :data:`SEARCH_PARAMS` followed by the game's greedy parameters (the rollout
policy's weights), so ``search:rollouts=64:horizon=4`` and greedy weights are tuned the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np
from numba import njit, uint64

from sim.core.kernel import copy_part, copy_state, leaf, one_version
from sim.core.params import Param, ParamSet
from sim.core.registry import BotDecl
from sim.core.rng import mix64, randint, seed_stream
from sim.core.scratch import stack_float64, stack_int64, stack_uint64
from sim.core.specialize import specialized

SEARCH_CODE = 2


def any_searches(codes) -> bool:
    """Does a seat with one of these bot ``codes`` search?"""
    return any(int(c) == SEARCH_CODE for c in codes)


def chunk_loop(codes, every_bot, plain):
    """The chunk loop for seats with these bot ``codes``: ``plain`` (built on the game's
    ``choose_plain``, compiled without the search) unless a seat searches.

    numba caches neither a kernel that takes the bot dispatch as an argument nor a closure, so
    each game keeps two copies of its short chunk loop; a greedy or random run then never pays
    for compiling the search (issue 42)."""
    return every_bot if any_searches(codes) else plain


def checked_loop(codes, kernel, choose_plain):
    """The checked loop (sim/core/check.py) for seats with these bot ``codes``: ``kernel``
    unless a seat searches, else a copy of it that calls the game's ``choose_plain`` where it
    calls ``choose_action``, so ``menhir check`` with random and greedy seats never compiles
    the search either (sim/core/specialize.py)."""
    if any_searches(codes):
        return kernel
    return specialized(kernel, {"choose_action": choose_plain}, "plain")


SEARCH_PARAMS: tuple[Param, ...] = (
    Param(
        "rollouts",
        "int",
        16,
        "rollouts per decision, shared by the candidate actions",
        low=1,
        high=1_000_000,
    ),
    Param(
        "horizon",
        "int",
        2,
        "turns a rollout plays after the candidate's turn before it is scored (0 = to the end); "
        "a turn lasts while the deciding seat stays the same",
        low=0,
        high=1_000_000,
    ),
    Param(
        "width",
        "int",
        0,
        "candidate actions: greedy's pick plus random others up to this many (0 = all legal)",
        low=0,
        high=100_000,
    ),
    Param(
        "ucb",
        "float",
        0.0,
        "UCB1 exploration constant for spreading rollouts (0 = equal split, paired draws)",
        low=0.0,
        high=100.0,
    ),
    Param(
        "keep",
        "float",
        0.0,
        "an alternative must beat greedy's pick by more than this mean value to be played",
        low=0.0,
        high=1000.0,
    ),
    Param(
        "z",
        "float",
        1.0,
        "equal split: an alternative needs a paired gain over greedy's pick above z std errors",
        low=0.0,
        high=100.0,
    ),
    Param(
        "margin",
        "float",
        0.0,
        "weight of (own value - best other value) added to the win share of a rollout",
        low=0.0,
        high=1000.0,
    ),
    Param(
        "cut",
        "float",
        1.0,
        "equal split: drop an alternative once its gain + cut std errors is below keep (0 = never)",
        low=0.0,
        high=100.0,
    ),
    Param(
        "same",
        "int",
        0,
        "equal split: drop an alternative valued as greedy's pick in all of its first `same` "
        "rollouts (0 = never)",
        low=0,
        high=1_000_000,
    ),
    Param(
        "skip",
        "int",
        0,
        "decisions left to greedy's pick: a bitmask over the game's decision kinds, bit i for "
        "kind i, matched on greedy's pick (0 = search every decision)",
        low=0,
        high=2**53 - 1,
    ),
    Param(
        "cut_after",
        "int",
        4,
        "equal split: rounds every alternative plays before cut may drop it",
        low=2,
        high=1_000_000,
    ),
    Param(
        "opening",
        "int",
        0,
        "decisions whose rollouts are valued with opening_margin instead of margin: a bitmask "
        "over the game's decision kinds, bit i for kind i, matched on greedy's pick (0 = none)",
        low=0,
        high=2**53 - 1,
    ),
    Param(
        "opening_margin",
        "float",
        0.0,
        "the margin of the opening decisions: a setup rollout cut at the horizon ends with "
        "everybody level in VP, so what it judges is the evaluated position",
        low=0.0,
        high=1000.0,
    ),
    Param(
        "opening_horizon",
        "int",
        0,
        "turns an opening decision's rollout plays after the candidate's turn (0 = horizon)",
        low=0,
        high=1_000_000,
    ),
    Param(
        "opening_rollouts",
        "int",
        0,
        "rollouts per opening decision (0 = rollouts); its alternatives to greedy's pick are "
        "drawn from greedy's own softmax (its temperature) before random others",
        low=0,
        high=1_000_000,
    ),
    Param(
        "follow",
        "int",
        0,
        "1 = leave to greedy, without a rollout, a decision where its pick follows a plan it "
        "made at an earlier decision (Celtic Trader's and Celtic Quest's later steps of a "
        "move; no effect in games whose greedy makes no plan)",
        low=0,
        high=1,
    ),
)
N_SEARCH_PARAMS = len(SEARCH_PARAMS)
(
    P_ROLLOUTS,
    P_HORIZON,
    P_WIDTH,
    P_UCB,
    P_KEEP,
    P_Z,
    P_MARGIN,
    P_CUT,
    P_SAME,
    P_SKIP,
    P_CUT_AFTER,
    P_OPENING,
    P_OPENING_MARGIN,
    P_OPENING_HORIZON,
    P_OPENING_ROLLOUTS,
    P_FOLLOW,
) = range(N_SEARCH_PARAMS)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MAX_SEATS = 16  # size of the per-decision score buffer; no menhir game has more seats
MIN_PER_CANDIDATE = 4  # with an equal split, at most rollouts // 4 candidates are compared


def kinds_mask(kinds: tuple[str, ...], names) -> int:
    """The ``skip`` bitmask of the decision kinds ``names`` among a game's ``kinds``."""
    unknown = sorted(set(names) - set(kinds))
    if unknown:
        raise ValueError(f"unknown decision kind(s) {unknown}; the game's are {list(kinds)}")
    return sum(1 << kinds.index(name) for name in set(names))


def search_params(greedy: BotDecl, kinds: tuple[str, ...] = (), **defaults) -> ParamSet:
    """The search bot's ParamSet: the search budget, then greedy's weights for the rollouts.

    ``defaults`` overrides a search parameter's default for one game (``rollouts=16``);
    ``skip`` is given as decision kind names, of the game's ``kinds`` (its DECISION_KINDS),
    and its description then names them.
    """
    unknown = sorted(set(defaults) - {p.name for p in SEARCH_PARAMS})
    if unknown:
        raise ValueError(f"unknown search parameter(s) {unknown}")
    docs = {}
    if "skip" in defaults:
        names = tuple(defaults["skip"])
        defaults = dict(defaults, skip=kinds_mask(kinds, names))
        listed = ", ".join(sorted(names, key=kinds.index)) or "none"
        docs["skip"] = (
            f"{SEARCH_PARAMS[P_SKIP].doc}; the default leaves {listed} to greedy (kinds in "
            f"order: {', '.join(kinds)})"
        )
    if "opening" in defaults:
        names = tuple(defaults["opening"])
        defaults = dict(defaults, opening=kinds_mask(kinds, names))
        listed = ", ".join(sorted(names, key=kinds.index)) or "none"
        docs["opening"] = f"{SEARCH_PARAMS[P_OPENING].doc}; the default names {listed}"
    own = tuple(
        dataclasses.replace(p, default=defaults[p.name], doc=docs.get(p.name, p.doc))
        if p.name in defaults
        else p
        for p in SEARCH_PARAMS
    )
    for p in own:  # a default by player count ({players: value}) checks each value
        for value in p.default.values() if isinstance(p.default, Mapping) else (p.default,):
            p.validate(value)
    return ParamSet(own + tuple(greedy.params))


def search_bot_decl(greedy: BotDecl, kinds: tuple[str, ...] = (), **defaults) -> BotDecl:
    """The ``BotDecl("search", 2, ...)`` entry a game adds to its ``GAME.bots``; ``kinds`` are
    the game's decision kinds, which ``skip=(names...)`` refers to."""
    return BotDecl(
        "search",
        SEARCH_CODE,
        "flat Monte Carlo: greedy rollouts per candidate, a paired race against greedy's pick",
        search_params(greedy, kinds, **defaults),
    )


@njit(cache=True)
def no_redeal(state, data, seat, rng, out):
    """The default ``determinize``: every hidden part is already re-sampled by the rng."""
    copy_state(state, out)


@leaf
def rollout_value(scores, values, n_players, seat, margin):
    """Value of a final (or horizon) position for ``seat``; see the module docstring.

    ``scores`` rank the seats (win share); ``values`` are the ``evaluate`` kernel's per-seat
    values whose difference ``margin`` weighs (read only when ``margin != 0``).
    """
    own = scores[seat]
    if n_players == 1:
        return float(own)
    top = own
    for s in range(n_players):
        if scores[s] > top:
            top = scores[s]
    win = 0.0
    if own == top:
        tied = 0
        for s in range(n_players):
            if scores[s] == top:
                tied += 1
        win = 1.0 / tied
    if margin == 0.0:
        return win
    best_other = -1e300
    for s in range(n_players):
        if s != seat and values[s] > best_other:
            best_other = values[s]
    return win + margin * (values[seat] - best_other)


@leaf
def _gain_se(gain_sum, gain_sq, m):
    """Standard error of a mean paired gain from ``m`` samples (infinite under 2 samples)."""
    if m < 2:
        return 1e300
    mean = gain_sum / m
    return np.sqrt(max(gain_sq / m - mean * mean, 0.0) / (m - 1))


@leaf
def _upper_gain(gain_sum, gain_sq, m, z):
    """Mean paired gain plus ``z`` standard errors: the race drops a candidate below keep."""
    return gain_sum / m + z * _gain_se(gain_sum, gain_sq, m)


@leaf
def decision_base(state, rng):
    """A 64-bit seed from the seat stream's state and the position; ``rng`` is not advanced."""
    h = mix64(rng[0] ^ mix64(rng[1] ^ mix64(rng[2] ^ mix64(rng[3]))))
    for i in range(state.shape[0]):
        h = mix64(h ^ (uint64(state[i] & 0xFFFFFFFF) + _GOLDEN))
    return h


@leaf
def rollout_seed(base, r):
    """Seed of rollout ``r`` of one decision: the same for every candidate (paired draws)."""
    return mix64(uint64(base) + uint64(r + 1) * _GOLDEN)


def search_parts(state, rng, scores=None, data=None, own_evaluate=False) -> list:
    """The search's own cached kernels, each with arguments of the types the search passes
    (a ``(kernel, arguments)`` list, as sim/core/split_compile.py's halves take): the position
    hash, the rollout seeds, values and race statistics, and, given the game's ``scores`` and
    ``data``, its scores into the value buffers (into the win shares' only with
    ``own_evaluate``, for a game that passes its own ``evaluate``). ``state`` and ``rng`` are
    arrays of the position's and the seat stream's types. For the half of a split compile
    that ends first (Celtic Quest's, Celtae's, Catan's, Troy's), so that the loop's own
    compile, on one core after both halves, finds them compiled."""
    sc, ev = np.zeros(MAX_SEATS, np.int64), np.zeros(MAX_SEATS, np.float64)
    parts = [
        (decision_base, (state, rng)),
        (rollout_seed, (np.uint64(0), 0)),
        (rollout_value, (sc, ev, 0, 0, 0.0)),
        (copy_part, (state, state, 0, 0)),
        (copy_part, (rng, rng, 0, 0)),
        (_gain_se, (0.0, 0.0, 0)),
        (_upper_gain, (0.0, 0.0, 0, 0.0)),
    ]
    if scores is not None:  # the win shares, and the default evaluate's values
        parts.append((scores, (state, data, sc)))
        if not own_evaluate:
            parts.append((scores, (state, data, ev)))
    return parts


def rules_half_parts(args, scores, is_over, own_evaluate=False) -> list:
    """:func:`search_parts` and ``is_over(state)`` for the rules' half of a loop called as
    ``(data, ..., streams, a, buf)``, when that half ends first (Catan's, Troy's). Not
    ``current_player``: their decision kinds, in the other half, call it, and the two halves
    would race for it."""
    data, *_, streams, a, _ = args
    return [(is_over, (a,)), *search_parts(a, streams[1], scores, data, own_evaluate)]


def closure_parts(search, state, data, params) -> list:
    """The search kernel's small closures (:func:`make_search_bot`: the rollout's clock and
    value, and ``evaluate``), each with arguments of the types the search passes them: for the
    half of a split compile that runs in the loop's own process (a closure is never cached,
    so a second process could not hand it over), so that the loop's own compile, on one core
    after both halves, finds them compiled. ``search`` is the game's search kernel, ``params``
    a seat's float64 row."""
    kernels = _closures(search)
    gparams = params[N_SEARCH_PARAMS:]
    sc, ev = np.zeros(MAX_SEATS, np.int64), np.zeros(MAX_SEATS, np.float64)
    calls = {
        "clock": (state, 0, 0),
        "value_of": (state, data, 0, gparams, 0.0, sc, ev),
        "evaluate": (state, data, gparams, ev),
    }
    parts = [(kernels[name], args) for name, args in calls.items() if name in kernels]
    return [*parts, (_search_builtins, (state, 0, 0.0))]


@njit(no_cfunc_wrapper=True)  # never cached: what it is for is compiling numba's builtins
def _search_builtins(state, k, x):
    """numba's own kernels that the search calls (its allocations, ``int``, ``min``, ``max``),
    each for the types the search passes: numba compiles them in every process, and they
    cost 0.2 s of the loop's own compile when it met them first."""
    a = np.empty_like(state)
    sums = np.empty(k, np.float64)
    counts = np.empty(k, np.int64)
    return a.shape[0] + sums.shape[0] + counts.shape[0] + int(x) + min(k, k) + max(k, k)


def _closures(kernel, found=None) -> dict:
    """{name: kernel} of the kernels in ``kernel``'s closure cells, and in theirs."""
    found = {} if found is None else found
    for cell in getattr(kernel, "py_func", kernel).__closure__ or ():
        inner = cell.cell_contents
        name = getattr(getattr(inner, "py_func", None), "__name__", None)
        if name is not None and name not in found:
            found[name] = inner
            _closures(inner, found)
    return found


def _own_names(*kernels):
    """``njit`` for the search kernel's closures, each renamed after the game's kernels.

    A closure is compiled into its game's cached ``choose_action`` under its qualified name and
    a counter that every process starts afresh, so two games compiled in two processes (the
    test session warms each game in its own) gave their closures the same symbol; loaded into
    one process, a game then called the other game's closure (Catan's search ran Troy's on
    Catan's state and crashed). The kernels' modules make each game's names its own.

    The rollout and the search are inlined into their callers (numba's ``inline="always"``),
    the search into the game's chunk loop: numba compiles every kernel into a module of its
    own with its callees' code linked in and optimises that module whole, so each level of
    the search, calling the game's rules and greedy policy, optimised them again. Inlined, the
    loop's compile makes one such pass instead of three (issue 42, cold compile of the
    search's loop, quiet machine, back to back: the Great Wall 17.4 -> 15.2 s, Troy 16.9 ->
    14.8, Celtae 20.4 -> 18.6, Celtic Quest 26.2 -> 24.6; the same tables; inlining the small
    closures as well cost 0.5-1 s more). A kernel the search is inlined into counts
    references (``sim.core.kernel.counted``): the search allocates, and numba refuses to
    compile that into a leaf.
    """
    tag = "__".join(getattr(k, "py_func", k).__module__.replace(".", "_") for k in kernels)

    def jit(func=None, **options):
        def wrap(f):
            f.__qualname__ = f"{f.__qualname__}__{tag}"
            # one version for every constant a caller passes, as sim.core.kernel's kernels
            return one_version(njit(no_cfunc_wrapper=True, **options)(f))

        return wrap(func) if func is not None else wrap

    return jit


def make_search_bot(
    step,
    legal_actions,
    current_player,
    is_over,
    policy,
    scores,
    determinize=None,
    evaluate=None,
    policy_memory=True,
    advance=None,
    policy_listed=None,
    decision_kind=None,
    follows_plan=None,
):
    """Build the search kernel of one game from its kernels.

    The game's kernels must have these signatures (``data`` is whatever single object the game
    threads through its kernels, e.g. a tuple of arrays)::

        step(state, action, data, rng, out)          # pure, chance from rng
        legal_actions(state, data, out) -> n         # out[:n] = action ids, n >= 1
        current_player(state) -> seat
        is_over(state) -> bool
        policy(state, data, seat, params, rng, buf) -> action   # greedy; params = its weights
        scores(state, data, out) -> n_players        # out[:n] = final scores if it ended now
        determinize(state, data, seat, rng, out)     # optional: re-deal what seat cannot see
        evaluate(state, data, params, out) -> n_players   # optional: out[:n] (float64) = each
                                                     # seat's heuristic value; params = greedy's
        advance(state, action, data, rng)            # optional: step in place (see below)
        advance(state, action, data, rng, buf) -> n  # or, with policy_listed: step in place
                                                     # that lists the next legal actions in buf
        policy_listed(state, data, seat, params, rng, buf, n) -> action   # greedy given them
        decision_kind(state, data, action) -> kind   # optional: the game's decision kinds,
                                                     # which the skip parameter names
        follows_plan(state, data, seat, buf) -> bool # optional: greedy's next pick follows a
                                                     # plan it made at an earlier decision and
                                                     # keeps in buf (the follow parameter)

    Returns ``search_action(state, data, seat, params, rng, buf) -> action``, an ``@njit``
    kernel inlined into the game's cached ``choose_action``, which calls it with bot code 2 and
    counts references, as its loop does (:func:`_own_names`). ``params`` is the seat's float64
    row (:data:`SEARCH_PARAMS`, then greedy's), ``rng`` the seat's own stream, ``buf`` the
    game's int32 action buffer. A policy may keep memory in ``buf`` (Celtic
    Trader's greedy keeps its movement plan there): greedy's own pick is computed on the real
    ``buf``, as when greedy plays, and every rollout starts from a copy of it; the search lists
    the legal actions in a buffer of its own. ``state`` is never written. A game whose policy
    writes ``buf`` before it reads it (a scratch buffer, no memory) passes
    ``policy_memory=False``: the copy per rollout is skipped (Celtica's buffer is 20 KiB, as
    long to copy as a third of its rollout). A policy whose memory is one part of ``buf``
    passes it as ``policy_memory=(start, stop)``: a rollout starts from a copy of that part
    only, and the rest of ``work`` (copied from ``buf`` once per decision) is scratch the
    policy writes before it reads, or keys itself, so what one rollout computed there serves
    the next (Celtic Trader's greedy keeps its last path searches there).

    A rollout keeps no earlier position, so a game that has ``step`` in place (``advance``:
    ``step`` is a copy then ``advance`` on the copy) plays its rollouts without the copy per
    step; with ``policy_listed`` too, the ``advance`` lists the legal actions of the position
    it stops at (Celtae's rules list them anyway) and greedy reads them instead of listing them
    again. The positions and draws are the same as with ``step``, so the search's choices are
    too. Measured (issue 20, 4 players, every seat searching, games/s): Celtic Trader 77 -> 86,
    Catan 47 -> 51, Celtica 62 -> 64, Celtae 98 -> 128 (in place and listed).

    The hook in a game's ``strategies/<game>/__init__.py`` (search work, one branch)::

        _search = make_search_bot(step, legal_actions, current_player, is_over,
                                  greedy_action, scores)          # module level, compiles nothing

        @njit(cache=True)
        def choose_action(state, data, seat, code, params, rng, buf):
            ...
            if code == SEARCH_CODE:
                return _search(state, data, seat, params, rng, buf)

    and ``search_bot_decl(GREEDY_DECL, rollouts=..., horizon=...)`` in ``GAME.bots``.
    """
    jit = _own_names(policy, step)
    whole_memory = policy_memory is True
    mem_start, mem_stop = (0, 0) if isinstance(policy_memory, bool) else policy_memory
    if determinize is None:
        determinize = no_redeal
    if decision_kind is None:

        @jit
        def decision_kind(state, data, action):
            return -1  # no kinds: skip never applies

    if follows_plan is None:

        @jit
        def follows_plan(state, data, seat, buf):
            return False  # no plans: follow never applies

    if evaluate is None:

        @jit
        def evaluate(state, data, params, out):
            n = scores(state, data, out)
            return n

    @jit
    def value_of(cur, data, seat, gparams, margin, sc, ev):
        """The rollout's value at its last position ``cur``."""
        n_players = np.int64(scores(cur, data, sc))  # one rollout_value whatever a game returns
        if margin != 0.0:
            evaluate(cur, data, gparams, ev)
        return rollout_value(sc, ev, n_players, seat, margin)

    @jit
    def clock(cur, mover, turns):
        """(mover, turns) after the deciding seat of ``cur``: a change of seat is a turn."""
        p = current_player(cur)
        if p != mover:
            return p, turns + 1
        return mover, turns

    if advance is None:

        @jit(inline="always")
        def play_out(a, b, data, seat, action, gparams, horizon, margin, rs, work, sc, ev):
            """Play ``action`` from the dealt position ``a``, then greedy to the horizon; its
            value. ``a`` and ``b`` are overwritten (the rollout alternates between them)."""
            step(a, action, data, rs, b)
            cur, nxt = b, a
            mover = seat
            turns = 0  # changes of the deciding seat since the candidate: the rollout's clock
            while not is_over(cur):
                mover, turns = clock(cur, mover, turns)
                if horizon > 0 and turns > horizon:
                    break
                act = policy(cur, data, mover, gparams, rs, work)
                step(cur, act, data, rs, nxt)
                cur, nxt = nxt, cur
            return value_of(cur, data, seat, gparams, margin, sc, ev)

    elif policy_listed is None:
        # three loops, not one loop over adapters: adapters that drop the listing (even with
        # numba's inline="always") cost 10-15% of Celtic Trader's and Celtica's games/s

        @jit(inline="always")
        def play_out(a, b, data, seat, action, gparams, horizon, margin, rs, work, sc, ev):
            """:func:`play_out` on ``a`` in place (``b`` unused)."""
            advance(a, action, data, rs)
            mover = seat
            turns = 0
            while not is_over(a):
                mover, turns = clock(a, mover, turns)
                if horizon > 0 and turns > horizon:
                    break
                advance(a, policy(a, data, mover, gparams, rs, work), data, rs)
            return value_of(a, data, seat, gparams, margin, sc, ev)

    else:

        @jit(inline="always")
        def play_out(a, b, data, seat, action, gparams, horizon, margin, rs, work, sc, ev):
            """:func:`play_out` on ``a`` in place, the legal actions listed by ``advance``."""
            n = advance(a, action, data, rs, work)
            mover = seat
            turns = 0
            while not is_over(a):
                mover, turns = clock(a, mover, turns)
                if horizon > 0 and turns > horizon:
                    break
                act = policy_listed(a, data, mover, gparams, rs, work, n)
                n = advance(a, act, data, rs, work)
            return value_of(a, data, seat, gparams, margin, sc, ev)

    # reference counting stays on explicitly for a call from Python (inlined, the caller's
    # own counts apply: numba refuses the search's allocations in a leaf kernel)
    @jit(_nrt=True, inline="always")
    def search_action(state, data, seat, params, rng, buf):
        gparams = params[N_SEARCH_PARAMS:]
        # asked before greedy's call, which moves its plan on
        following = params[P_FOLLOW] != 0.0 and follows_plan(state, data, seat, buf)
        # greedy is asked first, every time, with the real buffer (a policy may keep a plan in
        # it), so the seat stream and that memory move exactly as when greedy plays
        first = policy(state, data, seat, gparams, rng, buf)
        if following:
            return first
        skip = int(params[P_SKIP])
        opening = int(params[P_OPENING])
        margin = params[P_MARGIN]
        rollouts = int(params[P_ROLLOUTS])
        horizon = int(params[P_HORIZON])
        in_opening = False
        if skip != 0 or opening != 0:
            kind = decision_kind(state, data, first)
            # kinds where the search (almost) never overrules greedy cost nothing
            if kind >= 0 and (skip >> kind) & 1:
                return first
            if kind >= 0 and (opening >> kind) & 1:  # judged by the evaluated position
                in_opening = True
                margin = params[P_OPENING_MARGIN]
                if params[P_OPENING_ROLLOUTS] > 0:
                    rollouts = int(params[P_OPENING_ROLLOUTS])
                if params[P_OPENING_HORIZON] > 0:
                    horizon = int(params[P_OPENING_HORIZON])
        work = np.empty_like(buf)
        n = legal_actions(state, data, work)
        if n <= 1:
            return work[0]
        cand = work[:n].copy()
        if mem_stop > mem_start:  # the memory, and the scratch around it as greedy left it
            copy_part(work, buf, 0, buf.shape[0])
        for i in range(n):  # greedy's pick goes first: it wins ties and is always considered
            if cand[i] == first:
                cand[i] = cand[0]
                cand[0] = first
                break
        base = decision_base(state, rng)
        rs = stack_uint64(4)
        k = n
        width = int(params[P_WIDTH])
        if 0 < width < k:
            k = width
        c_ucb = params[P_UCB]
        if c_ucb == 0.0:  # few samples over many candidates would crown noise (winner's curse)
            k = min(k, rollouts // MIN_PER_CANDIDATE)
        if k <= 1:
            return cand[0]
        if k < n:
            seed_stream(rs, mix64(base ^ _GOLDEN))
            filled = 1
            if in_opening:  # greedy's likeliest rivals first, drawn from its own softmax
                for _ in range(4 * k):
                    if filled >= k:
                        break
                    pick = policy(state, data, seat, gparams, rs, work)
                    for j in range(filled, n):
                        if cand[j] == pick:
                            cand[j] = cand[filled]
                            cand[filled] = pick
                            filled += 1
                            break
            for i in range(filled, k):  # partial Fisher-Yates: random others
                j = i + randint(rs, n - i)
                tmp = cand[i]
                cand[i] = cand[j]
                cand[j] = tmp

        budget = max(rollouts, k)
        a = np.empty_like(state)
        b = np.empty_like(state)
        # work values on the stack or from two np.empty overloads: each np.zeros or np.ones
        # overload was numba code compiled into every game's search loop (issue 42)
        sc = stack_int64(MAX_SEATS)
        ev = stack_float64(MAX_SEATS)
        for s in range(MAX_SEATS):
            sc[s] = 0
            ev[s] = 0.0
        dealt = np.empty_like(state)  # race: one deal per round, shared by the candidates
        rs_dealt = stack_uint64(4)
        sums = np.empty(k, np.float64)
        gain_sq = np.empty(k, np.float64)  # paired: sum of squared (value - greedy's value)
        counts = np.empty(k, np.int64)
        for c in range(k):
            sums[c] = 0.0
            gain_sq[c] = 0.0
            counts[c] = 0

        if c_ucb == 0.0:
            # a paired race against greedy's pick: every round plays rollout r of each
            # surviving candidate on the same seed; an alternative whose gain cannot plausibly
            # clear keep is dropped, and the round stops once only greedy's pick is left
            cut = params[P_CUT]
            keep = params[P_KEEP]
            alive = np.empty(k, np.int64)  # 1 while the candidate races
            for c in range(k):
                alive[c] = 1
            n_alive = k
            spent = 0
            r = 0
            same = int(params[P_SAME])
            cut_after = int(params[P_CUT_AFTER])
            while n_alive > 1 and spent + n_alive <= budget:
                # rollout r deals the hidden parts once for every candidate (the deal is what
                # its seed gives; dealing again per candidate gave the same position, slower)
                seed_stream(rs, rollout_seed(base, r))
                determinize(state, data, seat, rs, dealt)
                copy_part(rs_dealt, rs, 0, 4)
                v0 = 0.0
                for c in range(k):
                    if not alive[c]:
                        continue
                    copy_part(a, dealt, 0, dealt.shape[0])
                    copy_part(rs, rs_dealt, 0, 4)
                    if whole_memory:  # every rollout starts from the policy's real memory
                        copy_part(work, buf, 0, buf.shape[0])
                    elif mem_stop > mem_start:
                        copy_part(work, buf, mem_start, mem_stop)
                    v = play_out(
                        a, b, data, seat, cand[c], gparams, horizon, margin, rs, work, sc, ev
                    )
                    if c == 0:
                        v0 = v
                    sums[c] += v - v0
                    gain_sq[c] += (v - v0) * (v - v0)
                spent += n_alive
                r += 1
                racing = cut > 0.0 and r >= cut_after
                for c in range(1, k):
                    if not alive[c]:
                        continue
                    lost = racing and _upper_gain(sums[c], gain_sq[c], r, cut) < keep
                    twin = 0 < same <= r and gain_sq[c] == 0.0  # valued as greedy's pick so far
                    if lost or twin:
                        alive[c] = 0
                        n_alive -= 1
            # play an alternative only if its paired gain clears keep + z standard errors
            best = 0
            best_gain = 0.0
            for c in range(1, k):
                if not alive[c]:
                    continue
                gain = sums[c] / r
                if gain - params[P_Z] * _gain_se(sums[c], gain_sq[c], r) > keep and (
                    gain > best_gain
                ):
                    best = c
                    best_gain = gain
            return cand[best]
        else:
            for t in range(budget):
                c = t
                if t >= k:
                    best_ucb = -1e300
                    log_t = np.log(t)
                    for j in range(k):
                        u = sums[j] / counts[j] + c_ucb * np.sqrt(log_t / counts[j])
                        if u > best_ucb:
                            best_ucb = u
                            c = j
                seed_stream(rs, rollout_seed(base, counts[c]))
                determinize(state, data, seat, rs, a)
                if whole_memory:
                    copy_part(work, buf, 0, buf.shape[0])
                elif mem_stop > mem_start:
                    copy_part(work, buf, mem_start, mem_stop)
                sums[c] += play_out(
                    a, b, data, seat, cand[c], gparams, horizon, margin, rs, work, sc, ev
                )
                counts[c] += 1

        best = 0
        best_mean = sums[0] / counts[0] + params[P_KEEP]
        for c in range(1, k):  # strict: ties keep greedy's pick
            mean = sums[c] / counts[c]
            if mean > best_mean:
                best = c
                best_mean = mean
        return cand[best]

    return search_action
