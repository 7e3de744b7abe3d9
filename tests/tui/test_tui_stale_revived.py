"""The app's question about a stale save that brings back an entry memrepo removed (tui/handedits.py,
engine/write/stalesave.py): it names what came back and what "put back" does, never a negative count."""

from __future__ import annotations

from textual.app import App

from memrepo.engine.models import HandEditQuestion
from memrepo.tui.handedits import HandEditQuestionScreen, question_title

FORGOTTEN = "- My old flat was on Elm Street [by: user]"


def test_the_title_names_the_entry_a_stale_save_brought_back() -> None:
    q = HandEditQuestion(path="me.md", entries_before=4, entries_now=5, revived=[FORGOTTEN])
    assert question_title(q) == "me.md: a save brings back 1 entry memrepo removed after its copy was read"
    both = HandEditQuestion(path="me.md", entries_before=4, entries_now=4, dropped=["- x"], revived=[FORGOTTEN])
    assert question_title(both) == (
        "me.md: a save drops 1 entry memrepo wrote after its copy was read and brings back 1 entry memrepo removed after its copy was read"
    )


async def test_the_dialog_says_put_back_leaves_the_forgotten_entry_out() -> None:
    q = HandEditQuestion(path="me.md", entries_before=4, entries_now=5, revived=[FORGOTTEN])
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(HandEditQuestionScreen(q))
        await pilot.pause()
        words = " ".join(str(label.render()) for label in app.screen.query("Label"))
    assert "y  commit the edit: the 1 entry memrepo removed comes back" in words
    assert "p  put back: the save stays, without the 1 entry memrepo removed" in words
    assert "-1" not in words and "p put back" in words


async def test_one_dropped_entry_leaves_in_the_singular() -> None:
    q = HandEditQuestion(path="me.md", entries_before=5, entries_now=5, dropped=["- I review pull requests [by: user]"])
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(HandEditQuestionScreen(q))
        await pilot.pause()
        words = " ".join(str(label.render()) for label in app.screen.query("Label"))
    assert "y  commit the edit: the 1 entry memrepo wrote leaves the files (the Log can undo it)" in words
    assert "p  put back: the save stays, with the 1 entry memrepo wrote merged back in" in words


async def test_the_dialog_names_the_entries_it_counts() -> None:
    """breaker8 B8-5: "a save drops 4 entries" named none of them, so "put back" brought back deletions unseen."""
    dropped = ["- The user is allergic to peanuts [by: agent; kind: fact]", "- Sam is vegetarian [by: agent]"]
    q = HandEditQuestion(path="me.md", entries_before=5, entries_now=4, dropped=dropped, revived=[FORGOTTEN])
    app: App[None] = App()
    async with app.run_test(size=(120, 30)) as pilot:
        app.push_screen(HandEditQuestionScreen(q))
        await pilot.pause()
        words = " ".join(str(label.render()) for label in app.screen.query("Label"))
    assert 'dropped "The user is allergic to peanuts", "Sam is vegetarian"' in words
    assert 'brought back "My old flat was on Elm Street"' in words
