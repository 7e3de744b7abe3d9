"""Merge-conflict regions are no entries; a stray marker hides nothing (engine/format/conflicts.py)."""

from __future__ import annotations

from memrepo.engine.format import entries as fmt
from memrepo.engine.format.conflicts import conflicted_lines

CONFLICT = """# About me

- Keeps notes in plain text [by: user]
<<<<<<< HEAD
- Uses bash shell [by: user]
=======
- Uses zsh shell [by: user]
>>>>>>> other
- Drinks oolong tea [by: user]
"""


def _texts(data: str) -> list[str]:
    return [e.text for _n, e in fmt.parse(data).entries()]


def test_both_sides_of_a_conflict_are_no_entries_and_the_rest_are() -> None:
    assert _texts(CONFLICT) == ["Keeps notes in plain text", "Drinks oolong tea"]
    assert conflicted_lines(CONFLICT.encode()) == [(4, 8)]
    assert fmt.parse(CONFLICT).render() == CONFLICT.encode()  # the bytes are kept as they are


def test_a_diff3_conflict_with_crlf_endings_is_one_region() -> None:
    diff3 = CONFLICT.replace("=======", "||||||| base\n- Uses fish shell [by: user]\n=======").replace("\n", "\r\n")
    assert _texts(diff3) == ["Keeps notes in plain text", "Drinks oolong tea"]
    assert conflicted_lines(diff3.encode()) == [(4, 10)]


def test_a_stray_or_unclosed_marker_hides_nothing() -> None:
    for text in (
        CONFLICT.replace(">>>>>>> other\n", ""),  # never closed
        CONFLICT.replace("=======\n", ""),  # no middle
        CONFLICT.replace("<<<<<<< HEAD", "<<<<<<<< eight"),  # not git's marker
    ):
        assert "Uses bash shell" in _texts(text) and "Drinks oolong tea" in _texts(text)
        assert conflicted_lines(text.encode()) == []
