"""Where the context block spends its tokens (docs/architecture.md §4, round 20): no index line to a file it shows or,
in a workspace's block, to another workspace's file; what the workspace file leaves goes to me.md; a line a newer one
says again in other words claims the budget last."""

from __future__ import annotations

from memrepo.engine.read.context import (
    LESSONS_BUDGET,
    ME_BUDGET,
    MEMORY_BUDGET,
    WORKSPACE_BUDGET,
    ContextFile,
    build_context,
)

MEMORY = (
    "# Memory\n\n- Answer in English [by: user]\n\n## Index\n- [[me]]\n- [[lessons]]\n- [[topics/release]]\n"
    "- [[workspaces/api]]\n- [[workspaces/web]]\n- [[workspaces/cli]]\n"
)
ME = "# me\n\n" + "".join(
    f"- Prefers tool number {i} for chore {i} [by: user; added: 2026-{1 + i // 28:02d}-{i % 28 + 1:02d}]\n"
    for i in range(60)
)
LESSONS = "# lessons\n\n- Never force-push to main [by: user; kind: rule]\n"
API = "# api\n\n- Workspace api [workspace: ws-00000001; by: user]\n- The api deploys with make ship [by: user]\n"


def block(workspace: bool = True, me: str = ME, api: str = API) -> str:
    files = [
        ContextFile("MEMORY.md", MEMORY.encode(), MEMORY_BUDGET, user_first=True),
        ContextFile("me.md", me.encode(), ME_BUDGET, user_first=True),
        ContextFile("lessons.md", LESSONS.encode(), LESSONS_BUDGET, user_first=True, user_only=True),
    ]
    if workspace:
        files.append(ContextFile("workspaces/api.md", api.encode(), WORKSPACE_BUDGET, "workspace ws-00000001"))
    return build_context("abc1234", files, "ws-00000001" if workspace else None, today="2026-12-07").text


def section(text: str, path: str) -> str:
    rest = text.split(f"\n## {path}\n", 1)[1]
    ends = [rest.find(f"\n## {p}") for p in ("me.md", "lessons.md", "workspaces/") if f"\n## {p}" in rest]
    return rest[: min(ends, default=len(rest))]


def test_a_workspaces_block_shows_no_index_line_to_a_file_it_shows_or_to_another_workspace() -> None:
    memory = section(block(), "MEMORY.md")
    assert "[[topics/release]] (topics/release.md)" in memory
    assert "[[me]]" not in memory and "[[lessons]]" not in memory and "[[workspaces/" not in memory
    # the two other workspaces' lines are counted, and said why; [[workspaces/api]] is the block's own file
    assert "(2 more index lines in MEMORY.md not shown (2 to other workspaces' files); read MEMORY.md" in memory


def test_a_block_without_a_workspace_still_leads_to_every_workspace() -> None:
    memory = section(block(workspace=False), "MEMORY.md")
    assert all(f"[[workspaces/{name}]]" in memory for name in ("api", "web", "cli"))
    assert "[[me]]" not in memory and "not shown" not in memory


def test_what_the_workspace_file_leaves_goes_to_me_md() -> None:
    with_ws, without = section(block(), "me.md"), section(block(workspace=False), "me.md")
    assert with_ws.count("\nL") > without.count("\nL") > 0  # the same file, more of it shown beside a small workspace
    newest = "L62 Prefers tool number 59 for chore 59"
    assert newest in with_ws and newest in without  # the newest first either way
    big = API + "".join(f"- The api fact number {i} about its build and its deploys [by: user]\n" for i in range(80))
    assert section(block(api=big), "me.md").count("\nL") == without.count("\nL")  # a full workspace leaves nothing


OLD, NEW = "Likes reviews that open with the failing test case", "Put the failing test case first in a review"
FILLER = "".join(
    f"- Owns chore number {i} on the team rota [by: user; added: 2025-{1 + i // 28:02d}-{i % 28 + 1:02d}]\n"
    for i in range(40)
)


def test_a_line_said_again_in_other_words_claims_the_budget_last() -> None:
    me = f"# me\n\n{FILLER}- {OLD} [by: user; added: 2026-01-01]\n- {NEW} [by: user; added: 2026-02-01]\n"
    shown = section(block(workspace=False, me=me), "me.md")
    assert NEW in shown and OLD not in shown  # the older says the newer's fact: it claims the budget last
    small = f"# me\n\n- {OLD} [by: user; added: 2026-01-01]\n- {NEW} [by: user; added: 2026-02-01]\n"
    shown = section(block(workspace=False, me=small), "me.md")
    assert OLD in shown and NEW in shown  # when the file fits, both: a restatement is never hidden


def test_an_agents_restatement_never_pushes_the_users_line_last() -> None:
    me = f"# me\n\n{FILLER}- {OLD} [by: user; added: 2026-01-01]\n- {NEW} [by: agent; added: 2026-02-01]\n"
    assert OLD in section(block(workspace=False, me=me), "me.md")
