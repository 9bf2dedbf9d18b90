"""Experiments: configs, sweeps, the parallel runner and the parquet store behind `menhir run`.

``experiments.run(config_or_path, out=None, jobs=None, games=None, backend="local",
scheduler=None, resume=False)`` runs an experiment from a notebook and returns its run directory.
Importing this package compiles nothing.
"""

from experiments.config import ConfigError, UserError


def run(config=None, out=None, **options):
    """Run an experiment (a TOML path or a parsed mapping); return the run directory's Path."""
    from experiments.runner import run as _run

    return _run(config, out, **options)


__all__ = ["run", "ConfigError", "UserError"]
