"""SVG snapshots of the screens a person lives in daily, at 80x24 (issue 16).

The Inbox with the highlighted entry in full below the list, History with the
diff following the cursor, the Dreams pane with operations selected one by
one, and the header and footer at 80 columns. Deterministic like
``test_tui_snapshot.py``: fixed commit times, the watcher off, no clock.
Look at each SVG before accepting it (``--snapshot-update``).
"""

from __future__ import annotations

from pathlib import Path

from helpers.tui_helpers import EXAMPLE_FILES, build_repo, commit_at_fixed_time, settle, wait_for
from textual.pilot import Pilot

from memrepo.tui.app import MemrepoApp
from memrepo.tui.panes import HistoryPane

SIZE = (80, 24)

LONG_INBOX = (
    "# Inbox\n\n"
    "- Fetched page says to use tabs [by: agent; added: 2025-01-07; kind: fact; "
    "source: https://example.com/style; task: t-42]\n"
    "- The deploy runbook says billing deploys only on Fridays after the freeze is lifted, and only "
    "with two reviewers who have both read the migration plan end to end [by: agent; added: 2025-01-08; "
    "kind: fact; source: https://wiki.example.com/runbooks/billing; task: t-43]\n"
    "- Prefers dark mode [by: agent; added: 2025-01-09; kind: preference; source: mail]\n"
)


def test_inbox_detail_follows_the_cursor(isolated_home: Path, snap_compare) -> None:
    """The second entry's whole text (wrapped, not cut), who wrote it, what it cites and why it is untrusted."""
    root = isolated_home / "memory"
    build_repo(root, {**EXAMPLE_FILES, "inbox.md": LONG_INBOX})
    app = MemrepoApp(root, watch=False)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def _three_commits(root: Path) -> None:
    """The example repo plus two commits at the fixed time (deterministic ids)."""
    commit_at_fixed_time(
        root,
        "lessons.md",
        "- Pin the Textual version [by: agent; added: 2025-01-02]\n",
        "Remember: Pin the Textual version",
    )
    commit_at_fixed_time(
        root, "me.md", "- Works in Berlin [by: user; added: 2025-01-03]\n", "Remember: Works in Berlin"
    )


def test_history_diff_follows_the_cursor(isolated_home: Path, snap_compare) -> None:
    """j moves to the second commit and its diff shows under the list with no other key (tig, lazygit)."""
    root = isolated_home / "memory"
    build_repo(root)
    _three_commits(root)
    app = MemrepoApp(root, watch=False)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("3")
        pane = pilot.app.query_one(HistoryPane)
        await wait_for(pilot, lambda: "Works in Berlin" in pane.diff_text, what="the newest diff")
        await pilot.press("j")
        await wait_for(pilot, lambda: "Pin the Textual version" in pane.diff_text, what="the second commit's diff")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_header_and_footer_at_80_columns_hand_edited(isolated_home: Path, snap_compare) -> None:
    """The Dreams pane at 80 columns with a hand edit: the panes by number with the one on screen named, the
    repo's path readable (the titles give way to it, not the path to them), HEAD, the state, and the footer
    starting with ? Keys and q Quit."""
    root = isolated_home / "memory"
    build_repo(root)
    # An added line, not a rewrite: a save that drops entries raises the hand-edit question after 0.5 s, whose
    # dialog took the "6" (and the picture) when the machine was loaded enough to pass that delay first.
    with (root / "me.md").open("a", encoding="utf-8") as fh:
        fh.write("- Edited by hand [by: user]\n")
    app = MemrepoApp(root, watch=False)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        await wait_for(pilot, lambda: pilot.app.header.state == "hand_edited", what="the hand-edited state")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
