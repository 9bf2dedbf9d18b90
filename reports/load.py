"""Lazy loading of run directories and the (run, variant) keys the report compares.

Nothing here reads a whole table into memory: each run becomes two polars LazyFrames over its
parquet files (footers are checked up front so a corrupt file is named before any output), and
the variant keys — one row per (run, variant) with a readable label — come from the manifests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import polars as pl

GAMES_COLUMNS = ("variant", "game", "seed", "players", "rounds", "turns", "end_reason")
PLAYERS_COLUMNS = ("variant", "game", "seat", "strategy", "role", "side", "score", "win")
KEY = ["run", "variant"]


class ReportError(ValueError):
    """A missing, empty or corrupt run directory: one line naming the path."""


@dataclass(frozen=True)
class Run:
    """One run directory: its manifest, a unique short name and lazy scans of its tables."""

    path: Path
    manifest: dict
    name: str
    games: pl.LazyFrame
    players: pl.LazyFrame


def _read_manifest(run_dir: Path) -> dict:
    if not run_dir.is_dir():
        raise ReportError(f"{run_dir}: no such run directory")
    manifest_path = run_dir / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_text())
    except FileNotFoundError:
        raise ReportError(f"{manifest_path}: missing (not a menhir run directory)") from None
    except OSError as exc:  # a folder named manifest.json, no permission
        raise ReportError(f"{manifest_path}: cannot read ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise ReportError(f"{manifest_path}: corrupt JSON ({exc.msg})") from None
    except UnicodeDecodeError:
        raise ReportError(f"{manifest_path}: corrupt JSON (not UTF-8 text)") from None
    if not isinstance(manifest, dict):
        raise ReportError(f"{manifest_path}: not a JSON object")
    return manifest


def incomplete(run_dir) -> tuple[int, int] | None:
    """(games done, games planned) of a run that was killed or is still running, else None.

    A variant stopped by its target_ci plans the games it played.
    """
    manifest = _read_manifest(Path(run_dir))
    entries = [v for v in manifest.get("variants") or [] if isinstance(v, dict)]
    try:
        done = sum(int(v.get("games_done") or 0) for v in entries)
        planned = sum(
            int(v.get("games_done") or 0) if v.get("stop_reason") else int(v["games_planned"])
            for v in entries
        )
    except (KeyError, TypeError, ValueError):
        raise ReportError(f"{Path(run_dir) / 'manifest.json'}: corrupt manifest") from None
    stopped = all("stop_reason" not in v or v["stop_reason"] for v in entries)
    if manifest.get("status", "complete") == "complete" and stopped:
        return None
    return done, planned


def check_distinct(run_dirs) -> None:
    """Refuse a run given twice (its games would count twice) and runs of different games
    (their tables do not mix): one line naming the runs."""
    seen: dict[Path, Path] = {}
    games: dict[str, Path] = {}
    for d in run_dirs:
        d = Path(d)
        key = d.resolve()
        if key in seen:
            raise ReportError(
                f"{seen[key]} and {d} are the same run; give each run once "
                "(its games would count twice)"
            )
        seen[key] = d
        game = str(_read_manifest(d).get("game"))
        games.setdefault(game, d)
        if len(games) > 1:
            (g1, d1), (g2, d2) = list(games.items())[:2]
            raise ReportError(
                f"{d1} is a run of {g1} and {d2} a run of {g2}; one report compares runs "
                "of one game"
            )


def listed_files(run_dir: Path, manifest: dict, table: str, partial: bool = False) -> list[Path]:
    """The chunk files of ``table`` that the manifest lists, and only those.

    A run whose files disagree with its manifest (a listed chunk missing, a chunk file it does
    not list: a copy, or one written just before a kill) is refused in one line; with
    ``partial`` the listed chunks that exist are read and the rest ignored.
    """
    from experiments.store import CHUNK_NAME, chunk_file

    try:
        listed = [
            chunk_file(run_dir, table, str(v["id"]), int(first), int(n))
            for v in manifest.get("variants") or []
            for first, n in v["chunks"]
        ]
    except (KeyError, TypeError, ValueError, AttributeError):
        raise ReportError(f"{run_dir / 'manifest.json'}: corrupt manifest") from None
    present = {
        p
        for p in (run_dir / table).glob("variant=*/part-*.parquet")
        if CHUNK_NAME.fullmatch(p.name)
    }
    if partial:
        return [f for f in listed if f in present]
    for f in listed:
        if f not in present:
            raise ReportError(
                f"{f}: listed in the manifest but missing; repair the run with menhir run "
                f"CONFIG --out {run_dir} --resume, or report the chunks that exist with --partial"
            )
    extra = sorted(present - set(listed))
    if extra:
        raise ReportError(
            f"{extra[0]}: a chunk file the manifest does not list (a copy, or a chunk of a "
            "killed run); remove it, --resume the run, or report the listed chunks with --partial"
        )
    return listed


def _scan(
    run_dir: Path, manifest: dict, table: str, required: tuple[str, ...], name: str, partial: bool
) -> pl.LazyFrame:
    """Lazy scan of one table's listed chunks after checking every file's footer and the
    required columns."""
    files = listed_files(run_dir, manifest, table, partial)
    if not files:
        raise ReportError(f"{run_dir / table}: no finished games in this run")
    for f in files:
        try:
            schema = pl.read_parquet_schema(f)
        except Exception:
            raise ReportError(f"{f}: corrupt parquet file") from None
        missing = [c for c in required if c not in schema]
        if missing:
            raise ReportError(f"{f}: missing column(s) {', '.join(missing)}")
    lazy = pl.scan_parquet(files, hive_partitioning=False, missing_columns="insert")
    return lazy.with_columns(pl.lit(name).alias("run"))


def load_run(run_dir, name: str | None = None, partial: bool = False) -> Run:
    """Check a run directory and scan its listed chunks lazily (no table is collected)."""
    run_dir = Path(run_dir)
    manifest = _read_manifest(run_dir)
    name = name or str(manifest.get("name") or run_dir.name)
    games = _scan(run_dir, manifest, "games", GAMES_COLUMNS, name, partial)
    players = _scan(run_dir, manifest, "players", PLAYERS_COLUMNS, name, partial)
    return Run(run_dir, manifest, name, games, players)


def load_runs(run_dirs, partial: bool = False) -> list[Run]:
    """Load several runs; names are the manifests' names, made unique with the directory name."""
    check_distinct(run_dirs)
    runs: list[Run] = []
    seen: set[str] = set()
    for d in run_dirs:
        run = load_run(d, partial=partial)
        name = run.name
        if name in seen:
            name = f"{name} ({Path(d).name})"
        k = 2
        while name in seen:
            name, k = f"{run.name} #{k}", k + 1
        seen.add(name)
        runs.append(run if name == run.name else load_run(d, name, partial))
    return runs


def _variant_label(entry: dict) -> str:
    return str(entry.get("label") or entry.get("id"))


def variant_keys(runs: list[Run], present: pl.DataFrame) -> pl.DataFrame:
    """One row per (run, variant) present in the data, in manifest order, with its label.

    `present` holds the (run, variant) pairs found in the games tables. The label is what a
    reader needs, in words: the variant's swept values (`romans_in_play 11`, `4 players,
    rp_as_vp 2`), with several runs the settings that differ between them (`search bots,
    advanced false`); the manifest's label (`base`) for a variant that sweeps nothing. Variant
    ids stay in the CSVs' `variant` column. `order` 0 is the baseline every other variant is
    compared with.
    """
    from reports.axes import swept_words, variant_values

    values = variant_values(runs)
    rows = []
    for run in runs:
        listed_variants = run.manifest.get("variants") or []
        entries = {v.get("id"): v for v in listed_variants if isinstance(v, dict)}
        found = present.filter(pl.col("run") == run.name)["variant"].to_list()
        listed = [v for v in entries if v in found]
        extra = sorted((v for v in found if v not in entries), key=_natural)
        counts = {
            str((v.get("setup") or {}).get("players"))
            for v in entries.values()
            if isinstance(v.get("setup"), dict)
        }
        for vid in listed + extra:
            entry = entries.get(vid, {"id": vid})
            own = entry.get("swept") if isinstance(entry.get("swept"), dict) else None
            players = (entry.get("setup") or {}).get("players")
            if own and len(counts) > 1 and "players" not in own and players is not None:
                own = {"players": players, **own}  # a player count that differs, unswept
            # the swept values in words ('4 players, rp_as_vp 2'); the variant id only in CSVs
            short = swept_words(own) if own else _variant_label(entry)
            swept = values.get((run.name, vid))
            label = swept_words(swept) if swept and len(runs) > 1 else short
            rows.append(
                {
                    "run": run.name,
                    "variant": vid,
                    "label": f"{run.name}: {label}" if len(runs) > 1 and not swept else label,
                    "short": short,
                    "paired_run": run.manifest.get("paired") is not False,
                }
            )
    labels = [r["label"] for r in rows]
    if len(set(labels)) < len(labels):  # runs of the same setups: the run's name, own values
        for r in rows:
            r["label"] = f"{r['run']}: {r['short']}" if len(runs) > 1 else r["short"]
    labels = [r["label"] for r in rows]
    if len(set(labels)) < len(labels):  # variants that say the same in words: their ids too
        for r in rows:
            r["label"] = f"{r['label']} ({r['variant']})"
    table = pl.DataFrame(rows, schema=_KEYS_SCHEMA)
    return table.with_row_index("order")


_KEYS_SCHEMA = {
    "run": pl.String,
    "variant": pl.String,
    "label": pl.String,
    "short": pl.String,
    "paired_run": pl.Boolean,
}


def _natural(vid: str) -> tuple:
    """Sort v2 before v10."""
    digits = "".join(ch for ch in vid if ch.isdigit())
    return (int(digits) if digits else -1, vid)
