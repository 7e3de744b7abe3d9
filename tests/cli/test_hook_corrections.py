"""A user's correction typed in a session is kept where it is true (breaker7 B7-16, breaker6 B6-3).

Before: "Remember that my preferred language for scripts is now Python, not Bash." was written to the
project's workspace file, so every other project's block still showed me.md's "... is Bash" as current; and a
correction said without "remember" ("actually we moved to Postgres 16 ...", "no, the deploy window is Friday
now") never reached memory. The transcripts are Claude Code's own line format and its SessionEnd payload (as
``tests/cli/test_hook_user_remember.py``), and a Codex 0.171 rollout (as ``tests/cli/test_codex_stop_remember.py``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import memory_files, plain_settings

from memrepo.cli.main import main
from memrepo.engine.checkpoints.checkpoint import Checkpointer
from memrepo.engine.checkpoints.flow import run_checkpoint
from memrepo.engine.format import entries as fmt
from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore


def transcript_line(session: str, cwd: Path, n: int, role: str, text: str, parent: str | None) -> dict:
    """One line of ``~/.claude/projects/<project>/<session>.jsonl`` as Claude Code 2.1 writes it."""
    content: object = text if role == "user" else [{"type": "text", "text": text}]
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": str(cwd),
        "sessionId": session,
        "version": "2.1.12",
        "gitBranch": "main",
        "type": role,
        "message": {"role": role, "content": content},
        "uuid": f"{role[0]}{n}",
        "timestamp": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),  # said just now
    }


def session_end(store: MemoryStore, tmp_path: Path, project: Path, turns: list[tuple[str, str]]) -> None:
    """Write a transcript of ``turns`` (user text, reply) and run the SessionEnd checkpoint on it."""
    transcript = tmp_path / "s1.jsonl"
    lines, parent = [], None
    for n, (said, reply) in enumerate(turns, 1):
        lines.append(transcript_line("s1", project, n, "user", said, parent))
        lines.append(transcript_line("s1", project, n, "assistant", reply, f"u{n}"))
        parent = f"a{n}"
    transcript.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    payload = {
        "session_id": "s1",
        "transcript_path": str(transcript),
        "cwd": str(project),
        "hook_event_name": "SessionEnd",
        "reason": "prompt_input_exit",
    }
    done = CliRunner().invoke(
        main, ["--repo", str(store.root), "checkpoint", "--from-claude-hook"], input=json.dumps(payload)
    )
    assert done.exit_code == 0, done.output


def lines_of(store: MemoryStore, rel: str) -> dict[str, dict[str, str]]:
    """The entries of one file: text -> metadata ({} when the file is not there)."""
    path = store.root / rel
    if not path.exists():
        return {}
    return {e.text: dict(e.meta) for _n, e in fmt.parse(path.read_bytes(), rel).entries()}


def everywhere(store: MemoryStore) -> dict[str, str]:
    """Every entry's text in the work tree -> the file it is in."""
    found = {}
    for path, data in memory_files(store.root):
        rel = str(path.relative_to(store.root))
        for _n, entry in fmt.parse(data, rel).entries():
            found[entry.text] = rel
    return found


def remember(store: MemoryStore, text: str, workspace: Path | None = None, kind: str = "fact") -> str:
    cand = Candidate(
        text=text,
        kind=kind,
        scope="workspace" if workspace else "global",
        workspace=str(workspace) if workspace else None,
        by="user",
        origin="cli",
    )
    result = store.remember(cand)
    assert result.action is Action.ADDED, result
    assert result.path is not None
    return result.path


@pytest.fixture
def world(tmp_path: Path) -> tuple[MemoryStore, Path, Path]:
    shop, forky = tmp_path / "shop", tmp_path / "forky"
    shop.mkdir()
    forky.mkdir()
    return MemoryStore.open(tmp_path / "memory", plain_settings()), shop, forky


def test_a_correction_of_a_user_line_goes_to_me_md_and_replaces_it_everywhere(world, tmp_path: Path) -> None:
    store, shop, forky = world
    remember(store, "My preferred language for scripts is Bash", kind="preference")
    remember(store, "Forky deploys with fly deploy", forky)
    session_end(
        store, tmp_path, shop, [("Remember that my preferred language for scripts is now Python, not Bash.", "OK.")]
    )
    new = "My preferred language for scripts is now Python, not Bash"
    assert everywhere(store)[new] == "me.md"
    meta = lines_of(store, "me.md")[new]
    assert meta["by"] == "user" and meta["kind"] == "preference"
    assert meta["supersedes"] == "My preferred language for scripts is Bash"
    for workspace in (str(forky), str(shop)):  # another project's block and the session's own
        block = store.context(workspace).text
        assert "now Python, not Bash" in block
        assert "My preferred language for scripts is Bash" not in block


def test_a_statement_about_the_user_goes_to_me_md_a_projects_fact_stays(world, tmp_path: Path) -> None:
    store, shop, _forky = world
    session_end(
        store,
        tmp_path,
        shop,
        [("Remember that I no longer use tmux; I use zellij.", "OK."), ("Remember that the CDN is Fastly.", "OK.")],
    )
    found = everywhere(store)
    assert found["I no longer use tmux; I use zellij"] == "me.md"
    assert found["The CDN is Fastly"].startswith("workspaces/"), found


def test_a_correction_of_a_projects_line_stays_in_its_file(world, tmp_path: Path) -> None:
    store, shop, _forky = world
    rel = remember(store, "The deploy window is Tuesday", shop)
    session_end(
        store, tmp_path, shop, [("Correction, remember that the deploy window is Thursday, not Tuesday.", "OK")]
    )
    assert lines_of(store, rel)["The deploy window is Thursday, not Tuesday"]["by"] == "user"
    assert "The deploy window is Tuesday" not in store.context(str(shop)).text


def test_a_correction_said_without_remember_replaces_the_stored_line(world, tmp_path: Path) -> None:
    """breaker6 B6-3: the correction was dropped, the next block still said Postgres 15 and Tuesday."""
    store, shop, _forky = world
    rel = remember(store, "The shop DB runs on Postgres 15", shop)
    remember(store, "The deploy window is Tuesday", shop)
    session_end(
        store,
        tmp_path,
        shop,
        [
            ("actually we moved to Postgres 16 last week, the shop DB is on Postgres 16 now", "Noted, 16."),
            ("No, the deploy window is Friday now.", "OK, Friday."),
        ],
    )
    kept = lines_of(store, rel)
    assert kept["We moved to Postgres 16 last week, the shop DB is on Postgres 16 now"]["by"] == "user", kept
    assert kept["The deploy window is Friday now"]["by"] == "user", kept  # "No," is not kept
    block = store.context(str(shop)).text
    assert "Postgres 15" not in block and "Tuesday" not in block


def test_a_correction_of_a_long_two_clause_line_hides_it_in_the_block(world, tmp_path: Path) -> None:
    """The lead's trial: a line over 80 characters got a ``supersedes:`` cut mid-word ("... on Tuesday mor"), which
    names no line as whole words, so the block kept the Postgres 15 line beside its correction."""
    store, shop, _forky = world
    long_line = "Our API for the bakery app runs on Postgres 15 and deploys happen on Tuesday mornings"
    rel = remember(store, long_line, shop)
    session_end(store, tmp_path, shop, [("We upgraded the bakery API to Postgres 16 last week.", "Noted.")])
    kept = lines_of(store, rel)
    piece = kept["We upgraded the bakery API to Postgres 16 last week"]["supersedes"]
    assert long_line.startswith(piece) and long_line[len(piece)] == " ", piece
    block = store.context(str(shop)).text
    assert "Postgres 15" not in block and "Postgres 16" in block and "Tuesday mornings" in block, block


def test_what_corrects_nothing_or_is_not_the_users_statement_is_not_kept(world, tmp_path: Path) -> None:
    store, shop, _forky = world
    rel = remember(store, "The deploy window is Tuesday", shop)
    session_end(
        store,
        tmp_path,
        shop,
        [
            ("Is the deploy window Friday now?", "Actually, the deploy window is Friday now."),  # asked; the agent's
            ("If the deploy window is Friday now, what breaks?", "Nothing."),  # supposed
            ("Now fix the deploy window tests.", "Done."),  # a task
            ("Actually we use Remix for the frontend now.", "OK."),  # corrects no stored line
            ("The deploy window tests now pass.", "Great."),  # a change word alone
        ],
    )
    assert [t for t in lines_of(store, rel) if "deploy" in t] == ["The deploy window is Tuesday"]
    assert not any("Remix" in text for text in everywhere(store))


def test_a_correction_from_a_session_that_read_untrusted_content_waits_in_the_inbox(world) -> None:
    store, shop, _forky = world
    rel = remember(store, "The deploy window is Tuesday", shop)
    said = [
        {"id": "u1", "role": "user", "text": "No, the deploy window is Friday now."},
        {"id": "a1", "role": "assistant", "text": "OK."},
    ]
    result = run_checkpoint(
        store,
        Checkpointer(store.state_dir),
        store.settings,
        "s9",
        str(shop),
        said,
        "session_close",
        True,
        "agent_tool",
        True,
    )
    assert [w.action for w in result.written] == [Action.INBOXED], result
    assert lines_of(store, "inbox.md")["The deploy window is Friday now"]["by"] == "agent"
    assert [t for t in lines_of(store, rel) if "deploy" in t] == ["The deploy window is Tuesday"]


def codex_rollout(path: Path, cwd: Path, typed: str, reply: str) -> Path:
    """A one-turn Codex 0.171 rollout (the lines ``tests/cli/test_codex_stop_remember.py`` captured)."""
    session, turn = "01a2471d-d9d1-7b41-befb-5f39aad0c644", "01a2471d-d9ea-7960-a8f1-ecc0ffef2753"

    def line(kind: str, payload: dict) -> str:
        return json.dumps({"timestamp": "2026-12-05T16:51:08.524Z", "type": kind, "payload": payload}) + "\n"

    def message(role: str, text: str, n: int) -> dict:
        part = "output_text" if role == "assistant" else "input_text"
        return {"type": "message", "id": f"msg_{n}", "role": role, "content": [{"type": part, "text": text}]}

    meta = {"session_id": session, "id": session, "timestamp": "2026-12-05T16:51:08.379Z", "cwd": str(cwd)}
    typed_item = {"type": "UserMessage", "id": "u-1", "content": [{"type": "text", "text": typed, "text_elements": []}]}
    lines = [
        line("session_meta", {**meta, "originator": "codex_exec", "cli_version": "0.171.0", "source": "exec"}),
        line("event_msg", {"type": "task_started", "turn_id": turn, "started_at": 1796489468}),
        line("response_item", message("user", typed, 1)),
        line("event_msg", {"type": "item_completed", "thread_id": session, "turn_id": turn, "item": typed_item}),
        line("response_item", message("assistant", reply, 2)),
        line("event_msg", {"type": "task_complete", "turn_id": turn, "last_agent_message": reply}),
    ]
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_codexs_session_end_keeps_the_users_correction_in_me_md(world, tmp_path: Path) -> None:
    """breaker7 B7-16 as found: `codex exec "Remember that my login shell is now zsh, not bash."` wrote shop.md."""
    store, shop, forky = world
    remember(store, "My login shell is bash", kind="preference")
    path = codex_rollout(tmp_path / "rollout.jsonl", shop, "Remember that my login shell is now zsh, not bash.", "OK.")
    payload = {"session_id": "01a2471d-d9d1-7b41-befb-5f39aad0c644", "transcript_path": str(path), "cwd": str(shop)}
    done = CliRunner().invoke(
        main,
        ["--repo", str(store.root), "checkpoint", "--from-claude-hook"],
        input=json.dumps({**payload, "hook_event_name": "SessionEnd", "reason": "other"}),
    )
    assert done.exit_code == 0, done.output
    assert everywhere(store)["My login shell is now zsh, not bash"] == "me.md"
    block = store.context(str(forky)).text
    assert "now zsh, not bash" in block and "My login shell is bash" not in block


def test_a_correction_of_a_pinned_line_is_pinned_in_its_place(world, tmp_path: Path) -> None:
    store, shop, forky = world
    assert store.remember(Candidate(text="Always answer in metric units", pin=True, by="user")).action is Action.ADDED
    session_end(store, tmp_path, shop, [("Actually, always answer in imperial units, not metric.", "OK.")])
    assert everywhere(store)["Always answer in imperial units, not metric"] == "MEMORY.md"
    block = store.context(str(forky)).text
    assert "imperial units, not metric" in block and "Always answer in metric units" not in block


def test_someone_elses_words_never_replace_the_users_lines(world, tmp_path: Path) -> None:
    """breaker9 B9-1, B9-3, B9-4, B9-15: each was kept by: user and hid the true line from every block."""
    store, shop, forky = world
    remember(store, "The deploy window is Tuesday", shop)
    remember(store, "My editor is vim", kind="preference")
    assert store.remember(Candidate(text="Always answer in metric units", pin=True, by="user")).action is Action.ADDED
    before = everywhere(store)
    said = [
        "You said the deploy window is Friday now. That's wrong.",
        "Actually, Bob's editor is Helix now, not vim.",
        "Bob told me the deploy window is Friday now.",
        "My colleague Bob says always answer in imperial units now, not metric.",
        "Actually `the deploy window is Friday now` is what the banner says.",
        "Actually we should move the deploy window to Friday now.",
    ]
    session_end(store, tmp_path, shop, [(text, "OK.") for text in said])
    assert everywhere(store) == before
    for workspace in (str(shop), str(forky)):
        block = store.context(workspace).text
        assert "Always answer in metric units" in block and "My editor is vim" in block
    assert "The deploy window is Tuesday" in store.context(str(shop)).text


def test_codexs_session_end_keeps_a_third_persons_value_off_the_users_line(world, tmp_path: Path) -> None:
    """breaker9 B9-16: through Codex, "Bob's editor is Helix now, not vim" replaced "My editor is vim"."""
    store, shop, forky = world
    remember(store, "My editor is vim", kind="preference")
    path = codex_rollout(tmp_path / "rollout.jsonl", shop, "Actually, Bob's editor is Helix now, not vim.", "OK.")
    payload = {"session_id": "01a2471d-d9d1-7b41-befb-5f39aad0c644", "transcript_path": str(path), "cwd": str(shop)}
    done = CliRunner().invoke(
        main,
        ["--repo", str(store.root), "checkpoint", "--from-claude-hook"],
        input=json.dumps({**payload, "hook_event_name": "SessionEnd", "reason": "other"}),
    )
    assert done.exit_code == 0, done.output
    assert not any("Helix" in text for text in everywhere(store))
    assert "My editor is vim" in store.context(str(forky)).text


def test_a_correction_that_says_more_than_the_new_value_waits_in_the_inbox(world, tmp_path: Path) -> None:
    """breaker9 item 4: "... now on my laptop" is a scoped value; it is proposed for review, hiding nothing."""
    store, shop, _forky = world
    rel = remember(store, "The shop DB runs on Postgres 15", shop)
    session_end(store, tmp_path, shop, [("Actually the shop DB is on Postgres 17 now on my laptop.", "OK.")])
    proposed = lines_of(store, "inbox.md")["The shop DB is on Postgres 17 now on my laptop"]
    assert proposed["by"] == "user" and proposed["corrects"] == rel  # the user's words, for them to confirm (B14-9)
    assert [t for t in lines_of(store, rel) if "Postgres" in t] == ["The shop DB runs on Postgres 15"]
    assert "The shop DB runs on Postgres 15" in store.context(str(shop)).text


def test_a_correction_naming_only_the_subject_replaces_its_line_in_the_next_block(world, tmp_path: Path) -> None:
    """corr9: each of these reached no memory; the next session's block still showed the old value."""
    store, shop, forky = world
    shop_file = remember(store, "The shop CDN is Cloudflare", shop)
    remember(store, "The deploy window is Tuesday", shop)
    remember(store, "My manager is Alice Kim", kind="preference")
    infra_file = remember(store, "Infra uses Terraform 1.6", forky)
    session_end(
        store,
        tmp_path,
        shop,
        [
            ("Nope, the CDN is Fastly now.", "OK."),
            ("Nope, my manager is Dana Wu now", "Noted."),
            ("We moved the deploy window to Wednesday last week", "OK."),
            ("The CDN cache TTL is 5 minutes now.", "OK."),  # another subject: kept nowhere
        ],
    )
    (tmp_path / "s1.jsonl").unlink()
    session_end(store, tmp_path, forky, [("Terraform is on 1.9 now.", "OK.")])
    kept = lines_of(store, shop_file)
    assert kept["The CDN is Fastly now"]["by"] == "user"
    assert kept["The CDN is Fastly now"]["supersedes"] == "The shop CDN is Cloudflare"
    assert lines_of(store, "me.md")["My manager is Dana Wu now"]["by"] == "user"
    assert lines_of(store, infra_file)["Terraform is on 1.9 now"]["by"] == "user"
    assert not any("TTL" in text for text in everywhere(store))
    block = store.context(str(shop)).text
    for new, old in [("Fastly", "Cloudflare"), ("Dana Wu", "Alice Kim"), ("Wednesday", "Tuesday")]:
        assert new in block and old not in block, (new, old)
    infra = store.context(str(forky)).text
    assert "Terraform is on 1.9 now" in infra and "Terraform 1.6" not in infra
