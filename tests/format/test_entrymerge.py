"""The entry-aware three-way merge of memory files (engine/format/merge.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.engine.format import entries as fmt
from memrepo.engine.format.merge import CONFLICT_KEY, merge_entries, strip_conflict

HEAD = b"# About me\n\nIdentity, preferences and corrections.\n\n"


def entries(data: bytes) -> list[str]:
    return [e.text for _, e in fmt.parse(data).entries()]


def test_both_sides_append_different_entries_both_kept_ours_first() -> None:
    base = HEAD + b"- A [by: user]\n"
    result = merge_entries(base, base + b"- ours [by: agent]\n", base + b"- theirs [by: agent]\n")
    assert result.data == base + b"- ours [by: agent]\n- theirs [by: agent]\n"
    assert result.conflicts == []


def test_an_entry_both_sides_added_is_kept_once() -> None:
    base = HEAD + b"- A\n"
    result = merge_entries(base, base + b"- same\n- ours\n", base + b"- same\n")
    assert entries(result.data) == ["A", "same", "ours"]


def test_removed_on_one_side_untouched_on_the_other_is_removed() -> None:
    base = HEAD + b"- A\n- B\n- C\n"
    result = merge_entries(base, HEAD + b"- A\n- C\n", base + b"- D\n")
    assert entries(result.data) == ["A", "C", "D"]


def test_edit_wins_over_untouched_and_over_removal() -> None:
    base = HEAD + b"- A uses npm\n- B\n"
    edited = HEAD + b"- A uses pnpm now\n- B\n"
    assert entries(merge_entries(base, edited, base + b"- C\n").data) == ["A uses pnpm now", "B", "C"]
    removed = HEAD + b"- B\n"
    assert entries(merge_entries(base, removed, edited).data) == ["A uses pnpm now", "B"]


def test_same_entry_edited_differently_keeps_both_with_a_conflict_key() -> None:
    base = HEAD + b"- editor is vim [by: user]\n- B\n"
    ours = HEAD + b"- editor is neovim [by: user]\n- B\n"
    theirs = HEAD + b"- editor is helix [by: user]\n- B\n"
    result = merge_entries(base, ours, theirs)
    parsed = fmt.parse(result.data)
    marked = [e for _, e in parsed.entries() if CONFLICT_KEY in e.meta]
    assert [e.text for e in marked] == ["editor is neovim", "editor is helix"]
    assert marked[0].meta[CONFLICT_KEY] == marked[1].meta[CONFLICT_KEY] == result.conflicts[0].id
    assert marked[0].meta["by"] == "user"
    assert result.conflicts[0].kind == "entry"
    assert b"<<<<<<<" not in result.data and b">>>>>>>" not in result.data
    # Deterministic: the other machine merging the same versions writes the same id.
    assert merge_entries(base, ours, theirs).data == result.data


def test_prose_edited_differently_keeps_both_lines_without_markers() -> None:
    base = b"# About me\n\nIntro.\n\n- A\n"
    result = merge_entries(base, base.replace(b"Intro.", b"Intro, ours."), base.replace(b"Intro.", b"Intro, theirs."))
    assert result.data == b"# About me\n\nIntro, ours.\nIntro, theirs.\n\n- A\n"
    assert [c.kind for c in result.conflicts] == ["line"]


def test_index_is_a_union_of_links() -> None:
    idx = b"# Memory\n\n## Index\n- [[me]]\n- [[lessons]]\n"
    result = merge_entries(idx, idx + b"- [[workspaces/a]]\n", idx + b"- [[workspaces/b]]\n- [[workspaces/a]]\n")
    links = fmt.extract_links(result.data.decode())
    assert links == ["me", "lessons", "workspaces/a", "workspaces/b"]
    assert result.conflicts == []
    # A link removed on one side and untouched on the other goes.
    gone = merge_entries(idx, idx.replace(b"- [[lessons]]\n", b""), idx + b"- [[workspaces/b]]\n")
    assert fmt.extract_links(gone.data.decode()) == ["me", "workspaces/b"]


def test_untouched_bytes_are_kept_exactly_crlf_bom_trailing_space() -> None:
    base = fmt.BOM + b"# T\r\n\r\n- A  \r\n- B\t\r\n"
    result = merge_entries(base, base + b"- C\r\n", base + b"- D\r\n")
    assert result.data == base + b"- C\r\n- D\r\n"


def test_missing_final_newline_never_glues_lines() -> None:
    result = merge_entries(b"- A", b"- A\n- X", b"- A\n- Y")
    assert result.data == b"- A\n- X\n- Y"


def test_file_added_on_both_sides_without_a_base() -> None:
    result = merge_entries(None, b"# N\n\n- ours\n", b"# N\n\n- theirs\n")
    assert entries(result.data) == ["ours", "theirs"]
    assert result.data.count(b"# N") == 1


def test_strip_conflict_removes_only_the_key() -> None:
    assert strip_conflict("- x [by: user; conflict: 0123abcd]") == "- x [by: user]"
    assert strip_conflict("- x [conflict: 0123abcd]") == "- x"
    assert strip_conflict("plain prose") == "plain prose"


# -- properties ----------------------------------------------------------

_word = st.text(alphabet="abcdefghij xyz", min_size=1, max_size=12).map(lambda s: s.strip() or "w")
_entry_line = st.builds(lambda w, by: f"- {w} [by: {by}]", _word, st.sampled_from(["user", "agent"]))
_line = st.one_of(
    _entry_line, st.just(""), st.just("## Index"), st.just("- [[me]]"), _word, st.just("- <<<< not a marker")
)
_file = st.tuples(st.lists(_line, max_size=8), st.sampled_from(["\n", "\r\n"]), st.booleans()).map(
    lambda t: (t[1].join(t[0]) + (t[1] if t[2] and t[0] else "")).encode()
)


@settings(max_examples=200, deadline=None)
@given(_file, _file)
def test_property_one_side_unchanged_gives_the_other(base: bytes, x: bytes) -> None:
    assert merge_entries(base, x, base).data == x
    assert merge_entries(base, base, x).data == x
    assert merge_entries(base, x, x).data == x


@settings(max_examples=200, deadline=None)
@given(_file, _file, _file)
def test_property_never_markers_and_every_added_entry_survives(base: bytes, ours: bytes, theirs: bytes) -> None:
    result = merge_entries(base, ours, theirs)
    text = result.data.decode()
    assert "<<<<<<<" not in text and "=======" not in text and ">>>>>>>" not in text
    merged = {fmt.normalize_text(t) for t in entries(result.data)}
    base_lines = set(base.decode().splitlines())
    for side in (ours, theirs):
        for line in side.decode().splitlines():
            entry = fmt.parse_entry(line)
            if line not in base_lines and entry is not None and fmt.parse(line.encode()).entries():
                assert fmt.normalize_text(entry.text) in merged, line


@settings(max_examples=200, deadline=None)
@given(st.lists(_word, min_size=1, max_size=8, unique=True), st.data())
def test_property_removals_and_appends_from_both_sides(words: list[str], data: st.DataObject) -> None:
    base_entries = [f"- base {w}" for w in words]
    removed = data.draw(st.sets(st.sampled_from(base_entries)))
    ours_new = [f"- ours {w}" for w in data.draw(st.lists(_word, max_size=3, unique=True))]
    theirs_new = [f"- theirs {w}" for w in data.draw(st.lists(_word, max_size=3, unique=True))]

    def render(lines: list[str]) -> bytes:
        return ("# F\n\n" + "".join(line + "\n" for line in lines)).encode()

    base = render(base_entries)
    ours = render([e for e in base_entries if e not in removed] + ours_new)
    theirs = render(base_entries + theirs_new)
    result = merge_entries(base, ours, theirs)
    got = [f"- {t}" for t in entries(result.data)]
    assert got == [e for e in base_entries if e not in removed] + ours_new + theirs_new
    assert result.conflicts == []
