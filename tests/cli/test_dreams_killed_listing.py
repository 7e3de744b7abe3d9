"""``memrepo dreams`` says a killed dream is killed, as Health does, and names what cleans it up (breaker11 B11-10).

The dream is killed for real (SIGKILL while it commits its review branch): its record stays ``running``. The
listing showed it as running for good; Health's check (the dream lock is free: its process is gone) now marks it.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from helpers.dream_helpers import kill_a_dream_mid_review

from memrepo.cli.main import main


def test_the_listing_marks_a_killed_dream_and_names_the_command_that_cleans_it_up(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    dream_id = kill_a_dream_mid_review(root)
    listed = CliRunner().invoke(main, ["--repo", str(root), "dreams"])
    assert listed.exit_code == 0, listed.output
    line = next(line for line in listed.stdout.splitlines() if line.startswith(dream_id))
    assert "  killed  " in line and "running" not in line, line
    hint = f"dream {dream_id} was killed (its process is gone): `memrepo dreams reject {dream_id}` cleans up"
    assert hint in listed.stdout
    rejected = CliRunner().invoke(main, ["--repo", str(root), "dreams", "reject", dream_id])
    assert rejected.exit_code == 0, rejected.output
    again = CliRunner().invoke(main, ["--repo", str(root), "dreams"]).stdout
    assert "killed" not in again and "rejected" in again, again
