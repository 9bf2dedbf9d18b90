"""A screen's designs and their analysis (SALib): Morris effects against the noise floor,
the most important levers, and Sobol indices with the interactions they show.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from experiments.screen_config import ScreenConfig, ScreenLever

RESAMPLES = 1000
Z95 = 1.959963984540054
INTERACT_GAP = 0.1
PAIR_MIN = 0.05


def problem(levers) -> dict:
    return {
        "num_vars": len(levers),
        "names": [lv.name for lv in levers],
        "bounds": [[0, 1]] * len(levers),
    }


def morris_design(sc: ScreenConfig) -> np.ndarray:
    """The Morris trajectories in [0, 1] (seeded by the experiment's seed)."""
    from SALib.sample import morris

    return morris.sample(
        problem(sc.levers), sc.trajectories, num_levels=sc.levels, seed=sc.seed % 2**32
    )


def sobol_design(sc: ScreenConfig, top: list[ScreenLever]) -> np.ndarray:
    from SALib.sample import sobol

    return sobol.sample(
        problem(top), sc.sobol_n, calc_second_order=len(top) > 1, seed=sc.seed % 2**32
    )


def noise_floor(sc: ScreenConfig, frame: pl.DataFrame) -> dict[str, float]:
    """Each output's standard error s at the points' game count, and the Morris floor f."""
    ses = {}
    games = float(frame["games"].mean())
    for name in sc.outputs:
        if name.startswith("win:"):
            p = float(frame[name].mean())
            n = float(frame[f"n:{name[4:]}"].mean())
            ses[name] = math.sqrt(max(p * (1 - p), 0.0) / n) if n else float("nan")
        elif name.startswith("seat:") or name == "shared_defeat":
            p = float(frame[name].mean())
            ses[name] = math.sqrt(max(p * (1 - p), 0.0) / games)
        elif name == "rounds":
            ses[name] = float(frame["rounds_sd"].mean()) / math.sqrt(games)
    group = [o for o in sc.outputs if o.startswith("win:")]
    if "spread" in sc.outputs:
        rates = group or [f"seat:{i}" for i in range(sc.players)]
        worst = 0.0
        for r in rates:
            if r in ses:
                worst = max(worst, ses[r])
            else:
                p = float(frame[r].mean()) if r in frame.columns else 0.5
                worst = max(worst, math.sqrt(p * (1 - p) / games))
        ses["spread"] = math.sqrt(2) * worst
    return ses


def morris_delta(levels: int) -> float:
    return levels / (2 * (levels - 1))


def analyse_morris(sc: ScreenConfig, design: np.ndarray, frame: pl.DataFrame) -> pl.DataFrame:
    """mu*, sigma, the interval of mu*, the noise floor and the inert call, per lever x output."""
    from SALib.analyze import morris

    ses = noise_floor(sc, frame)
    delta = morris_delta(sc.levels)
    rows = []
    for name in sc.outputs:
        y = frame[name].to_numpy().astype(float)
        if not np.all(np.isfinite(y)):
            continue  # a role no game dealt at some point: no effect to measure
        floor = 2 * ses[name] / (math.sqrt(math.pi) * delta)
        res = morris.analyze(
            problem(sc.levers), design, y, num_resamples=RESAMPLES, num_levels=sc.levels,
            seed=sc.seed % 2**32,
        )  # fmt: skip
        mu_star = np.asarray(res["mu_star"], float)
        order = np.argsort(-mu_star, kind="stable")
        rank = np.empty(len(order), int)
        rank[order] = np.arange(1, len(order) + 1)
        for i, lever in enumerate(sc.levers):
            conf = float(np.asarray(res["mu_star_conf"], float)[i])
            rows.append(
                {
                    "output": name,
                    "lever": lever.name,
                    "rank": int(rank[i]),
                    "mu": float(np.asarray(res["mu"], float)[i]),
                    "mu_star": float(mu_star[i]),
                    "mu_star_conf": conf,
                    "sigma": float(res["sigma"][i]),
                    "noise_se": ses[name],
                    "noise_floor": floor,
                    "inert": bool(mu_star[i] - conf <= floor),
                }
            )
    return pl.DataFrame(rows, schema=MORRIS_SCHEMA)


MORRIS_SCHEMA = {
    "output": pl.String, "lever": pl.String, "rank": pl.Int64, "mu": pl.Float64,
    "mu_star": pl.Float64, "mu_star_conf": pl.Float64, "sigma": pl.Float64,
    "noise_se": pl.Float64, "noise_floor": pl.Float64, "inert": pl.Boolean,
}  # fmt: skip


def importance(morris: pl.DataFrame) -> dict[str, float]:
    """Per lever not inert everywhere: the most noise floors its mu* stands clear of, over outputs.

    (mu* - its interval) / the output's noise floor is unit-free, so outputs in different units
    (win rates, rounds) compare; a lever is only as important as its clearest effect.
    """
    clear = morris.filter(~pl.col("inert") & (pl.col("noise_floor") > 0))
    score = clear.group_by("lever").agg(
        ((pl.col("mu_star") - pl.col("mu_star_conf")) / pl.col("noise_floor")).max().alias("s")
    )
    return dict(score.iter_rows())


def top_levers(sc: ScreenConfig, morris: pl.DataFrame) -> list[ScreenLever]:
    score = importance(morris)
    ranked = sorted(
        (lv for lv in sc.levers if lv.name in score), key=lambda lv: (-score[lv.name], lv.name)
    )
    return ranked[: sc.sobol_top]


def moved_outputs(morris: pl.DataFrame) -> list[str]:
    """Outputs some lever moves beyond noise (the others are noise: no Sobol stage for them)."""
    return morris.filter(~pl.col("inert"))["output"].unique(maintain_order=True).to_list()


def analyse_sobol(sc, top, frame: pl.DataFrame, outputs: list[str]) -> pl.DataFrame:
    """S1, ST and S2 with intervals per lever (pair) and output; interacting levers marked."""
    from SALib.analyze import sobol

    rows = []
    second = len(top) > 1
    for name in [o for o in sc.outputs if o in outputs]:
        y = frame[name].to_numpy().astype(float)
        if not np.all(np.isfinite(y)) or np.var(y) == 0:
            continue
        res = sobol.analyze(
            problem(top), y, calc_second_order=second, num_resamples=RESAMPLES,
            seed=sc.seed % 2**32, keep_resamples=True,
        )  # fmt: skip
        for i, lever in enumerate(top):
            s1, s1c = float(res["S1"][i]), float(res["S1_conf"][i])
            st, stc = float(res["ST"][i]), float(res["ST_conf"][i])
            gap = st - s1  # its interval from the same (paired) bootstrap resamples
            gaps = np.asarray(res["ST_conf_all"])[:, i] - np.asarray(res["S1_conf_all"])[:, i]
            gap_conf = float(Z95 * np.std(gaps, ddof=1))
            rows.append(
                {
                    "output": name, "lever": lever.name, "other": None,
                    "S1": s1, "S1_conf": s1c, "ST": st, "ST_conf": stc, "gap": gap,
                    "gap_conf": gap_conf, "S2": None, "S2_conf": None,
                    "interacts": bool(gap >= INTERACT_GAP and gap - gap_conf > 0),
                }
            )  # fmt: skip
        if second:
            for i in range(len(top)):
                for j in range(i + 1, len(top)):
                    s2, s2c = float(res["S2"][i, j]), float(res["S2_conf"][i, j])
                    rows.append(
                        {
                            "output": name, "lever": top[i].name, "other": top[j].name,
                            "S1": None, "S1_conf": None, "ST": None, "ST_conf": None,
                            "gap": None, "gap_conf": None, "S2": s2, "S2_conf": s2c,
                            "interacts": bool(s2 - s2c > 0 and s2 >= PAIR_MIN),
                        }
                    )  # fmt: skip
    return pl.DataFrame(rows, schema=SOBOL_SCHEMA)


SOBOL_SCHEMA = {
    "output": pl.String, "lever": pl.String, "other": pl.String, "S1": pl.Float64,
    "S1_conf": pl.Float64, "ST": pl.Float64, "ST_conf": pl.Float64, "gap": pl.Float64,
    "gap_conf": pl.Float64, "S2": pl.Float64,
    "S2_conf": pl.Float64, "interacts": pl.Boolean,
}  # fmt: skip


def inert_levers(morris: pl.DataFrame) -> list[str]:
    """Levers inert for every output."""
    alive = set(morris.filter(~pl.col("inert"))["lever"].to_list())
    return sorted(set(morris["lever"].to_list()) - alive)
