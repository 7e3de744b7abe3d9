"""The derived-state registry lists every file memrepo keeps, and forgetting reaches each (docs/architecture.md §5).

Two checks from the outside: every path the engine and the CLI write under
``.git/memrepo/`` matches a registry entry, and a forgotten entry's text is
in no file there afterwards, after it went through recall, the context
block and their caches first.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from helpers.repo_helpers import git, plain_settings

from memrepo.cli.main import main as cli
from memrepo.engine.configpath import ReadKeys
from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.models import Candidate
from memrepo.engine.read import coldrecall
from memrepo.engine.read.coldread import context_text
from memrepo.engine.redaction import allow
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.state import registry, scrub
from memrepo.engine.state.registry import REGISTRY, Event, Fate, Where, unlisted
from memrepo.engine.write import forgotlines

MARKER = "Zyqvox-4417 deploys only from the quartz runner"
"""A planted entry: its words appear nowhere else in a test repo."""


def _state(root: Path) -> Path:
    return root / ".git" / "memrepo"


def _run(root: Path, *args: str, stdin: str | None = None) -> None:
    result = CliRunner().invoke(cli, ["--repo", str(root), *args], input=stdin, catch_exceptions=False)
    assert result.exit_code == 0, result.output


def test_every_acting_fate_has_its_action_and_no_action_is_idle() -> None:
    assert scrub.actions_missing() == []
    names = {d.name: d for d in REGISTRY}
    for name, event in scrub.ACTIONS:
        assert names[name].fate(event) in scrub.ACTING, (name, event)


def test_an_entry_that_can_hold_entry_text_is_reached_by_compaction_or_rebuilt() -> None:
    for d in REGISTRY:
        scratch = d.name.endswith("-journal") or d.name == "compact-pack/"  # gone when their writer ends
        if d.entry_text and d.where is Where.STATE and not scratch:
            fates = {d.fate(Event.COMPACT), d.fate(Event.COMPACTED)}
            assert fates & scrub.ACTING, d.name


def test_unlisted_names_a_file_the_registry_lacks(store: MemoryStore) -> None:
    state = _state(store.root)
    state.mkdir(parents=True, exist_ok=True)
    (state / "surprise.json").write_text("{}")
    (state / "dreams").mkdir(exist_ok=True)
    (state / "dreams" / "nested").mkdir()
    (state / "dreams" / "nested" / "x.json").write_text("{}")
    assert unlisted(state) == ["dreams/nested", "dreams/nested/x.json", "surprise.json"]


def test_every_path_written_under_the_state_folder_is_registered(tmp_path: Path, store: MemoryStore) -> None:
    root = store.root
    project = tmp_path / "project"
    project.mkdir()
    store.remember(Candidate(text="Run the tests before every push", kind="lesson"))
    ws = store.remember(
        Candidate(text="The billing service reads invoices nightly", scope="workspace", workspace=str(project))
    )
    store.recall("billing invoices")
    store.context(str(project))
    coldrecall.recall(root, "invoices")
    context_text(str(root), str(project), ReadKeys())
    allow.add(_state(root), "hunter2-correct-horse-battery", "labelled-secret")
    messages = [{"id": "m1", "role": "user", "text": "we always deploy from main"}]
    _run(root, "checkpoint", "--session", "s1", "--cwd", str(project), stdin=json.dumps(messages))
    payload = {"session_id": "s1", "cwd": str(project), "hook_event_name": "UserPromptSubmit", "prompt": "billing"}
    _run(root, "hook", "prompt", stdin=json.dumps(payload))
    source = tmp_path / "import"
    source.mkdir()
    (source / "CLAUDE.md").write_text("# Notes\n\n- The staging database is read-only\n")
    _run(root, "import", str(source), "--format", "claude")
    Dreamer(store, plain_settings()).run()
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    _run(root, "remote", "set", str(remote), "--yes-private")
    _run(root, "sync")
    store.forget(ws.ref or "")
    store.compact(replace_remote=True)
    _run(root, "health")

    assert unlisted(_state(root)) == []
    assert (_state(root) / "recall.sqlite").is_file()  # the walk saw the state the steps made


def _files_with(folder: Path, needle: bytes) -> list[str]:
    """Files under ``folder`` holding ``needle``: raw, or (the recall index) in its packed entries decoded."""
    from helpers.compact_helpers import index_texts

    def holds(path: Path) -> bool:
        data = path.read_bytes()
        if needle in data:
            return True
        return path.name == "recall.sqlite" and any(needle in chunk for chunk in index_texts(path, data))

    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and holds(p))


def test_a_forgotten_entry_is_in_no_registered_file(tmp_path: Path, store: MemoryStore) -> None:
    root = store.root
    project = tmp_path / "project"
    project.mkdir()
    planted = store.remember(Candidate(text=MARKER, kind="preference"))
    store.remember(Candidate(text="The quartz runner is in the east rack", kind="lesson"))
    assert store.recall("Zyqvox quartz")
    assert MARKER in store.context().text
    assert coldrecall.recall(root, "Zyqvox")  # the persisted index and its shown text
    cold = context_text(str(root), str(project), ReadKeys())  # a kept context block
    assert cold is not None and MARKER in cold
    assert context_text(str(root), None, ReadKeys()) is not None
    state = _state(root)
    before = _files_with(state, b"Zyqvox")
    assert "recall.sqlite" in before and any(p.startswith("context-cache/") for p in before), before

    store.forget(planted.ref or "")

    assert _files_with(state, b"Zyqvox") == []
    assert _files_with(state, b"zyqvox") == []  # folded terms too
    assert unlisted(state) == []
    assert not store.recall("Zyqvox")
    assert MARKER not in store.context().text
    assert not coldrecall.recall(root, "Zyqvox")
    assert "Zyqvox" not in (context_text(str(root), str(project), ReadKeys()) or "")


def test_forgetting_during_a_first_build_leaves_nothing_in_its_committed_batches(store: MemoryStore) -> None:
    """A build (another process) committed batches but was not finished: forget must reach them too."""
    import sqlite3

    from helpers.compact_helpers import traces

    planted = store.remember(Candidate(text=MARKER, kind="preference"))
    store.remember(Candidate(text="The quartz runner is in the east rack", kind="lesson"))
    assert store.recall("Zyqvox quartz")
    store.close()
    db = sqlite3.connect(store.root / ".git" / "memrepo" / "recall.sqlite")
    db.execute("DELETE FROM info WHERE k='built'")  # as a build killed or still running leaves it
    db.commit()
    db.close()
    assert any("recall.sqlite" in t for t in traces(store.root, "Zyqvox"))

    again = MemoryStore.open(store.root, plain_settings())
    again.forget(planted.ref or "")
    again.close()

    assert not [t for t in traces(store.root, "Zyqvox") if "recall.sqlite" in t]


def test_compaction_walks_the_registry(tmp_path: Path, store: MemoryStore) -> None:
    """Compaction reaches the entries whose fate says so: a pending write quoting forgotten text goes."""
    first = store.remember(Candidate(text="Zyqvox pending quote of a forgotten line", kind="lesson"))
    pending = _state(store.root) / "pending"
    pending.mkdir(parents=True, exist_ok=True)
    cand = Candidate(text="Zyqvox pending quote of a forgotten line, again")
    (pending / "0001.json").write_text(cand.model_dump_json())
    store.forget(first.ref or "")
    assert (pending / "0001.json").is_file()  # forget keeps it: the registry says compaction drops it
    assert registry.entry_for("pending/0001.json") is not None
    assert registry.entry_for("pending/0001.json").fate(Event.FORGET) is Fate.KEPT  # type: ignore[union-attr]
    result = store.compact()
    assert not (pending / "0001.json").exists()
    assert result.dropped_pending == 1


def test_every_owner_name_is_registered() -> None:
    """The names the owners spell match an entry (a renamed file fails here before a user sees it)."""
    from memrepo.cli.agent import OFFSETS_FILE
    from memrepo.engine.dreams.files import DREAMS_DIR
    from memrepo.engine.files.lock import HOLDERS
    from memrepo.engine.files.oldlinks import LINKS_DIR
    from memrepo.engine.format.layout import CHECKPOINTS_DIR, PENDING_DIR, SYNC_JOURNAL
    from memrepo.engine.git.checks import HOOKS_NOTICE
    from memrepo.engine.git.measure import DERIVED_STATE
    from memrepo.engine.history.compact import MARKER, PACK_SETTINGS, STAGING
    from memrepo.engine.read import contextcache, readcount, recallkeys, workspacemap
    from memrepo.engine.redaction import allow, memo
    from memrepo.engine.sync.sync import STATE_FILE

    names = [
        OFFSETS_FILE,
        f"{DREAMS_DIR}/x.json",
        *HOLDERS,
        f"{CHECKPOINTS_DIR}/ws-1.json",
        f"{PENDING_DIR}/1.json",
        f"{LINKS_DIR}/64768-1234.old",
        f"{LINKS_DIR}/64768-1234.base",
        SYNC_JOURNAL,
        HOOKS_NOTICE,
        *DERIVED_STATE,
        MARKER,
        f"{PACK_SETTINGS}/.gitconfig",
        f"{STAGING}/pack-1.pack",
        f"{contextcache.FOLDER}/{contextcache.WANTED}",
        contextcache.LOCK,
        readcount.FILE,
        recallkeys.INDEX_FILE,
        workspacemap.MAP_FILE,
        allow.FILE_NAME,
        forgotlines.HASHES_NAME,
        forgotlines.KEY_NAME,
        memo.FILE_NAME,
        STATE_FILE,
    ]
    assert [n for n in names if registry.entry_for(n) is None] == []
    rebuilt = {d.name for d in REGISTRY if d.name.endswith((".sqlite", ".sqlite-journal"))}
    assert rebuilt == DERIVED_STATE  # what git_dir_size leaves out: the files rebuilt from the work tree


def test_the_docs_table_is_the_registry() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "architecture.md").read_text(encoding="utf-8")
    start, end = doc.index(registry.TABLE_START), doc.index(registry.TABLE_END)
    assert doc[start + len(registry.TABLE_START) : end].strip() == registry.markdown_table().strip()
