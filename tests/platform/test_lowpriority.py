"""deploy/lowpriority, through which deploy/Procfile and bench/load.py start workers and beat: nice N
for the command, and for its session's autogroup when it leads that session (issue 18: where the
kernel shares the CPU between sessions first, nice alone left each worker as much CPU as the web)."""

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "deploy" / "lowpriority"
# What the command sees: its nice, then its session's autogroup line if the kernel has autogroups.
REPORT = ["sh", "-c", "nice; cat /proc/self/autogroup 2>/dev/null || true"]


def run(*args: str, new_session: bool) -> list[str]:
    out = subprocess.run(args, capture_output=True, text=True, check=True, start_new_session=new_session)
    return out.stdout.split("\n")


def test_a_session_of_its_own_is_lowered_with_the_command():
    lines = run(str(SCRIPT), "7", *REPORT, new_session=True)
    assert lines[0] == str(min(19, os.nice(0) + 7))
    if os.path.exists("/proc/self/autogroup"):
        assert lines[1].endswith(" nice 7")


def test_a_session_it_does_not_lead_is_left_as_it_was():
    """Run from a terminal, it must not lower the terminal's whole session (the caller's own)."""
    before = Path("/proc/self/autogroup").read_text() if os.path.exists("/proc/self/autogroup") else ""
    lines = run(str(SCRIPT), "7", *REPORT, new_session=False)
    assert lines[0] == str(min(19, os.nice(0) + 7))
    if before:
        assert lines[1] == before.strip()
        assert Path("/proc/self/autogroup").read_text() == before
