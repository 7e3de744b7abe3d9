"""A correction found by its shape in wordings nobody wrote a rule for (sess12, issue 30; :mod:`.slotframe`).

Before: "My mistake earlier: wren's CI is on Buildkite." for "wren's CI runs on GitHub Actions", "Ojo, eso cambió:
los tests de integración ahora usan testdb3." for "Los tests de integración usan la base testdb1" and "不对，现在 wren
的代码审查改成王芳负责了。" for "wren 的代码审查由李伟负责" kept nothing: no cue word, change word or frame rule of
English read them (heldout3 of bench_session_memory: 0 of 10 corrections right). The structure is what they share:
the line's frame said again with one value slot changed. Pure functions of text and entries.
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.corrections import correction_statements, proposed_corrections
from memrepo.engine.checkpoints.slotframe import relate
from memrepo.engine.checkpoints.userkept import kept_statements, place


def stored(text: str) -> list[ExistingEntry]:
    return [
        ExistingEntry("E1", "workspaces/wren.md", 4, text, "user", {"added": "2026-11-01"}),
        ExistingEntry("E2", "workspaces/wren.md", 5, "The deploy window is Tuesday", "user", {"added": "2026-11-01"}),
    ]


@pytest.mark.parametrize(
    ("old", "said", "new"),
    [
        ("wren's CI runs on GitHub Actions", "My mistake earlier: wren's CI is on Buildkite.",
         "wren's CI is on Buildkite"),
        ("Los tests de integración usan la base testdb1",
         "Ojo, eso cambió: los tests de integración ahora usan testdb3.",
         "los tests de integración ahora usan testdb3"),
        ("wren 的代码审查由李伟负责", "不对，现在 wren 的代码审查改成王芳负责了。", "现在 wren 的代码审查改成王芳负责了"),
        ("maple builds with Node 18", "Wait, that's outdated: maple is on Node 22 since the upgrade.",
         "maple is on Node 22 since the upgrade"),
    ],
)  # fmt: skip
def test_a_line_said_again_with_one_value_changed_is_replaced(old: str, said: str, new: str) -> None:
    lines = stored(old)
    assert correction_statements([said], lines) == [new]
    assert proposed_corrections([said], lines) == []
    assert [k.text for k in kept_statements([said], lines)] == [new]
    scope, target = place(new, "fact", "/p/wren", lines, [said])
    assert target is not None and target.text == old
    assert scope == "workspace"


def test_a_request_to_remember_in_another_script_replaces_the_line_it_restates() -> None:
    lines = stored("本番サーバーは東京リージョンにある")
    said = "本番サーバーは大阪リージョンに移りました。覚えておいてください。"
    kept = kept_statements([said], lines)
    assert [k.text for k in kept] == ["本番サーバーは大阪リージョンに移りました"]
    _scope, target = place(kept[0].text, "fact", "/p/wren", lines, [said])
    assert target is not None and target.text == "本番サーバーは東京リージョンにある"


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The deploy window is Tuesday", "The deploy window tests now pass."),  # a state of another subject
        ("The deploy window is Tuesday", "Sorry, the deploy window is a pain."),  # a judgement
        ("The deploy window is Tuesday", "The deploy window is Wednesday now as well."),  # a value added
        ("The deploy window is Tuesday", "We moved the deploy window to Wednesday once."),  # a one-off
        ("wren's CI is on Buildkite", "wren's CI is not on Buildkite."),  # a negation
        ("The shop DB runs on Postgres 15", "We're on Postgres 16 in staging."),  # a version of a part
        ("Staging database is Postgres 14", "Production database is now Postgres 16"),  # another subject
        ("前端部署使用 Jenkins", "后端部署现在使用 Jenkins"),  # another subject, CJK
        ("The cron job for invoices runs at 2am", "The cron job for emails now runs at 3am"),  # two slots
        ("We deploy on Tuesdays", "We deploy on Tuesdays and Thursdays"),  # nothing replaced
        ("The frontend uses React 18 and Vite 5", "We moved the frontend to React 19"),  # would hide Vite 5 too
        ("The shop DB runs on Postgres 15", "Actually the shop DB is on Postgres 17 now on my laptop."),  # a scope
        (
            "The deploy window is Tuesday at 10:00",
            "No, the deploy window is Wednesday at 10:00 now on the new cluster.",
        ),
    ],
)
def test_a_look_alike_relates_no_line(old: str, said: str) -> None:
    assert relate(said.rstrip("."), old) is None
    assert correction_statements([said], stored(old)) == []


def test_another_persons_line_is_no_slot_of_the_users() -> None:
    mine = [ExistingEntry("E1", "me.md", 4, "My team's CI runs on GitHub Actions", "user", {})]
    assert correction_statements(["My mistake earlier: Bob's team's CI is on Buildkite."], mine) == []


def test_the_kept_lines_capital_is_no_name() -> None:
    """Before: the checkpoint writes a kept line with a capital ("Wren's CI is on Buildkite"), and "Wren's" read as a
    person's, so the line the user typed ("wren's CI runs on GitHub Actions") was never the one it corrects and both
    stayed current (heldout3 h3-corr-mistake-ci)."""
    lines = stored("wren's CI runs on GitHub Actions")
    _scope, target = place("Wren's CI is on Buildkite", "fact", "/p/wren", lines, ["My mistake earlier: ..."])
    assert target is not None and target.text == "wren's CI runs on GitHub Actions"
