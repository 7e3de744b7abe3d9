"""``ctrl+o`` in the edit box writes the entry in ``$EDITOR``, as git and lazygit do (Pilot at 80x24).

The editor is a real program (a small shell script) run on a real temporary file. Pilot's headless
driver cannot hand a terminal over, so ``App.suspend`` is replaced by one that records it was entered;
the real hand-over at 80x24 with vim or nano is tests/tui/test_tui_tmux_entry_editor.py.
"""

from __future__ import annotations

import contextlib
import shlex
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.tui.widgets.dialogs import EditText

SIZE = (80, 24)
TEXTS = ["Use pnpm for the web app", "Prefers dark mode"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The example repo with two entries from an untrusted task in its inbox."""
    root = tmp_path / "memory"
    build_repo(root, {**EXAMPLE_FILES, "inbox.md": "# Inbox\n\n"})
    store = MemoryStore.open(root, plain_settings())
    for text in TEXTS:
        store.remember(Candidate(text=text, untrusted=True, source="https://ex.com/p", task="t1"))
    return root


def commits(root: Path) -> list[str]:
    out = subprocess.run(["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def editor_script(tmp_path: Path, body: str) -> Path:
    """A real editor stand-in: records the file it got and the file's mode, then runs ``body`` on ``$1``."""
    script = tmp_path / "editor.sh"
    seen = tmp_path / "editor-saw.txt"
    script.write_text(
        "#!/bin/sh\n"
        f'printf "%s\\n%s\\n%s\\n" "$1" "$(stat -c %a "$1")" "$(cat "$1")" > {shlex.quote(str(seen))}\n'
        f"{body}\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script


def saw(tmp_path: Path) -> list[str]:
    """What the editor was given: the file's path, its mode and its text."""
    return (tmp_path / "editor-saw.txt").read_text(encoding="utf-8").splitlines()


class Suspends:
    """Stands in for ``App.suspend`` under Pilot (no terminal to hand over) and counts the hand-overs."""

    def __init__(self) -> None:
        self.count = 0

    @contextlib.contextmanager
    def __call__(self) -> Iterator[None]:
        self.count += 1
        yield


async def open_edit_box(pilot, app: RecordingApp) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot)
    await pilot.press("2")
    await settle(pilot)
    await pilot.press("j", "e")  # "Prefers dark mode"
    await wait_for(pilot, lambda: isinstance(app.screen, EditText), what="the edit box")


async def test_ctrl_o_saves_what_the_editor_wrote_through_the_same_write_as_enter(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = editor_script(tmp_path, 'printf "Prefers dark mode\\nin every editor\\n" > "$1"')
    monkeypatch.setenv("EDITOR", str(script))
    monkeypatch.delenv("VISUAL", raising=False)
    app = RecordingApp(repo, watch=False)
    suspends = Suspends()
    monkeypatch.setattr(app, "suspend", suspends)
    async with app.run_test(size=SIZE) as pilot:
        await open_edit_box(pilot, app)
        before = commits(repo)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: len(commits(repo)) > len(before), what="the accept commit")
        await settle(pilot)
        assert not isinstance(app.screen, EditText)
    assert suspends.count == 1
    path, mode, text = saw(tmp_path)
    assert mode == "600"
    assert text == "Prefers dark mode"
    assert not Path(path).exists(), "the temporary file is removed"
    # the editor's two lines are one entry, accepted as the edit box's enter accepts it
    assert "Prefers dark mode in every editor" in (repo / "me.md").read_text(encoding="utf-8")
    assert "Prefers dark mode" not in (repo / "inbox.md").read_text(encoding="utf-8")
    assert len(commits(repo)) == len(before) + 1
    assert "Edited and accepted" in app.notices


async def test_the_text_typed_in_the_box_is_what_the_editor_starts_from(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = editor_script(tmp_path, 'sed -i "s/ at night/ after dark/" "$1"')
    monkeypatch.setenv("VISUAL", str(script))
    monkeypatch.setenv("EDITOR", "false")  # VISUAL comes first, as in git
    app = RecordingApp(repo, watch=False)
    monkeypatch.setattr(app, "suspend", Suspends())
    async with app.run_test(size=SIZE) as pilot:
        await open_edit_box(pilot, app)
        await pilot.press("end", *" at night", "ctrl+o")
        await wait_for(pilot, lambda: "after dark" in (repo / "me.md").read_text(), what="the edit saved")
    assert saw(tmp_path)[2] == "Prefers dark mode at night"
    assert "Prefers dark mode after dark" in (repo / "me.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("body", "notice", "box_stays"),
    [
        ('printf "Prefers light mode\\n" > "$1"; exit 3', "exited with 3: nothing changed", True),
        ("exit 0", "No change in the editor", True),
        (': > "$1"', "The editor left the text empty: edit cancelled", False),
    ],
    ids=["editor-fails", "unchanged", "emptied"],
)
async def test_a_failed_unchanged_or_emptied_edit_writes_nothing(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, notice: str, box_stays: bool
) -> None:
    monkeypatch.setenv("EDITOR", str(editor_script(tmp_path, body)))
    monkeypatch.delenv("VISUAL", raising=False)
    app = RecordingApp(repo, watch=False)
    monkeypatch.setattr(app, "suspend", Suspends())
    async with app.run_test(size=SIZE) as pilot:
        await open_edit_box(pilot, app)
        before = commits(repo)
        inbox = (repo / "inbox.md").read_text(encoding="utf-8")
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: any(notice in n for n in app.notices), what=notice)
        await settle(pilot)
        assert isinstance(app.screen, EditText) is box_stays
        if box_stays:  # the box still holds the text, and enter still saves it
            assert app.screen.query_one("#edit-text").text == "Prefers dark mode"  # type: ignore[attr-defined]
        assert commits(repo) == before
        assert (repo / "inbox.md").read_text(encoding="utf-8") == inbox
        assert not Path(saw(tmp_path)[0]).exists()


async def test_an_editor_that_cannot_start_writes_nothing(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EDITOR", str(tmp_path / "no-such-editor"))
    monkeypatch.delenv("VISUAL", raising=False)
    app = RecordingApp(repo, watch=False)
    monkeypatch.setattr(app, "suspend", Suspends())
    async with app.run_test(size=SIZE) as pilot:
        await open_edit_box(pilot, app)
        before = commits(repo)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: any("Cannot start" in n for n in app.notices), what="the notice")
        assert isinstance(app.screen, EditText)
        assert commits(repo) == before


async def test_without_a_terminal_to_hand_over_it_says_so_and_writes_nothing(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EDITOR", str(editor_script(tmp_path, 'printf "changed\\n" > "$1"')))
    app = RecordingApp(repo, watch=False)  # Pilot's headless driver: App.suspend raises SuspendNotSupported
    async with app.run_test(size=SIZE) as pilot:
        await open_edit_box(pilot, app)
        before = commits(repo)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: any("cannot hand the screen" in n for n in app.notices), what="the notice")
        assert isinstance(app.screen, EditText)
        assert commits(repo) == before
    assert not (tmp_path / "editor-saw.txt").exists(), "the editor never ran"


def test_the_folder_pane_passes_plus_line_only_to_editors_that_take_it() -> None:
    from memrepo.tui.editor import at_line

    assert at_line(["/usr/bin/vim"], "me.md", 12) == ["/usr/bin/vim", "+12", "me.md"]
    assert at_line(["nano"], "me.md", 3) == ["nano", "+3", "me.md"]
    # VS Code would open a file named "+12", which the hand-edit commit then recorded
    assert at_line(["code", "--wait"], "me.md", 12) == ["code", "--wait", "me.md"]


async def test_a_text_too_long_to_save_stays_in_the_editors_file_named_in_one_line(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A huge paste in the editor was handed to the write, refused there, and lost with the closed box."""
    from memrepo.engine.write.policy import RAW_MAX_CHARS

    words = " ".join(f"line{n}" for n in range(RAW_MAX_CHARS // 5))  # over the raw limit, under a second to write
    (tmp_path / "paste.txt").write_text(words + "\n", encoding="utf-8")
    script = editor_script(tmp_path, f'cat {shlex.quote(str(tmp_path / "paste.txt"))} > "$1"')
    monkeypatch.setenv("EDITOR", str(script))
    monkeypatch.delenv("VISUAL", raising=False)
    app = RecordingApp(repo, watch=False)
    monkeypatch.setattr(app, "suspend", Suspends())
    async with app.run_test(size=SIZE) as pilot:
        await open_edit_box(pilot, app)
        before = commits(repo)
        inbox = (repo / "inbox.md").read_text(encoding="utf-8")
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: any("Not saved: too long" in n for n in app.notices), what="the refusal")
        await settle(pilot)
        refusals = [n for n in app.notices if "too long" in n]
        assert len(refusals) == 1 and "\n" not in refusals[0]
        kept = Path(saw(tmp_path)[0])
        assert refusals[0].endswith(f"what you wrote is kept in {kept}")
        assert kept.read_text(encoding="utf-8") == words + "\n"
        assert oct(kept.stat().st_mode & 0o777) == "0o600"
        assert isinstance(app.screen, EditText), "the box stays open"
        assert app.screen.query_one("#edit-text").text == "Prefers dark mode"  # type: ignore[attr-defined]
        assert commits(repo) == before
        assert (repo / "inbox.md").read_text(encoding="utf-8") == inbox
    kept.unlink()


async def test_a_text_too_long_typed_in_the_box_stays_in_the_box(repo: Path) -> None:
    from memrepo.engine.write.policy import RAW_MAX_CHARS

    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await open_edit_box(pilot, app)
        before = commits(repo)
        long = "Prefers dark mode " + "x" * RAW_MAX_CHARS
        app.screen.query_one("#edit-text").text = long  # type: ignore[attr-defined]
        await pilot.press("enter")
        await wait_for(pilot, lambda: any("Not saved: too long" in n for n in app.notices), what="the refusal")
        await settle(pilot)
        assert isinstance(app.screen, EditText)
        assert app.screen.query_one("#edit-text").text == long  # type: ignore[attr-defined]
        assert commits(repo) == before


LONG = "Prefers dark mode " + " ".join(f"word{n}" for n in range(110))
"""About 650 characters: over the entry limit (500), far under the raw limit (20,000)."""


async def test_a_text_over_the_entry_limit_typed_in_the_box_stays_in_the_box(repo: Path) -> None:
    """Break-it report: 650 typed characters closed the box, the write refused them, and the text was gone."""
    from memrepo.engine.format.limits import ENTRY_MAX_CHARS

    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await open_edit_box(pilot, app)
        before = commits(repo)
        inbox = (repo / "inbox.md").read_text(encoding="utf-8")
        box = app.screen.query_one("#edit-text")
        box.text = LONG[:-1]  # type: ignore[attr-defined]
        box.move_cursor(box.document.end)  # type: ignore[attr-defined]
        await pilot.press(LONG[-1], "enter")
        await wait_for(pilot, lambda: any("Not saved" in n for n in app.notices), what="the refusal")
        await settle(pilot)
        refusals = [n for n in app.notices if "character limit" in n]
        assert refusals == [n for n in app.notices if n.startswith(("Not saved", "Not accepted"))]
        assert len(refusals) == 1 and "\n" not in refusals[0]
        assert refusals[0].startswith(f"Not saved: entry is {len(LONG)} characters, over the {ENTRY_MAX_CHARS}-")
        assert isinstance(app.screen, EditText), "the box stays open"
        assert app.screen.query_one("#edit-text").text == LONG  # type: ignore[attr-defined]
        assert commits(repo) == before
        assert (repo / "inbox.md").read_text(encoding="utf-8") == inbox
        # shortened in the box, enter saves it
        app.screen.query_one("#edit-text").text = "Prefers dark mode in every app"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(commits(repo)) > len(before), what="the accept commit")
    assert "Prefers dark mode in every app" in (repo / "me.md").read_text(encoding="utf-8")


async def test_a_text_over_the_entry_limit_written_in_the_editor_stays_in_its_file(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Break-it report: 999 characters written in vim (:wq) closed the box and were lost with it."""
    written = " ".join(f"note{n:03d}" for n in range(125))[:999]
    assert len(written) == 999
    (tmp_path / "written.txt").write_text(written + "\n", encoding="utf-8")
    script = editor_script(tmp_path, f'cat {shlex.quote(str(tmp_path / "written.txt"))} > "$1"')
    monkeypatch.setenv("EDITOR", str(script))
    monkeypatch.delenv("VISUAL", raising=False)
    app = RecordingApp(repo, watch=False)
    monkeypatch.setattr(app, "suspend", Suspends())
    async with app.run_test(size=SIZE) as pilot:
        await open_edit_box(pilot, app)
        before = commits(repo)
        inbox = (repo / "inbox.md").read_text(encoding="utf-8")
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: any("Not saved" in n for n in app.notices), what="the refusal")
        await settle(pilot)
        refusals = [n for n in app.notices if n.startswith(("Not saved", "Not accepted"))]
        assert len(refusals) == 1 and "\n" not in refusals[0]
        assert refusals[0].startswith("Not saved: entry is 999 characters, over the 500-character limit")
        kept = Path(saw(tmp_path)[0])
        assert refusals[0].endswith(f"what you wrote is kept in {kept}")
        assert kept.read_text(encoding="utf-8") == written + "\n"
        assert oct(kept.stat().st_mode & 0o777) == "0o600"
        assert isinstance(app.screen, EditText), "the box stays open"
        assert app.screen.query_one("#edit-text").text == "Prefers dark mode"  # type: ignore[attr-defined]
        assert commits(repo) == before
        assert (repo / "inbox.md").read_text(encoding="utf-8") == inbox
    kept.unlink()
