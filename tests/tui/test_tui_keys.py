"""One key grammar (issue 16): a key means one thing, every action is in the palette, ``?`` and ``q`` show.

The walk starts the app, visits every pane and every modal screen, and reads
the bindings of each box that can have the focus together with those of the
pane, the screen and the app around it (what Textual looks a key up in).
Only memrepo's bindings (each has an id) are judged; Textual's own text-box
keys are typing.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from helpers.tui_helpers import build_repo, settle, wait_for
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets._footer import FooterKey

from memrepo.engine.models import HandEditQuestion
from memrepo.tui.app import MemrepoApp
from memrepo.tui.commands import KeyCommands
from memrepo.tui.footer import KeysFooter
from memrepo.tui.handedits import HandEditQuestionScreen
from memrepo.tui.help import HelpScreen
from memrepo.tui.keys import MOVING, PALETTE_SKIP, palette_commands
from memrepo.tui.panes import PANES
from memrepo.tui.search import SearchScreen
from memrepo.tui.widgets.dialogs import Confirm, EditText, FilePicker
from memrepo.tui.widgets.entry_detail import EntryScreen

FILTERED = ("SearchScreen / ", "FilePicker / ")
"""Screens of a filter box and its matches: the list moves with ↑ ↓ from the box, where letters are typing."""

LEAVE = {"close", "cancel", "back", "quit"}
"""Verbs that all mean "leave this": esc and q close a screen, go back, or quit on the main screen."""


def verb(binding: Binding) -> str:
    """What a binding means: its id without the place (``inbox.accept`` -> ``accept``); leaving is one verb."""
    name = (binding.id or "").split(".", 1)[-1]
    return "leave" if name in LEAVE else name


def chain_bindings(node: DOMNode) -> list[tuple[str, Binding, DOMNode]]:
    """Every memrepo binding Textual would look a key up in, from ``node`` out to the app."""
    out = []
    for where in [*node.ancestors_with_self]:
        for key, bindings in where._bindings.key_to_bindings.items():
            out += [(key, b, where) for b in bindings if b.id]
    return out


def innermost_keys(node: DOMNode) -> dict[str, Binding]:
    """Key -> the binding Textual would use for it with ``node`` focused (the innermost wins), ids or not."""
    keys: dict[str, Binding] = {}
    for where in node.ancestors_with_self:
        for key, bindings in where._bindings.key_to_bindings.items():
            keys.setdefault(key, bindings[0])
    return keys


def focus_chains(screen: Screen, root: Widget | None = None) -> list[DOMNode]:
    """The boxes that can take the focus under ``root`` (or on the screen), or the screen itself."""
    under = root if root is not None else screen
    found = [w for w in under.query("*") if w.can_focus]
    return found or [under]


async def walk(
    app: MemrepoApp, pilot, boxes: dict[str, DOMNode] | None = None
) -> dict[str, list[tuple[str, Binding, DOMNode]]]:
    """Context name -> its bindings, for every pane's focusable boxes and every modal screen (``boxes``: name -> box)."""
    contexts: dict[str, list[tuple[str, Binding, DOMNode]]] = {}
    boxes = {} if boxes is None else boxes
    for number, pane_cls in enumerate(PANES, start=1):
        await pilot.press(str(number))
        await settle(pilot)
        pane = app.main_screen.query_one(pane_cls)
        for box in focus_chains(app.main_screen, pane):
            contexts[f"{pane_cls.PANE_TITLE} / {type(box).__name__}#{box.id}"] = chain_bindings(box)
            boxes[f"{pane_cls.PANE_TITLE} / {type(box).__name__}#{box.id}"] = innermost_keys(box)
    entry = app.main_screen.query_one(PANES[0]).table.entries[0]
    assert app.repo is not None
    modals: list[Screen] = [
        HelpScreen(),
        SearchScreen(app.repo, ""),
        FilePicker("Move to", ["me.md"]),
        EditText("Edit", "text"),
        Confirm("Sure?"),
        HandEditQuestionScreen(HandEditQuestion(path="MEMORY.md", entries_before=40, entries_now=0, empty=True)),
        EntryScreen(entry),
    ]
    for modal in modals:
        await app.push_screen(modal)
        await settle(pilot)
        for box in focus_chains(modal):
            contexts[f"{type(modal).__name__} / {type(box).__name__}"] = chain_bindings(box)
            boxes[f"{type(modal).__name__} / {type(box).__name__}"] = innermost_keys(box)
        app.pop_screen()
        await settle(pilot)
    return contexts


async def test_no_key_means_two_things_and_every_action_is_in_the_palette(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    build_repo(root)
    app = MemrepoApp(root, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        boxes: dict[str, dict[str, Binding]] = {}
        contexts = await walk(app, pilot, boxes)
        assert len(contexts) > 10

        # 1. Where a key is live, it has one meaning: no box shadows a key of
        #    its pane or of the app with another action (Dreams' r was Refresh
        #    and Reject); esc and q may leave the screen on top, ? may close the help it opened.
        shadowed = []
        for name, found in contexts.items():
            by_key: defaultdict[str, set[tuple[str, str]]] = defaultdict(set)
            for key, binding, _where in found:
                by_key[key].add((binding.action, verb(binding)))
            for key, meanings in by_key.items():
                if len({m[1] for m in meanings}) > 1:
                    shadowed.append(f"{name}: {key} -> {sorted(meanings)}")
        assert not shadowed, "\n".join(shadowed)

        # 2. Across the whole app a key means one thing (n was Dream now and the
        #    question's No; End was "last row" in one list and "scroll right" in another).
        meanings: defaultdict[str, set[str]] = defaultdict(set)
        where: defaultdict[str, set[str]] = defaultdict(set)
        for found in contexts.values():
            for key, binding, _node in found:
                meanings[key].add(verb(binding))
                where[key].add(binding.id or "")
        twice = {k: sorted(where[k]) for k, v in meanings.items() if len(v) > 1}
        assert not twice, twice

        # 3. Every action key of the app and its panes is in the command palette.
        provider = KeyCommands(app.screen)
        offered = [hit.text async for hit in provider.discover()]
        assert len(offered) == len(set(offered)), "a palette name is listed twice"
        wanted = []
        for pane in PANES:
            wanted += [f"{pane.PANE_TITLE}: {b.description}" for b in pane.BINDINGS if isinstance(b, Binding)]
        wanted += [
            b.description
            for b in [*MemrepoApp.BINDINGS, *app.main_screen.BINDINGS]
            if isinstance(b, Binding) and b.id not in PALETTE_SKIP and not (b.id or "").startswith(MOVING)
        ]
        missing = [name for name in wanted if name not in offered]
        assert not missing, missing
        for word in ("dream", "sync", "undo", "accept"):
            assert [hit async for hit in provider.search(word)], f"the palette finds nothing for {word!r}"

        # 4. Every action key met anywhere in the panes (a box's own keys too) is in
        #    the palette, except those that act on the box's highlighted row alone.
        actions = {pc.binding_id for pc in palette_commands()}
        loose = sorted(
            {
                binding.id or ""
                for name, found in contexts.items()
                for _key, binding, _where in found
                if (binding.id or "") not in actions
                and (binding.id or "") not in PALETTE_SKIP
                and not (binding.id or "").startswith(MOVING)
                and verb(binding) != "leave"
                and name.split(" / ")[0] in {p.PANE_TITLE for p in PANES}
            }
        )
        assert not loose, f"action keys missing from the palette: {loose}"

        # 5. Every list and scrolling box answers the same moving keys: j/k, g/G, Home/End, PgUp/PgDn.
        moving_keys = ("j", "k", "down", "up", "g", "G", "home", "end", "pageup", "pagedown")
        lacking: list[str] = []
        checked: list[str] = []
        for name, keys in boxes.items():
            if not any((b.id or "").startswith(MOVING) for b in keys.values()):
                continue  # not a list or a scrolling box: a button
            if name.startswith(FILTERED) or name.endswith("/ Input"):
                continue  # a filter box: j, k and g are typing there, and its list moves with ↑ ↓ from it
            checked.append(name)
            missing_keys = [k for k in moving_keys if k not in keys]
            if missing_keys:
                lacking.append(f"{name}: {missing_keys}")
                continue
            for a, b in (("j", "down"), ("k", "up"), ("g", "home"), ("G", "end")):
                if keys[a].action != keys[b].action:
                    lacking.append(f"{name}: {a} and {b} differ ({keys[a].action} / {keys[b].action})")
        assert not lacking, "\n".join(lacking)
        assert {"HelpScreen / VerticalScroll", "EntryScreen / VerticalScroll"} <= set(checked), checked
        assert sum(name.split(" / ")[0] in {p.PANE_TITLE for p in PANES} for name in checked) >= len(PANES)


async def test_the_palette_runs_a_pane_action_on_its_pane(isolated_home: Path) -> None:
    """Choosing "Dreams: Dream now" from the Folder pane shows the Dreams pane and asks the dream question."""
    root = isolated_home / "memory"
    build_repo(root)
    app = MemrepoApp(root, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        hits = [hit async for hit in KeyCommands(app.screen).search("Dreams: Dream now")]
        assert hits and hits[0].text == "Dreams: Dream now"
        hits[0].command()
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the dream question")
        assert app.main_screen.query_one("#panes").current == "dreams"
        await pilot.press("escape")


async def test_help_opens_on_the_current_panes_keys(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    build_repo(root)
    app = MemrepoApp(root, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for number, pane in enumerate(PANES, start=1):
            await pilot.press(str(number))
            await settle(pilot)
            await pilot.press("question_mark")
            await settle(pilot)
            assert isinstance(app.screen, HelpScreen)
            assert app.screen.section_titles[0] == f"{pane.PANE_TITLE} pane"
            assert "Everywhere" in app.screen.section_titles
            await pilot.press("escape")


async def test_keys_and_quit_show_in_every_pane_at_80_columns(isolated_home: Path) -> None:
    """The footer starts with ``? Keys`` and ``q Quit`` on every pane, inside the 80 columns."""
    root = isolated_home / "memory"
    build_repo(root)
    app = MemrepoApp(root, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for number in range(1, len(PANES) + 1):
            await pilot.press(str(number))
            await settle(pilot)
            keys = list(app.main_screen.query_one(KeysFooter).query(FooterKey))
            assert [k.key for k in keys[:2]] == ["question_mark", "q"]
            assert all(k.region.width and k.region.right <= 80 for k in keys[:2])


async def test_a_palette_action_waits_out_a_first_read_that_a_newer_read_cancels(isolated_home: Path) -> None:
    """Run from the palette on a pane never shown, "Inbox: Accept" waited for the pane's reads and crashed the app
    (WorkerCancelled) when one of them was replaced by a newer one meanwhile; it now waits for the newer one."""
    import asyncio

    from helpers.tui_helpers import RecordingApp

    from memrepo.tui.panes import InboxPane

    root = isolated_home / "memory"
    build_repo(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        inbox = app.main_screen.query_one(InboxPane)

        async def read() -> None:
            await asyncio.sleep(0.2)

        first = inbox.run_worker(read, group="inbox-suggest", exclusive=True)
        acting = asyncio.ensure_future(KeyCommands(app.screen)._act("notify('acted')", app, inbox))
        await asyncio.sleep(0.05)
        inbox.run_worker(read, group="inbox-suggest", exclusive=True)  # cancels the first
        await acting
        assert first.is_cancelled
        assert app.is_running
        assert "acted" in app.notices
