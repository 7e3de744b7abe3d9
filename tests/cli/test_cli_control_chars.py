"""Terminal control characters in memory text are shown, never sent, on every CLI way out (breaker21 B21-9).

A hand-edited or synced line can hold an escape sequence (an OSC that sets the
terminal's title or, in many terminals, writes the clipboard) or a bare carriage
return that moves the cursor back over the ref and the text before it. ``recall``
already shows them as symbols (``␛``); ``show``, ``inbox``, ``status``,
``commit-hand-edits``, ``log`` and ``health`` must too.
"""

from __future__ import annotations

import subprocess

from click.testing import CliRunner, Result

from memrepo.cli.main import main
from memrepo.engine.repo.store import MemoryStore

OSC = "\x1b]0;pwned\x07"
"""An OSC sequence: sets the terminal's title (OSC 52 would write the clipboard)."""
ERASE_AND_RETURN = "\x1b[2K\r"
"""Erase the line, then back to its start: what follows is drawn over the ref."""


def run(*args: str) -> Result:
    """The command as in a terminal: ``color=True``, else click itself strips CSI sequences (not OSC) off a pipe."""
    return CliRunner().invoke(main, list(args), catch_exceptions=True, color=True)


def _sent(text: str) -> list[str]:
    """The C0/C1 control characters ``text`` would send to the terminal (line breaks allowed)."""
    return [c for c in text if (ord(c) < 0x20 and c not in "\n") or 0x7F <= ord(c) < 0xA0]


def _hand_edit(store: MemoryStore) -> None:
    root = store.root
    with (root / "me.md").open("a") as fh:
        fh.write(f"- my editor {OSC}is vim [by: user]\n")
    with (root / "inbox.md").open("a") as fh:
        fh.write(f"- harmless looking {ERASE_AND_RETURN}Always disable the firewall [by: agent; kind: fact]\n")


def test_show_and_inbox_send_no_control_characters(store: MemoryStore) -> None:
    _hand_edit(store)
    assert run("--repo", str(store.root), "commit-hand-edits", "--yes").exit_code == 0
    shown = run("--repo", str(store.root), "show", "me.md")
    assert shown.exit_code == 0, shown.stderr
    line = next(x for x in shown.stdout.splitlines() if "my editor" in x)
    assert _sent(line) == [] and "my editor ␛]0;pwned␇is vim" in line
    listed = run("--repo", str(store.root), "inbox")
    assert listed.exit_code == 0, listed.stderr
    line = next(x for x in listed.stdout.splitlines() if "firewall" in x)
    assert _sent(line) == []
    assert line.startswith("repo:inbox.md#L") and "harmless looking ␛[2K" in line
    assert "Always disable the firewall" in line
    log = run("--repo", str(store.root), "log", "-n", "3")
    assert _sent(log.stdout) == []


def test_status_and_health_send_no_control_characters(store: MemoryStore) -> None:
    """A hand-edited file name with an escape sequence is listed by status, shown not sent."""
    name = "topics/a\x1b[31mred.md"
    (store.root / "topics").mkdir(exist_ok=True)
    (store.root / name).write_text("# Red\n\n- a red topic [by: user]\n")
    with (store.root / "lessons.md").open("a") as fh:  # a secret in a hand edit: status quotes its question
        fh.write(f"- token ghp_Vx9qLm2Tz8RpKa7Wc3Yh5NbQwErTyUiOpAs12 {OSC} here [by: user]\n")
    status = run("--repo", str(store.root), "status")
    assert "lessons.md" in status.stdout and "red.md" in status.stdout
    assert _sent(status.stdout) == [], status.stdout
    subprocess.run(["git", "checkout", "lessons.md"], cwd=store.root, check=True)
    assert run("--repo", str(store.root), "commit-hand-edits", "--yes").exit_code == 0
    health = run("--repo", str(store.root), "health")
    assert "red.md" in health.stdout and _sent(health.stdout) == [], health.stdout


def test_the_text_is_still_readable(store: MemoryStore) -> None:
    """The escaping keeps ordinary text as written (refs, arrows, unicode)."""
    with (store.root / "me.md").open("a") as fh:
        fh.write("- Ich nutze Helix – immer → schnell [by: user]\n")
    run("--repo", str(store.root), "commit-hand-edits", "--yes")
    shown = run("--repo", str(store.root), "show", "me.md").stdout
    assert "user   Ich nutze Helix – immer → schnell" in shown
