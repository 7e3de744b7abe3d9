"""A question of several parts is answered a part a line (engine/read/recallparts.py; docs/architecture.md §4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.engine.format.terms import fold
from memrepo.engine.models import Candidate
from memrepo.engine.read import coldrecall
from memrepo.engine.read.recallparts import PART_SHARE, part_share, question_parts
from memrepo.engine.read.recallterms import query_index_terms
from memrepo.engine.repo.store import MemoryStore

BUILD = "Build: west build -b ciclovia_du2 -- -DEXTRA_CONF_FILE=prod.conf"
FLASH = "Flash on the bench: west flash --runner jlink"
MSRV = "lantern's MSRV is Rust 1.74"
DATABASE = "lantern runs on PostgreSQL 16 with pgvector"
FILLER = (
    "Prefers pnpm over npm for JavaScript projects",
    "On vacation until Friday 11 December; no deploys before then",
    "Uses Vim as the editor",
    "The standup is at 9:30 on weekdays",
    "Coffee order is a flat white",
    "The firmware team's channel is #du-firmware",
    "Firmware releases are tagged vX.Y.Z on main",
    "Reviews need two approvals",
)


def _parts(query: str) -> list[set[str]]:
    counts = dict.fromkeys(query_index_terms(query)[1], 1.0)
    return [set(p) for p in question_parts(fold(query), counts)]


def test_a_list_question_is_cut_and_a_clause_or_a_time_is_not() -> None:
    assert _parts("how do I build and flash the firmware") == [{"build"}, {"flash", "firmwar"}]
    assert len(_parts("velo-fw tech stack: RTOS, SDK version and motor control")) == 4
    assert len(_parts("報告書、会議")) == 2  # a CJK list mark
    assert _parts("when is the standup, 10:00 or 9:30") != []
    assert _parts("standup at 10:00") == []  # a colon inside a time cuts nothing
    assert _parts("which editor does she use") == []
    # a task prompt's clauses are longer than a list's items: never cut
    assert _parts("Write a regex that validates Swiss postal codes and add unit tests.") == []


def test_a_line_holding_a_whole_part_has_the_part_share() -> None:
    split = (frozenset({"build"}), frozenset({"flash", "firmwar"}))
    counts = {"build": 2.0, "flash": 3.0, "firmwar": 1.0}
    assert part_share(split, counts, {"build": 1.0}) == PART_SHARE
    assert part_share(split, counts, {"flash": 1.0}) == pytest.approx(PART_SHARE * 0.75)
    assert part_share((), counts, {"build": 1.0}) == 0.0


@pytest.fixture
def repo(store: MemoryStore, tmp_path: Path) -> Path:
    folder = tmp_path / "lantern"
    folder.mkdir()
    for text in (MSRV, DATABASE):
        store.remember(Candidate(text=text, scope="workspace", workspace=str(folder)))
    store.import_files({"notes.md": "".join(f"- {text}\n" for text in (BUILD, FLASH, *FILLER)).encode()})
    return store.root


def answers(root: Path, query: str) -> list[str]:
    return [h.text for h in coldrecall.recall(root, query, limit=5) if getattr(h, "answer", True)]


def test_lines_answering_parts_answer_and_the_project_name_is_kept_under_them(repo: Path) -> None:
    got = answers(repo, "how do I build and flash the firmware")
    assert BUILD in got and FLASH in got  # each held a third of the question: no answer before
    got = answers(repo, "lantern database and MSRV")
    assert got[0] == MSRV
    assert DATABASE in got  # holds "lantern" alone, which answered nothing (recallnames) before
    # the name never passes the answer's gate by itself: a question nothing answers gets nothing
    assert answers(repo, "lantern Kubernetes namespace and Helm chart") == []
    assert not any(text.startswith("lantern") for text in answers(repo, "How do we deploy lantern?"))
