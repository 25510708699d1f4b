"""The import contracts hold (pyproject.toml, [tool.importlinter]): rules imports no platform code,
campaigns points one way (models < log < turns < mail-out < channels), and no channel imports
another. Run here so that ``./kb test`` and CI check them; lint-imports itself prints which import
breaks which contract, and that report is the failure message."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _lint_imports() -> list[str]:
    # The one beside this Python (the project's environment), else the one on PATH.
    beside = Path(sys.executable).with_name("lint-imports")
    exe = str(beside) if beside.exists() else shutil.which("lint-imports")
    assert exe, "lint-imports is not installed: pip install -e '.[test]' (import-linter)"
    return [exe, str(ROOT / "pyproject.toml"), "--no-cache"]


def test_the_import_contracts_hold():
    run = subprocess.run(_lint_imports(), cwd=ROOT, capture_output=True, text=True)
    report = run.stdout + run.stderr
    broken = report[report.find("Broken contracts") :] if "Broken contracts" in report else report
    assert run.returncode == 0, f"lint-imports found a broken import contract:\n{broken}"
    assert "0 broken" in report, report
