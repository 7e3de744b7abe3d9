"""The app asks about a save that emptied a file or lost most of its entries (issue 17 item 2, tui/handedits.py).

The engine never commits such an edit by itself; the app shows what file and
how many entries would be lost, and the answer commits it (``y``), puts the
committed text back (``p``), or waits (``esc``). The snapshot shows the question at 80x24.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for
from textual.pilot import Pilot

from memrepo.engine.models import HandEditQuestion
from memrepo.tui.handedits import HandEditQuestionScreen

SIZE = (80, 24)

TWELVE = (
    "# Memory\n\n"
    + "".join(f"- Kept fact number {i} [by: user; added: 2025-01-02; kind: fact]\n" for i in range(12))
    + "\n## Index\n- [[me]]\n"
)


def _repo(root: Path) -> str:
    """The example repo with twelve entries in MEMORY.md; returns HEAD."""
    return build_repo(root, {**EXAMPLE_FILES, "MEMORY.md": TWELVE})


def _head(root: Path) -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()


def _asked(app: RecordingApp) -> HandEditQuestionScreen | None:
    """The question on screen, once its words are drawn."""
    screen = app.screen
    return screen if isinstance(screen, HandEditQuestionScreen) and "esc decide later" in _words(app) else None


def _words(app: RecordingApp) -> str:
    return " ".join(str(label.render()) for label in app.screen.query("Label"))


async def test_an_emptied_file_is_asked_about_and_p_keeps_the_old_text(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    head = _repo(root)
    (root / "MEMORY.md").write_bytes(b"")  # emptied before the app starts
    app = RecordingApp(root, watch=False, settings=plain_settings())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: _asked(app) is not None, what="the mass-deletion question")
        words = _words(app)
        assert "MEMORY.md is empty" in words and "12 entries" in words
        assert "y commit" in words and "p keep the old text" in words
        await pilot.press("p")
        await wait_for(pilot, lambda: (root / "MEMORY.md").read_text() == TWELVE, what="the old text back")
        await settle(pilot)
        assert _head(root) == head  # nothing committed
        assert any("Kept the old text of MEMORY.md" in n for n in app.notices)
        assert _asked(app) is None


async def test_y_commits_the_edit_and_names_what_it_deleted(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    head = _repo(root)
    kept = "# Memory\n\n- Kept fact number 0 [by: user; added: 2025-01-02; kind: fact]\n"
    (root / "MEMORY.md").write_text(kept)
    app = RecordingApp(root, watch=False, settings=plain_settings())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: _asked(app) is not None, what="the mass-deletion question")
        words = _words(app)
        assert "MEMORY.md lost 11 of its 12 entries" in words
        await pilot.press("y")
        await wait_for(pilot, lambda: _head(root) != head, what="the hand-edit commit")
        await settle(pilot)
        shown = subprocess.run(["git", "show", "HEAD:MEMORY.md"], cwd=root, capture_output=True, text=True).stdout
        assert shown == kept
        assert any("Committed the edit of MEMORY.md: 11 entries deleted" in n for n in app.notices)


async def test_esc_waits_and_a_new_save_is_asked_about_again(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    head = _repo(root)
    (root / "MEMORY.md").write_bytes(b"")
    app = RecordingApp(root, watch=False, settings=plain_settings())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: _asked(app) is not None, what="the first question")
        await pilot.press("escape")
        await settle(pilot)
        assert any("keeps the committed text until you decide" in n for n in app.notices)
        app.refresh_status()  # the same save: not asked twice
        await pilot.pause(1.0)  # twice the ask delay (0.5 s with no quiet period): a question would be up
        await settle(pilot)
        assert _asked(app) is None
        assert (root / "MEMORY.md").read_bytes() == b"" and _head(root) == head
        (root / "MEMORY.md").write_text("# Memory\n\n- Kept fact number 3 [by: user]\n")  # another save
        app.refresh_status()
        await wait_for(pilot, lambda: _asked(app) is not None, what="the question about the new save")
        assert "lost 11 of its 12" in _words(app)


async def test_the_question_goes_away_when_the_save_finishes(isolated_home: Path) -> None:
    """The truncate-and-stall case: the slow save ends while the question shows; nothing is lost or asked."""
    root = isolated_home / "memory"
    head = _repo(root)
    (root / "MEMORY.md").write_bytes(b"")
    app = RecordingApp(root, watch=False, settings=plain_settings())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: _asked(app) is not None, what="the question")
        finished = TWELVE + "- One more fact from the slow save [by: user]\n"
        (root / "MEMORY.md").write_text(finished)
        app.refresh_status()
        await wait_for(pilot, lambda: _asked(app) is None, what="the question to close")
        await settle(pilot)
        assert any("changed again" in n for n in app.notices)
        assert (root / "MEMORY.md").read_text() == finished and _head(root) == head


def test_the_mass_deletion_question_at_80_columns(isolated_home: Path, snap_compare) -> None:
    root = isolated_home / "memory"
    _repo(root)
    (root / "MEMORY.md").write_text("# Memory\n\n- Kept fact number 0 [by: user; added: 2025-01-02; kind: fact]\n")
    app = RecordingApp(root, watch=False, settings=plain_settings())

    async def run_before(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: _asked(app) is not None, what="the question")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_a_stale_save_question_says_put_back_not_lose() -> None:
    from memrepo.tui.handedits import question_title

    q = HandEditQuestion(path="me.md", entries_before=5, entries_now=5, dropped=["- I review pull requests [by: user]"])
    assert question_title(q) == "me.md: a save drops 1 entry memrepo wrote after its copy was read"


TOKEN = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12"
SECRET_LINE = f"- The deploy bot's GitHub token is {TOKEN} [by: user]\n"


async def test_a_secret_added_by_hand_is_asked_about_and_capital_r_redacts_it(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    head = _repo(root)
    (root / "MEMORY.md").write_text(TWELVE + SECRET_LINE)
    app = RecordingApp(root, watch=False, settings=plain_settings())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: _asked(app) is not None, what="the secret question")
        words = _words(app)
        assert "added what looks like a secret on 1 line" in words and "github-token" in words
        assert TOKEN not in words
        await pilot.press("R")
        await wait_for(pilot, lambda: _head(root) != head, what="the redacted commit")
        await settle(pilot)
        shown = subprocess.run(["git", "show", "HEAD:MEMORY.md"], cwd=root, capture_output=True, text=True).stdout
        assert "[REDACTED:github-token]" in shown and TOKEN not in shown
        assert (root / "MEMORY.md").read_text() == shown
        assert any("Redacted and committed the edit of MEMORY.md" in n for n in app.notices)


async def test_capital_r_does_nothing_on_a_question_about_deletions(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    head = _repo(root)
    (root / "MEMORY.md").write_bytes(b"")
    app = RecordingApp(root, watch=False, settings=plain_settings())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: _asked(app) is not None, what="the mass-deletion question")
        await pilot.press("R")
        await settle(pilot)
        assert _asked(app) is not None  # still asking: R is only for secrets
        assert (root / "MEMORY.md").read_bytes() == b"" and _head(root) == head


def test_the_secret_question_at_80_columns(isolated_home: Path, snap_compare) -> None:
    root = isolated_home / "memory"
    _repo(root)
    (root / "MEMORY.md").write_text(TWELVE + SECRET_LINE)
    app = RecordingApp(root, watch=False, settings=plain_settings())

    async def run_before(pilot: Pilot) -> None:
        await wait_for(pilot, lambda: _asked(app) is not None, what="the question")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
