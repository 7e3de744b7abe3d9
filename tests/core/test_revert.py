"""The entry-aware revert behind undo: lines, not hunks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.engine.write.revert import RevertConflict, revert_text

HEAD = b"# About me\n\n"


def test_taking_out_an_added_line_ignores_lines_appended_after_it() -> None:
    before, after = HEAD + b"- a\n", HEAD + b"- a\n- b\n"
    assert revert_text(before, after, after + b"- c\n- d\n") == HEAD + b"- a\n- c\n- d\n"


def test_a_removed_line_comes_back_after_its_neighbour() -> None:
    before, after = HEAD + b"- a\n- b\n- c\n", HEAD + b"- a\n- c\n"
    assert revert_text(before, after, HEAD + b"- a\n- c\n- d\n") == before + b"- d\n"


def test_a_removed_line_comes_back_when_its_neighbour_was_removed_since() -> None:
    before, after = HEAD + b"- a\n- m\n- a\n- c\n", HEAD + b"- a\n- m\n- c\n"
    assert revert_text(before, after, HEAD + b"- a\n- c\n") == HEAD + b"- a\n- a\n- c\n"
    # every line before it gone: it goes back before the next line that stands
    before, after = b"- x\n- y\n- z\n", b"- x\n- z\n"
    assert revert_text(before, after, b"- z\n") == b"- y\n- z\n"
    with pytest.raises(RevertConflict, match="no line around"):
        revert_text(before, after, b"- other\n")


def test_a_replaced_line_is_restored_when_the_new_one_still_stands() -> None:
    before, after = HEAD + b"- old [subject: x]\n", HEAD + b"- new [subject: x]\n"
    assert revert_text(before, after, after + b"- later\n") == before + b"- later\n"


def test_a_line_changed_since_is_a_conflict() -> None:
    before, after = HEAD, HEAD + b"- mine\n"
    with pytest.raises(RevertConflict, match="changed or removed"):
        revert_text(before, after, HEAD + b"- mine, edited\n")


def test_files_made_or_deleted_by_the_commit() -> None:
    assert revert_text(None, b"x\n", b"x\n") is None
    with pytest.raises(RevertConflict, match="made by this commit and changed"):
        revert_text(None, b"x\n", b"x\ny\n")
    assert revert_text(b"x\n", None, None) == b"x\n"
    with pytest.raises(RevertConflict):
        revert_text(b"x\n", None, b"again\n")
    with pytest.raises(RevertConflict, match="deleted since"):
        revert_text(b"x\n", b"y\n", None)


def test_crlf_and_a_missing_final_newline_survive() -> None:
    before, after = b"# T\r\n- a\r\n- b", b"# T\r\n- b"
    assert revert_text(before, after, after) == before
    before, after = b"# T\r\n- a", b"# T\r\n- a\r\n- b"
    assert revert_text(before, after, after) == before


_LINE = st.sampled_from([b"- a\n", b"- b\n", b"- c\n", b"# H\n", b"\n", b"- a\r\n", b"- d"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINE, max_size=12), st.lists(_LINE, max_size=12))
def test_undoing_the_latest_commit_gives_back_the_parent_exactly(old: list[bytes], new: list[bytes]) -> None:
    before, after = b"".join(old), b"".join(new)
    if before == after:
        return
    assert revert_text(before, after, after) == before


def _key(line: bytes) -> str | None:
    text = line.decode().strip()
    return text[2:].casefold().rstrip(".") if text.startswith("- ") else None


def test_with_a_key_a_removed_entry_that_stands_again_is_not_put_back() -> None:
    before, after = HEAD + b"- a\n- Tea\n- c\n", HEAD + b"- a\n- c\n"
    current = HEAD + b"- a\n- c\n- tea.\n"
    assert revert_text(before, after, current) == HEAD + b"- a\n- Tea\n- c\n- tea.\n"
    assert revert_text(before, after, current, key=_key) == current
    # an entry moved within the file comes back to its place: the copy it stood as is taken out first
    before, after = b"- x\n- y\n- z\n", b"- y\n- z\n- x\n"
    assert revert_text(before, after, after, key=_key) == before


def test_with_a_key_a_removed_duplicate_comes_back() -> None:
    before, after = HEAD + b"- tea\n- tea\n- c\n", HEAD + b"- tea\n- c\n"
    assert revert_text(before, after, after, key=_key) == before
