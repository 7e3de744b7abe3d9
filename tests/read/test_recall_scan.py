"""Recall while the first index build runs (docs/architecture.md §4): a scan of the files answers at once, ranks as
the index does, and the build runs in the background, one at a time, resuming where a killed one stopped."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest
from helpers.console import console
from helpers.repo_helpers import plain_settings

from memrepo.engine.format.stemming import index_term
from memrepo.engine.format.terms import fold, is_cjk, split_folded
from memrepo.engine.read import recall as recall_module
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallbuilding import build_state
from memrepo.engine.read.recallfile import build_index, build_lock, build_running
from memrepo.engine.read.recallkeys import SEQ_MASK, index_path, redacted
from memrepo.engine.read.recallscan import SAFE_CHARS, Scan, term_prefixes
from memrepo.engine.repo.store import MemoryStore

WORDS = [
    "deploy",
    "deploys",
    "billing",
    "queue",
    "cache",
    "postgres",
    "rowing",
    "kayak",
    "tests",
    "happy",
    "部署",
    "测试",
]
GH = "ghp_" + "Ab12Cd34Ef56Gh78Ij90" + "Kl12Mn34Op56Qr78St90"


def _small_repo(tmp_path: Path) -> Path:
    """A repo holding every shape the scan must read as the index does."""
    root = tmp_path / "mem"
    MemoryStore.open(root, plain_settings())
    rng = random.Random(30)
    (root / "me.md").write_text(
        "# Me\n\n"
        "- Søren Kierkegaard reviews the Café deploys [by: user; subject: review]\n"
        f"- The deploy bot uses {GH} for releases [by: user; subject: deploy]\n"
        "- İstanbul office keeps the ＡＰＩ keys rotated [by: agent]\n"
        "* A star bullet about kayak trips [by: user]\n"
        "  - An indented bullet about rowing [by: user]\n"
        "- Herr Müller rents two GPUs and reviews PRs [by: user]\n"
        "- [[lessons]]\n"
        "- An entry with [a citation] in it about queue depth\n"
        "- Kayak club dues, dated twice [added: 2026-01-01; Added : 2024-02-02; by: agent]\n"
        "- Kayak club added: 2027-01-01 in its text [by: user; added: 2023-13-40]\n",
        encoding="utf-8",
    )
    (root / "lessons.md").write_text(
        "---\ntitle: lessons\n---\n# Lessons\n\n## Deploy\n\n- Always run the tests first [by: user]\n"
        "- [[workspaces/billing]] [[topics/cache]]\n\n```\n- a fenced deploy bullet is no entry\n```\n"
        "<!-- - nor is a commented kayak one -->\n- Happy paths hide bugs [by: agent; kind: lesson]\n",
        encoding="utf-8",
    )
    (root / "workspaces").mkdir(exist_ok=True)
    (root / "workspaces" / "billing.md").write_text(
        "# Workspace billing\n\n- Workspace billing [workspace: ws-0000b111; path: /nowhere/billing; by: user]\n"
        + "".join(
            f"- Billing queue {rng.choice(WORDS)} item {n} [by: agent; added: 2025-01-0{n % 9 + 1}]\n"
            for n in range(30)
        ),
        encoding="utf-8",
    )
    (root / "topics").mkdir(exist_ok=True)
    for f in range(8):
        lines = [f"# Topic {f} {rng.choice(WORDS)}", ""]
        for n in range(20):
            words = " ".join(rng.sample(WORDS, 3))
            meta = [f"by: {rng.choice(['user', 'agent'])}", f"added: 2025-0{rng.randint(1, 3)}-0{rng.randint(1, 4)}"]
            if n % 5 == 0:
                meta.append(f"subject: {rng.choice(WORDS)}")
            if n % 9 == 0:
                meta.append("workspace: ws-0000b111")
            lines.append(f"- Note {f}-{n}: {words} [{'; '.join(meta)}]")
            if n == 10:
                lines += ["", "## Later " + rng.choice(WORDS), ""]
        (root / "topics" / f"t{f}.md").write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return root


QUERIES = [
    "deploy",
    "deploying tests",
    "kayak",
    "Soren",
    "cafe",
    "部署",
    "测试 queue",
    "happy",
    "billing queue item 7",
    "api",
    "istanbul",
    "lessons",
    "topic 3",
    "citation",
    "no such words here",
    "ghp",
    "GPU",  # an acronym plural's singular, and an umlaut word's transliteration (.stemming.variant_terms)
    "Mueller PR",
]


@pytest.mark.parametrize("min_confidence", [None, 0.0])
def test_the_scan_and_the_index_give_the_same_hits(tmp_path: Path, min_confidence: float | None) -> None:
    root = _small_repo(tmp_path)
    index = RecallIndex(root)
    index.sync()
    assert len(index) > 150
    answered = 0
    for query in QUERIES:
        for scope in [(None, None, False), ("ws-0000b111", "workspaces/billing.md", True), ("ws-other", None, True)]:
            ws_id, ws_file, scoped = scope
            want = [
                (*index.row(iid)[:2], key[0], key[1])
                for iid, key in index.search(
                    query, workspace_id=ws_id, workspace_file=ws_file, scoped=scoped, min_confidence=min_confidence
                )
            ]
            scan = Scan(root, query, redacted)
            assert scan.entries == len(index)
            found = scan.search(
                query, workspace_id=ws_id, workspace_file=ws_file, scoped=scoped, min_confidence=min_confidence
            )
            got = [
                (scan.items[h.iid & SEQ_MASK].path, scan.items[h.iid & SEQ_MASK].line, h.score, h.confidence)
                for h in found
            ]
            assert got == want, (query, scope)
            floor = index.search(
                query, workspace_id=ws_id, workspace_file=ws_file, scoped=scoped, min_confidence=min_confidence
            ).answer_floor
            assert found.answer_floor == floor, (query, scope)  # what answers, marked alike
            answered += bool(got)
    assert answered >= 20


def test_a_secret_in_a_hit_leaves_redacted(tmp_path: Path) -> None:
    root = _small_repo(tmp_path)
    scan = Scan(root, "releases", redacted)
    found = scan.search("releases")
    path, _line, text, _meta = scan.hit_row(found[0].iid)
    assert path == "me.md" and "REDACTED" in text and GH not in text


def test_every_word_form_holds_a_prefix_of_its_index_term() -> None:
    text = (
        "dying lying tying dies lies ties died hoping hope hoped happy happiness happier skies sky skis relational "
        "organization organizing generously agreed feet news conditional running runs cycling cyclical analysis "
        "analyses crises ugly gently probably capability only early singly idly deploys deployed deploying deployment "
        "go going goes ci cis do doing q2 node18 abilities formality sensitivity hopefulness controlling"
    )
    for word in text.split(" "):
        for token in split_folded(fold(word)):
            term = index_term(token)
            if term is not None:
                assert any(token.startswith(p) for p in term_prefixes(term)), (word, term)


def _ranges(body: str) -> list[str]:
    chars: list[str] = []
    i = 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            chars += [chr(c) for c in range(ord(body[i]), ord(body[i + 2]) + 1)]
            i += 3
        else:
            chars.append(body[i])
            i += 1
    return chars


def test_a_safe_character_folds_to_its_lowercase_or_is_no_part_of_a_term() -> None:
    """The scan's cheap test reads lowered text; folding differs from lowering only outside SAFE_CHARS."""

    def termless(text: str) -> bool:
        return not split_folded(fold(f" {text} "))

    chars = _ranges(SAFE_CHARS)
    assert len(chars) > 40_000
    for ch in chars:
        if ch == "\x00" or unicodedata.category(ch) == "Cn":
            continue
        assert unicodedata.combining(ch) == 0, hex(ord(ch))
        # Its words are runs of ASCII letters and digits: no other safe character is part of a word.
        assert ch.isascii() or is_cjk(ch) or not (ch.isalnum() or ch == "_"), hex(ord(ch))
        assert fold(f"a{ch}b") == fold(f"a{ch.lower()}b") == " ".join(f"a{ch}b".lower().split()) or (
            termless(ch) and termless(ch.lower())
        ), hex(ord(ch))


def _large_repo(tmp_path: Path, files: int) -> Path:
    root = tmp_path / "big"
    MemoryStore.open(root, plain_settings())
    (root / "topics").mkdir(exist_ok=True)
    rng = random.Random(4)
    for f in range(files):
        body = "".join(
            f"- Note {f}-{n} about {rng.choice(WORDS)} [by: agent; added: 2025-02-0{n + 1}]\n" for n in range(2)
        )
        (root / "topics" / f"t{f:04d}.md").write_text(f"# T{f}\n\n{body}", encoding="utf-8")
    (root / "topics" / "t0203.md").write_text(
        "# Boats\n\n- The harbour kayak rental closes at six [by: user; added: 2025-03-01]\n", encoding="utf-8"
    )
    return root


def _wait_built(root: Path, seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not build_state(root)[0]:
        time.sleep(0.2)
    assert build_state(root)[0], "the background build did not finish"


def test_a_fresh_repo_answers_from_a_scan_then_from_the_index(tmp_path: Path) -> None:
    root = _large_repo(tmp_path, recall_module.CHILD_BUILD_FILES + 10)
    assert not index_path(root).exists()
    out, err, code, _ = console("--repo", str(root), "recall", "harbour kayak", "--json")
    assert code == 0, err
    hits = [json.loads(line) for line in out.splitlines()]
    assert hits[0]["ref"] == "repo:topics/t0203.md#L3"
    # The index was not complete when the scan answered: the answer says how far the build got.
    files = recall_module.CHILD_BUILD_FILES + 14  # the topics, and MEMORY.md, me.md, lessons.md, inbox.md
    done = int(hits[0]["scan"].split(": ")[1].split(" of ")[0].replace(",", ""))
    assert hits[0]["scan"].endswith(f" of {files:,} files") and done < files
    assert "answered by a scan of the files" in err
    _wait_built(root)
    out, err, code, _ = console("--repo", str(root), "recall", "harbour kayak", "--json")
    again = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and again[0]["scan"] is None and "scan" not in err
    assert [h["ref"] for h in again] == [h["ref"] for h in hits]
    assert [h["score"] for h in again] == [h["score"] for h in hits]
    # Plain output says it too, on standard error, while it scans.
    fresh = _large_repo(tmp_path / "plain", recall_module.CHILD_BUILD_FILES)
    out, err, code, _ = console("--repo", str(fresh), "recall", "harbour kayak")
    assert code == 0 and out.startswith("repo:topics/t0203.md#L3 ") and "index building: " in err
    _wait_built(fresh)


def test_the_store_scans_while_a_build_runs_elsewhere_and_starts_it_once(tmp_path: Path) -> None:
    root = _large_repo(tmp_path, recall_module.CHILD_BUILD_FILES)
    started: list[Path] = []
    store = MemoryStore.open(root, plain_settings())
    store.build_in_background(started.append)  # starts nothing: the index stays unbuilt
    hits = store.recall("harbour kayak")
    assert hits[0].ref == "repo:topics/t0203.md#L3"
    assert hits[0].scan is not None and hits[0].scan.startswith("index building: 0 of ")
    assert started == [root] and not build_state(root)[0]
    # Without a way to start a build, the store builds the index itself and answers from it.
    store.build_elsewhere = None
    assert store.recall("harbour kayak")[0].scan is None and build_state(root)[0]


def _slow_build(root: str) -> None:
    """A background build whose files go slowly after its first batches (the test kills it midway)."""
    from memrepo.engine.read import recallbuild

    real = recallbuild.update_file

    def slow(*args: object) -> tuple[int, int, int, int]:
        time.sleep(0.02)
        return real(*args)  # type: ignore[arg-type]

    recallbuild.update_file = slow  # type: ignore[assignment]
    build_index(root, True)


def test_a_killed_background_build_resumes_from_its_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _large_repo(tmp_path, recall_module.CHILD_BUILD_FILES + 10)
    monkeypatch.setattr(recall_module, "BUILD_BATCH_FILES", 40)  # the forked child builds in batches of 40
    child = multiprocessing.get_context("fork").Process(target=_slow_build, args=(str(root),))
    child.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (build_state(root)[1] or 0) >= 80:
        time.sleep(0.05)
    os.kill(child.pid or 0, signal.SIGKILL)
    child.join()
    built, done = build_state(root)
    assert not built and done is not None and 80 <= done < recall_module.CHILD_BUILD_FILES
    with sqlite3.connect(index_path(root)) as db:
        kept = dict(db.execute("SELECT path, fid FROM files"))
    # The lock died with the build: a recall answers from a scan, says what is done, and starts the build again.
    out, _err, code, _ = console("--repo", str(root), "recall", "harbour kayak", "--json")
    hit = json.loads(out.splitlines()[0])
    assert code == 0 and hit["ref"] == "repo:topics/t0203.md#L3" and f"{done:,} of " in hit["scan"]
    _wait_built(root)
    with sqlite3.connect(index_path(root)) as db:
        after = dict(db.execute("SELECT path, fid FROM files"))
    assert len(after) == recall_module.CHILD_BUILD_FILES + 14
    assert {path: after[path] for path in kept} == kept  # the killed build's batches were kept, not made again
    fresh = RecallIndex(root, ":memory:")
    fresh.sync()
    assert len(RecallIndex(root)) == len(fresh)


def test_the_progress_moves_within_a_batch_and_goes_with_the_build(tmp_path: Path) -> None:
    # One batch holds every file (BUILD_BATCH_FILES 1,000 > 410): its count in the index stays 0 until it
    # commits at the end, so the note must come from what the build writes as it reads (breaker2 H1).
    root = _large_repo(tmp_path, recall_module.CHILD_BUILD_FILES + 10)
    assert recall_module.BUILD_BATCH_FILES > recall_module.CHILD_BUILD_FILES + 14
    child = multiprocessing.get_context("fork").Process(target=_slow_build, args=(str(root),))
    child.start()
    seen: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and child.is_alive() and len(set(seen)) < 3:
            built, done = build_state(root)
            if not built and done:
                seen.append(done)
            time.sleep(0.05)
        out, _err, code, _ = console("--repo", str(root), "recall", "harbour kayak", "--json")
    finally:
        child.kill()  # SIGKILL, as a stopped build would be
        child.join()
    assert len(set(seen)) >= 3 and seen == sorted(seen), seen  # moving up while the one batch runs
    assert code == 0, out
    done = int(json.loads(out.splitlines()[0])["scan"].split(": ")[1].split(" of ")[0].replace(",", ""))
    assert done >= seen[-1] > 0
    with sqlite3.connect(index_path(root)) as db:
        assert (
            db.execute("SELECT count(*) FROM files").fetchone()[0] == 0
        )  # nothing committed: the count was the build's
    assert (index_path(root).parent / "recall-build.progress").exists()  # a killed build leaves its count
    _build_in_a_process(root)  # a build that ends takes its count away
    assert build_state(root)[0] and not (index_path(root).parent / "recall-build.progress").exists()


def _build_in_a_process(root: Path) -> None:
    code = "import sys; from memrepo.engine.read.recallfile import build_index; build_index(sys.argv[1], True)"
    subprocess.run([sys.executable, "-c", code, str(root)], check=True, timeout=300)


def test_one_background_build_at_a_time(tmp_path: Path) -> None:
    root = _large_repo(tmp_path, 3)
    assert not build_running(root)
    with build_lock(root) as free:
        assert free and build_running(root)
        _build_in_a_process(root)  # another holds the lock: this one leaves at once
        assert not build_state(root)[0]
    _build_in_a_process(root)
    assert build_state(root)[0] and not build_running(root)
    assert sorted(p.name for p in index_path(root).parent.iterdir() if "build" in p.name) == []  # no file of its own


async def test_the_app_and_mcp_scan_while_their_warm_up_build_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio
    import threading

    from memrepo.engine.read import recallfile
    from memrepo.engine.repo.repo import MemoryRepo

    root = _large_repo(tmp_path, recall_module.CHILD_BUILD_FILES)
    gate = threading.Event()
    real = recallfile.open_index

    def held_build(where: Path) -> RecallIndex:
        gate.wait(60)  # the warm-up build is under way until the test lets it finish
        return real(where)

    monkeypatch.setattr(recallfile, "open_index", held_build)
    repo = await MemoryRepo.open(root, plain_settings())
    try:
        warming = asyncio.ensure_future(repo.warm_recall())
        await asyncio.sleep(0.05)
        hits = await repo.recall("harbour kayak")  # answered while the build has not finished
        assert hits[0].ref == "repo:topics/t0203.md#L3" and hits[0].scan is not None
        assert not warming.done() and not build_state(root)[0]
        gate.set()
        await warming
        again = await repo.recall("harbour kayak")
        assert again[0].ref == hits[0].ref and again[0].scan is None and build_state(root)[0]
    finally:
        gate.set()
        await repo.close()
