"""The governed writer (docs/architecture.md §3): routing, dedupe/replace/outrank, limits,
hand edits first, blocked writes, forget, symlinks, and byte-exact files."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from helpers.repo_helpers import commit_by_hand, git, merge_conflict, plain_settings, porcelain

from memrepo.engine.errors import BlockedError, MemrepoError, RefError
from memrepo.engine.files.atomic import atomic_write
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.limits import FILE_MAX_BYTES, MAX_FILES, MEMORY_MD_MAX_BYTES
from memrepo.engine.format.paths import workspace_id
from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore


def changed_files(root: Path, rev: str = "HEAD") -> list[str]:
    return sorted(git(root, "show", "--name-only", "--format=", rev).split())


def _entry_texts(store: MemoryStore, path: str) -> list[str]:
    return [e.text for e in store.read_file(path).entries]


# -- routing ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "path"),
    [
        ("identity", "me.md"),
        ("preference", "me.md"),
        ("correction", "me.md"),
        ("fact", "me.md"),
        ("insight", "lessons.md"),
        ("rule", "lessons.md"),
        ("lesson", "lessons.md"),
        ("Lesson", "lessons.md"),
    ],
)
def test_global_kinds_route_to_their_file(store: MemoryStore, kind: str, path: str) -> None:
    result = store.remember(Candidate(text=f"a {kind} entry", kind=kind))
    assert result.action is Action.ADDED
    assert result.path == path
    assert changed_files(store.root) == [path]
    line = (store.root / path).read_text().splitlines()[int(result.ref.rsplit("#L", 1)[1]) - 1]
    assert line.startswith(f"- a {kind} entry [by: agent; added: ")
    assert f"kind: {kind}" in line
    assert store.log(limit=1)[0].summary == f"Remember {kind}: a {kind} entry"


def test_a_workspace_file_is_created_on_first_write_and_linked_from_the_index(
    store: MemoryStore,
) -> None:
    root = store.root
    result = store.remember(
        Candidate(text="deploys with make ship", scope="workspace", workspace="/home/u/src/billing")
    )
    assert result.action is Action.ADDED
    assert result.path == "workspaces/billing.md"
    assert result.ref == "repo:workspaces/billing.md#L4"
    ws = workspace_id("/home/u/src/billing")
    lines = (root / "workspaces" / "billing.md").read_text().splitlines()
    assert lines[0] == "# billing"
    assert lines[2] == f"- Workspace billing [workspace: {ws}; path: /home/u/src/billing; by: user]"
    assert lines[3].startswith("- deploys with make ship [by: agent;")
    # Linked from MEMORY.md's index, in the same single commit.
    memory = store.read_file("MEMORY.md")
    assert "workspaces/billing" in memory.links
    index_at = memory.text.splitlines().index("## Index")
    assert "- [[workspaces/billing]]" in memory.text.splitlines()[index_at:]
    assert changed_files(root) == ["MEMORY.md", "workspaces/billing.md"]
    assert porcelain(root) == ""


def test_the_same_workspace_again_reuses_its_file(store: MemoryStore) -> None:
    first = store.remember(Candidate(text="fact one", scope="workspace", workspace="/home/u/src/billing"))
    memory_before = (store.root / "MEMORY.md").read_bytes()
    again = store.remember(Candidate(text="fact two", scope="workspace", workspace="/home/u/src/../src/billing/"))
    assert again.path == first.path == "workspaces/billing.md"
    assert _entry_texts(store, "workspaces/billing.md")[1:] == ["fact one", "fact two"]
    assert (store.root / "MEMORY.md").read_bytes() == memory_before
    assert changed_files(store.root) == ["workspaces/billing.md"]
    # A fresh store (another process) finds it by the workspace id, too.
    other = MemoryStore.open(store.root, plain_settings())
    third = other.remember(Candidate(text="fact three", scope="workspace", workspace="/home/u/src/billing"))
    assert third.path == "workspaces/billing.md"


def test_a_workspace_given_by_name_or_by_path(store: MemoryStore) -> None:
    by_name = store.remember(Candidate(text="named workspace", scope="workspace", workspace="billing-service"))
    assert by_name.path == "workspaces/billing-service.md"
    naming = store.read_file("workspaces/billing-service.md").entries[0]
    assert naming.text == "Workspace billing-service"
    assert naming.meta == {"workspace": workspace_id("billing-service"), "by": "user"}

    # A path whose folder has the same name is another workspace: its own file.
    by_path = store.remember(Candidate(text="pathed workspace", scope="workspace", workspace="/srv/billing-service"))
    assert by_path.path == "workspaces/billing-service-2.md"
    naming = store.read_file("workspaces/billing-service-2.md").entries[0]
    assert naming.meta["path"] == "/srv/billing-service"
    assert naming.meta["workspace"] == workspace_id("/srv/billing-service")
    links = store.read_file("MEMORY.md").links
    assert "workspaces/billing-service" in links and "workspaces/billing-service-2" in links
    # And each name keeps going to its own file.
    again = store.remember(Candidate(text="named 2", scope="workspace", workspace="billing-service"))
    assert again.path == "workspaces/billing-service.md"


def test_a_pinned_user_entry_goes_to_memory_md_above_the_index(store: MemoryStore) -> None:
    result = store.remember(Candidate(text="answer in English", by="user", pin=True))
    assert result.action is Action.ADDED
    assert result.path == "MEMORY.md"
    lines = (store.root / "MEMORY.md").read_text().splitlines()
    number = int(result.ref.rsplit("#L", 1)[1])
    assert lines[number - 1].startswith("- answer in English [by: user;")
    assert number < lines.index("## Index") + 1
    assert lines[lines.index("## Index") + 1 :] == ["- [[me]]", "- [[lessons]]"]


def test_an_agent_cannot_pin(store: MemoryStore) -> None:
    head = store.head()
    result = store.remember(Candidate(text="pin me", by="agent", pin=True))
    assert result.action is Action.REFUSED
    assert "pin" in (result.reason or "")
    assert store.head() == head
    assert "pin me" not in (store.root / "MEMORY.md").read_text()


@pytest.mark.parametrize(
    ("cand", "words"),
    [
        (Candidate(text="   "), "empty"),
        (Candidate(text="x", scope="workspace"), "workspace"),
    ],
)
def test_unusable_candidates_are_refused(store: MemoryStore, cand: Candidate, words: str) -> None:
    head = store.head()
    result = store.remember(cand)
    assert result.action is Action.REFUSED
    assert words in (result.reason or "")
    assert store.head() == head


@pytest.mark.parametrize("field", ["text", "subject", "source", "task", "workspace"])  # kind: Candidate refuses it
def test_a_nul_byte_is_refused_and_the_file_stays_writable(store: MemoryStore, field: str) -> None:
    # A NUL makes a memory file binary: every later read and write of it would fail.
    values = {"text": "a fact", field: "bad\x00value"}
    if field == "workspace":
        values["scope"] = "workspace"
    head = store.head()
    result = store.remember(Candidate(**values))
    assert result.action is Action.REFUSED
    assert "NUL" in (result.reason or "")
    assert store.head() == head
    assert store.remember(Candidate(text="still writable")).action is Action.ADDED
    assert [e.text for e in store.read_file("me.md").entries] == ["still writable"]


# -- dedupe, replace, outrank ----------------------------------------------------


def test_the_same_normalized_text_is_reinforced_without_a_commit(store: MemoryStore) -> None:
    first = store.remember(Candidate(text="Prefers tabs over spaces.", kind="preference"))
    before = (store.root / "me.md").read_bytes()
    head = store.head()
    again = store.remember(Candidate(text="  prefers TABS over   spaces", kind="preference"))
    assert again.action is Action.REINFORCED
    assert again.ref == first.ref
    assert again.commit is None
    assert store.head() == head
    assert (store.root / "me.md").read_bytes() == before


def test_the_same_subject_replaces_exactly_one_line(store: MemoryStore) -> None:
    store.remember(Candidate(text="likes tea", kind="preference"))
    old = store.remember(Candidate(text="editor is vim", kind="preference", subject="editor"))
    store.remember(Candidate(text="likes cats", kind="preference"))
    before = (store.root / "me.md").read_bytes().splitlines(keepends=True)
    new = store.remember(Candidate(text="editor is helix", kind="preference", subject="Editor"))
    after = (store.root / "me.md").read_bytes().splitlines(keepends=True)
    assert new.action is Action.REPLACED
    assert new.ref == old.ref
    assert len(before) == len(after)
    differing = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    number = int(new.ref.rsplit("#L", 1)[1])
    assert differing == [number - 1]
    assert after[number - 1].startswith(b"- editor is helix [by: agent;")
    assert store.log(limit=1)[0].summary == "Replace preference: editor is helix"


def test_a_user_line_with_the_subject_outranks_an_agent_write(store: MemoryStore) -> None:
    root = store.root
    # Written by hand: no ``by`` key, so it counts as the user's.
    (root / "me.md").write_text("# About me\n\n- editor is emacs [subject: editor]\n")
    commit_by_hand(root)
    head = store.head()
    result = store.remember(Candidate(text="editor is vscode", subject="editor", by="agent"))
    assert result.action is Action.OUTRANKED
    assert result.ref == "repo:me.md#L3"
    assert result.commit is None
    assert store.head() == head
    assert _entry_texts(store, "me.md") == ["editor is emacs"]
    # The user can still change their own line.
    result = store.remember(Candidate(text="editor is vscode", subject="editor", by="user"))
    assert result.action is Action.REPLACED
    assert _entry_texts(store, "me.md") == ["editor is vscode"]


def test_an_agent_line_with_the_subject_is_replaced_by_an_agent(store: MemoryStore) -> None:
    store.remember(Candidate(text="node 18", kind="fact", subject="node"))
    result = store.remember(Candidate(text="node 20", kind="fact", subject="node"))
    assert result.action is Action.REPLACED
    assert _entry_texts(store, "me.md") == ["node 20"]


# -- limits -------------------------------------------------------------------------


def test_an_entry_over_500_characters_is_refused_with_where_to_write(store: MemoryStore) -> None:
    head = store.head()
    result = store.remember(Candidate(text="x" * 501))
    assert result.action is Action.REFUSED
    assert "500" in (result.reason or "") and "topics/" in (result.reason or "")
    assert store.head() == head
    assert store.remember(Candidate(text="y " * 249 + "yy")).action is Action.ADDED


def test_memory_md_over_4_kb_is_refused_with_where_to_write(store: MemoryStore) -> None:
    root = store.root
    text = (root / "MEMORY.md").read_text()
    filler = "".join(f"- pinned filler number {i:04d} [by: user]\n" for i in range(200))
    head_part, index_part = text.split("## Index")
    body = head_part + filler
    while len((body + "## Index" + index_part).encode()) > MEMORY_MD_MAX_BYTES - 40:
        body = body[: body.rstrip("\n").rfind("\n") + 1]
    (root / "MEMORY.md").write_text(body + "## Index" + index_part)
    commit_by_hand(root)
    head = store.head()
    result = store.remember(Candidate(text="one more pinned fact " * 3, by="user", pin=True))
    assert result.action is Action.REFUSED
    assert "MEMORY.md" in (result.reason or "")
    assert "me.md" in (result.reason or "") and "lessons.md" in (result.reason or "")
    assert store.head() == head
    assert porcelain(root) == ""


def test_a_new_workspace_that_cannot_be_linked_from_a_full_memory_md_is_refused(store: MemoryStore) -> None:
    root = store.root
    text = (root / "MEMORY.md").read_text()
    head_part, index_part = text.split("## Index")
    filler = "".join(f"- pinned filler number {i:04d} [by: user]\n" for i in range(200))
    body = head_part + filler
    while len((body + "## Index" + index_part).encode()) > MEMORY_MD_MAX_BYTES - 100:
        body = body[: body.rstrip("\n").rfind("\n") + 1]
    pad = MEMORY_MD_MAX_BYTES - 5 - len((body + "## Index" + index_part).encode())
    body += "x" * (pad - 1) + "\n"  # 5 bytes short of the limit: no room for a link line
    (root / "MEMORY.md").write_text(body + "## Index" + index_part)
    assert (root / "MEMORY.md").stat().st_size == MEMORY_MD_MAX_BYTES - 5
    commit_by_hand(root)
    head = store.head()
    result = store.remember(Candidate(text="Deploys on Fridays", scope="workspace", workspace="billing"))
    assert result.action is Action.REFUSED
    assert "MEMORY.md is full" in (result.reason or "") and "workspaces/billing.md" in (result.reason or "")
    assert "--pin" not in (result.reason or "")
    assert not (root / "workspaces" / "billing.md").exists()
    assert store.head() == head
    assert porcelain(root) == ""


def test_a_file_over_64_kb_is_refused_with_where_to_write(store: MemoryStore) -> None:
    root = store.root
    line = "- an old lesson that fills the file up [by: agent]\n"
    (root / "lessons.md").write_text("# Lessons\n\n" + line * ((FILE_MAX_BYTES - 100) // len(line)))
    commit_by_hand(root)
    size = (root / "lessons.md").stat().st_size
    assert FILE_MAX_BYTES - 200 < size <= FILE_MAX_BYTES
    head = store.head()
    result = store.remember(Candidate(text="a lesson too many " * 10, kind="lesson"))
    assert result.action is Action.REFUSED
    assert "lessons.md" in (result.reason or "") and "topics/" in (result.reason or "")
    assert store.head() == head
    assert (root / "lessons.md").stat().st_size == size


def test_the_2000th_file_is_refused_with_where_to_write(store: MemoryStore) -> None:
    root = store.root
    notes = root / "topics"
    notes.mkdir()
    existing = len(store.list_files())
    for i in range(MAX_FILES - existing):
        (notes / f"n{i:04d}.md").write_bytes(b"")
    commit_by_hand(root)
    assert len(store.list_files()) == MAX_FILES
    head = store.head()
    result = store.remember(Candidate(text="fact x", scope="workspace", workspace="new-project"))
    assert result.action is Action.REFUSED
    reason = result.reason or ""
    assert str(MAX_FILES) in reason and "existing" in reason and "me.md" in reason
    assert store.head() == head
    assert not (root / "workspaces").exists()
    # Writing to an existing file still works.
    assert store.remember(Candidate(text="still fine")).action is Action.ADDED


# -- hand edits and blocked writes ------------------------------------------------


def test_hand_edits_are_committed_first_then_the_write(store: MemoryStore) -> None:
    root = store.root
    (root / "lessons.md").write_text("# Lessons\n\n- learned by hand\n")
    (root / "topics").mkdir()
    (root / "topics" / "new.md").write_text("- a new note\n")
    result = store.remember(Candidate(text="likes tea", kind="preference"))
    log = store.log()
    assert [c.summary for c in log[:2]] == ["Remember preference: likes tea", "Hand edits"]
    assert log[0].id == result.commit
    assert log[1].origin == "hand_edit"
    assert changed_files(root, log[1].id) == ["lessons.md", "topics/new.md"]
    assert changed_files(root, log[0].id) == ["me.md"]
    assert git(root, "show", f"{log[1].id}:lessons.md") == "# Lessons\n\n- learned by hand\n"
    assert porcelain(root) == ""


def test_a_hinted_new_folder_has_its_files_committed_first(store: MemoryStore) -> None:
    # The watcher's hint named only the new folder, not the file made inside it.
    root = store.root
    (root / "topics" / "sql").mkdir(parents=True)
    (root / "topics" / "sql" / "joins.md").write_text("- prefer explicit joins\n")
    store.remember(Candidate(text="likes tea", kind="preference"), hint=["topics"])
    log = store.log()
    assert [c.summary for c in log[:2]] == ["Remember preference: likes tea", "Hand edits"]
    assert changed_files(root, log[1].id) == ["topics/sql/joins.md"]
    assert porcelain(root) == ""


def test_a_write_while_blocked_raises_and_writes_nothing(store: MemoryStore) -> None:
    root = store.root
    (root / "lessons.md").write_text("# Lessons\n\n- pending hand edit\n")
    (root / ".git" / "index.lock").write_text("")
    files_before = {p: (root / p).read_bytes() for p, _ in store.list_files()}
    head = store.head()
    with pytest.raises(BlockedError, match=r"index\.lock"):
        store.remember(Candidate(text="blocked write"))
    with pytest.raises(BlockedError):
        store.remember(Candidate(text="ws fact", scope="workspace", workspace="proj"))
    with pytest.raises(BlockedError):
        store.forget("repo:MEMORY.md#L6")
    assert store.head() == head
    assert {p: (root / p).read_bytes() for p, _ in store.list_files()} == files_before
    # The two refused writes are kept durably (outside the work tree) and counted.
    assert [c.text for c in store.pending()] == ["blocked write", "ws fact"]
    assert store.status().pending == 2
    (root / ".git" / "index.lock").unlink()
    # Once unblocked, nothing was lost: the hand edit is committed, then the kept
    # writes in order, then the new one.
    store.remember(Candidate(text="after the block"))
    assert [c.summary for c in store.log()[:4]] == [
        "Remember fact: after the block",
        "Remember fact: ws fact",
        "Remember fact: blocked write",
        "Hand edits",
    ]
    assert store.pending() == [] and store.status().pending == 0


# -- forget ---------------------------------------------------------------------------


def test_forget_removes_exactly_that_line(store: MemoryStore) -> None:
    root = store.root
    store.remember(Candidate(text="keep one", kind="preference"))
    gone = store.remember(Candidate(text="forget me please", kind="preference"))
    store.remember(Candidate(text="keep two", kind="preference"))
    before = (root / "me.md").read_bytes().splitlines(keepends=True)
    result = store.forget(gone.ref or "", origin="tui", task="t-1")
    assert result.action is Action.FORGOTTEN
    after = (root / "me.md").read_bytes().splitlines(keepends=True)
    number = int((gone.ref or "").rsplit("#L", 1)[1])
    assert after == before[: number - 1] + before[number:]
    top = store.log(limit=1)[0]
    assert top.id == result.commit
    assert top.summary == "Forget: forget me please"
    assert (top.origin, top.task) == ("tui", "t-1")
    assert changed_files(root) == ["me.md"]
    assert porcelain(root) == ""


@pytest.mark.parametrize(
    ("ref", "words"),
    [
        ("repo:me.md#L1", "not an entry"),  # the heading
        ("repo:me.md#L2", "not an entry"),  # a blank line
        ("repo:me.md#L99", "not an entry"),  # stale: past the end
        ("repo:nothere.md#L1", "no file"),
        ("repo:../outside.md#L1", "climbs out"),
        ("repo:.git/config#L1", ".git"),
        ("repo:/etc/passwd#L1", "not a path"),
        ("me.md:3", "not an entry ref"),
    ],
)
def test_forget_refuses_non_entries_and_bad_refs(store: MemoryStore, ref: str, words: str) -> None:
    head = store.head()
    me = (store.root / "me.md").read_bytes()
    with pytest.raises(RefError, match=words):
        store.forget(ref)
    assert store.head() == head
    assert (store.root / "me.md").read_bytes() == me


def test_forget_refuses_a_line_inside_fenced_code(store: MemoryStore) -> None:
    (store.root / "lessons.md").write_text("# Lessons\n\n```\n- not an entry\n```\n- an entry\n")
    commit_by_hand(store.root)
    with pytest.raises(RefError):
        store.forget("repo:lessons.md#L4")
    store.forget("repo:lessons.md#L6")
    assert (store.root / "lessons.md").read_text() == "# Lessons\n\n```\n- not an entry\n```\n"


# -- symlinks and bytes ---------------------------------------------------------------


def test_a_symlinked_file_is_never_written_through(store: MemoryStore, tmp_path: Path) -> None:
    root = store.root
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"# not memory\n")
    (root / "me.md").unlink()
    (root / "me.md").symlink_to(outside)
    with pytest.raises(MemrepoError, match="symlink"):
        store.remember(Candidate(text="through the link", kind="preference"))
    assert outside.read_bytes() == b"# not memory\n"
    assert (root / "me.md").is_symlink()


def test_a_tracked_symlinked_folder_is_never_written_through(store: MemoryStore, tmp_path: Path) -> None:
    # A folder symlink committed with plain git: the status is clean, but a
    # write (forget) into it would land outside the memory repo.
    root = store.root
    outside = tmp_path / "elsewhere"
    (outside / "sub").mkdir(parents=True)
    (outside / "sub" / "notes.md").write_bytes(b"# outside\n\n- secret entry\n")
    (root / "topics").symlink_to(outside, target_is_directory=True)
    commit_by_hand(root)
    with pytest.raises(MemrepoError, match="symlink"):
        store.forget("repo:topics/sub/notes.md#L3")
    assert (outside / "sub" / "notes.md").read_bytes() == b"# outside\n\n- secret entry\n"


def test_read_file_never_follows_a_symlink_out(store: MemoryStore, tmp_path: Path) -> None:
    root = store.root
    outside = tmp_path / "private"
    outside.mkdir()
    (outside / "keys.md").write_text("- secret entry\n")
    (root / "linked.md").symlink_to(outside / "keys.md")
    (root / "topics").symlink_to(outside, target_is_directory=True)
    for path in ("linked.md", "topics/keys.md"):
        view = store.read_file(path)
        assert view.text is None and view.entries == [], path
        assert "symlink" in (view.error or ""), path
    # A real folder is read as usual.
    (root / "notes").mkdir()
    (root / "notes" / "a.md").write_text("- fine\n")
    assert [e.text for e in store.read_file("notes/a.md").entries] == ["fine"]


def test_atomic_write_refuses_every_symlinked_folder_below_the_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    outside = tmp_path / "outside"
    (outside / "b").mkdir(parents=True)
    root.mkdir()
    (root / "a").symlink_to(outside, target_is_directory=True)
    with pytest.raises(MemrepoError, match="symlink"):
        atomic_write(root / "a" / "b" / "c.md", b"x", root)
    with pytest.raises(MemrepoError, match="symlink"):
        atomic_write(root / "a" / "c.md", b"x")
    assert list(outside.rglob("*")) == [outside / "b"]
    # Real folders are created and written; no temp file is left behind.
    atomic_write(root / "x" / "y" / "z.md", b"data", root)
    assert (root / "x" / "y" / "z.md").read_bytes() == b"data"
    assert sorted(p.name for p in (root / "x" / "y").iterdir()) == ["z.md"]


def test_crlf_and_bom_survive_a_write(store: MemoryStore) -> None:
    root = store.root
    original = fmt.BOM + b"# About me\r\n\r\n- first [by: user]\r\nnotes \t\r\n"
    (root / "me.md").write_bytes(original)
    commit_by_hand(root)
    result = store.remember(Candidate(text="second entry", kind="preference"))
    data = (root / "me.md").read_bytes()
    lines = data.split(b"\r\n")
    assert data.startswith(fmt.BOM + b"# About me\r\n\r\n- first [by: user]\r\n")
    assert lines[3].startswith(b"- second entry [by: agent;")
    assert data.endswith(b"\r\nnotes \t\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert data.replace(lines[3] + b"\r\n", b"", 1) == original
    assert result.ref == "repo:me.md#L4"
    # And forgetting it gives the original bytes back.
    store.forget(result.ref)
    assert (root / "me.md").read_bytes() == original


def test_a_file_without_final_newline_keeps_its_bytes(store: MemoryStore) -> None:
    root = store.root
    original = b"# Lessons\n\n- last line without newline"
    (root / "lessons.md").write_bytes(original)
    commit_by_hand(root)
    store.remember(Candidate(text="appended lesson", kind="lesson"))
    data = (root / "lessons.md").read_bytes()
    assert data.startswith(original + b"\n- appended lesson [by: agent;")
    assert not data.endswith(b"\n")


# -- a race between writers ----------------------------------------------------------


def test_a_same_named_workspace_made_while_waiting_for_the_lock_is_not_mixed_up(
    repo_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Writer B routes its candidate, then waits for the lock while writer A
    # (another process) creates a workspace file with the same slug. B must
    # not append its entry to A's workspace file.
    a = MemoryStore.open(repo_path, plain_settings())
    b = MemoryStore.open(repo_path, plain_settings())
    real_hold = b.lock.hold

    @contextmanager
    def hold_after_another_writer(purpose: str) -> Iterator[None]:
        a.remember(Candidate(text="fact of A", scope="workspace", workspace="/a/proj"))
        with real_hold(purpose):
            yield

    monkeypatch.setattr(b.lock, "hold", hold_after_another_writer)
    result = b.remember(Candidate(text="fact of B", scope="workspace", workspace="/b/proj"))
    assert result.action is Action.ADDED
    files = {}
    for name in ("proj.md", "proj-2.md"):
        view = b.read_file(f"workspaces/{name}")
        files[view.entries[0].meta["workspace"]] = [e.text for e in view.entries[1:]]
    assert files == {
        workspace_id("/a/proj"): ["fact of A"],
        workspace_id("/b/proj"): ["fact of B"],
    }
    assert result.path == "workspaces/proj-2.md"


def test_kept_writes_survive_a_new_process_and_apply_pending_applies_them(repo_path: Path) -> None:
    store = MemoryStore.open(repo_path, plain_settings())
    git(repo_path, "checkout", "-q", "--detach", "HEAD")
    with pytest.raises(BlockedError, match="kept"):
        store.remember(Candidate(text="Written while detached", kind="preference"))
    with pytest.raises(BlockedError):
        MemoryStore.open(repo_path, plain_settings()).apply_pending()  # still blocked: stays queued
    git(repo_path, "checkout", "-q", "main")
    reopened = MemoryStore.open(repo_path, plain_settings())  # another process, later
    results = reopened.apply_pending()
    assert [r.action for r in results] == [Action.ADDED]
    assert "Written while detached" in (repo_path / "me.md").read_text()
    assert reopened.pending() == [] and porcelain(repo_path) == ""


def test_a_kept_write_never_holds_a_secret(repo_path: Path) -> None:
    store = MemoryStore.open(repo_path, plain_settings())
    token = "ghp_" + "A1b2C3d4" * 4 + "Zz9y"
    (repo_path / ".git" / "index.lock").write_text("")
    with pytest.raises(BlockedError):
        store.remember(Candidate(text=f"CI pushes with token {token}"))
    kept = b"".join(p.read_bytes() for p in (repo_path / ".git" / "memrepo").rglob("*") if p.is_file())
    assert token.encode() not in kept and b"[REDACTED:github-token]" in kept


def test_a_write_during_a_real_merge_is_kept_and_applied_after_it(repo_path: Path) -> None:
    store = MemoryStore.open(repo_path, plain_settings())
    merge_conflict(repo_path)
    with pytest.raises(BlockedError, match="merge"):
        store.remember(Candidate(text="Learned during the merge", kind="lesson"))
    assert "Learned during the merge" not in (repo_path / "lessons.md").read_text()
    git(repo_path, "merge", "--abort")
    store.remember(Candidate(text="Written after the merge", kind="lesson"))
    lessons = (repo_path / "lessons.md").read_text()
    assert "Learned during the merge" in lessons and "Written after the merge" in lessons
    assert porcelain(repo_path) == ""
