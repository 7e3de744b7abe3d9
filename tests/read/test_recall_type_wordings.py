"""The expected answer types take the everyday wordings of what they ask and of what answers them (breaker22 B22-5).

rec12's types (engine/read/recalltype.py) left answerable questions with nothing: "What version control system do we
use?" read as a version question, "How should I address review comments?" as an address one, and a version in
words, a street with no number, "DOB", "turns 40", a wifi key or a password manager held no answer. Each pair below
was answered before the types came and must be again; the look-alikes keep the types' point (no answer where no line
holds one).
"""

from __future__ import annotations

import pytest

from memrepo.engine.read.recalltype import answers_type


@pytest.mark.parametrize(
    ("query", "line"),
    [
        ("What version control system do we use?", "We use git for version control, hosted on Gitea"),
        ("How should I address review comments?", "Reply to every review comment before merging"),
        ("Which Postgres version are we on?", "We are on Postgres sixteen"),
        ("What version of the API does staging use?", "Staging API is the v-next API"),
        ("What's the address of the Lyon office?", "The Lyon office is on Rue de la Paix, next to the station"),
        ("What is Ana's address?", "Ana lives on Baker Street in London"),
        ("When is Ana's birthday?", "Ana DOB: 1990-03-14"),
        ("When is Tomas's birthday?", "Tomas turns 40 on March 14"),
        ("What's the guest wifi password?", "The guest wifi key is lobby-hunter-22"),
        ("Where are the team passwords stored?", "We keep team credentials in Bitwarden"),
    ],
)
def test_an_everyday_wording_is_answered(query: str, line: str) -> None:
    assert answers_type(query, line)


@pytest.mark.parametrize(
    ("query", "line"),
    [
        ("Which Postgres version are we on?", "We moved the shop API to Postgres last spring"),
        ("What's the address of the Lyon office?", "The Lyon office hosts the design team"),
        ("When is Ana's birthday?", "Ana leads the data team"),
        ("What's the guest wifi password?", "Guests sit in the lobby on the ground floor"),
        ("Where are the team passwords stored?", "The team meets on Thursdays"),
    ],
)
def test_a_line_holding_none_still_answers_nothing(query: str, line: str) -> None:
    assert not answers_type(query, line)
