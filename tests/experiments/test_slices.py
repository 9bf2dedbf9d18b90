"""A chunk is played in short compiled calls, so that --jobs 1 answers a signal within about
SLICE_SECONDS (issue 19): the slicing never changes a row."""

from dataclasses import fields

import numpy as np

from sim.core import batch
from sim.core.registry import make_setup
from tests.experiments.conftest import FAKE


def test_slow_games_are_played_in_slices_with_the_same_rows(fake_game, monkeypatch):
    monkeypatch.setattr(batch, "SLICE_SECONDS", 0.05)
    calls = []
    concat = batch.concat_results
    monkeypatch.setattr(batch, "concat_results", lambda parts: calls.append(parts) or concat(parts))
    setup = make_setup(FAKE, 3, {"delay_ms": 10}, "greedy,random,random")
    seeds = np.arange(12, dtype=np.uint64) * 7919
    sliced = batch.play_chunk(setup, seeds)
    whole = setup.decl.play(setup, seeds)
    assert len(calls) == 1 and 2 < len(calls[0]) < 12  # several calls, not one per game
    for f in fields(sliced):
        a, b = getattr(sliced, f.name), getattr(whole, f.name)
        assert (a is None and b is None) or np.array_equal(a, b), f.name


def test_fast_games_grow_to_one_call_per_slice(fake_game):
    setup = make_setup(FAKE, 2, {}, "random")
    result = batch.play_chunk(setup, np.arange(5000, dtype=np.uint64))
    assert result.n_games == 5000
    empty = batch.play_chunk(setup, np.zeros(0, np.uint64))
    assert empty.n_games == 0
