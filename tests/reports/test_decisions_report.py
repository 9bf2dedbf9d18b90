"""What the players did (issue 18): the decision mix table, its plot and the rule-hole flags."""

import polars as pl

import experiments
from reports import make_report


def test_a_disabled_decision_is_flagged_as_never_taken(tmp_path):
    config = {
        "name": "holes",
        "game": "celtic_trader",
        "games": 150,
        "seed": 4,
        "players": 3,
        "bots": "greedy",
        "params": {"orders_tokens": 0, "romanisation_tokens": [0, 1]},
    }
    run = experiments.run(config, tmp_path / "run", jobs=1, progress=False)
    out = make_report([run], tmp_path / "rep")
    mix = pl.read_csv(out / "decision_mix.csv")
    assert {"role", "strategy", "n", "act_move", "act_deliver"} <= set(mix.columns)
    assert (out / "decision_mix.png").exists()
    summary = (out / "summary.md").read_text()
    holes = summary.split("## Rule holes", 1)[1].split("\n## ", 1)[0]
    never = {
        line.split(":")[0]: line.split("never taken by any seat: ")[1].split(" (")[0].split(", ")
        for line in holes.splitlines()
        if "never taken" in line
    }
    v0, v1 = (
        never["- variant v0 (romanisation_tokens=0)"],
        never["- variant v1 (romanisation_tokens=1)"],
    )
    assert "orders" in v0 and "romanise" in v0  # both tokens out of the bag
    assert "orders" in v1 and "romanise" not in v1  # Romanisation is back
    assert "role" in v0  # roles dealt at random: the draft decision never comes up
    assert "move" not in v0 and "deliver" not in v0
