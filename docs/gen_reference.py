"""Build-time generator of the reference pages (run by mkdocs-gen-files, never by hand).

Every table below is read from the same declarations `menhir games` prints
(``sim.core.registry``), the data paths from ``GameDecl.data.paths()`` (`menhir games GAME
--data`), the config keys from ``experiments.config`` and the parquet columns from
``sim.core.results.to_frames`` applied to an empty chunk, so nothing here is copied by hand and
no game is compiled or played.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an install

import mkdocs_gen_files
import numpy as np  # noqa: E402

from experiments.config import DATA_FILE_KEYS, DEFAULT_GAMES, MODES, TOP_KEYS
from sim.core.gamedata import show_value
from sim.core.registry import GAME_MODULES, get_game, make_setup
from sim.core.results import ChunkResult, to_frames


def cell(text) -> str:
    """Text made safe for one Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def code(text) -> str:
    text = str(text)
    tick = "``" if "`" in text else "`"
    pad = " " if "`" in text else ""
    return f"{tick}{pad}{cell(text)}{pad}{tick}"


def default_text(p) -> str:
    d = p.describe()["default"]
    if isinstance(d, dict):
        return ", ".join(f"{k}p: {code(v)}" for k, v in sorted(d.items()))
    return code(show_value(d))


def param_table(params) -> list[str]:
    lines = [
        "| parameter | type | default | allowed | provisional | what it is |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for p in params:
        lines.append(
            f"| {code(p.name)} | {p.kind} | {default_text(p)} | {cell(p.allowed())} | "
            f"{'yes' if p.provisional else ''} | {cell(p.doc)} |"
        )
    return lines


def game_page(game_id: str) -> str:
    g = get_game(game_id)
    out = [
        f"# {g.title}: parameters, bots and data paths",
        "",
        f"Generated at build time from `sim.core.registry.get_game({game_id!r})`, the declaration "
        f"`menhir games {game_id}` prints, and `GameDecl.data.paths()`, the list "
        f"`menhir games {game_id} --data` prints. The rules as implemented are on the game's "
        f"page: [{g.title}](../../games/{game_id}.md).",
        "",
        "| | |",
        "| --- | --- |",
        f"| id | {code(g.id)} |",
        f"| version | {code(g.version)} |",
        f"| players | {g.min_players} to {g.max_players} |",
        f"| default bot | {code(g.default_bot)} |",
        f"| {g.role_label}s | {', '.join(code(r) for r in g.roles) or 'none'} |",
        f"| {g.role_label} assignment | "
        f"{', '.join(code(m) for m in g.role_modes)}{', or a list by seat' if g.roles else ''} |",
        f"| leader sides | {'yes (A/B)' if g.has_sides else 'no'} |",
        f"| end reasons | {', '.join(code(r) for r in g.end_reasons)} |",
        f"| score components | {', '.join(code('pts_' + c) for c in g.score_components)} |",
        f"| tie-break | {', '.join(code(t) for t in g.tiebreak) or 'none (tied players share)'} |",
        "",
        "## Parameters",
        "",
        "Set with `--set NAME=VALUE` or a config's `[params]` table; a list in `[params]` sweeps.",
        "",
        *param_table(g.params),
        "",
        "## Bots",
        "",
        "Written `name` or `name:key=value:key=value` (e.g. `--bots greedy:key=value`).",
        "",
    ]
    for b in g.bots:
        out += [f"### `{b.name}` (code {b.code})", "", cell(b.description), ""]
        if len(b.params):
            out += [*param_table(b.params), ""]
        else:
            out += ["No parameters.", ""]
    paths = g.data.paths() if g.data is not None else []
    n_prov = sum(1 for item in paths if item.provisional)
    out += [
        "## Data paths",
        "",
        f"Every value of `{g.data.file.relative_to(g.data.file.parents[3])}` by its dotted "
        f"path: {len(paths)} paths, {n_prov} of them provisional (held by the rulebook's lost "
        "pictures). Override one with `--set PATH=VALUE` or in a config's `[data]` table.",
        "",
        "| path | value | provisional |",
        "| --- | --- | --- |",
    ]
    for item in paths:
        out.append(
            f"| {code(item.path)} | {code(show_value(item.value))} | "
            f"{'PROVISIONAL' if item.provisional else ''} |"
        )
    return "\n".join(out) + "\n"


def columns_page() -> str:
    out = [
        "# Parquet columns",
        "",
        "Generated at build time: the schema below is what `sim.core.results.to_frames` returns "
        "for a blank one-game chunk of each game at its largest player count (no game is "
        "played). The runner adds `variant` (the partition key, `v0`, `v1`, ...) and one "
        "column per swept setting to the games table: a "
        "swept parameter under its name, a swept data path under its path "
        "(`roles.trusted.rp_as_vp`), `data` for a swept variant file (its stem), `bots` and "
        "`roles` as comma-joined strings.",
        "",
        'Read a run with polars: `pl.scan_parquet("runs/demo/players")`.',
        "",
    ]
    for game_id in GAME_MODULES:
        g = get_game(game_id)
        setup = make_setup(game_id, g.max_players)
        sizes = (len(g.score_components), len(g.player_extras), len(g.decision_kinds))
        blank = ChunkResult.empty(1, g.max_players, *sizes)
        games, players = to_frames(setup, np.zeros(1, np.int64), np.zeros(1, np.uint64), blank)
        out += [f"## `{game_id}`", ""]
        for name, frame in (("games", games), ("players", players)):
            cols = ", ".join(f"{code(c)} ({t})" for c, t in frame.schema.items())
            out += [f"- **{name}**: {cols}", ""]
    out += [
        "## What the columns mean",
        "",
        "- games: `game` (index, 0-based), `seed` (the game's derived seed), `players`, `rounds`, "
        "`turns`, `end_reason` (one of the game's end reasons), `winners` (players sharing the "
        "win).",
        "- players: `seat` (0 = first player), `strategy` (the bot as written), `role` (role, "
        "destiny or leader; null where the game has none), `side` (leader side, else null), "
        "`score`, `rank` (1 = best, ties share the better rank), `win` (1/k for a k-way tie, "
        "else 0 or 1; in a solo game 1 when the solo target is reached), score components as "
        "`pts_<name>`, then the game's own per-player extras (decision counts `act_<kind>`, "
        "tie-break values).",
        "",
    ]
    return "\n".join(out)


def config_keys_page() -> str:
    out = [
        "# Experiment config",
        "",
        "A config is a TOML file; nothing in it is executed. The keys and their checks are "
        "those of `experiments/config.py` (below, generated from its docstring and constants); "
        "a worked explanation of every key is in [Sweep a rule](../howto/sweep-a-rule.md).",
        "",
        f"- top-level keys: {', '.join(code(k) for k in TOP_KEYS)}",
        f"- `games` defaults to {DEFAULT_GAMES:,} per variant",
        f"- `[sweep] mode`: {', '.join(code(m) for m in MODES)}",
        f"- keys of `[data]` that name a variant data file rather than a data path: "
        f"{', '.join(code(k) for k in DATA_FILE_KEYS)}",
        "",
        "::: experiments.config",
        "    options:",
        "      show_root_heading: false",
        "      members: false",
        "",
        "## The `[balance]` table",
        "",
        "::: experiments.balance_search",
        "    options:",
        "      show_root_heading: false",
        "      members: false",
        "",
        "## The `[challenge]` table",
        "",
        "::: experiments.challenge_search",
        "    options:",
        "      show_root_heading: false",
        "      members: false",
        "",
    ]
    return "\n".join(out)


DEMO_GAMES = 2000  # per variant: about 3 s of play; `make demo` plays 20,000
DEMO_PLOTS = (
    (
        "win_by_role.png",
        "Win rate of each role, per variant, with 95% Wilson intervals; the "
        "dashed line is the fair share 1/players.",
    ),
    (
        "win_by_role_sweep.png",
        "Each role's win rate against the swept parameter (`romans_in_play`).",
    ),
    (
        "variant_differences.png",
        "Forest plot: each variant minus the baseline (the first "
        "variant), per role and for seat 0, paired on common random numbers.",
    ),
    (
        "pairwise_heatmap.png",
        "Which roles can be told apart: each pair's win-rate difference, "
        "strongest role first; * marks pairs told apart (Holm-adjusted).",
    ),
    ("game_length.png", "Game length (rounds) per variant."),
    ("end_reasons.png", "How games end, per variant."),
)


def demo_report_page() -> str:
    """Run a small demo (the shipped demo config, fewer games), report it, embed the result."""
    import tempfile
    import tomllib

    import experiments
    from reports import make_report

    root = Path(__file__).resolve().parents[1]
    config = tomllib.loads((root / "experiments/configs/demo.toml").read_text())
    config["games"] = DEMO_GAMES
    with tempfile.TemporaryDirectory() as tmp:
        run = experiments.run(config, Path(tmp) / "demo", jobs=1, progress=False)
        report = make_report([run], Path(tmp) / "report")
        summary = (report / "summary.md").read_text(encoding="utf-8")
        for name, _ in DEMO_PLOTS:
            with mkdocs_gen_files.open(f"demo/{name}", "wb") as fh:
                fh.write((report / name).read_bytes())
    summary = summary.replace("\n# ", "\n### ").replace("\n## ", "\n### ")
    summary = summary.removeprefix("# ").split("\n", 1)[-1] if summary.startswith("# ") else summary
    out = [
        "# The demo report",
        "",
        f"Generated when the manual is built: the shipped `experiments/configs/demo.toml` played "
        f"with {DEMO_GAMES:,} games per variant instead of 20,000 (so the intervals are about "
        f"{(20000 / DEMO_GAMES) ** 0.5:.1f} times wider than `make demo`'s), then "
        "`menhir report`. What you see is what the tool writes today; how to read it is on "
        "[Getting started](getting-started.md#reading-the-report).",
        "",
        "## summary.md",
        "",
        summary,
        "",
        "## The plots",
        "",
    ]
    for name, caption in DEMO_PLOTS:
        out += [f"![{name}](demo/{name})", "", f"*{name}*: {caption}", ""]
    return "\n".join(out)


with mkdocs_gen_files.open("demo-report.md", "w") as fh:
    fh.write(demo_report_page())
for game_id in GAME_MODULES:
    with mkdocs_gen_files.open(f"reference/games/{game_id}.md", "w") as fh:
        fh.write(game_page(game_id))
with mkdocs_gen_files.open("reference/columns.md", "w") as fh:
    fh.write(columns_page())
with mkdocs_gen_files.open("reference/config.md", "w") as fh:
    fh.write(config_keys_page())
