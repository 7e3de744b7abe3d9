"""Hybrid recall lists a hit's replacement with it (engine/read/recallnewer.py, docs/architecture.md §4): a listed
line that a newer line of its file replaces by the context block's rule brings that line along, just above it,
even when the newer line holds no query word and the model does not find it near. The model is the small
deterministic embedder of tests/helpers/semantic_fakes.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers.semantic_fakes import ConceptEmbedder

from memrepo.engine.config import SemanticSettings
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallkeys import SEQ_BITS
from memrepo.engine.read.recallnewer import replaced_in, said_changed, with_replacements
from memrepo.engine.read.semantic_build import build_vectors
from memrepo.engine.read.semantic_fuse import DEPTH, SemanticRecall


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others


def _repo(tmp_path: Path, files: dict[str, str]) -> tuple[Path, RecallIndex]:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    return root, index


def _fused(root: Path, index: RecallIndex, query: str, limit: int = 5) -> tuple[list[str], set[str]]:
    """The fused hits' texts, and the texts of those in the semantic list (``info.near``)."""
    settings = SemanticSettings.model_validate({"min_similarity": 0.5, "answer_similarity": 0.6})
    sem = SemanticRecall(root, settings, ConceptEmbedder())
    try:
        found = index.search(query, limit=limit + DEPTH)
        pool = index.search(query, limit=limit + DEPTH, min_confidence=0.0)
        hits, info = sem.fuse(
            index, query, found, workspace_file=None, workspace_id=None, scoped=False, limit=limit, pool=pool
        )
    finally:
        sem.close()
    assert info.mode == "hybrid"
    return [index.row(iid)[3] for iid, _key in hits], {index.row(iid)[3] for iid in info.near}


SWITCHED = {
    "me.md": (
        "# About me\n\n"
        "- Uses npm for JavaScript projects [added: 2024-09-03]\n"
        "- Prefers dark mode in every editor [added: 2024-10-01]\n"
        "- Switched to bun everywhere [supersedes: Uses npm for JavaScript; added: 2025-03-03]\n"
    ),
}


def test_a_replacement_no_list_holds_is_brought_above_the_line_it_replaces(tmp_path: Path) -> None:
    root, index = _repo(tmp_path, SWITCHED)
    build_vectors(root, ConceptEmbedder(), 100)
    query = "which npm flavor for javascript"
    # Neither list holds the newer line: no query word, and its vector is of no concept near the query's.
    assert [index.row(i)[3] for i, _k in index.search(query, limit=5, min_confidence=0.0)] == [
        "Uses npm for JavaScript projects"
    ]
    got, near = _fused(root, index, query)
    assert got == ["Switched to bun everywhere", "Uses npm for JavaScript projects"]
    # It stands in the semantic list where its old line stood (the prompt hook keeps a hit of that list).
    assert "Switched to bun everywhere" in near


def test_one_hit_asked_for_is_the_replacement(tmp_path: Path) -> None:
    root, index = _repo(tmp_path, SWITCHED)
    build_vectors(root, ConceptEmbedder(), 100)
    got, _near = _fused(root, index, "which npm flavor for javascript", limit=1)
    assert got == ["Switched to bun everywhere"]


def test_a_line_no_newer_line_replaces_brings_nothing(tmp_path: Path) -> None:
    files = {
        "me.md": (
            "# About me\n\n"
            "- Uses npm for JavaScript projects [added: 2024-09-03]\n"
            "- Prefers dark mode in every editor [added: 2025-03-03]\n"
        ),
    }
    root, index = _repo(tmp_path, files)
    build_vectors(root, ConceptEmbedder(), 100)
    got, _near = _fused(root, index, "which npm flavor for javascript")
    assert got == ["Uses npm for JavaScript projects"]


def test_a_replacement_in_another_file_is_not_brought(tmp_path: Path) -> None:
    files = {
        "me.md": "# About me\n\n- Uses npm for JavaScript projects [added: 2024-09-03]\n",
        "notes/tools.md": "# Tools\n\n- Switched to bun everywhere [supersedes: Uses npm for JavaScript; added: 2025-03-03]\n",
    }
    root, index = _repo(tmp_path, files)
    build_vectors(root, ConceptEmbedder(), 100)
    got, _near = _fused(root, index, "which npm flavor for javascript")
    assert got == ["Uses npm for JavaScript projects"]


def test_only_the_shown_hits_bring_their_replacement(tmp_path: Path) -> None:
    _root, index = _repo(tmp_path, SWITCHED)
    by_text = {index.row(iid)[3]: iid for iid in index.file_entries("me.md")}
    old, other, new = (
        by_text["Uses npm for JavaScript projects"],
        by_text["Prefers dark mode in every editor"],
        by_text["Switched to bun everywhere"],
    )
    hits = [(other, (1,)), (old, (0,))]
    got, brought = with_replacements(index, hits, limit=1)  # the old line is past the limit
    assert [iid for iid, _k in got] == [other, old] and brought == {}
    got, brought = with_replacements(index, hits, limit=2)
    assert [iid for iid, _k in got] == [other, new, old] and brought == {new: old}
    got, brought = with_replacements(index, [(new, (2,)), *hits], limit=3)  # listed above already: stays there
    assert [iid for iid, _k in got] == [new, other, old] and brought == {}
    got, brought = with_replacements(index, [(old, (0,)), (other, (1,)), (new, (2,))], limit=1)  # listed below
    assert got == [(new, (2,)), (old, (0,)), (other, (1,))] and brought == {}


def test_replaced_in_follows_a_chain_to_the_newest_line(tmp_path: Path) -> None:
    files = {
        "me.md": (
            "# About me\n\n"
            "- Editor is vim [subject: editor; added: 2023-01-01]\n"
            "- Editor is VS Code [subject: editor; added: 2024-01-01]\n"
            "- Editor is Zed [subject: editor; added: 2025-01-01]\n"
        ),
    }
    _root, index = _repo(tmp_path, files)
    entries = index.file_entries("me.md")
    by_text = {text: iid for iid, (_line, text, _meta, _ctx) in entries.items()}
    assert replaced_in(entries) == {
        by_text["Editor is vim"]: by_text["Editor is Zed"],
        by_text["Editor is VS Code"]: by_text["Editor is Zed"],
    }
    assert index.file_entries("no-such-file.md") == {}


def test_an_edited_file_is_asked_again_not_answered_from_memory() -> None:
    old = (1, "Editor is vim", '{"subject": "editor", "added": "2023-01-01"}', "")
    other = (2, "Prefers dark mode", '{"added": "2023-02-01"}', "")
    assert replaced_in({10: old, 11: other}) == {}
    assert replaced_in({10: old, 11: other}) == {}  # the same entries: from memory, the same answer
    new = (3, "Editor is Zed", '{"subject": "editor", "added": "2025-01-01"}', "")
    assert replaced_in({10: old, 11: other, 12: new}) == {10: 12}
    assert replaced_in({10: old, 11: other}) == {}  # the line removed again


# -- the model's judgement: the newer line about the same thing that says it changed -------------------------------


def _unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def _entries(*texts: str) -> dict[int, tuple[int, str, str, str]]:
    """Item ids whose rank bits grow with the line (a later line is newer)."""
    return {(n + 1) << SEQ_BITS | n: (n + 3, text, "{}", "") for n, text in enumerate(texts)}


def test_said_changed_takes_the_newer_mutual_nearest_line_that_says_it_changed() -> None:
    ents = _entries(
        "EMC test slot booked for the week of 16 March",
        "Jetson link is protobuf over UDP port 7400",
        "EMC slot moved to 8-12 June because the boards were late",
    )
    old, other, new = list(ents)
    vecs = {old: _unit(1, 0.2, 0), other: _unit(0, 1, 0.1), new: _unit(1, 0.3, 0.1)}
    assert said_changed(vecs, old, ents, 0.89) == new
    # Below the cosine, older, or the newer line not saying it changed: nothing.
    assert said_changed(vecs, old, ents, 0.999) is None
    assert said_changed(vecs, new, ents, 0.89) is None  # the hit is the newer one
    quiet = {**ents, new: (5, "EMC slot on 8-12 June, the boards were late", "{}", "")}
    assert said_changed(vecs, old, quiet, 0.89) is None
    # Not each the other's nearest: a third line is nearer to the newer one.
    crowd = _entries("EMC slot booked for March", "EMC slot now in June", "EMC lab is in Regensburg now")
    a, b, c = list(crowd)
    near = {a: _unit(1, 0.5, 0), b: _unit(1, 0, 0.1), c: _unit(1, 0, 0.12)}
    assert said_changed(near, a, crowd, 0.8) is None


def test_hybrid_recall_brings_a_line_the_model_says_restates_the_hit(tmp_path: Path) -> None:
    root, index = _repo(
        tmp_path,
        {
            "me.md": (
                "# About me\n\n"
                "- Coffee is espresso from the office machine [added: 2024-09-03]\n"
                "- Deploys go out from the staging cluster [added: 2024-10-01]\n"
                "- Now a latte drink person these days [added: 2025-03-03]\n"
            ),
        },
    )
    build_vectors(root, ConceptEmbedder(), 100)
    entries = index.file_entries("me.md")
    assert replaced_in(entries) == {}  # the context block's words rule does not pair them
    got, near = _fused(root, index, "which espresso machine at the office", limit=1)
    assert got == ["Now a latte drink person these days"]
    assert "Now a latte drink person these days" in near


def test_said_changed_never_lets_an_agents_line_replace_the_users() -> None:
    ents = _entries("EMC test slot booked for March", "Jetson link is protobuf over UDP", "EMC slot moved to June")
    old, other, new = list(ents)
    vecs = {old: _unit(1, 0.2, 0), other: _unit(0, 1, 0.1), new: _unit(1, 0.3, 0.1)}
    assert said_changed(vecs, old, ents, 0.89) == new
    by_agent = {**ents, new: (5, "EMC slot moved to June", '{"by": "agent"}', "")}
    by_user = {**by_agent, old: (3, "EMC test slot booked for March", '{"by": "user"}', "")}
    assert said_changed(vecs, old, by_user, 0.89) is None
    other_ws = {**ents, new: (5, "EMC slot moved to June", '{"workspace": "lab"}', "")}
    assert said_changed(vecs, old, other_ws, 0.89) is None
