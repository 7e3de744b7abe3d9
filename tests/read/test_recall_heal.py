"""A damaged ``texts`` row of the recall index is mended from its file, with one warning line (issue 33, breaker F5).

Before: every recall that read the row failed "internal error (ValueError)" until the index was built again.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from memrepo.engine.read.recall import RecallIndex, index_path
from memrepo.engine.read.recallpost import load_dicts, unpack_entries

QUERIES = ["rowing", "pnpm", "deploy", "pgvector", "team", "staging database", "migrations"]


def _repo(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / "me.md").write_text(
        "# Me\n\n"
        + "".join(f"- Team likes rowing on day {n} and pnpm for deploy [by: user]\n" for n in range(12))
        + "- Uses pgvector in the staging database [by: user]\n"
    )
    (root / "topics").mkdir()
    (root / "topics" / "ops.md").write_text(
        "# Ops\n\n"
        + "".join(f"- The team runs migrations before deploy number {n} [by: agent]\n" for n in range(9))
        + "- Rowing club meets on Fridays [by: user]\n"
    )
    return root


def _damage(root: Path, rel: str, how: str) -> None:
    """Damage ``rel``'s row in the index file as a bad copy would: cut short, or bytes flipped in the middle."""
    db = sqlite3.connect(index_path(root))
    (fid,) = db.execute("SELECT fid FROM files WHERE path=?", (rel,)).fetchone()
    (body,) = db.execute("SELECT body FROM texts WHERE fid=?", (fid,)).fetchone()
    if how == "cut short":
        bad = body[: len(body) // 2]
    else:
        mid = len(body) // 2
        bad = body[:mid] + bytes(b ^ 0xFF for b in body[mid : mid + 8]) + body[mid + 8 :]
    db.execute("UPDATE texts SET body=? WHERE fid=?", (bad, fid))
    db.commit()
    with pytest.raises(ValueError):  # really unreadable, as the breaker found it
        unpack_entries(bad, load_dicts(db))
    db.close()


def _results(index: RecallIndex) -> list[list[tuple]]:
    return [[(*index.entry(i), key) for i, key in index.search(q, limit=20)] for q in QUERIES]


def _fresh(root: Path) -> list[list[tuple]]:
    index = RecallIndex(root, ":memory:")
    index.sync()
    try:
        return _results(index)
    finally:
        index.close()


def _readable(root: Path) -> bool:
    db = sqlite3.connect(index_path(root))
    try:
        dicts = load_dicts(db)
        for (body,) in db.execute("SELECT body FROM texts"):
            unpack_entries(body, dicts)
        return True
    except ValueError:
        return False
    finally:
        db.close()


@pytest.mark.parametrize("how", ["cut short", "bytes flipped"])
def test_a_search_reading_a_damaged_row_mends_it_and_answers_in_full(
    tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    root = _repo(tmp_path)
    built = RecallIndex(root)
    built.sync()
    count = len(built)
    built.close()
    _damage(root, "me.md", how)
    index = RecallIndex(root)
    with caplog.at_level(logging.WARNING, logger="memrepo.recall"):
        got = _results(index)  # the file did not change: only the search reads the row
    assert got == _fresh(root)
    assert any(path == "me.md" for path, *_ in got[0])  # the damaged file's entries are found again
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 1 and "me.md" in warned[0], warned
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="memrepo.recall"):
        assert _results(index) == got
    assert caplog.records == []  # mended once: no more warnings
    assert len(index) == count
    index.close()
    assert _readable(root)


def test_a_sync_of_a_changed_file_with_a_damaged_row_leaves_no_stale_entry(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = _repo(tmp_path)
    index = RecallIndex(root)
    index.sync()
    _damage(root, "me.md", "cut short")
    me = root / "me.md"
    me.write_text(me.read_text().replace("on day 3 ", "on day three ") + "- Prefers kayaks to rowing [by: user]\n")
    with caplog.at_level(logging.WARNING, logger="memrepo.recall"):
        index.sync(["me.md"])
        got = _results(index)
    assert got == _fresh(root)  # the old entries' ids left every posting list
    assert not any("on day 3 " in text for result in got for _p, _l, text, _k in result)
    assert len([r for r in caplog.records if "me.md" in r.getMessage()]) == 1
    db = sqlite3.connect(index_path(root))
    (count,) = db.execute("SELECT count(*) FROM items").fetchone()
    db.close()
    assert len(index) == count
    index.close()


def test_compaction_scrub_with_a_damaged_row_mends_it(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    index = RecallIndex(root)
    index.sync()
    ops = root / "topics" / "ops.md"
    ops.write_text(ops.read_text().replace("- The team runs migrations before deploy number 0 [by: agent]\n", ""))
    index.sync(["topics/ops.md"])  # an entry left: the scrub has work
    _damage(root, "me.md", "bytes flipped")
    index.scrub()
    index.sync()
    assert _results(index) == _fresh(root)
    index.close()
    assert _readable(root)


def test_the_vectors_build_passes_a_damaged_row(tmp_path: Path) -> None:
    from helpers.semantic_fakes import ConceptEmbedder

    from memrepo.engine.read.semantic_build import build_vectors

    root = _repo(tmp_path)
    index = RecallIndex(root)
    index.sync()
    _damage(root, "me.md", "bytes flipped")
    emb = ConceptEmbedder()
    assert build_vectors(root, emb, 100) == 10  # topics/ops.md's entries; me.md's wait for the mend
    assert not any("rowing on day" in text for text in emb.embedded)
    assert _results(index) == _fresh(root)  # a search mends the row
    assert build_vectors(root, emb, 100) == 13  # then its entries get their vectors
    index.close()


def test_memrepo_recall_on_a_damaged_row_prints_one_line_and_answers(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "MEMREPO_WRITE_SERVER": "0"}
    env["MEMREPO_CONFIG"] = str(tmp_path / "none.toml")
    repo = tmp_path / "memory"

    def memrepo(*args: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), *args]
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)

    for text in ("Likes rowing on Sundays", "Deploys with pnpm", "Rowing club meets on Fridays"):
        assert memrepo("remember", text).returncode == 0
    before = memrepo("recall", "rowing")
    assert before.returncode == 0 and before.stdout.count("owing") == 2, before
    _damage(repo, "me.md", "cut short")
    after = memrepo("recall", "rowing")
    assert after.returncode == 0, after.stderr
    assert after.stdout == before.stdout
    lines = after.stderr.strip().splitlines()
    assert len(lines) == 1 and "me.md" in lines[0] and "internal error" not in lines[0], after.stderr
    again = memrepo("recall", "rowing")
    assert (again.returncode, again.stdout, again.stderr) == (0, before.stdout, "")
