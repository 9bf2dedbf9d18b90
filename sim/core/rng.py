"""Explicit, threaded random streams for the compiled kernels.

Every game owns a small array of xoshiro256** states: row 0 is chance (setup shuffles, bag
draws), row 1 + seat is that seat's bot. Nothing here touches numba's global ``np.random``, so a
bot that thinks longer never shifts the dice (STYLE.md 5).
"""

import numpy as np
from numba import uint64

from sim.core.kernel import leaf

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_DOUBLE_UNIT = 1.0 / 9007199254740992.0  # 2**-53

CHANCE = 0  # row of the chance stream; seat s uses row 1 + s


@leaf
def mix64(x):
    """SplitMix64 finaliser: a bijective 64-bit hash."""
    z = uint64(x)
    z = (z ^ (z >> uint64(30))) * _MIX1
    z = (z ^ (z >> uint64(27))) * _MIX2
    return z ^ (z >> uint64(31))


@leaf
def seed_stream(state, seed):
    """Fill one 4-word xoshiro256** state from a 64-bit seed (SplitMix64 expansion)."""
    x = uint64(seed)
    for i in range(4):
        x = x + _GOLDEN
        state[i] = mix64(x)


@leaf
def seed_streams(streams, game_seed):
    """Seed every stream of one game: row k from ``mix64(game_seed + k * golden)``."""
    for k in range(streams.shape[0]):
        seed_stream(streams[k], mix64(uint64(game_seed) + uint64(k + 1) * _GOLDEN))


@leaf
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@leaf
def next_u64(s):
    """Advance one xoshiro256** state in place and return the next 64-bit output."""
    result = _rotl(s[1] * uint64(5), 7) * uint64(9)
    t = s[1] << uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@leaf
def uniform(s):
    """A float in [0, 1) with 53 random bits."""
    return (next_u64(s) >> uint64(11)) * _DOUBLE_UNIT


@leaf
def randint(s, n):
    """An integer in [0, n) (n >= 1); bias below 2**-53 per draw."""
    return int(uniform(s) * n)


@leaf
def shuffle(s, arr, n):
    """Fisher-Yates shuffle of ``arr[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = randint(s, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


@leaf
def draw_from_histogram(s, counts, total):
    """Index of one item drawn uniformly from a multiset given as a histogram (not removed)."""
    r = randint(s, total)
    for i in range(counts.shape[0]):
        r -= counts[i]
        if r < 0:
            return i
    return counts.shape[0] - 1


@leaf
def _derive_seeds(root_seed, variant_key, game_indices, out):
    base = mix64(mix64(uint64(root_seed)) ^ mix64(uint64(variant_key) + _GOLDEN))
    for i in range(game_indices.shape[0]):
        out[i] = mix64(base + uint64(game_indices[i]) * _GOLDEN)


def derive_game_seeds(root_seed: int, variant_key: int, game_indices) -> np.ndarray:
    """Seed of each game from (experiment seed, variant key, game index) alone.

    Counter-based: independent of chunking, job count and backend. With common random numbers
    the runner passes ``variant_key = 0`` for every variant, so game *i* of each variant replays
    the same deals.
    """
    idx = np.ascontiguousarray(game_indices, dtype=np.int64)
    out = np.empty(idx.shape[0], dtype=np.uint64)
    _derive_seeds(np.uint64(root_seed % 2**64), np.uint64(variant_key % 2**64), idx, out)
    return out


def new_streams(n_players: int) -> np.ndarray:
    """Allocate the stream array of one game: chance plus one per seat."""
    return np.zeros((1 + n_players, 4), dtype=np.uint64)
