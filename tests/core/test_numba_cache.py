"""The numba cache cannot go stale (issue 19): an edit to a file another kernel inlines is used."""

import os
import subprocess
import sys
import textwrap

from sim import numba_cache

RUN = textwrap.dedent(
    """
    import importlib.util, sys
    from pathlib import Path
    sys.path.insert(0, {pkg!r})
    if {managed}:  # the module alone, so that importing sim does not configure it for sim
        spec = importlib.util.spec_from_file_location("nc", {module!r})
        nc = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(nc)
        nc.configure([Path({pkg!r})], Path({root!r}))
    from user import total
    print(total())
    """
)


def _write_kernels(pkg, value):
    (pkg / "rule.py").write_text(
        f"from numba import njit\n\n@njit(cache=True)\ndef bonus():\n    return {value}\n"
    )
    user = pkg / "user.py"
    if not user.exists():  # unchanged by the edit, as a bot file is when a rule is fixed
        user.write_text(
            "from numba import njit\nfrom rule import bonus\n\n"
            "@njit(cache=True)\ndef total():\n    return bonus() + 100\n"
        )


def _run(pkg, root, managed: bool, tmpdir=None) -> str:
    code = RUN.format(pkg=str(pkg), root=str(root), managed=managed, module=numba_cache.__file__)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_an_edited_rule_is_used_by_the_kernel_that_inlines_it(tmp_path):
    for managed in (False, True):
        pkg = tmp_path / f"pkg{managed}"
        pkg.mkdir()
        _write_kernels(pkg, 1)
        assert _run(pkg, tmp_path / "cache", managed) == "101"
        _write_kernels(pkg, 2)
        result = _run(pkg, tmp_path / "cache", managed)
        # numba's own cache serves the stale kernel; the managed one compiles the new rule
        assert result == ("102" if managed else "101")


def test_digest_follows_the_sources_and_old_folders_are_pruned(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "a.py").write_text("x = 1\n")
    first = numba_cache.source_digest([pkg])
    (pkg / "a.py").write_text("x = 2\n")
    assert numba_cache.source_digest([pkg]) != first
    root = tmp_path / "cache"
    for k in range(numba_cache.KEEP + 2):
        (pkg / "a.py").write_text(f"x = {k + 10}\n")
        saved = os.environ.pop("NUMBA_CACHE_DIR", None)
        try:
            folder = numba_cache.configure([pkg], root)
        finally:
            if saved is not None:
                os.environ["NUMBA_CACHE_DIR"] = saved
        assert folder is not None and folder.parent == root
    assert len(list(root.iterdir())) == numba_cache.KEEP


def test_is_compiled_reads_the_cache_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not numba_cache.is_compiled("celtica")
    (tmp_path / "celtica_0123abcd").mkdir()
    assert numba_cache.is_compiled("celtica") and not numba_cache.is_compiled("celtae")


def test_an_unwritable_home_cache_falls_back_to_a_digest_folder_not_the_sources(tmp_path):
    """Issue 36, defect 7: with ~/.cache unwritable numba cached beside the sources, keyed on
    each file's own timestamp, and an edited rule inlined elsewhere was not played."""
    blocker = tmp_path / "home-cache"
    blocker.write_text("a file where the cache folder should be")
    root = blocker / "menhir" / "numba"  # cannot be created
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    _write_kernels(pkg, 1)
    assert _run(pkg, root, True, tmpdir) == "101"
    _write_kernels(pkg, 2)
    assert _run(pkg, root, True, tmpdir) == "102"
    assert not list(pkg.rglob("*.nbi"))  # nothing cached beside the sources
    assert list((tmpdir / f"menhir-{os.getuid()}" / "numba").glob("*/**/*.nbi"))
