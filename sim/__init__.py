"""The simulation core (sim.core) and the games (sim.games.<id>).

Importing ``sim`` compiles nothing; it points numba's cache at a folder keyed by the source code
(sim/numba_cache.py), so an edited rule is never played from a stale compiled kernel.
"""

from sim import numba_cache

numba_cache.configure()
