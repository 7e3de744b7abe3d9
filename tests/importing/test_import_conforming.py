"""Adopted and imported repos stay conforming (issue 15 item 4).

Before: importing a repo made by hand following the Agent Memory Repo format rewrote every ``added:``
to the import date, dropped the ``.sql`` note a topic file links to (a broken link), renamed the topic
file's headings and left its index without links; files memrepo created in an adopted repo (me.md,
lessons.md) were not linked from the index, so Health flagged them as orphans.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers.repo_helpers import git, plain_settings

from memrepo.engine.importers.run import import_source
from memrepo.engine.models import Candidate
from memrepo.engine.repo.health import HealthStatus, check
from memrepo.engine.repo.store import MemoryStore

TOPIC = """# Database notes

Context for the billing database.

## Queries

- The monthly report runs [[queries.sql]] [by: user; added: 2024-02-10]

## Pitfalls

- Never run migrations on Fridays [by: user; added: 2024-03-01]
"""


def conforming_repo(path: Path) -> Path:
    (path / "topics").mkdir(parents=True)
    (path / "MEMORY.md").write_text("# Memory\n\n## Index\n- [[me]]\n- [[topics/db]]\n", encoding="utf-8")
    (path / "me.md").write_text(
        "# About me\n\n- Prefers metric units [by: user; added: 2023-11-05]\n", encoding="utf-8"
    )
    (path / "topics" / "db.md").write_text(TOPIC, encoding="utf-8")
    (path / "queries.sql").write_text("select month, sum(total) from invoices group by 1;\n", encoding="utf-8")
    return path


def rows(store: MemoryStore) -> dict[str, object]:
    return {r.name: r for r in check(store)}


def test_import_keeps_added_headings_and_non_markdown_files_and_links_them(tmp_path: Path) -> None:
    source = conforming_repo(tmp_path / "theirs")
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    report = import_source(store, source, "memrepo")
    assert not report.errors, report.errors
    me = store.read_file("me.md").entries
    assert [(e.text, e.meta.get("added")) for e in me] == [("Prefers metric units", "2023-11-05")]
    assert (store.root / "topics" / "db.md").read_text(encoding="utf-8") == TOPIC  # headings and dates kept
    assert (store.root / "queries.sql").read_text(encoding="utf-8").startswith("select month")
    index = (store.root / "MEMORY.md").read_text(encoding="utf-8")
    assert "[[topics/db]]" in index and "[[queries.sql]]" in index
    health = rows(store)
    assert health["links"].status is HealthStatus.OK, health["links"].reason
    assert "no [[link]] reaches" not in " ".join(str(r.reason) for r in health.values())
    again = import_source(store, source, "memrepo")  # a rerun adds nothing
    assert set(again.counts) <= {"already imported"}, again.counts


def test_files_memrepo_creates_in_an_adopted_repo_are_linked_in_the_same_commit(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(mine)], check=True)
    (mine / "MEMORY.md").write_text("# Memory\n\n## Index\n", encoding="utf-8")
    git(mine, "add", "-A")
    git(mine, "-c", "user.name=Me", "-c", "user.email=me@example.com", "commit", "-q", "-m", "Start")
    store = MemoryStore.open(mine, plain_settings())
    store.remember(Candidate(text="Prefers short answers", kind="preference", by="user"))
    store.remember(Candidate(text="Run the linter before pushing", kind="lesson", by="user"))
    changed = git(mine, "show", "--name-only", "--format=", "HEAD~1").split()
    assert sorted(changed) == ["MEMORY.md", "me.md"]  # the file and its link, one commit
    index = (mine / "MEMORY.md").read_text(encoding="utf-8")
    assert "[[me]]" in index and "[[lessons]]" in index
    assert "no [[link]] reaches" not in " ".join(str(r.reason) for r in check(store))
