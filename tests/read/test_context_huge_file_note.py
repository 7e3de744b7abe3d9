"""A memory file over the context read cap: the block says only its first part was read, never a count that
reads as the whole (breaker24 B24-11; engine/read/contextnote.py, docs/architecture.md §4).

A 5 MB me.md ended in "(4022 more entries in me.md not shown ...; search them with recall or read me.md with
memory_read)": the file held 79,432 more, and both ways refuse a file that large. The readers hand the block
the first :data:`READ_MAX` bytes of a file (``read_work_file(path, READ_MAX)``), as here.
"""

from __future__ import annotations

from memrepo.engine.read.context import ME_BUDGET, READ_MAX, ContextFile, build_context


def _me(entries: int, pad: int) -> bytes:
    """me.md with ``entries`` entry lines (more than its budget shows) after ``pad`` bytes of hand-written prose."""
    prose = b"Notes written by hand, not entries, to grow the file past the cap.\n" * (pad // 68 + 1)
    data = b"# About me\n\n" + b"".join(
        b"- Hand-grown fact number %d about the project [by: user]\n" % n for n in range(entries)
    )
    return (data + prose[:pad])[:READ_MAX]


def test_a_file_over_the_read_cap_is_named_as_partly_read() -> None:
    data = _me(80, READ_MAX)
    assert len(data) == READ_MAX
    text = build_context("abc1234", [ContextFile("me.md", data, ME_BUDGET, user_first=True)]).text
    assert f"me.md is over {READ_MAX // 1024} KB: only its first part was read" in text
    assert "more entries in me.md not shown" not in text and "search them with recall" not in text


def test_a_file_under_the_cap_keeps_its_count() -> None:
    text = build_context("abc1234", [ContextFile("me.md", _me(80, 0), ME_BUDGET, user_first=True)]).text
    assert "more entries in me.md not shown" in text and "only its first part was read" not in text
