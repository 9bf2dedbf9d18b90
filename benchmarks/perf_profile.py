"""Which compiled functions a game's games spend their time in: ``perf`` over numba's kernels.

    NUMBA_CACHE_DIR=$(mktemp -d) .venv/bin/python benchmarks/perf_profile.py catan search \\
        --games 80 [--players 4] [--set domestic_trade=false]
    perf report -i benchmarks/out/perf.data --no-children --sort symbol | head -40

Plays one warm-up game, writes ``/tmp/perf-PID.map`` (the symbol map perf reads for code made
at run time) from the LLVM modules of every numba kernel in the process, then records the
games with ``perf record -p PID``. Kernels loaded from numba's cache carry no LLVM module, so
point ``NUMBA_CACHE_DIR`` at an empty folder: the kernels are then compiled in this process
(a minute or so) and every function, inlined ones aside, gets its name. Kernels compiled only
for their callers (sim/core/lazy_codegen.py) are left out: they never run, and asking their
library for an address would emit them at addresses of their own. Needs Debian's
``linux-perf``. A developer's tool, never run by the tests or ``make bench``. The profile goes
to ``benchmarks/out/perf.data`` (ignored by git, like every file under ``benchmarks/out/``).
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import subprocess
import time
from pathlib import Path

from sim.core.batch import play_batch
from sim.core.params import parse_assignments
from sim.core.registry import make_setup


def kernel_symbols() -> dict[int, str]:
    """{address: symbol} of every function defined in a compiled numba kernel's library."""
    from numba.core.registry import CPUDispatcher

    from sim.core.lazy_codegen import is_pending

    symbols = {}
    for obj in gc.get_objects():
        if not isinstance(obj, CPUDispatcher):
            continue
        for result in list(obj.overloads.values()):
            library = result.library
            module = getattr(library, "_final_module", None)
            if module is None:  # loaded from the cache: no LLVM module
                continue
            if is_pending(library):  # never emitted (its callers run their own copies)
                continue
            for func in module.functions:
                if func.is_declaration:
                    continue
                address = library.get_pointer_to_function(func.name)
                if address:
                    symbols[address] = func.name
    return symbols


def write_perf_map(symbols: dict[int, str], pid: int) -> str:
    """perf's map of run-time code; a function's size is the gap to the next one."""
    path = f"/tmp/perf-{pid}.map"
    addresses = sorted(symbols)
    with open(path, "w") as fh:
        for i, address in enumerate(addresses):
            gap = addresses[i + 1] - address if i + 1 < len(addresses) else 4096
            fh.write(f"{address:x} {min(gap, 1 << 20):x} {symbols[address]}\n")
    return path


OUT = Path(__file__).resolve().parent / "out"  # profiler output, ignored by git


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("bot", help="a bot spec for every seat: random, greedy, search:...")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--out", default=str(OUT / "perf.data"), help="perf's data file")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="a game parameter"
    )
    args = parser.parse_args(argv)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    setup = make_setup(args.game, args.players, parse_assignments(args.set), args.bot)
    play_batch(setup, range(1), root_seed=1)  # compiles (or loads) every kernel
    symbols = kernel_symbols()
    if not symbols:
        raise SystemExit(
            "no kernel compiled in this process: set NUMBA_CACHE_DIR to an empty folder"
        )
    path = write_perf_map(symbols, os.getpid())
    print(f"{len(symbols)} kernel functions in {path}", flush=True)
    perf = subprocess.Popen(
        ["perf", "record", "-F", "2000", "-p", str(os.getpid()), "-o", args.out],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1)  # perf attaches
    start = time.perf_counter()
    play_batch(setup, range(1, 1 + args.games), root_seed=1)
    print(f"{args.games} games in {time.perf_counter() - start:.1f} s; profile in {args.out}")
    perf.send_signal(signal.SIGINT)
    perf.wait()


if __name__ == "__main__":
    main()
