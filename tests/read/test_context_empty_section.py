"""A file with nothing to show in the context block gets no heading there (docs/architecture.md §4).

A new repo's block (``memrepo init``, one preference remembered) read "## MEMORY.md" with nothing under it: its
index lines link only files the block shows, and those links are left out. A heading alone tells the agent nothing
and costs tokens in every prompt. A heading that says something (a hand edit waiting, no file for the workspace
yet) stays, and so does a section whose lines the budget left out (its note says how to reach them).
"""

from __future__ import annotations

from memrepo.engine.read.context import (
    LESSONS_BUDGET,
    ME_BUDGET,
    MEMORY_BUDGET,
    WORKSPACE_BUDGET,
    ContextFile,
    build_context,
)

MEMORY = "# Memory\n\nEntries every session needs.\n\n## Index\n- [[me]]\n- [[lessons]]\n"
ME = "# About me\n\n- I prefer tabs over spaces [by: user; kind: preference]\n"
LESSONS = "# Lessons\n"


def _block(memory: str = MEMORY, me: str = ME, label: str = "", ws: ContextFile | None = None) -> str:
    files = [
        ContextFile("MEMORY.md", memory.encode(), MEMORY_BUDGET, label, user_first=True),
        ContextFile("me.md", me.encode(), ME_BUDGET, user_first=True),
        ContextFile("lessons.md", LESSONS.encode(), LESSONS_BUDGET, user_first=True, user_only=True),
    ]
    if ws is not None:
        files.append(ws)
    return build_context("abc1234", files, "ws-1" if ws else None, today="2026-12-07").text


def test_a_file_with_nothing_to_show_has_no_heading() -> None:
    text = _block()
    assert "## MEMORY.md" not in text
    assert "## me.md\n# About me\nL3 I prefer tabs over spaces\n" in text


def test_an_empty_me_md_has_no_heading_and_a_blank_block_only_its_preamble() -> None:
    text = _block(me="# About me\n\nIdentity, preferences and corrections.\n")
    assert "##" not in text
    assert text.splitlines()[-1] == "</memory_repo>" and len(text.splitlines()) == 3


def test_a_heading_that_says_something_stays() -> None:
    text = _block(label="a hand edit waits for an answer; shown as committed")
    assert "## MEMORY.md (a hand edit waits for an answer; shown as committed)\n" in text
    missing = ContextFile("workspaces/", None, WORKSPACE_BUDGET, "workspace ws-1")
    assert "## workspace ws-1\n(no file for this workspace yet)\n" in _block(ws=missing)


def test_a_section_whose_lines_the_budget_left_out_keeps_its_heading_and_note() -> None:
    long = "# About me\n\n- " + "word " * 2_000 + "[by: user]\n"
    text = _block(me=long)
    part = text.split("## me.md\n", 1)[1]
    assert part.startswith("(1 more entry in me.md not shown (1 for the budget: L3)"), part[:200]
