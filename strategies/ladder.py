"""The bot ladder: every pair of bot levels plays with seats rotated; win shares and Elo ratings.

For a pair (A, B) and ``P`` players, the seats are filled with every arrangement of A and B that
uses both (``AB`` and ``BA`` at 2 players; ``AAB, ABA, BAA, ABB, BAB, BBA`` at 3), and every
arrangement replays the same game indices, so each level sees the same deals from every seat
(common random numbers). A's win share is the win credited to A's seats (ties split, as in the
``win`` column) over the games played: 0.5 means "as strong as B" whatever the seat advantage.
Games nobody won (a collective defeat, ``GameDecl.no_winner_reasons``) are left out: they say
nothing about which level is stronger, and the ``games`` column counts the games decided.

Intervals are Wilson 95% intervals on that share (ties make a game's share fractional; the
interval treats the share as a binomial proportion, which is slightly conservative then), and
``p_value`` is the matching score test of "share = 0.5".

Ratings are Bradley-Terry maximum-likelihood strengths fitted to all pairs at once with
Hunter's MM iteration, on an Elo scale (400 * log10 of the strength ratio; 200 points ~ 76% of
the wins) with the first level anchored at 0. Each pair gets one virtual drawn game (half a win
each) so that a level that wins every game still gets a finite rating. Their 95% intervals
(``elo_low``, ``elo_high``, relative to the first level) are percentile intervals of a bootstrap
over games: each pair's games are resampled with replacement (multinomial counts times the
per-game shares, vectorised) and the ratings refitted, all resamples at once.

The order of the levels is claimed (:func:`ladder_verdict`) only when every adjacent pair's
share (the stronger level's, against the level before it) is above 0.5 and its Holm-adjusted
interval excludes 0.5: Holm over the adjacent pairs, the pair with the i-th smallest p-value
gets the Wilson interval at level 1 - 0.05 / (m - i + 1) (pairs after Holm's first
non-rejection keep that step's level), so the interval excludes 0.5 exactly when Holm rejects.
A pair not separated is named, with about how many games per pair would separate it at the
observed share (80% power, 5% level; statsmodels ``NormalIndPower``).
"""

from __future__ import annotations

import itertools
import math
import os
import warnings
from collections.abc import Sequence

import numpy as np
import polars as pl
from scipy.stats import norm
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower, normal_sample_size_one_tail

from sim.core.batch import play_batch
from sim.core.params import ParamError, check_seed
from sim.core.registry import BotSpec, SetupError, get_game, make_setup

Z95 = 1.959963984540054
ALPHA = 0.05
CHUNK = 64  # games per task: progress granularity, never changes results
ELO_RESAMPLES = 400  # bootstrap resamples for the Elo intervals


def default_levels(game: str) -> list[str]:
    """The game's declared bot levels, weakest first (by bot code)."""
    return [b.name for b in sorted(get_game(game).bots, key=lambda b: b.code)]


def arrangements(players: int) -> list[tuple[int, ...]]:
    """Seat patterns of a pair (0 = first level, 1 = second) that seat both levels."""
    return [a for a in itertools.product((0, 1), repeat=players) if 0 in a and 1 in a]


def wilson_interval(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion observed as ``share`` over ``n`` trials."""
    if n <= 0:
        return 0.0, 1.0
    denom = 1.0 + z * z / n
    centre = (share + z * z / (2 * n)) / denom
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def fit_elo(wins: np.ndarray, games: np.ndarray, iterations: int = 10_000) -> np.ndarray:
    """Bradley-Terry ratings on the Elo scale from pairwise results, first level at 0.

    ``wins[i, j]`` is the (possibly fractional) number of games level i won against level j,
    ``games[i, j] = games[j, i]`` the games they played. One virtual drawn game per pair that
    met keeps every rating finite. Leading dimensions (bootstrap resamples) are fitted at once.
    """
    wins, games = np.asarray(wins, float), np.asarray(games, float)
    k = wins.shape[-1]
    met = (games > 0) & ~np.eye(k, dtype=bool)
    w = wins + 0.5 * met
    n = games + 1.0 * met
    total_wins = w.sum(axis=-1)
    gamma = np.ones(w.shape[:-1])
    for _ in range(iterations):
        denom = (n / (gamma[..., :, None] + gamma[..., None, :])).sum(axis=-1)
        new = np.where(denom > 0, total_wins / np.where(denom > 0, denom, 1.0), gamma)
        new /= np.exp(np.log(new).mean(axis=-1, keepdims=True))
        if np.max(np.abs(np.log(new) - np.log(gamma))) < 1e-10:
            gamma = new
            break
        gamma = new
    return 400.0 * np.log10(gamma / gamma[..., :1])


def bootstrap_elo(
    shares: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]],
    k: int,
    seed: int = 0,
    resamples: int = ELO_RESAMPLES,
) -> np.ndarray:
    """Elo ratings of ``resamples`` bootstrap resamples over games, shape (resamples, k).

    ``shares[(i, j)]`` holds the per-game wins of level i and of level j in their games. Each
    pair's games are resampled with replacement: multinomial counts (resamples, games) times the
    per-game wins give every resample's totals without a Python loop over resamples.
    """
    rng = np.random.default_rng([seed, 24])
    wins = np.zeros((resamples, k, k))
    games = np.zeros((resamples, k, k))
    for (i, j), (s_i, s_j) in sorted(shares.items()):
        n = len(s_i)
        if n == 0:
            continue
        counts = rng.multinomial(n, np.full(n, 1.0 / n), size=resamples).astype(float)
        wins[:, i, j] = counts @ s_i
        wins[:, j, i] = counts @ s_j
        games[:, i, j] = games[:, j, i] = n
    return fit_elo(wins, games)


def share_p_value(share: float, n: int) -> float:
    """Two-sided score test of "the share is 0.5" (the test the Wilson interval inverts)."""
    if n <= 0:
        return 1.0
    return float(2 * norm.sf(abs(share - 0.5) / math.sqrt(0.25 / n)))


def games_to_separate(share: float) -> int | None:
    """Games per pair for 80% power at 5% at the observed share; None when it is <= 0.5."""
    if not share > 0.5:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        n = float(
            np.squeeze(
                NormalIndPower().solve_power(
                    effect_size=(share - 0.5) / 0.5, alpha=ALPHA, power=0.8, ratio=0
                )
            )
        )
    if not np.isfinite(n):  # a share near 1: the root finder gives up below a few games
        n = float(normal_sample_size_one_tail(share - 0.5, 0.8, ALPHA / 2, std_null=0.5))
    return max(2, math.ceil(n))


def _parse_levels(game: str, players: int, bots: Sequence[str] | None) -> list[str]:
    levels = default_levels(game) if bots is None else [b.strip() for b in bots]
    if len(levels) < 2:
        raise SetupError("ladder: give at least two bot levels")
    canonical = [str(BotSpec.parse(b)) for b in levels]
    if len(set(canonical)) != len(canonical):
        raise SetupError(f"ladder: bot levels must differ, got {', '.join(levels)}")
    for b in levels:
        make_setup(game, players, {}, b)  # validates the bot name and its parameters
    return canonical


def _play_task(game, players, bots, first, count, seed, parent=None):
    from experiments.backends import guard_worker

    guard_worker(parent)  # a pool worker ignores Ctrl-C (the parent answers it) and dies with it
    setup = make_setup(game, players, {}, list(bots))
    _, table = play_batch(setup, range(first, first + count), root_seed=seed)
    return table.select("game", "seat", "win")


def run_ladder(
    game: str,
    players: int | None = None,
    games: int | None = None,
    bots: Sequence[str] | None = None,
    seed: int = 0,
    jobs: int = 1,
    progress: bool = False,
) -> pl.DataFrame:
    """Play every pair of bot levels and return one row per (bot, opponent).

    ``games`` per pair (default: the game's ``ladder_games``) is rounded up to a multiple of
    the number of seat arrangements so that every arrangement plays the same games. Columns:
    ``bot``, ``opponent``, ``players``, ``games``, ``win_share`` (the bot's), ``ci_low``,
    ``ci_high``, ``elo`` (the bot's rating), ``opponent_elo``, then ``p_value`` (share = 0.5,
    score test), ``elo_low``, ``elo_high`` (bootstrap 95% interval of the bot's rating). Levels
    keep the given order (default: by bot
    code, weakest first).
    """
    decl = get_game(game)
    if players is None:
        players = 2 if decl.min_players <= 2 <= decl.max_players else decl.min_players
    decl.check_players(players)
    if games is None:
        games = decl.ladder_games
    if players < 2:
        raise SetupError(f"ladder: {game} needs at least 2 players to compare bots")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ParamError(f"ladder: games = {games!r} is not allowed: an integer >= 1")
    check_seed(seed, "ladder: seed")
    levels = _parse_levels(game, players, bots)
    arrs = arrangements(players)
    per_arrangement = -(-games // len(arrs))

    tasks = []
    for i, j in itertools.combinations(range(len(levels)), 2):
        for arr in arrs:
            seat_bots = tuple(levels[j] if x else levels[i] for x in arr)
            for first in range(0, per_arrangement, CHUNK):
                count = min(CHUNK, per_arrangement - first)
                tasks.append(((i, j), arr, (game, players, seat_bots, first, count, seed)))
    tables = _run_tasks([t[2] for t in tasks], jobs, progress)

    k = len(levels)
    wins = np.zeros((k, k))
    played = np.zeros((k, k))
    per_game: dict[tuple[int, int], tuple[list, list]] = {}
    for ((i, j), arr, _args), table in zip(tasks, tables, strict=True):
        second = pl.col("seat").is_in([s for s, x in enumerate(arr) if x])
        game = (
            table.group_by("game")
            .agg(
                pl.col("win").filter(~second).sum().alias("first"),
                pl.col("win").filter(second).sum().alias("second"),
            )
            .sort("game")
        )
        s_i, s_j = game["first"].to_numpy(), game["second"].to_numpy()
        decided = s_i + s_j > 0  # a game nobody won (a collective defeat) ranks no level
        s_i, s_j = s_i[decided], s_j[decided]
        wins[i, j] += s_i.sum()
        wins[j, i] += s_j.sum()
        played[i, j] += decided.sum()
        played[j, i] += decided.sum()
        lists = per_game.setdefault((i, j), ([], []))
        lists[0].append(s_i)
        lists[1].append(s_j)

    elo = fit_elo(wins, played)
    shares = {key: (np.concatenate(a), np.concatenate(b)) for key, (a, b) in per_game.items()}
    boot = bootstrap_elo(shares, k, seed=seed)
    elo_low, elo_high = np.percentile(boot, [2.5, 97.5], axis=0)
    rows = []
    for a in range(k):
        for b in range(k):
            if a == b:
                continue
            n = int(played[a, b])
            share = wins[a, b] / n
            low, high = wilson_interval(share, n)
            rows.append(
                {
                    "bot": levels[a],
                    "opponent": levels[b],
                    "players": players,
                    "games": n,
                    "win_share": share,
                    "ci_low": low,
                    "ci_high": high,
                    "elo": float(elo[a]),
                    "opponent_elo": float(elo[b]),
                    "p_value": share_p_value(share, n),
                    "elo_low": float(elo_low[a]),
                    "elo_high": float(elo_high[a]),
                }
            )
    return pl.DataFrame(rows)


def _run_tasks(task_args, jobs: int, progress: bool) -> list[pl.DataFrame]:
    from tqdm import tqdm

    total = sum(a[4] for a in task_args)
    bar = tqdm(total=total, unit="game", disable=not progress or None, leave=False)
    try:
        if jobs == 1:
            out = []
            for args in task_args:
                out.append(_play_task(*args))
                bar.update(args[4])
            return out
        from joblib import Parallel, delayed

        results = Parallel(n_jobs=jobs, return_as="generator")(
            delayed(_play_task)(*args, os.getpid()) for args in task_args
        )
        out = []
        for args, table in zip(task_args, results, strict=True):
            out.append(table)
            bar.update(args[4])
        return out
    finally:
        bar.close()


def ladder_verdict(table: pl.DataFrame) -> dict:
    """Whether the table shows the levels in order, pair by adjacent pair.

    Returns ``{"ordered": bool, "pairs": [...]}`` with one entry per adjacent pair (``lower``,
    ``upper``, ``share`` of the upper level, ``games``, ``p_holm``, the Holm-adjusted Wilson
    interval ``low``, ``high``, ``separated``, and ``games_needed``: games per pair that would
    separate it at the observed share, None once separated or when the share is <= 0.5).
    """
    levels = table.unique("bot", keep="first", maintain_order=True)["bot"].to_list()
    rows = {(r["bot"], r["opponent"]): r for r in table.iter_rows(named=True)}
    adjacent = [rows[(b, a)] for a, b in itertools.pairwise(levels)]
    pvals = np.array([share_p_value(r["win_share"], r["games"]) for r in adjacent])
    reject, p_holm, _, _ = multipletests(pvals, alpha=ALPHA, method="holm")
    m = len(pvals)
    rank = np.empty(m, int)
    rank[np.argsort(pvals, kind="stable")] = np.arange(m)
    # Holm stops at its first non-rejection f: later pairs keep f's level, so their intervals
    # contain 0.5 too (they have larger p-values), as the step-down test says
    first_kept = min((int(i) for i, rej in zip(rank, reject, strict=True) if not rej), default=m)
    pairs = []
    for r, p_adj, rej, i in zip(adjacent, p_holm, reject, rank, strict=True):
        z = float(norm.ppf(1 - ALPHA / (m - min(int(i), first_kept)) / 2))
        low, high = wilson_interval(r["win_share"], r["games"], z)
        separated = bool(rej) and r["win_share"] > 0.5
        pairs.append(
            {
                "lower": r["opponent"],
                "upper": r["bot"],
                "share": r["win_share"],
                "games": r["games"],
                "p_holm": float(p_adj),
                "low": low,
                "high": high,
                "separated": separated,
                "games_needed": None if separated else games_to_separate(r["win_share"]),
            }
        )
    return {"ordered": all(p["separated"] for p in pairs), "pairs": pairs}


def levels_ordered(table: pl.DataFrame) -> bool:
    """True when every adjacent pair is separated (see :func:`ladder_verdict`)."""
    return ladder_verdict(table)["ordered"]


def verdict_lines(table: pl.DataFrame) -> list[str]:
    """ "levels ordered: yes" only when shown; otherwise each pair not separated and the games
    per pair that would separate it."""
    verdict = ladder_verdict(table)
    if verdict["ordered"]:
        worst = max(verdict["pairs"], key=lambda p: p["p_holm"])
        return [
            "levels ordered: yes (every adjacent pair above 0.5 with its Holm-adjusted 95% "
            f"interval excluding 0.5; least clear: {worst['upper']} vs {worst['lower']} "
            f"{worst['share']:.3f} [{worst['low']:.3f},{worst['high']:.3f}])"
        ]
    lines = ["levels ordered: not shown"]
    for p in verdict["pairs"]:
        if p["separated"]:
            continue
        where = (
            f"- {p['upper']} vs {p['lower']}: {p['share']:.3f} "
            f"[{p['low']:.3f},{p['high']:.3f}] (Holm-adjusted) over {p['games']} games"
        )
        if p["games_needed"] is None:
            lines.append(f"{where}: {p['upper']} does not win more than half")
        else:
            lines.append(
                f"{where} not separated from 0.5; about {p['games_needed']:,} games per pair "
                "would separate it (80% power at 5%)"
            )
    return lines


def skill_lines(table: pl.DataFrame) -> list[str]:
    """Skill expression: how much of the outcome a better policy decides, per adjacent pair.

    If the stronger level wins a share ``s`` of its games against the weaker, where luck alone
    would give it one half, a better policy decides about ``2 s - 1`` of the outcomes; the rest
    is luck (and seat). The interval is the share's Holm-adjusted one, mapped the same way.
    """
    lines = []
    for p in ladder_verdict(table)["pairs"]:
        decided = [max(0.0, 2 * x - 1) for x in (p["share"], p["low"], p["high"])]
        lines.append(
            f"skill expression: {p['upper']} vs {p['lower']} wins {p['share']:.1%} "
            f"[{p['low']:.1%}, {p['high']:.1%}]: the better policy decides about "
            f"{decided[0]:.0%} [{decided[1]:.0%}, {decided[2]:.0%}] of outcomes, luck the rest"
        )
    return lines


def format_ladder(table: pl.DataFrame) -> list[str]:
    """The ladder as text: a cross table of win shares with intervals and each level's Elo."""
    levels = table.unique("bot", keep="first", maintain_order=True)["bot"].to_list()
    share = {(r["bot"], r["opponent"]): r for r in table.iter_rows(named=True)}
    name_w = max(len(x) for x in [*levels, "bot"])
    cell_w = max(19, 3 + max(len(x) for x in levels))
    elo_w = 17
    head = f"{'bot':<{name_w}}  {'elo [95%]':>{elo_w}}  " + "  ".join(
        f"{'vs ' + x:<{cell_w}}" for x in levels
    )
    lines = [head]
    for a in levels:
        row = share[(a, levels[0] if a != levels[0] else levels[1])]
        elo = f"{row['elo']:.0f}"
        if "elo_low" in row:
            elo += f" [{row['elo_low']:.0f},{row['elo_high']:.0f}]"
        cells = []
        for b in levels:
            if a == b:
                cells.append(f"{'-':<{cell_w}}")
            else:
                r = share[(a, b)]
                cells.append(
                    f"{r['win_share']:.3f} [{r['ci_low']:.3f},{r['ci_high']:.3f}]".ljust(cell_w)
                )
        lines.append(f"{a:<{name_w}}  {elo:>{elo_w}}  " + "  ".join(cells))
    return lines
