"""What the context block says of each line of a file, for the app's Files pane (breaker31 B31-11).

The pane listed the lines the block hides as replaced like any other; :func:`memrepo.engine.block_marks` gives it
the block's own marks (docs/architecture.md §4).
"""

from __future__ import annotations

from memrepo.engine import block_marks
from memrepo.engine.read.context import ContextFile, build_context

SHOP = (
    "# shop\n\n"
    "- The shop deploys to Fly.io from the main branch [by: user; added: 2026-05-04]\n"
    "- The shop deploys to Render now, not Fly.io [by: user; added: 2026-05-20; supersedes: The shop deploys to"
    " Fly.io from the main branch]\n"
    "- Deploy window is Tuesday [by: user; added: 2026-05-04]\n"
    "- Deploy window is now Thursday [by: user; added: 2026-05-20]\n"
    "- I'm on call this week [by: user; added: 2026-05-04; until: 2026-05-10]\n"
    "- The staging app is called shop-stg [by: user; added: 2026-05-04]\n"
)


def test_each_line_the_block_hides_or_marks_has_the_blocks_mark():
    assert block_marks("workspaces/shop.md", SHOP, today="2026-06-01") == {
        3: "replaced in part by L4",
        5: "replaced by L6",
        7: "past: it held until 2026-05-10",
    }


def test_the_marks_agree_with_the_block():
    block = build_context("", [ContextFile("workspaces/shop.md", SHOP.encode(), 4000)], today="2026-06-01").text
    shown = {int(line.split()[0][1:]) for line in block.splitlines() if line.startswith("L")}
    marks = block_marks("workspaces/shop.md", SHOP, today="2026-06-01")
    hidden = {n for n, mark in marks.items() if not mark.startswith("replaced in part")}
    assert shown == {3, 4, 6, 8} and not shown & hidden


def test_an_agents_correction_of_a_users_line_is_named_and_a_chain_ends_at_the_line_shown():
    text = (
        "# me\n\n"
        "- My editor is vim [by: user; added: 2026-05-04]\n"
        "- The user's editor is now helix [by: agent; added: 2026-05-20]\n"
        "- Deploy window is Tuesday [by: user; added: 2026-05-01]\n"
        "- Deploy window is now Wednesday [by: user; added: 2026-05-02]\n"
        "- Deploy window is now Thursday [by: user; added: 2026-05-03]\n"
    )
    marks = block_marks("me.md", text, today="2026-06-01")
    assert marks.get(3) == "an agent line since says: L4", marks
    assert marks.get(5) == marks.get(6) == "replaced by L7", marks


def test_a_file_that_is_not_memory_markdown_has_no_marks():
    assert block_marks("notes.md", "no entries here\n") == {}
