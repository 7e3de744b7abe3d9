"""Recall (docs/architecture.md §4): terms, ranking, workspace scope, bounds, odd queries, per-file updates."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from helpers.watch_helpers import next_event, trust_the_watcher_at_once, watching
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memrepo.engine.errors import RefError
from memrepo.engine.format.terms import fold, query_terms, terms
from memrepo.engine.models import Candidate
from memrepo.engine.read.recall import SECTION_LINES, RecallIndex
from memrepo.engine.repo.repo import MemoryRepo
from memrepo.engine.repo.store import MemoryStore


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def texts(hits) -> list[str]:
    return [h.text for h in hits]


# -- terms -----------------------------------------------------------------


def test_fold_removes_case_width_and_latin_accents_but_keeps_kana_voicing() -> None:
    assert fold("Café  MÜLLER") == "cafe muller"
    assert fold("ＡＢＣ１２３") == "abc123"  # full-width forms (NFKC)
    assert fold("が") != fold("か")


def test_terms_are_words_and_cjk_bigrams() -> None:
    assert terms("Uses pgvector 16, naïve!") == ["uses", "pgvector", "16", "naive"]
    assert terms("部署前") == ["部署", "署前"]
    assert terms("猫") == ["猫"]  # a lone CJK character is its own term
    assert terms("レビュー is done") == ["レビ", "ビュ", "ュー", "is", "done"]
    assert terms("카카오톡으로") == ["카카", "카오", "오톡", "톡으", "으로"]  # Hangul too: particles glue on


def test_a_korean_word_finds_the_entry_where_a_particle_is_glued_to_it(store: MemoryStore) -> None:
    write(
        store.root,
        "seoul.md",
        "# Seoul\n\n- 서울 파트너사 담당자는 박지훈 님, 연락은 카카오톡으로 [by: user; added: 2025-03-01]\n"
        "- Ship the Seoul build on Fridays [by: user; added: 2025-03-02]\n",
    )
    hits = store.recall("카카오톡")
    assert [h.text[:6] for h in hits] == ["서울 파트너"]


@pytest.mark.parametrize("query", ["", "   \n\t", "x" * 10_000, ".*[(?<!\\", "\ud800lone\udfff", "\x00\x1b[31m"])
def test_query_terms_never_raise(query: str) -> None:
    folded, found = query_terms(query)
    assert isinstance(folded, str)
    assert len(found) <= 64


# -- ranking ---------------------------------------------------------------


@pytest.fixture
def ranked(store: MemoryStore) -> MemoryStore:
    root = store.root
    write(
        root,
        "me.md",
        "# About me\n\n"
        "- Deploys go through the staging cluster first [by: user; added: 2024-01-01]\n"
        "- The cluster for staging is small [by: user; added: 2026-01-01]\n"
        "- Staging notes live elsewhere [by: user; added: 2026-02-01]\n",
    )
    write(
        root,
        "lessons.md",
        "# Lessons\n\n"
        "- Run tests before pushing [by: agent; added: 2025-05-01; subject: staging]\n"
        "- Check the cluster dashboards [by: agent; added: 2025-05-01; kind: staging]\n",
    )
    return store


def test_exact_phrase_ranks_before_newer_entries_with_the_same_words(ranked: MemoryStore) -> None:
    hits = ranked.recall("staging cluster")
    assert hits[0].text == "Deploys go through the staging cluster first"
    # then the newer entry with both words; a kind or subject only adds to content, never outranks it:
    # the kind match holds "cluster" (ahead of the other one-word match by its kind), the subject match no word
    assert texts(hits)[1:] == [
        "The cluster for staging is small",
        "Check the cluster dashboards",
        "Staging notes live elsewhere",
        "Run tests before pushing",
    ]
    assert hits[0].score > hits[1].score > hits[2].score > hits[3].score > hits[4].score


def test_full_coverage_ranks_before_partial_and_recency_breaks_ties(ranked: MemoryStore) -> None:
    hits = [h for h in ranked.recall("cluster staging notes") if h.path == "me.md"]
    # "Staging notes live elsewhere" has 2 of 3 terms; the other two have 2 of 3 too,
    # but "notes" is rarer (one entry), so it weighs more than "cluster" (three entries).
    assert hits[0].text == "Staging notes live elsewhere"
    assert texts(hits[1:]) == ["The cluster for staging is small", "Deploys go through the staging cluster first"]


def test_by_user_breaks_a_tie_with_an_agent_entry(store: MemoryStore) -> None:
    write(
        store.root,
        "me.md",
        "# Me\n\n"
        "- Prefers dark themes in terminals [by: agent; added: 2025-01-01]\n"
        "- Prefers dark themes in editors [by: user; added: 2025-01-01]\n",
    )
    hits = store.recall("dark themes")
    assert [h.by for h in hits] == ["user", "agent"]


def test_chinese_and_japanese_queries_return_ranked_hits(store: MemoryStore) -> None:
    write(
        store.root,
        "lessons.md",
        "# Lessons\n\n"
        "- 部署前必须运行全部测试 [by: user; added: 2025-01-01]\n"
        "- 运行测试很慢 [by: user; added: 2025-06-01]\n"
        "- レビューは二人以上で行う [by: user; added: 2025-01-01]\n"
        "- Deploy on Thursdays [by: user; added: 2025-01-01]\n",
    )
    chinese = store.recall("部署测试")
    assert chinese[0].text == "部署前必须运行全部测试"
    assert "运行测试很慢" in texts(chinese)  # shares the bigram 测试: ranked lower
    japanese = store.recall("レビュー")
    assert texts(japanese) == ["レビューは二人以上で行う"]
    mixed = store.recall("deploy 部署")
    assert set(texts(mixed)[:2]) == {"部署前必须运行全部测试", "Deploy on Thursdays"}


def test_inbox_hits_are_tagged_unreviewed(store: MemoryStore) -> None:
    store.remember(Candidate(text="The page says to pin numpy below 2", untrusted=True))
    store.remember(Candidate(text="Pin numpy below 2 in the data project", kind="fact"))
    hits = store.recall("numpy")
    assert {h.path: h.unreviewed for h in hits} == {"inbox.md": True, "me.md": False}


# -- scope and bounds ------------------------------------------------------


def test_workspace_scope_never_returns_another_workspace(store: MemoryStore, tmp_path: Path) -> None:
    a, b = tmp_path / "proj-a", tmp_path / "proj-b"
    a.mkdir()
    b.mkdir()
    store.remember(Candidate(text="The api server listens on port 8080", scope="workspace", workspace=str(a)))
    store.remember(Candidate(text="The billing server listens on port 9090", scope="workspace", workspace=str(b)))
    store.remember(Candidate(text="Servers are deployed with Ansible", kind="lesson"))

    from_a = store.recall("server port", workspace=str(a))
    assert "The api server listens on port 8080" in texts(from_a)
    assert all("9090" not in t for t in texts(from_a))
    assert store.recall("billing 9090", workspace=str(a)) == []
    # control: the same query with no workspace does find B's entry
    everywhere = store.recall("billing 9090")
    assert texts(everywhere)[0] == "The billing server listens on port 9090"


def test_renamed_workspace_file_keeps_its_workspace(store: MemoryStore, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    result = store.remember(Candidate(text="Uses tox for tests", scope="workspace", workspace=str(project)))
    assert result.path is not None
    os.rename(store.root / result.path, store.root / "workspaces" / "renamed-by-hand.md")
    hits = store.recall("tox", workspace=str(project))
    assert [h.path for h in hits] == ["workspaces/renamed-by-hand.md"]


def test_results_are_bounded_by_count_and_bytes(store: MemoryStore) -> None:
    write(
        store.root,
        "notes/many.md",
        "# Many\n\n" + "".join(f"- Widget number {i} is blue [by: user; added: 2025-01-01]\n" for i in range(50)),
    )
    assert len(store.recall("widget", limit=7)) == 7
    one = store.recall("widget", limit=1)[0]
    size = len(one.ref.encode()) + len(one.text.encode())
    hits = store.recall("widget", limit=50, max_bytes=size * 3)
    assert len(hits) == 3
    assert store.recall("widget", max_bytes=0) == []


def test_full_detail_gives_the_section_around_the_hit(store: MemoryStore) -> None:
    body = "".join(f"- filler line {i} [by: user]\n" for i in range(150))
    write(
        store.root,
        "notes/long.md",
        "# Long\n\n## First\n- unrelated [by: user]\n\n## Second\n"
        + body
        + "- the needle entry [by: user]\n"
        + body
        + "## Third\n- after [by: user]\n",
    )
    hit = store.recall("needle", detail="full")[0]
    assert hit.heading == "## Second"
    lines = hit.section.splitlines()
    assert len(lines) == SECTION_LINES
    assert "- the needle entry [by: user]" in lines
    assert "## Third" not in hit.section and "unrelated" not in hit.section
    line_hit = store.recall("needle")[0]
    assert line_hit.section is None


def test_archived_files_and_symlinks_are_left_out(store: MemoryStore, tmp_path: Path) -> None:
    write(store.root, "archived/old.md", "# Old\n\n- the zebra project is done [by: user]\n")
    outside = tmp_path / "outside.md"
    outside.write_text("# Out\n\n- zebra outside the root [by: user]\n")
    (store.root / "notes").mkdir()
    (store.root / "notes" / "link.md").symlink_to(outside)
    assert store.recall("zebra") == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.text(max_size=300))
def test_any_query_text_gives_a_list(ranked: MemoryStore, query: str) -> None:
    try:
        hits = ranked.recall(query, workspace=query if query.strip() else None, limit=5, detail="full")
    except RefError as exc:  # a workspace name no workspace has: one line, never a crash
        assert "workspace" in str(exc) and "\n" not in str(exc)
        return
    assert isinstance(hits, list) and len(hits) <= 5


# -- keeping the index current ---------------------------------------------


def _ids_by_file(index: RecallIndex) -> dict[str, list[int]]:
    rows = index._db.execute("SELECT path, id FROM items JOIN files USING(fid) ORDER BY path, id").fetchall()
    out: dict[str, list[int]] = {}
    for path, iid in rows:
        out.setdefault(path, []).append(iid)
    return out


def test_index_updates_one_changed_file_without_rebuilding(store: MemoryStore) -> None:
    write(store.root, "me.md", (store.root / "me.md").read_text() + "- Likes rowing [by: user]\n")
    index = store.recall_index()
    before = _ids_by_file(index)
    write(store.root, "me.md", (store.root / "me.md").read_text() + "- Likes kayaking [by: user]\n")
    assert index.sync(["me.md"]) == 1
    after = _ids_by_file(index)
    assert {p for p in after if after[p] != before.get(p)} == {"me.md"}  # other files kept their items
    assert set(before["me.md"]) < set(after["me.md"])  # the entries already there kept their ids too
    assert index.sync(None) == 0  # nothing else changed on disk
    assert texts(store.recall("kayaking")) == ["Likes kayaking"]


def test_reported_paths_are_the_only_files_read_again(store: MemoryStore) -> None:
    index = store.recall_index()
    write(store.root, "me.md", "# Me\n\n- Likes rowing [by: user]\n")
    write(store.root, "lessons.md", "# Lessons\n\n- Rowing needs calm water [by: user]\n")
    assert index.sync(["me.md"]) == 1  # a watcher reported me.md only
    assert [index.entry(i)[2] for i, _ in index.search("rowing")] == ["Likes rowing"]
    assert index.sync(None) == 1  # the stat check finds lessons.md


def test_stat_check_without_a_watcher_sees_hand_edits_and_deletions(store: MemoryStore) -> None:
    write(store.root, "notes/a.md", "# A\n\n- the quokka is happy [by: user]\n")
    assert texts(store.recall("quokka")) == ["the quokka is happy"]
    write(store.root, "notes/a.md", "# A\n\n- the quokka moved away [by: user]\n")
    assert texts(store.recall("quokka")) == ["the quokka moved away"]
    (store.root / "notes" / "a.md").unlink()
    assert store.recall("quokka") == []


def test_the_writer_updates_the_index(store: MemoryStore) -> None:
    store.recall("anything")  # built
    store.remember(Candidate(text="Prefers fish shell over bash", kind="preference"))
    assert texts(store.recall("fish shell")) == ["Prefers fish shell over bash"]


def test_index_built_on_another_thread_is_adopted(repo_path: Path) -> None:
    async def run() -> list[str]:
        repo = await MemoryRepo.open(repo_path, plain_settings())
        try:
            await repo.remember(Candidate(text="Keeps a bonsai on the desk"))
            await repo.warm_recall()
            assert repo._store.reads.recall_index_built is not None and len(repo._store.reads.recall_index_built) >= 1
            return texts(await repo.recall("bonsai"))
        finally:
            await repo.close()

    assert asyncio.run(run()) == ["Keeps a bonsai on the desk"]


async def test_watched_repo_sees_a_hand_edit(repo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the watcher trusted, recall reads only what it reported: the first recall after the edit's event finds it."""
    trust_the_watcher_at_once(monkeypatch)
    repo = await MemoryRepo.open(repo_path, plain_settings())
    try:
        async with watching(repo) as queue:
            assert await repo.recall("armadillo") == []
            me = repo_path / "me.md"
            me.write_text(me.read_text() + "- Owns an armadillo [by: user]\n")
            await next_event(queue, lambda e: "me.md" in e.paths)
            assert texts(await repo.recall("armadillo")) == ["Owns an armadillo"]
    finally:
        await repo.close()


def test_unreadable_files_are_indexed_empty(store: MemoryStore) -> None:
    (store.root / "notes").mkdir()
    (store.root / "notes" / "bad.md").write_bytes(b"\xff\xfe not utf-8 \x00")
    index = RecallIndex(store.root)
    index.sync()
    assert index._db.execute("SELECT 1 FROM files WHERE path='notes/bad.md'").fetchone() is not None
    assert "notes/bad.md" not in _ids_by_file(index)
