"""An unwritable HOME: matplotlib warned on every command (issue 36, defect 22)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_reports_import_quietly_with_an_unwritable_home(tmp_path):
    blocker = tmp_path / "home"
    blocker.write_text("a file where the home folder should be")
    env = {k: v for k, v in os.environ.items() if k not in ("MPLCONFIGDIR", "XDG_CONFIG_HOME")}
    env |= {"HOME": str(blocker), "TMPDIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    code = "import reports, matplotlib.pyplot as plt; plt.figure(); print('ok')"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
    assert "matplotlib" not in done.stderr.lower(), done.stderr
