"""`menhir report --out DIR` never deletes what it did not write (issue 19, defect 1)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from experiments.cli import cli
from reports.outdir import (
    MARKER,
    OutDirError,
    _start,
    check_out_dir,
    remove_stale,
    write_atomically,
)


def _write_two(tmp):
    (tmp / "report.html").write_text("<html>new</html>")
    (tmp / "summary.md").write_text("new")


def _fake_run(folder):
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text("{}")
    return folder


def test_unrelated_folder_is_refused_and_kept(tmp_path):
    out = tmp_path / "thesis"
    out.mkdir()
    (out / "chapter1.tex").write_text("years of work")
    with pytest.raises(OutDirError, match="not a menhir report"):
        write_atomically(out, [], _write_two)
    assert (out / "chapter1.tex").read_text() == "years of work"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["thesis"]


def test_input_run_and_folder_holding_it_are_refused(tmp_path):
    run = _fake_run(tmp_path / "runs" / "a")
    with pytest.raises(OutDirError, match="it is the run"):
        check_out_dir(run, [run])
    with pytest.raises(OutDirError, match="it holds the run"):
        check_out_dir(tmp_path / "runs", [run])
    assert (run / "manifest.json").exists()


def test_a_file_is_refused(tmp_path):
    out = tmp_path / "notes.txt"
    out.write_text("keep")
    with pytest.raises(OutDirError, match="not a folder"):
        write_atomically(out, [], _write_two)
    assert out.read_text() == "keep"


def test_an_earlier_report_is_replaced(tmp_path):
    out = tmp_path / "rep"
    write_atomically(out, [], lambda t: (t / "old.png").write_text("x"))
    assert list(json.loads((out / MARKER).read_text())["files"]) == ["old.png"]
    write_atomically(out, [], _write_two)
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "report.html", "summary.md"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]


def test_a_report_with_a_user_file_added_is_refused(tmp_path):
    out = tmp_path / "rep"
    write_atomically(out, [], _write_two)
    (out / "my_notes.md").write_text("mine")
    with pytest.raises(OutDirError, match="my_notes.md"):
        write_atomically(out, [], _write_two)
    assert (out / "my_notes.md").read_text() == "mine"


def test_a_failing_write_leaves_the_earlier_report(tmp_path):
    out = tmp_path / "rep"
    write_atomically(out, [], _write_two)

    def broken(tmp):
        (tmp / "half.png").write_text("x")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        write_atomically(out, [], broken)
    assert (out / "report.html").read_text() == "<html>new</html>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]


def test_empty_folder_is_accepted(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    write_atomically(empty, [], _write_two)
    assert (empty / "report.html").read_text() == "<html>new</html>"


def test_a_folder_that_only_looks_like_a_report_is_kept(tmp_path):
    """Issue 36, defect 1: report.html and summary.md beside a user's own .csv and .md files
    made a "legacy report" that was deleted; without a marker listing them nothing is."""
    w = tmp_path / "w"
    w.mkdir()
    for name, text in [
        ("report.html", "old"),
        ("summary.md", "old"),
        ("budget_2025.csv", "rent,1200"),
        ("thesis.md", "years of work"),
    ]:
        (w / name).write_text(text)
    with pytest.raises(OutDirError, match="not a menhir report"):
        write_atomically(w, [], _write_two)
    assert (w / "budget_2025.csv").read_text() == "rent,1200"
    assert (w / "thesis.md").read_text() == "years of work"
    assert (w / "report.html").read_text() == "old"


def test_a_report_file_edited_since_is_kept(tmp_path):
    """A marker lists sizes and digests: a report whose summary the user edited is refused."""
    out = tmp_path / "rep"
    write_atomically(out, [], _write_two)
    (out / "summary.md").write_text("new, with my notes")
    with pytest.raises(OutDirError, match="changed since"):
        write_atomically(out, [], _write_two)
    (out / "summary.md").write_text("abc")  # same size as "new", other bytes
    with pytest.raises(OutDirError, match="changed since"):
        write_atomically(out, [], _write_two)
    assert (out / "summary.md").read_text() == "abc"


def test_an_old_marker_without_sizes_is_refused(tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "report.html").write_text("mine")
    (out / MARKER).write_text(json.dumps({"files": ["report.html"]}))
    with pytest.raises(OutDirError, match="not a menhir report"):
        write_atomically(out, [], _write_two)
    assert (out / "report.html").read_text() == "mine"


def test_a_folder_inside_a_run_is_refused(tmp_path):
    """Issue 36, defect 3: `report --out` inside a partition folder of a run."""
    run = _fake_run(tmp_path / "run")
    part = run / "games" / "variant=v0"
    part.mkdir(parents=True)
    with pytest.raises(OutDirError, match="inside the run directory"):
        check_out_dir(part / "w", [])
    check_out_dir(run / "report", [])  # the default place is beside the data folders


def test_cli_refuses_with_one_line_and_exit_2(tmp_path):
    run = _fake_run(tmp_path / "run")
    out = tmp_path / "other"
    out.mkdir()
    (out / "data.csv").write_text("1,2")
    result = CliRunner().invoke(cli, ["report", str(run), "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "holds the run" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert (run / "manifest.json").exists()
    result = CliRunner().invoke(cli, ["report", str(run), "--out", str(out)])
    assert result.exit_code == 2 and (out / "data.csv").exists()


# Issue 36, defect 13: what a killed report left beside its destination
WRITER = """
import pathlib, sys, time
from reports.outdir import write_atomically

def write(tmp):
    (tmp / "plot.png").write_text("x")
    print("writing", flush=True)
    time.sleep(120)

write_atomically(pathlib.Path(sys.argv[1]), [], write)
"""


def test_a_killed_reports_temporary_folder_is_removed_by_the_next_never_while_it_lives(tmp_path):
    out = tmp_path / "rep"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(out)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert proc.stdout.readline().strip() == "writing"
        (live,) = tmp_path.glob(".report-*")
        write_atomically(tmp_path / "other", [], _write_two)  # a report beside a live one
        assert live.is_dir() and (live / "plot.png").exists()
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
    assert live.is_dir()  # kill -9: nothing ran to remove it
    write_atomically(out, [], _write_two)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other", "rep"]


def test_an_earlier_report_moved_aside_by_a_killed_report_is_put_back(tmp_path):
    out = tmp_path / "rep"
    write_atomically(out, [], _write_two)
    old = tmp_path / ".report-old-x1"
    old.mkdir()
    os.close(_start(old, {"kind": "earlier", "out": "rep"}))  # the writer died here...
    os.rename(out, old / "report")  # ...after moving the earlier report aside
    remove_stale(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]
    assert (out / "report.html").read_text() == "<html>new</html>"


def test_folders_named_like_a_reports_temporary_one_are_kept(tmp_path):
    mine = tmp_path / ".report-mine"  # no marker: a user's folder
    mine.mkdir()
    (mine / "notes.md").write_text("mine")
    added = tmp_path / ".report-added"  # a killed report's folder a user put a folder into
    added.mkdir()
    os.close(_start(added, {"kind": "report", "suffixes": [".png"]}))
    (added / "keep").mkdir()
    other = tmp_path / ".report-other"  # a file the marker does not allow
    other.mkdir()
    os.close(_start(other, {"kind": "report", "suffixes": [".png"]}))
    (other / "thesis.tex").write_text("years")
    write_atomically(tmp_path / "rep", [], _write_two)
    assert (mine / "notes.md").exists() and (added / "keep").is_dir()
    assert (other / "thesis.tex").exists()
