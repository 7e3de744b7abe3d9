"""A shared subject or shared words hide no line about another item (docs/architecture.md §4, step 1): lines written
from one template for many items are each their own fact."""

from __future__ import annotations

from memrepo.engine.format.entries import parse
from memrepo.engine.read.context import ContextFile, build_context
from memrepo.engine.read.contextselect import candidates, replaced


def replaced_texts(text: str) -> dict[str, str]:
    parsed = parse(text.encode())
    lines = dict(parsed.entries())
    return {lines[old].text: lines[new].text for old, new in replaced(candidates(parsed.entries())).items()}


def test_lines_of_one_subject_about_different_items_both_stay() -> None:
    text = (
        "# w\n\n"
        "- Team rejects squash merges for database (item 2899) [by: agent; added: 2025-07-01; subject: database]\n"
        "- Team requires Postgres 16 with pgvector for auth (item 2910) [by: agent; added: 2026-01-24; subject: database]\n"
        "- Billing exports run nightly at 02:00 (ticket #77) [by: user; added: 2025-02-01; subject: exports]\n"
        "- Billing exports now run hourly (ticket #78) [by: user; added: 2026-02-01; subject: exports]\n"
    )
    assert replaced_texts(text) == {}
    shown = build_context("abc1234", [ContextFile("workspaces/w.md", text.encode(), 400)]).text
    assert "(item 2899)" in shown and "(item 2910)" in shown and "#77" in shown and "#78" in shown


def test_an_item_number_and_another_templates_code_are_two_items() -> None:
    text = (
        "# w\n\n"
        "- Team avoids pnpm over npm for backups (item 4111) [by: agent; added: 2025-01-01; subject: deploy]\n"
        "- 部署前必须运行全部测试（auth-4092） [by: agent; added: 2025-06-01; subject: deploy]\n"
    )
    assert replaced_texts(text) == {}


def test_codes_differ_and_the_change_word_is_a_noun_in_both_lines_so_both_stay() -> None:
    """迁移 ("migration") is a change word; both lines hold it, so neither says its code changed."""
    text = (
        "# w\n\n"
        "- 数据库迁移需要人工审核（migrations-4011） [by: agent; added: 2025-01-01]\n"
        "- 数据库迁移需要人工审核（docs-4036） [by: agent; added: 2025-06-01]\n"
        "- テストは並列で実行する（api-4974） [by: agent; added: 2025-01-02; subject: ci]\n"
        "- 数据库迁移需要人工审核（backups-4965） [by: agent; added: 2025-06-02; subject: ci]\n"
    )
    assert replaced_texts(text) == {}


def test_the_same_subject_without_an_id_apart_still_replaces() -> None:
    """Controls: the same item said again, a code the newer line says it changed, and lines without ids."""
    text = (
        "# w\n\n"
        "- Exports run nightly (ticket #77) [by: user; added: 2025-02-01; subject: exports]\n"
        "- Exports run hourly (ticket #77) [by: user; added: 2026-02-01; subject: exports]\n"
        "- Deploys ship the release-41 branch [by: user; added: 2025-02-01]\n"
        "- Deploys now ship the release-42 branch [by: user; added: 2026-02-01]\n"
        "- I use Vim [by: user; added: 2025-02-01; subject: editor]\n"
        "- My editor is Helix [by: user; added: 2026-02-01; subject: editor]\n"
    )
    assert replaced_texts(text) == {
        "Exports run nightly (ticket #77)": "Exports run hourly (ticket #77)",
        "Deploys ship the release-41 branch": "Deploys now ship the release-42 branch",
        "I use Vim": "My editor is Helix",
    }


def test_a_third_line_of_a_subject_replaces_the_one_of_its_own_item() -> None:
    text = (
        "# w\n\n"
        "- Alerts page on-call (item 1) [by: user; added: 2025-01-01; subject: alerts]\n"
        "- Alerts mail the team (item 2) [by: user; added: 2025-02-01; subject: alerts]\n"
        "- Alerts page the lead (item 1) [by: user; added: 2025-03-01; subject: alerts]\n"
    )
    assert replaced_texts(text) == {"Alerts page on-call (item 1)": "Alerts page the lead (item 1)"}
