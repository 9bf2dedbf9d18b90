"""Run progress on stderr: a bar (games, games/s, ETA) on a terminal, else a line per variant."""

from __future__ import annotations

import sys
import time


class Progress:
    """Reports games as chunks finish; ``enabled=None`` picks the bar when stderr is a terminal."""

    def __init__(self, total: int, done: int = 0, enabled: bool | None = True, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = enabled is not False
        self.bar = None
        if self.enabled and self._is_terminal():
            from tqdm import tqdm

            self.bar = tqdm(
                total=total,
                initial=done,
                unit="game",
                unit_scale=True,
                file=self.stream,
                dynamic_ncols=True,
                smoothing=0.1,
            )

    def _is_terminal(self) -> bool:
        isatty = getattr(self.stream, "isatty", None)
        return bool(isatty and isatty())

    def advance(self, games: int) -> None:
        if self.bar is not None:
            self.bar.update(games)

    def shrink(self, games: int) -> None:
        """Planned games that will not be played (a variant reached its target early)."""
        if self.bar is not None and games:
            self.bar.total -= games
            self.bar.refresh()

    def note(self, text: str) -> None:
        """A short status shown beside the bar (e.g. the best imbalance so far)."""
        if self.bar is not None:
            self.bar.set_postfix_str(text)

    def line(self, text: str) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.write(text, file=self.stream)
        else:
            print(text, file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class Clock:
    """Wall-clock start of a variant's first chunk, for its games/s line."""

    def __init__(self):
        self.start: float | None = None

    def tick(self) -> None:
        if self.start is None:
            self.start = time.perf_counter()

    def elapsed(self) -> float:
        return 0.0 if self.start is None else time.perf_counter() - self.start
