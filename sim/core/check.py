"""Checked play (``menhir check``): whole games with every invariant asserted after every step.

Each game folder has an ``invariants.py`` of the same shape (sim/games/README.md):

- ``INVARIANTS``: the names of the game's own invariants; ``state_check(s, data)`` and
  ``transition_check(before, after, data)`` return 0 or the 1-based number of the first one
  broken (bookkeeping of pieces, tokens, cards and counters: the state's own validator);
- ``checked(setup, seeds, max_steps, corrupt)``: a compiled loop that plays one game per seed
  like the bulk runner and, after every step, checks the generic invariants below and the game's
  own; it returns the first broken invariant and its step per game, and per invariant the number
  of checks and of games it stopped.

The generic invariants, checked for every game by its loop: ``step`` leaves its input unchanged;
the bot's action is one of the legal actions (and there is at least one); at the end, each
score equals the sum of its components; the game ends (by a rule or at its safety cap) within
``max_steps`` steps. A game stops at its first violation (what follows a broken state proves
nothing), so "violations" counts games.

A game that ends at its safety cap (the ``turn_cap`` end of the results tables) broke no rule:
every engine's rules say how a capped game is scored, and the cap exists because random play can
stall (Catan 3p: a seat at 9 VP whose random bot keeps choosing other actions than the city it
could build). Such a game passes every invariant and is reported on its own line (count, share,
first seed and replay), never as a violation; ``menhir check`` fails only when capped games are
more than ``max_capped_percent`` of the games (default ``MAX_CAPPED_PERCENT``), which is what a
rule that stalls games would show. A game still running after ``max_steps`` steps (its cap did
not stop it) is a violation.

``corrupt`` = (game index, step, state index, delta) adds ``delta`` to one cell of the state
after that step: a deliberately broken rule, for testing that the checker reports it.
"""

from __future__ import annotations

import importlib
import shlex
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim.core.gamedata import show_value
from sim.core.registry import GAME_MODULES, Setup, SetupError

# Generic invariant numbers (row of the ``counts`` table); a game's own invariant k (1-based)
# is row GAME_BASE + k. C_CAPPED is not an invariant but an outcome: checks = games that ended,
# "violations" = those that ended at the safety cap (a game's code is C_CAPPED when it passed
# every check and ended at the cap).
C_INPUT, C_LEGAL, C_SCORE, C_ENDS, C_CAPPED = 1, 2, 3, 4, 5
GAME_BASE = 5
GENERIC = (
    "step leaves its input unchanged",
    "the bot's action is legal (and there is one)",
    "score equals the sum of its components",
    "the game ends (by a rule or at its cap) within max steps",
    "ended at the safety cap",
)
MAX_STEPS = 200_000
# Capped games (percent of the games checked) above which ``menhir check`` fails. Random bots
# cap at most 0.008% of the games of any engine (Catan 3p: 2 of 25,000, 7 of 250,000 in the
# soak); the limit is over ten times that, far below what a rule that stalls games gives.
MAX_CAPPED_PERCENT = 0.1
NO_CORRUPTION = np.array([-1, -1, 0, 0], np.int64)


def invariants_module(game_id: str):
    """The ``invariants`` module of a game folder (a SetupError if the game has none)."""
    name = GAME_MODULES[game_id] + ".invariants"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        raise SetupError(f"{game_id} has no checked mode yet ({name} is missing)") from None


def invariant_names(game_id: str) -> tuple[str, ...]:
    """Row names of the counts table: "ok", the generic invariants, then the game's own."""
    return ("ok", *GENERIC, *invariants_module(game_id).INVARIANTS)


@dataclass
class CheckReport:
    """The outcome of checked play: one row per invariant, and the first violation if any."""

    setup: Setup
    names: tuple[str, ...]
    seeds: np.ndarray
    first_code: np.ndarray  # per game: 0 or the row of its first violation
    first_step: np.ndarray  # per game: the step (0 = after setup) of that violation
    counts: np.ndarray  # (rows, 2): checks, violations (games stopped)

    @property
    def games(self) -> int:
        return int(self.seeds.shape[0])

    @property
    def violations(self) -> int:
        """Games that broke an invariant (a capped game broke none)."""
        return int(np.count_nonzero((self.first_code != 0) & (self.first_code != C_CAPPED)))

    @property
    def capped(self) -> int:
        """Games that passed every check and ended at the safety cap."""
        return int(np.count_nonzero(self.first_code == C_CAPPED))

    @property
    def capped_percent(self) -> float:
        return 100.0 * self.capped / self.games

    def too_many_capped(self, max_capped_percent: float = MAX_CAPPED_PERCENT) -> bool:
        return self.capped_percent > max_capped_percent

    def first(self) -> tuple[int, int, str] | None:
        """(seed, step, invariant) of the first game (in seed order) that broke one."""
        bad = np.flatnonzero((self.first_code != 0) & (self.first_code != C_CAPPED))
        if bad.size == 0:
            return None
        g = int(bad[0])
        return int(self.seeds[g]), int(self.first_step[g]), self.names[int(self.first_code[g])]

    def first_capped(self) -> tuple[int, int] | None:
        """(seed, steps) of the first game (in seed order) that ended at the safety cap."""
        capped = np.flatnonzero(self.first_code == C_CAPPED)
        if capped.size == 0:
            return None
        g = int(capped[0])
        return int(self.seeds[g]), int(self.first_step[g])

    def lines(self, max_capped_percent: float = MAX_CAPPED_PERCENT) -> list[str]:
        s = self.setup
        out = [
            f"{s.game} {s.players}p, {self.games} games, bots {','.join(map(str, s.bots))}: "
            f"{self.violations} with a violation"
        ]
        rows = [row for row in range(1, len(self.names)) if row != C_CAPPED]
        width = max(len(self.names[row]) for row in rows)
        out.append(f"  {'invariant':<{width}}  {'checks':>14}  {'violations':>10}")
        for row in rows:
            checks, bad = (int(x) for x in self.counts[row])
            out.append(f"  {self.names[row]:<{width}}  {checks:>14,}  {bad:>10,}")
        verdict = "above" if self.too_many_capped(max_capped_percent) else "within"
        out.append(
            f"ended at the safety cap (not a violation): {self.capped:,} of {self.games:,} games "
            f"({self.capped_percent:.4g}%), {verdict} the {max_capped_percent:g}% allowed"
        )
        capped = self.first_capped()
        if capped is not None:
            seed, steps = capped
            out.append(f"first capped game: seed {seed}, {steps} steps")
            out.append(f"replay: {replay_command(s, seed)}")
        first = self.first()
        if first is not None:
            seed, step, name = first
            out.append(f"first violation: seed {seed}, step {step}: {name}")
            out.append(f"replay: {replay_command(s, seed)}")
        return out


def replay_command(setup: Setup, seed: int) -> str:
    """The ``menhir play`` command that replays game ``seed`` of this setup with its trace."""
    parts = ["menhir", "play", setup.game, "--players", str(setup.players), "--seed", str(seed)]
    parts += ["--bots", ",".join(str(b) for b in setup.bots)]
    if setup.roles != "random":
        roles = setup.roles if isinstance(setup.roles, str) else ",".join(setup.roles)
        parts += ["--roles", roles]
    defaults = setup.decl.params.resolve(setup.players, {})
    for key in sorted(setup.params):
        value = setup.params[key]
        if defaults.get(key) != value:
            text = str(value).lower() if isinstance(value, bool) else str(value)
            parts += ["--set", f"{key}={text}"]
    for path, value in setup.data:
        parts += ["--set", f"{path}={show_value(value)}"]
    parts.append("--trace")
    return " ".join(shlex.quote(p) for p in parts)


def _run(setup: Setup, seeds: np.ndarray, max_steps: int, corrupt: np.ndarray):
    return invariants_module(setup.game).checked(setup, seeds, max_steps, corrupt)


def check_games(
    setup: Setup,
    games: int,
    seed: int = 0,
    *,
    jobs: int = 1,
    chunk: int = 2000,
    max_steps: int = MAX_STEPS,
    corrupt: tuple[int, int, int, int] | None = None,
    progress: Callable[[int], None] | None = None,
    backend=None,
    worker: Callable | None = None,
) -> CheckReport:
    """Play games ``seed .. seed + games - 1`` of ``setup`` (the seed is the game seed of
    ``menhir play --seed``) with every invariant checked after every step.

    With ``backend`` (an experiments.backends backend: ``submit``, ``wait_any``, ``result``,
    ``capacity``) the chunks are played by ``worker(setup, seeds, max_steps, corrupt)`` there
    (``menhir check`` passes one whose workers die with it); else ``jobs`` joblib processes.
    """
    seeds = np.arange(seed, seed + games, dtype=np.uint64)
    names = invariant_names(setup.game)
    first_code = np.zeros(games, np.int64)
    first_step = np.zeros(games, np.int64)
    counts = np.zeros((len(names), 2), np.int64)
    bad = NO_CORRUPTION if corrupt is None else np.array(corrupt, np.int64)
    starts = list(range(0, games, chunk))

    def corrupt_for(start: int) -> np.ndarray:
        c = bad.copy()
        if c[0] >= 0:
            c[0] -= start  # the kernel counts games from the start of its chunk
        return c

    def merge(start, result):
        code, step, cnt = result
        first_code[start : start + len(code)] = code
        first_step[start : start + len(code)] = step
        counts[:] += cnt
        if progress is not None:
            progress(len(code))

    if len(starts) > 1 and (backend is not None or jobs > 1):
        # one game here first: the kernels compile once, on both cores of a cold cache
        # (sim/core/split_compile.py), and the workers load them instead of each compiling
        _run(setup, seeds[:1], max_steps, NO_CORRUPTION)
    if backend is not None and len(starts) > 1:
        pending = iter(starts)
        in_flight: dict = {}
        exhausted = False
        while in_flight or not exhausted:
            while not exhausted and len(in_flight) < backend.capacity:
                start = next(pending, None)
                if start is None:
                    exhausted = True
                    break
                part = seeds[start : start + chunk]
                future = backend.submit(worker or _run, setup, part, max_steps, corrupt_for(start))
                in_flight[future] = start
            for future in backend.wait_any(list(in_flight)):
                merge(in_flight.pop(future), backend.result(future))
    elif jobs <= 1 or len(starts) == 1:
        for start in starts:
            part = seeds[start : start + chunk]
            merge(start, _run(setup, part, max_steps, corrupt_for(start)))
    else:
        from joblib import Parallel, delayed

        tasks = (
            delayed(_run)(setup, seeds[start : start + chunk], max_steps, corrupt_for(start))
            for start in starts
        )
        results = Parallel(n_jobs=jobs, return_as="generator")(tasks)
        for start, result in zip(starts, results, strict=True):
            merge(start, result)
    return CheckReport(setup, names, seeds, first_code, first_step, counts)
