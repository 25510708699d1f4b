"""The built package is whole (issue 27): a non-editable install (the Dockerfile's ``pip install .``)
carries every file the packages hold, not only the ones a hand-kept list named (Napoleon's
scenarios and two rule sets' RULES.md were left out), and its rule sets load their scenarios from
the installed copy, outside the checkout."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rules", "campaigns", "api", "kriegsbrief")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Built from a copy of the tracked files, as a clean clone would be (a checkout's own build/
    directory would lend a build files its package data no longer names)."""
    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("wheel")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    for name in listed.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(source)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("kriegsbrief-*.whl")
    return built


def tracked_files() -> set[str]:
    listed = subprocess.run(["git", "ls-files", *PACKAGES], cwd=ROOT, check=True, capture_output=True, text=True)
    return {p for p in listed.stdout.split() if (ROOT / p).is_file()}


def test_the_wheel_carries_every_file_of_the_packages(wheel):
    inside = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(p for p in tracked_files() if p not in inside)
    assert not missing, missing


LOAD_EVERY_SCENARIO = """
import sys
from rules import catalog
assert "site-packages" in catalog.__file__, catalog.__file__
for name in catalog.names():
    rs = catalog.get(name)
    for scenario, _title in rs.scenarios():
        rs.load_scenario(scenario)
    print(name, len(rs.scenarios()))
"""


def test_the_installed_rule_sets_load_every_scenario_outside_the_checkout(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(
        subprocess.check_output(
            [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], text=True
        ).strip()
    )
    zipfile.ZipFile(wheel).extractall(site)  # a wheel is installed by unpacking it (PEP 427)
    # the dependencies the rule sets import, from this environment (the wheel's own files only are tested)
    deps = [p for p in sys.path if p.endswith("site-packages")]
    (site / "deps.pth").write_text("\n".join(deps) + "\n")
    out = subprocess.run([python, "-c", LOAD_EVERY_SCENARIO], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    loaded = dict(line.split() for line in out.stdout.splitlines())
    from rules import catalog

    assert loaded == {name: str(len(catalog.get(name).scenarios())) for name in catalog.names()}
