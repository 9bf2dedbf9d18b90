"""Experiments: configs, sweeps, the parallel runner and the parquet store behind `menhir run`.

``experiments.run(config_or_path, out=None, jobs=None, games=None, backend="local",
scheduler=None, resume=False)`` runs an experiment from a notebook and returns its run directory;
``experiments.balance(config, out=None, ...)`` searches for fair lever values (`menhir balance`);
``experiments.screen(config, out=None, ...)`` ranks the levers by their effect (`menhir screen`).
``experiments.challenge(config, out=None, target=...)`` tries a tuned player (`menhir challenge`).
Importing this package compiles nothing.
"""

from experiments.config import ConfigError, UserError


def run(config=None, out=None, **options):
    """Run an experiment (a TOML path or a parsed mapping); return the run directory's Path."""
    from experiments.runner import run as _run

    return _run(config, out, **options)


def balance(config, out=None, **options):
    """Search a config's [balance.levers] for fair values, confirm them; return the directory.

    Options: ``jobs``, ``backend``, ``scheduler``, ``resume``, ``progress``; the directory holds
    ``recommendation.json``, ``trials.parquet``, ``confirm/`` (a run) and ``report/``.
    """
    from experiments.balance_search import balance as _balance

    return _balance(config, out, **options)


def screen(config, out=None, **options):
    """Screen a config's [screen] levers (Morris, then Sobol on the top ones); return the directory.

    Options: ``jobs``, ``backend``, ``scheduler``, ``resume``, ``progress``; the directory holds
    ``screen.parquet``, ``morris.csv``, ``sobol.csv``, ``screen.json`` and ``report/``.
    """
    from experiments.screening import screen as _screen

    return _screen(config, out, **options)


def challenge(config, out=None, **options):
    """Challenge a finding with a tuned player (`menhir challenge`); return the folder.

    Options: ``target`` (a role, ``seat.N`` or a side) or ``all_targets=True``, ``jobs``,
    ``backend``, ``scheduler``, ``resume``, ``progress``; the folder holds ``challenge.json``,
    ``trials.parquet`` and ``confirm/`` (runs on fresh seeds).
    """
    from experiments.challenge_search import challenge as _challenge

    return _challenge(config, out, **options)


__all__ = ["run", "balance", "screen", "challenge", "ConfigError", "UserError"]
