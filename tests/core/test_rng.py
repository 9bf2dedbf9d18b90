import numpy as np

from sim.core.rng import (
    derive_game_seeds,
    draw_from_histogram,
    new_streams,
    randint,
    seed_streams,
    shuffle,
    uniform,
)


def test_game_seeds_depend_only_on_root_variant_and_index():
    whole = derive_game_seeds(7, 0, np.arange(100))
    parts = np.concatenate(
        [derive_game_seeds(7, 0, np.arange(a, a + 10)) for a in range(0, 100, 10)]
    )
    assert np.array_equal(whole, parts)
    assert np.array_equal(derive_game_seeds(7, 0, [42, 3]), whole[[42, 3]])
    assert len(set(whole.tolist())) == 100


def test_variant_key_and_root_change_every_seed():
    base = derive_game_seeds(7, 0, np.arange(50))
    assert not np.any(base == derive_game_seeds(7, 1, np.arange(50)))
    assert not np.any(base == derive_game_seeds(8, 0, np.arange(50)))


def test_streams_are_independent_rows():
    streams = new_streams(3)
    seed_streams(streams, np.uint64(12345))
    assert len({tuple(row) for row in streams.tolist()}) == 4
    first = [randint(streams[1], 1000) for _ in range(20)]
    # drawing from a seat stream never moves the chance stream
    again = new_streams(3)
    seed_streams(again, np.uint64(12345))
    assert [randint(again[0], 1000) for _ in range(5)] == [
        randint(streams[0], 1000) for _ in range(5)
    ]
    assert first != [randint(again[2], 1000) for _ in range(20)]


def test_randint_is_uniform_enough():
    s = new_streams(0)[0]
    seed_streams(new_streams(0), np.uint64(1))
    seed_streams(s.reshape(1, 4), np.uint64(99))
    counts = np.bincount([randint(s, 6) for _ in range(60_000)], minlength=6)
    assert counts.min() > 9_500 and counts.max() < 10_500
    assert all(0.0 <= uniform(s) < 1.0 for _ in range(1000))


def test_shuffle_is_a_permutation_and_histogram_draw_respects_counts():
    streams = new_streams(0)
    seed_streams(streams, np.uint64(5))
    arr = np.arange(10)
    shuffle(streams[0], arr, 10)
    assert sorted(arr.tolist()) == list(range(10)) and arr.tolist() != list(range(10))
    counts = np.array([0, 3, 0, 1], np.int64)
    drawn = {draw_from_histogram(streams[0], counts, 4) for _ in range(200)}
    assert drawn == {1, 3}
