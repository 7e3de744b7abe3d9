"""Near-duplicate twins in recall keep the replacing or newer line, never the replaced one (docs/recall.md).

A correction is usually one word off the line it corrects, so recall's twin rule collapsed the pair;
it kept the better-scored line, the old one, and the replacement rule had nothing left to act on
(breaker6 B6-1). These tests write the lines through the same doors a user does.
"""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.models import Candidate
from memrepo.engine.read.recallorder import TWIN_BOTH, TWIN_LOWER, TWIN_UPPER, twin_kept
from memrepo.engine.repo.store import MemoryStore


def texts(hits) -> list[str]:
    return [h.text for h in hits]


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_same_day_correction_with_a_change_word_is_listed_not_its_old_line(store: MemoryStore) -> None:
    store.remember(Candidate(text="Payments API gateway runs Kong in the staging cluster", by="user"))
    store.remember(
        Candidate(text="Payments API gateway now runs Envoy in the staging cluster, replacing Kong", by="user")
    )
    for minimum in (None, 0.0):
        got = texts(store.recall("payments gateway", min_confidence=minimum))
        assert "Payments API gateway now runs Envoy in the staging cluster, replacing Kong" in got
        assert "Payments API gateway runs Kong in the staging cluster" not in got
    top = texts(store.recall("what runs the payments API gateway in staging?"))
    assert top[0] == "Payments API gateway now runs Envoy in the staging cluster, replacing Kong"


def test_a_line_written_with_supersedes_is_listed_in_place_of_the_line_it_names(store: MemoryStore) -> None:
    store.remember(Candidate(text="Shop emails are sent through the SendGrid transactional API", by="user"))
    store.remember(
        Candidate(
            text="Shop emails are sent through the Postmark transactional API",
            by="user",
            supersedes="SendGrid transactional",
        )
    )
    got = texts(store.recall("shop emails", min_confidence=0.0))
    assert got[0] == "Shop emails are sent through the Postmark transactional API"
    assert "Shop emails are sent through the SendGrid transactional API" not in got


def test_a_korean_correction_is_listed_not_its_old_line(store: MemoryStore) -> None:
    store.remember(Candidate(text="블로그 글은 매주 화요일 오전에 발행한다", by="user"))
    store.remember(Candidate(text="블로그 글은 이제 매주 목요일 오전에 발행한다", by="user"))
    got = texts(store.recall("블로그 글은 언제 발행해?", min_confidence=0.0))
    assert "블로그 글은 이제 매주 목요일 오전에 발행한다" in got
    assert "블로그 글은 매주 화요일 오전에 발행한다" not in got


def test_without_a_change_word_the_newer_twin_stays_by_date_then_by_line(store: MemoryStore) -> None:
    write(
        store.root,
        "me.md",
        "# Me\n\n"
        "- Reads the team newsletter on the tablet every Friday evening at home [by: user; added: 2025-05-01]\n"
        "- Reads the team newsletter on the laptop every Friday evening at home [by: user; added: 2024-01-01]\n"
        "- Writes the weekly summary in the shared notebook after lunch [by: user; added: 2025-02-01]\n"
        "- Writes the weekly summary in the shared document after lunch [by: user; added: 2025-02-01]\n",
    )
    # The later day wins even when its line comes first in the file.
    got = texts(store.recall("team newsletter evening", min_confidence=0.0))
    assert "Reads the team newsletter on the tablet every Friday evening at home" in got
    assert "Reads the team newsletter on the laptop every Friday evening at home" not in got
    # One day: the later line (the later write) wins, whichever scores higher.
    for query in ("weekly summary shared notebook", "weekly summary shared document"):
        got = texts(store.recall(query, min_confidence=0.0))
        assert "Writes the weekly summary in the shared document after lunch" in got
        assert "Writes the weekly summary in the shared notebook after lunch" not in got


def test_an_agents_newer_twin_never_hides_the_users_line() -> None:
    user = ("me.md", 3, "Always run the full test suite locally before pushing to main", {"by": "user"})
    agent_same = (
        "me.md",
        4,
        "Always run the full test suite locally before pushing to the main branch",
        {"by": "agent"},
    )
    assert twin_kept(user, agent_same) == TWIN_UPPER  # a restatement: the user's words stay
    assert twin_kept(agent_same, user) == TWIN_LOWER
    old = ("ws.md", 3, "Payments gateway runs Kong in the staging cluster", {"by": "user"})
    fix = ("ws.md", 4, "Payments gateway now runs Envoy in the staging cluster", {"by": "agent"})
    assert twin_kept(old, fix) == TWIN_BOTH  # an agent's correction is shown beside the user's line


def test_twins_of_two_files_on_one_day_keep_the_better_scored_one() -> None:
    a = ("me.md", 9, "Reads the team newsletter on the tablet", {"by": "user", "added": "2025-05-01"})
    b = ("MEMORY.md", 3, "Reads the team newsletter on the laptop", {"by": "user", "added": "2025-05-01"})
    assert twin_kept(a, b) == TWIN_UPPER
    assert twin_kept(b, a) == TWIN_UPPER
