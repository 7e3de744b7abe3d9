"""The persisted recall index (docs/architecture.md §4): the same ranked results as posting sets built fresh.

The oracle (``helpers.recall_oracle``) builds every posting list again from
the files, in memory, and ranks by the same rule; the persisted one is built, reopened by a new instance
(as a new process would) and updated in place through edits, and every
query's ranked refs and sort keys must be the same.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from helpers.recall_oracle import RecallIndex as Oracle

from memrepo.engine.read.recall import RecallIndex, index_path

SUBJECTS = ["deploy", "tests", "release", "database", "billing", "auth", "ci", "docs", "cache", "queue"]
VERBS = ["prefers", "uses", "avoids", "requires", "runs", "keeps"]
OBJECTS = [
    "pnpm over npm",
    "pytest -x before pushing",
    "rebase instead of merge",
    "Postgres 16 with pgvector",
    "ruff format on save",
    "the blue-green deploy script",
    "Café au lait at the stand-up",
]
CJK = [
    "用户喜欢简洁的回答",
    "部署前必须运行全部测试",
    "数据库迁移需要人工审核",
    "テストは並列で実行する",
    "缓存失效时间为五分钟",
]
KINDS = ["preference", "lesson", "fact", "deploy"]
WORDS = [
    "team",
    "prefers",
    "pgvector",
    "deploy",
    "tests",
    "postgres 16",
    "blue-green deploy",
    "pnpm over npm",
    "部署",
    "部署前",
    "测试",
    "用户",
    "テスト",
    "item",
    "ci",
    "docs",
    "unicorn",
    "deploy unicorn",
    "ruff format on save",
    "cafe",
    "CAFÉ au lait",
    "billing auth",
    "lesson",
    "fact tests",
    "for queue (item",
    "缓存失效",
]
WS_IDS = [f"ws-{i:08d}" for i in range(4)]


def _entry(rng: random.Random, n: int) -> str:
    if rng.random() < 0.12:
        text = rng.choice(CJK) + f"（{rng.choice(SUBJECTS)}-{n}）"
    else:
        text = f"Team {rng.choice(VERBS)} {rng.choice(OBJECTS)} for {rng.choice(SUBJECTS)} (item {n})"
    meta = [f"by: {rng.choice(['user', 'agent'])}"]
    if rng.random() < 0.9:  # few distinct days: many ties of rank, broken by path and line
        meta.append(f"added: 2025-0{rng.randint(1, 3)}-0{rng.randint(1, 4)}")
    if rng.random() < 0.25:
        meta.append(f"subject: {rng.choice([*SUBJECTS, 'deploy tests', 'blue-green deploy'])}")
    if rng.random() < 0.15:
        meta.append(f"kind: {rng.choice(KINDS)}")
    if rng.random() < 0.08:
        meta.append(f"workspace: {rng.choice(WS_IDS)}")
    return f"- {text} [{'; '.join(meta)}]"


def _corpus(root: Path, rng: random.Random, files: int = 40, entries: int = 25) -> None:
    n = 0
    for f in range(files):
        rel = ["me.md", "inbox.md"][f] if f < 2 else (f"workspaces/p{f}.md" if f % 2 else f"topics/t{f}.md")
        lines = [f"# {rel}", ""]
        if rel.startswith("workspaces/"):
            lines.append(f"- p{f} workspace [workspace: {WS_IDS[f % len(WS_IDS)]}; by: user]")
        for _ in range(entries):
            n += 1
            lines.append(_entry(rng, n))
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _queries(rng: random.Random, count: int) -> list[str]:
    queries = list(WORDS)
    while len(queries) < count:
        queries.append(" ".join(rng.sample(WORDS, rng.randint(1, 3))))
    return queries


SCOPES = [
    {},
    {"scoped": True, "workspace_file": "workspaces/p3.md", "workspace_id": WS_IDS[3]},
    {"scoped": True, "workspace_file": None, "workspace_id": WS_IDS[1]},
]


def _compare(index: RecallIndex, oracle: Oracle, queries: list[str]) -> int:
    compared = 0
    for query in queries:
        for scope in SCOPES:
            for limit in (10, 3):
                got = [(index.entry(i)[:2], key) for i, key in index.search(query, limit=limit, **scope)]
                want = [
                    ((oracle._items[i].path, oracle._items[i].line), key)
                    for i, key in oracle.search(query, limit=limit, **scope)
                ]
                assert got == want, (query, scope, limit)
                compared += 1
    return compared


def _oracle(root: Path) -> Oracle:
    oracle = Oracle(root)
    oracle.sync()
    return oracle


def test_same_ranked_results_as_the_in_memory_index(tmp_path: Path) -> None:
    rng = random.Random(18)
    _corpus(tmp_path, rng)
    queries = _queries(rng, 150)  # 150 random mixes over 1,000+ entries (300 took 80 s of a loaded CI worker)
    built = RecallIndex(tmp_path)
    built.sync()
    built.close()
    reopened = RecallIndex(tmp_path)  # as a new process: opens the file, builds nothing
    assert reopened.built and reopened.sync() == 0
    oracle = _oracle(tmp_path)
    assert len(reopened) == len(oracle) > 1000
    assert _compare(reopened, oracle, queries) == 150 * len(SCOPES) * 2
    # Non-empty results were compared, not only empty lists (some random word mixes, "unicorn item",
    # fall under the confidence minimum and rightly get nothing).
    assert sum(bool(reopened.search(q)) for q in queries) > 100


def test_same_ranked_results_after_edits_applied_in_place(tmp_path: Path) -> None:
    rng = random.Random(7)
    _corpus(tmp_path, rng, files=20)
    index = RecallIndex(tmp_path)
    index.sync()
    queries = _queries(rng, 120)
    # Hand edits of every kind: an entry appended, lines moved, entries removed, a file deleted, one added.
    me = tmp_path / "me.md"
    me.write_text(me.read_text(encoding="utf-8") + _entry(rng, 9001) + "\n", encoding="utf-8")
    topic = tmp_path / "topics" / "t4.md"
    lines = topic.read_text(encoding="utf-8").splitlines()
    topic.write_text("\n".join(lines[:2] + lines[2:][::-1][3:]) + "\n", encoding="utf-8")
    (tmp_path / "workspaces" / "p5.md").unlink()
    _corpus(tmp_path / "new", rng, files=3)
    assert index.sync(["me.md"]) == 1  # a reported path: that file alone
    assert index.sync(None) >= 3  # the stat check finds the rest
    _compare(index, _oracle(tmp_path), queries)


def test_an_entry_that_only_moves_keeps_its_postings(tmp_path: Path) -> None:
    (tmp_path / "me.md").write_text("# Me\n\n- Likes rowing [by: user]\n- Likes chess [by: user]\n")
    index = RecallIndex(tmp_path)
    index.sync()
    before = dict(index._db.execute("SELECT key, ids FROM post"))
    (tmp_path / "me.md").write_text("# Me\n\n- Likes chess [by: user]\n\n- Likes rowing [by: user]\n")
    assert index.sync(["me.md"]) == 1
    assert dict(index._db.execute("SELECT key, ids FROM post")) == before
    assert [index.entry(i) for i, _ in index.search("rowing")] == [("me.md", 5, "Likes rowing")]


def test_the_index_lives_under_git_memrepo(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "me.md").write_text("# Me\n\n- Likes rowing [by: user]\n")
    index = RecallIndex(tmp_path)
    index.sync()
    assert index.path == str(index_path(tmp_path)) == str(tmp_path / ".git" / "memrepo" / "recall.sqlite")
    assert Path(index.path).is_file()


def test_an_unwritable_place_falls_back_to_memory(tmp_path: Path) -> None:
    (tmp_path / ".git").write_text("gitdir: elsewhere\n")  # a file: no folder can be made under it
    (tmp_path / "me.md").write_text("# Me\n\n- Likes rowing [by: user]\n")
    index = RecallIndex(tmp_path)
    index.sync()
    assert index.path == ":memory:"
    assert [index.entry(i)[2] for i, _ in index.search("rowing")] == ["Likes rowing"]


@pytest.mark.parametrize("damage", ["not a database", "other version"])
def test_a_damaged_or_older_index_is_rebuilt(tmp_path: Path, damage: str) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "me.md").write_text("# Me\n\n- Likes rowing [by: user]\n")
    path = index_path(tmp_path)
    path.parent.mkdir(parents=True)
    if damage == "not a database":
        path.write_bytes(b"garbage" * 1000)
    else:
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE info(k TEXT PRIMARY KEY, v)")
        db.execute("INSERT INTO info VALUES('version', '0')")
        db.commit()
        db.close()
    index = RecallIndex(tmp_path)
    index.sync()
    assert index.path == str(path)
    assert [index.entry(i)[2] for i, _ in index.search("rowing")] == ["Likes rowing"]


def test_an_index_another_process_holds_past_the_timeout_is_never_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A busy file is in use, not broken: deleting it left its holder writing to an unlinked file (the soak found it)."""
    from memrepo.engine.read import recallkeys, recallopen

    (tmp_path / ".git").mkdir()
    (tmp_path / "me.md").write_text("# Me\n\n- Likes rowing [by: user]\n")
    first = RecallIndex(tmp_path)
    first.sync()
    path = index_path(tmp_path)
    inode = path.stat().st_ino
    first.close()

    monkeypatch.setattr(recallkeys, "BUSY_TIMEOUT_S", 0.05)  # the real 30 s, cut for the test
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process's write, held past the timeout
    try:
        db, used = recallopen.open_index_file(str(path))
        db.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert used == ":memory:"  # this process answers from its own index meanwhile
    assert path.stat().st_ino == inode  # the holder's file is still there, the same file
    again = RecallIndex(tmp_path)
    again.sync()
    assert again.path == str(path)
    assert [again.entry(i)[2] for i, _ in again.search("rowing")] == ["Likes rowing"]
    again.close()


def test_a_first_build_runs_in_a_detached_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's warm-up and the MCP server open the index through open_index: the build holds no GIL of theirs,
    and runs in a session of its own, so it outlives them (breaker5 B5-1)."""
    import os

    from memrepo.engine.format import entries as entryformat
    from memrepo.engine.read import recallfile
    from memrepo.engine.read.recallfile import open_index

    (tmp_path / ".git").mkdir()
    _corpus(tmp_path, random.Random(3), files=6)
    started: list[int] = []
    real_spawn = recallfile.spawn_build

    def spawn(root: Path) -> object:
        child = real_spawn(root)
        started.append(child.pid)
        return child

    parsed_here: list[str] = []
    real_parse = entryformat.parse
    monkeypatch.setattr(recallfile, "spawn_build", spawn)
    monkeypatch.setattr(recallfile, "DETACHED_BUILD_FILES", 6)  # as if it were a large repo
    monkeypatch.setattr(
        entryformat,
        "parse",
        lambda data, path="<memory>", **kw: parsed_here.append(path) or real_parse(data, path, **kw),
    )
    index = open_index(tmp_path)
    assert len(started) == 1  # a fresh interpreter built it
    assert parsed_here == []  # no file was read in this process
    assert index.built and len(index) == len(_oracle(tmp_path))
    started.clear()
    open_index(tmp_path)
    assert started == []  # built once: later opens start no process
    small = tmp_path / "small"
    (small / ".git").mkdir(parents=True)
    _corpus(small, random.Random(4), files=5)
    assert open_index(small).built and started == []  # fewer files than that: built here, no process
    child = recallfile.spawn_build(small)
    try:
        assert os.getsid(child.pid) == child.pid != os.getsid(0)  # a session of its own: a killed group spares it
    finally:
        child.wait()


def test_a_file_touched_but_not_changed_is_not_parsed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from memrepo.engine.format import entries as entryformat

    (tmp_path / "me.md").write_text("# Me\n\n- Likes rowing [by: user]\n")
    index = RecallIndex(tmp_path)
    index.sync()
    st = (tmp_path / "me.md").stat()
    os.utime(tmp_path / "me.md", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # a checkout or a copy
    parsed: list[str] = []
    real = entryformat.parse
    monkeypatch.setattr(
        entryformat, "parse", lambda data, path="<memory>", **kw: parsed.append(path) or real(data, path, **kw)
    )
    assert index.sync() == 0 and parsed == []
    (tmp_path / "me.md").write_text("# Me\n\n- Likes kayaking [by: user]\n")  # new bytes
    os.utime(tmp_path / "me.md", ns=(st.st_atime_ns, st.st_mtime_ns + 2 * 10**9))
    assert index.sync() == 1 and parsed == ["me.md"]
    assert [index.entry(i)[2] for i, _ in index.search("kayaking")] == ["Likes kayaking"]


def test_posting_lists_remembered_in_memory_follow_another_process(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "me.md").write_text("# Me\n\n- Likes rowing [by: user]\n")
    app, cli = RecallIndex(tmp_path), RecallIndex(tmp_path)  # two processes' connections to one file
    app.sync()
    assert [app.entry(i)[2] for i, _ in app.search("rowing")] == ["Likes rowing"]  # now remembered
    (tmp_path / "me.md").write_text("# Me\n\n- Likes rowing [by: user]\n- Rowing at dawn [by: user]\n")
    assert cli.sync() == 1
    assert sorted(app.entry(i)[2] for i, _ in app.search("rowing")) == ["Likes rowing", "Rowing at dawn"]
    (tmp_path / "me.md").write_text("# Me\n\n- Rowing at dawn [by: user]\n")
    assert app.sync(["me.md"]) == 1  # its own change too
    assert [app.entry(i)[2] for i, _ in app.search("rowing")] == ["Rowing at dawn"]


def _rows_read(index: RecallIndex) -> list[str]:
    statements: list[str] = []
    index._db.set_trace_callback(statements.append)
    return statements


def test_a_new_process_finds_what_changed_from_the_stamps_reading_no_row(tmp_path: Path) -> None:
    rng = random.Random(11)
    _corpus(tmp_path, rng, files=20)
    built = RecallIndex(tmp_path)
    built.sync()
    built.close()
    me = tmp_path / "me.md"
    me.write_text(me.read_text(encoding="utf-8") + _entry(rng, 9001) + "\n", encoding="utf-8")
    (tmp_path / "workspaces" / "p5.md").unlink()
    _corpus(tmp_path / "new", rng, files=3)  # a new folder
    fresh = RecallIndex(tmp_path)
    statements = _rows_read(fresh)
    assert fresh.sync(None) >= 5
    assert not [s for s in statements if "SELECT path, mtime, size FROM files" in s]
    _compare(fresh, _oracle(tmp_path), _queries(rng, 60))


def test_a_touch_applied_outside_a_full_sync_makes_the_next_one_read_the_rows(tmp_path: Path) -> None:
    """The stamps string stands for the rows only as a full sync left them: a touch re-stamps a row, and an
    edit that then puts the first mtime back (``rsync -t`` of an older copy, same size) is still found."""
    import os

    me = tmp_path / "me.md"
    me.write_text("# Me\n\n- Likes rowing [by: user]\n")
    index = RecallIndex(tmp_path)
    index.sync()
    first = me.stat()
    os.utime(me, ns=(first.st_atime_ns, first.st_mtime_ns + 10**9))  # touched: same bytes
    assert index.sync(["me.md"]) == 0
    me.write_text("# Me\n\n- Likes skiing [by: user]\n")  # same size
    os.utime(me, ns=(first.st_atime_ns, first.st_mtime_ns))
    fresh = RecallIndex(tmp_path)
    assert fresh.sync(None) == 1
    assert [fresh.entry(i)[2] for i, _ in fresh.search("skiing")] == ["Likes skiing"]


def test_a_path_with_a_tab_is_still_followed(tmp_path: Path) -> None:
    (tmp_path / "me.md").write_text("# Me\n\n- Likes rowing [by: user]\n")
    odd = tmp_path / "odd\tname.md"
    odd.write_text("- Likes chess [by: user]\n")
    index = RecallIndex(tmp_path)
    index.sync()
    odd.write_text("- Likes checkers and chess [by: user]\n")
    fresh = RecallIndex(tmp_path)
    statements = _rows_read(fresh)
    assert fresh.sync(None) == 1
    assert [s for s in statements if "SELECT path, mtime, size FROM files" in s]  # the lines cannot be split
    assert [fresh.entry(i)[2] for i, _ in fresh.search("checkers")] == ["Likes checkers and chess"]
