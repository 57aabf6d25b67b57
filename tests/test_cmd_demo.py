"""`acs demo`, as `make demo` runs it: the installed console script, offline."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


def test_acs_demo_builds_loads_and_prints_the_table(tmp_path: Path) -> None:
    acs = shutil.which("acs", path=os.path.dirname(sys.executable)) or shutil.which("acs")
    assert acs, "the acs console script is installed with the package"
    result = subprocess.run([acs, "demo", "--out", str(tmp_path / "sets")], capture_output=True, text=True,
                            timeout=300, env={**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
                                                 "HF_MODULES_CACHE": str(tmp_path / "modules")})
    assert result.returncode == 0, result.stderr
    assert "de-en  particle" in result.stdout
    assert "load_dataset(" in result.stdout and "'de-en.particle.d3', split='sample') → 7 rows" in result.stdout
    assert "aus(6) → schaltet(2), 3 words between" in result.stdout
    assert (tmp_path / "sets" / "README.md").exists()
    # and the metric, where evaluate.load("ldd_challenge") finds it (tests/test_cmd_metric.py loads it)
    assert 'evaluate.load("ldd_challenge") loads ' in result.stdout
    assert list((tmp_path / "modules").glob("evaluate_modules/metrics/evaluate-metric--ldd_challenge/*/ldd_challenge.py"))
