"""A correction of the user's that waits in the inbox replaces the line it corrects once accepted (breaker14 B14-9).

Before: "No, the deploy window is Wednesday at 10:00 now on the new cluster." (said in a session, through Claude
Code's SessionEnd hook) waited in the inbox as ``by: agent`` with nothing naming the line it corrects; accepting it
(``memrepo inbox accept``, the app's ``a``) wrote it ``by: agent; via: inbox`` beside the old line, which stayed in
every block ("an agent's line never replaces the user's"). Now the proposal is written ``by: user`` with
``corrects:`` (the corrected line's file) and ``supersedes:``/``subject:``, and accepting it writes it there, in the
same commit that takes it out of the inbox, so the old value leaves the block.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from click.testing import CliRunner
from test_hook_corrections import lines_of, remember, session_end, world  # noqa: F401  # world: a fixture

from memrepo.cli.main import main
from memrepo.engine.format import entries as fmt
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

OLD = "The deploy window is Tuesday at 10:00"
SAID = "No, the deploy window is Wednesday at 10:00 now on the new cluster."
NEW = "The deploy window is Wednesday at 10:00 now on the new cluster"


def cli(store: MemoryStore, *args: str) -> str:
    done = CliRunner().invoke(main, ["--repo", str(store.root), *args])
    assert done.exit_code == 0, done.output
    return done.output


def listed(store: MemoryStore, text: str) -> str:
    """The ``memrepo inbox`` line of the entry ``text``."""
    return next(line for line in cli(store, "inbox").splitlines() if text in line)


def last_commit_files(store: MemoryStore) -> list[str]:
    out = subprocess.run(
        ["git", "show", "--name-only", "--format=", "HEAD"], cwd=store.root, capture_output=True, text=True, check=True
    )
    return sorted(out.stdout.split())


def test_accepting_the_users_proposed_correction_replaces_their_line(world, tmp_path: Path) -> None:  # noqa: F811
    store, shop, _forky = world
    rel = remember(store, OLD, shop)
    session_end(store, tmp_path, shop, [(SAID, "OK.")])
    meta = lines_of(store, "inbox.md")[NEW]
    assert meta["by"] == "user" and meta["corrects"] == rel and meta["supersedes"] == OLD
    assert OLD in store.context(str(shop)).text  # waiting: it hides nothing yet
    row = listed(store, NEW)
    assert f"-> {rel}" in row and f"(your correction of: {OLD})" in row
    said = cli(store, "inbox", "accept", row.split()[0])
    assert f"replaces {OLD}" in said
    assert last_commit_files(store) == sorted(["inbox.md", rel])  # one commit: out of the inbox, into its file
    written = lines_of(store, rel)[NEW]
    assert written["by"] == "user" and written["supersedes"] == OLD and written["via"] == "inbox"
    assert "corrects" not in written
    block = store.context(str(shop)).text
    assert NEW in block and OLD not in block
    assert NEW not in lines_of(store, "inbox.md")


def test_a_proposed_correction_of_a_line_with_a_subject_replaces_it_in_place(world, tmp_path: Path) -> None:  # noqa: F811
    store, shop, _forky = world
    done = store.remember(
        Candidate(text=OLD, scope="workspace", workspace=str(shop), subject="deploy window", by="user", origin="cli")
    )
    session_end(store, tmp_path, shop, [(SAID, "OK.")])
    assert lines_of(store, "inbox.md")[NEW]["subject"] == "deploy window"
    cli(store, "inbox", "accept", listed(store, NEW).split()[0])
    texts = list(lines_of(store, str(done.path)))
    assert NEW in texts and OLD not in texts  # the writer's replace-by-subject


def test_a_proposed_correction_of_a_pinned_line_is_pinned_in_its_place(world, tmp_path: Path) -> None:  # noqa: F811
    store, shop, _forky = world
    store.remember(Candidate(text="The shop DB runs on Postgres 15", by="user", pin=True, origin="cli"))
    session_end(store, tmp_path, shop, [("Actually the shop DB is on Postgres 17 now on my laptop.", "OK.")])
    new = "The shop DB is on Postgres 17 now on my laptop"
    assert lines_of(store, "inbox.md")[new]["corrects"] == "MEMORY.md"
    cli(store, "inbox", "accept", listed(store, new).split()[0])
    assert lines_of(store, "MEMORY.md")[new]["supersedes"] == "The shop DB runs on Postgres 15"
    block = store.context(str(shop)).text
    assert new in block and "The shop DB runs on Postgres 15" not in block


def test_an_agents_inbox_line_naming_a_line_to_correct_replaces_nothing(world) -> None:  # noqa: F811
    """Only the user's own proposal (``by: user``) replaces a line: a hand-made ``corrects:`` on an agent's line
    is accepted as before, ``by: agent`` with no ``supersedes:``."""
    store, shop, _forky = world
    rel = remember(store, OLD, shop)
    store.remember(Candidate(text=NEW, scope="workspace", workspace=str(shop), untrusted=True, origin="cli"))
    inbox = store.root / "inbox.md"
    text = inbox.read_text(encoding="utf-8")
    inbox.write_text(text.replace("; workspace:", f"; supersedes: {OLD}; corrects: {rel}; workspace:"), "utf-8")
    assert "corrects:" in inbox.read_text(encoding="utf-8")
    cli(store, "commit-hand-edits", "--yes", "inbox.md")
    row = listed(store, NEW)
    assert "your correction" not in row
    cli(store, "inbox", "accept", row.split()[0])
    written = lines_of(store, rel)[NEW]
    assert written["by"] == "agent" and "supersedes" not in written
    assert OLD in store.context(str(shop)).text


def test_the_proposal_is_written_as_it_was_said_in_the_inbox_file(world, tmp_path: Path) -> None:  # noqa: F811
    store, shop, _forky = world
    remember(store, OLD, shop)
    session_end(store, tmp_path, shop, [(SAID, "OK.")])
    parsed = fmt.parse((store.root / "inbox.md").read_bytes(), "inbox.md")
    (entry,) = [e for _n, e in parsed.entries()]
    assert entry.text == NEW and entry.meta["source"] == "checkpoint s1" and entry.meta["workspace"] == str(shop)
