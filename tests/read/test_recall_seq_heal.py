"""A recall index whose stored sequence number lags behind the ids in use heals on the next sync (docs/architecture.md §4).

CI (stops 52 and 54) failed ``tests/mcp/test_mcp.py::test_sessions_share_a_workspace_and_stay_isolated_across_workspaces``
with "the recall index ... could not be written (UNIQUE constraint failed: items.id)": three MCP servers on one
folder, and a sync gave a new entry an id already in use. Round 23 fixed one cause (a batched first build). The run
of stop 54 showed another, which 18 loaded runs here did not reproduce. Whatever leaves the stored number behind, the
sync now tries once more from the highest id in use instead of failing the recall.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memrepo.engine.read.recall import RecallIndex


def _repo(root: Path) -> None:
    """Entries of one kind and author, so their ids differ only by sequence number (an id is rank and number)."""
    (root / "me.md").write_text("# About me\n\n- Prefers tea over coffee [by: agent]\n- Lives in Lisbon [by: agent]\n")
    (root / "topics").mkdir()
    (root / "topics" / "tools.md").write_text("# Tools\n\n- Builds with cargo make [by: agent]\n")


def _lag(root: Path, index: RecallIndex) -> None:
    """Set the stored sequence number back to 0, as another writer that lost its count would leave it."""
    with sqlite3.connect(index.path) as db:
        db.execute("UPDATE info SET v=0 WHERE k='seq'")


def test_a_sync_after_the_sequence_number_fell_behind_indexes_the_new_line(tmp_path: Path) -> None:
    _repo(tmp_path)
    index = RecallIndex(tmp_path)
    index.sync()
    ids_before = {row[0] for row in index.db.execute("SELECT id FROM items")}
    assert len(ids_before) == 3
    _lag(tmp_path, index)
    tools = tmp_path / "topics" / "tools.md"
    tools.write_text(tools.read_text() + "- Deploys with nomad on Fridays [by: agent]\n")
    assert index.sync(["topics/tools.md"]) == 1  # before: RecallIndexError "UNIQUE constraint failed: items.id"
    ids_after = [row[0] for row in index.db.execute("SELECT id FROM items")]
    assert len(ids_after) == len(set(ids_after)) == 4
    assert ids_before < set(ids_after)
    assert [index.entry(i)[:2] for i, _key in index.search("nomad deploys")] == [("topics/tools.md", 4)]
    seq = int(index.db.execute("SELECT v FROM info WHERE k='seq'").fetchone()[0])
    assert seq >= max(i & 0xFFFFFFFF for i in ids_after)  # stored again, ahead of every id


def test_a_sync_with_the_number_in_step_reads_no_extra_scan(tmp_path: Path, monkeypatch) -> None:
    """The scan of the items runs only on the retry: a sync whose number is in step never pays for it."""
    from memrepo.engine.read import recallbuild

    _repo(tmp_path)
    index = RecallIndex(tmp_path)
    index.sync()
    heals: list[bool] = []
    real = recallbuild._last_seq
    monkeypatch.setattr(recallbuild, "_last_seq", lambda idx, heal: heals.append(heal) or real(idx, heal))
    (tmp_path / "me.md").write_text((tmp_path / "me.md").read_text() + "- Runs on Sundays [by: user]\n")
    assert index.sync(["me.md"]) == 1
    assert heals == [False]
