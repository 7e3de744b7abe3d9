"""A version question is answered by a line naming a release codename (engine/read/recalltype.py ``VERSION``).

"Which Ubuntu version do the build servers run?" over "The build servers run Ubuntu Noble" got nothing: the version
type needed a number, a revision or latest/current/LTS/stable/nightly, and a codename is none of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.read import coldrecall
from memrepo.engine.repo.store import MemoryStore


@pytest.mark.parametrize(
    ("line", "answered"),
    [
        ("The build servers run Ubuntu Noble", True),  # a release codename is a version
        ("The build servers run Debian Bookworm", True),
        ("The build servers run Ubuntu", False),  # the product alone holds no version
    ],
)
def test_a_release_codename_answers_a_version_question(tmp_path: Path, line: str, answered: bool) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for text in (line, "The build servers live in the Lisbon rack"):
        assert store.remember(Candidate(text=text, by="user")).commit
    store.close()
    query = f"Which {line.split()[4]} version do the build servers run?"  # Ubuntu, Debian
    answers = [h.text for h in coldrecall.recall(store.root, query) if h.answer]
    assert answers[:1] == ([line] if answered else []), answers
