"""A rule never tells its patterns apart by identity: :mod:`.lazyre` rebinds a module's name to the compiled pattern
on first use, so ``regex is _NAME_RE`` was false on a process's first call (issue 32, round 17: a token named
``<token>_defconfig`` was kept, and a glued secret got another rule's slug, once per process)."""

from __future__ import annotations

import subprocess
import sys


def first_call(text: str) -> str:
    code = f"from memrepo.engine import redaction\nprint(redaction.redact({text!r}))\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_a_glued_secret_has_its_own_slug_on_a_process_first_call() -> None:
    out = first_call("private-token=Zk9xQ2mP7vL4nR8tY3wBq1Xc7Hf2")
    assert "Zk9xQ2mP7vL4nR8tY3wBq1Xc7Hf2" not in out and "webhook-url" not in out, out
