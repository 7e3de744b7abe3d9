"""The entry format (docs/architecture.md §2): byte-exact round trips, single-line edits,
metadata escaping, links, the ``by`` default, bad bytes and dedupe folding."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memrepo.engine.errors import FormatError
from memrepo.engine.format import entries as fmt

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- strategies --------------------------------------------------------------

# Any single line: every code point but the line break, NUL and lone surrogates
# (a lone "\r" stays inside its line, as the parser promises).
_any_line = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\x00"),
    max_size=80,
)

_fragments = st.sampled_from(
    [
        "# Heading",
        "## Index",
        "",
        "   ",
        "\t- tab indented entry [by: agent]",
        "- use [x] here [by: user]",
        "- see [[workspaces/billing]] and [[me|about me]] [kind: fact; by: agent]",
        "- value with escapes [source: a%3Bb%5Bc%5D; by: user]",
        "- 中文条目：使用 pnpm 安装依赖 [by: agent; added: 2024-05-01]",
        "- emoji 🚀🔥 entry 👩‍💻 [by: user]",
        "* star bullet [kind: lesson]",
        "+ plus bullet",
        "- [ ] a task box",
        "- [by: agent]",
        "- trailing spaces [by: agent]   ",
        "- trailing tab\t",
        "prose line with trailing space ",
        "```python",
        "- not an entry inside code [by: agent]",
        "```",
        "~~~",
        "---",
        "title: front matter",
        "...",
        "- " + "x" * 500,
        "- " + "長" * 500 + " [by: agent]",
        "- broken [meta",
        "- double [[link]] only",
        "- [[a#heading]] [by: user]",
    ]
)

_line = st.one_of(_fragments, _any_line)


@st.composite
def memory_files(draw: st.DrawFn) -> bytes:
    """A file mixing CRLF/LF, maybe a BOM, maybe front matter, maybe no final newline."""
    lines = draw(st.lists(_line, min_size=0, max_size=25))
    if draw(st.booleans()):
        lines = ["---", "title: notes", "tags: [a, b]", "---", *lines]
    endings = [draw(st.sampled_from(["\n", "\r\n"])) for _ in lines]
    if lines and draw(st.booleans()):
        endings[-1] = ""  # missing final newline
    text = "".join(line + end for line, end in zip(lines, endings, strict=True))
    data = text.encode("utf-8")
    if draw(st.booleans()):
        data = fmt.BOM + data
    return data


@st.composite
def files_with_an_entry(draw: st.DrawFn) -> bytes:
    """Like :func:`memory_files` but with at least one entry outside code and front matter."""
    before = draw(st.lists(_fragments.filter(lambda s: not s.startswith(("```", "~~~", "---"))), max_size=8))
    after = draw(st.lists(_line, max_size=8))
    lines = [*before, "- the entry to edit [by: agent; kind: fact]", *after]
    endings = [draw(st.sampled_from(["\n", "\r\n"])) for _ in lines]
    if draw(st.booleans()):
        endings[-1] = ""
    data = "".join(line + end for line, end in zip(lines, endings, strict=True)).encode("utf-8")
    return fmt.BOM + data if draw(st.booleans()) else data


def _split_lf(data: bytes) -> list[bytes]:
    """Bytes split after each ``\\n``, each line keeping its own ending."""
    out, start = [], 0
    while start < len(data):
        nl = data.find(b"\n", start)
        if nl == -1:
            out.append(data[start:])
            break
        out.append(data[start : nl + 1])
        start = nl + 1
    return out


_meta_keys = st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True)
_meta_values = (
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="%"),
        max_size=30,
    )
    .map(str.strip)
    .filter(lambda v: "://" not in v)  # a URL keeps its own escapes: tests/format/test_url_values.py
)

# -- round trips ---------------------------------------------------------------


@SETTINGS
@given(memory_files())
def test_parse_render_round_trips_byte_for_byte(data: bytes) -> None:
    assert fmt.parse(data).render() == data


@pytest.mark.parametrize(
    "data",
    [
        b"",
        fmt.BOM,
        b"\n",
        b"\r\n",
        b"no final newline",
        b"- a [by: agent]\r\n- b\n- c",
        b"---\r\ntitle: x\r\n---\r\n- entry [by: user]\r\n",
        b"\t- tab\t \n- " + ("\u4e2d" * 500).encode() + b"\n",
        b"lone \r carriage return\n",
        fmt.BOM + b"# Memory\r\n\r\n## Index\r\n- [[me]]\r\n- [[lessons]]",
    ],
)
def test_known_tricky_files_round_trip(data: bytes) -> None:
    assert fmt.parse(data).render() == data


def test_parse_keeps_each_lines_own_ending_and_bom() -> None:
    parsed = fmt.parse(fmt.BOM + b"a\r\nb\nc")
    assert parsed.bom
    assert [(ln.text, ln.ending) for ln in parsed.lines] == [("a", "\r\n"), ("b", "\n"), ("c", "")]


def test_front_matter_and_fenced_code_hold_no_entries() -> None:
    data = (
        b"---\n- front: matter\n---\n"
        b"- real one [by: agent]\n"
        b"```\n- code bullet\n```\n"
        b"~~~~\n- tilde code\n~~~\n- still code\n~~~~\n"
        b"- real two\n"
    )
    entries = fmt.parse(data).entries()
    assert [(n, e.text) for n, e in entries] == [(4, "real one"), (13, "real two")]


def test_html_comment_blocks_hold_no_entries() -> None:
    data = (
        b"- before\n"
        b"<!--\n- commented out [by: user]\n-->\n"
        b"  <!-- one line -->\n- after one line\n"
        b"<!-- opens\n- inside\n  still -->\n- after\n"
        b"- inline <!-- not a block\n- next\n"
    )
    parsed = fmt.parse(data)
    assert [(n, e.text) for n, e in parsed.entries()] == [
        (1, "before"),
        (6, "after one line"),
        (10, "after"),
        (11, "inline <!-- not a block"),
        (12, "next"),
    ]
    assert parsed.render() == data


@pytest.mark.parametrize(
    "opener",
    [b"```", b"~~~~", b"<!-- a note never closed", b"<!--"],
)
def test_an_opener_never_closed_hides_nothing_and_is_reported(opener: bytes) -> None:
    data = b"# proj\n\n" + opener + b"\n- Uses poetry [by: user]\n- Deploys on Fridays\n"
    parsed = fmt.parse(data)
    assert [(n, e.text) for n, e in parsed.entries()] == [(4, "Uses poetry"), (5, "Deploys on Fridays")]
    assert parsed.unclosed == [3]
    assert parsed.render() == data


def test_front_matter_never_closed_is_no_front_matter() -> None:
    parsed = fmt.parse(b"---\n- Uses poetry\n")
    assert [e.text for _, e in parsed.entries()] == ["Uses poetry"] and parsed.unclosed == [1]


def test_closed_blocks_report_nothing_unclosed() -> None:
    parsed = fmt.parse(b"---\nt: x\n---\n```\n- c\n```\n<!--\n- h\n-->\n<!-- x -->\n- real\n")
    assert parsed.unclosed == [] and [e.text for _, e in parsed.entries()] == ["real"]


def test_an_entry_appended_after_an_opener_never_closed_reads_back_as_an_entry() -> None:
    parsed = fmt.parse(b"# Lessons\n\nProse.\n\n```\nsome code\n")
    number = parsed.append_entry(fmt.Entry("", "-", "Run the linter", {"by": "agent"}))
    reread = fmt.parse(parsed.render())
    assert [(n, e.text) for n, e in reread.entries()] == [(number, "Run the linter")]


def test_append_under_a_section_goes_above_a_code_block_whose_comment_looks_like_a_heading() -> None:
    data = b"# Memory\n\n## Index\n- [[me]]\n```\n# a shell comment\n```\n"
    parsed = fmt.parse(data)
    number = parsed.append_entry(fmt.Entry("", "-", "[[lessons]]"), after_section="## Index")
    assert parsed.render() == b"# Memory\n\n## Index\n- [[me]]\n- [[lessons]]\n```\n# a shell comment\n```\n"
    assert number == 5


def test_append_after_a_closed_block_goes_at_the_end() -> None:
    data = b"# Lessons\n\n```\n- code\n```\n"
    parsed = fmt.parse(data)
    assert parsed.append_entry(fmt.Entry("", "-", "Run the linter")) == 6
    assert [e.text for _, e in fmt.parse(parsed.render()).entries()] == ["Run the linter"]


# -- editing touches only the changed lines -------------------------------------


@SETTINGS
@given(files_with_an_entry(), st.text(alphabet="abc xyz;[]%", min_size=1, max_size=20))
def test_editing_one_entry_changes_only_that_lines_bytes(data: bytes, new_text: str) -> None:
    parsed = fmt.parse(data)
    number, entry = next((n, e) for n, e in parsed.entries() if e.text == "the entry to edit")
    replacement = fmt.Entry(
        entry.indent, entry.bullet, new_text.strip() or "x", {"by": "user", "note": new_text.strip()}
    )
    parsed.set_entry(number, replacement)
    out = parsed.render()

    body_in = data[len(fmt.BOM) :] if data.startswith(fmt.BOM) else data
    body_out = out[len(fmt.BOM) :] if out.startswith(fmt.BOM) else out
    assert out.startswith(fmt.BOM) == data.startswith(fmt.BOM)
    lines_in, lines_out = _split_lf(body_in), _split_lf(body_out)
    assert len(lines_in) == len(lines_out)
    for i, (before, after) in enumerate(zip(lines_in, lines_out, strict=True), start=1):
        if i == number:
            ending = before[len(before.rstrip(b"\r\n")) :]
            assert after == replacement.render().encode() + ending
        else:
            assert after == before
    # And the edited line reads back as the new entry.
    reread = fmt.parse(out).entry_at(number)
    assert reread is not None
    assert reread.text == replacement.text
    assert reread.meta == replacement.meta


@SETTINGS
@given(files_with_an_entry())
def test_removing_a_line_removes_only_its_bytes(data: bytes) -> None:
    parsed = fmt.parse(data)
    number = next(n for n, e in parsed.entries() if e.text == "the entry to edit")
    body = data[len(fmt.BOM) :] if data.startswith(fmt.BOM) else data
    lines = _split_lf(body)
    removed = parsed.remove_line(number)
    assert removed.text == "- the entry to edit [by: agent; kind: fact]"
    expected = b"".join(lines[: number - 1] + lines[number:])
    out = parsed.render()
    assert out == (fmt.BOM + expected if data.startswith(fmt.BOM) else expected)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"# T\n- a [by: user]", b"# T\n- a [by: user]\n- new [by: agent]"),
        (b"# T\r\n- a [by: user]", b"# T\r\n- a [by: user]\r\n- new [by: agent]"),
        (b"# T\n\n- a\n\n## Next\n", b"# T\n\n- a\n- new [by: agent]\n\n## Next\n"),
        (b"", b"- new [by: agent]\n"),
    ],
)
def test_append_keeps_the_old_bytes_and_the_files_newline(data: bytes, expected: bytes) -> None:
    parsed = fmt.parse(data)
    number = parsed.append_entry(fmt.Entry("", "-", "new", {"by": "agent"}))
    out = parsed.render()
    assert out == expected
    assert fmt.parse(out).entry_at(number) == fmt.Entry("", "-", "new", {"by": "agent"})


def test_append_to_a_file_without_final_newline_only_adds_bytes() -> None:
    data = fmt.BOM + "# Notes\r\n\r\n- 第一 [by: user]\r\n- last one, no newline".encode()
    parsed = fmt.parse(data)
    parsed.append_entry(fmt.Entry("", "-", "added", {"by": "agent"}))
    out = parsed.render()
    # Only bytes are added: the old last line gets the file's own CRLF, then the new line.
    assert out == data + b"\r\n- added [by: agent]"


def test_append_under_a_section_goes_after_its_last_line() -> None:
    data = b"# Memory\n\n- pinned\n\n## Index\n- [[me]]\n\n## Other\nprose\n"
    parsed = fmt.parse(data)
    parsed.append_entry(fmt.Entry("", "-", "[[workspaces/x]]"), after_section="## Index")
    assert parsed.render() == b"# Memory\n\n- pinned\n\n## Index\n- [[me]]\n- [[workspaces/x]]\n\n## Other\nprose\n"


def test_append_before_a_section_stays_above_it() -> None:
    data = b"# Memory\n\n- pinned one\n\n## Index\n- [[me]]\n"
    parsed = fmt.parse(data)
    parsed.append_entry(fmt.Entry("", "-", "pinned two", {"by": "user"}), before_section="## Index")
    assert parsed.render() == b"# Memory\n\n- pinned one\n- pinned two [by: user]\n\n## Index\n- [[me]]\n"


# -- metadata --------------------------------------------------------------------


def test_metadata_value_with_reserved_characters_is_escaped_and_decoded() -> None:
    entry = fmt.Entry("", "-", "see the doc", {"source": "a;b [c] d", "by": "agent"})
    line = entry.render()
    assert line == "- see the doc [source: a%3Bb %5Bc%5D d; by: agent]"
    back = fmt.parse_entry(line)
    assert back is not None
    assert back.meta == {"source": "a;b [c] d", "by": "agent"}
    assert back.text == "see the doc"


def test_escapes_decode_in_any_case() -> None:
    entry = fmt.parse_entry("- x [k: %3b%5b%5d]")
    assert entry is not None
    assert entry.meta == {"k": ";[]"}


def test_encode_folds_line_breaks() -> None:
    assert fmt.encode_value("a\r\nb\nc") == "a  b c"


@SETTINGS
@given(st.dictionaries(_meta_keys, _meta_values, min_size=1, max_size=5))
def test_metadata_encode_decode_round_trip(meta: dict[str, str]) -> None:
    for value in meta.values():
        assert fmt.decode_value(fmt.encode_value(value)) == value
    line = fmt.Entry("", "-", "text", meta).render()
    back = fmt.parse_entry(line)
    assert back is not None
    assert back.meta == meta
    assert back.text == "text"


_entry_text = (
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
        min_size=1,
        max_size=120,
    )
    .map(lambda s: " ".join(s.split()))
    .filter(bool)
)


@SETTINGS
@given(_entry_text, st.sampled_from(["agent", "user"]))
def test_a_written_entry_reads_back_with_its_text_and_metadata(text: str, by: str) -> None:
    # What the writer writes (text folded to one line, then metadata) must read
    # back the same, whatever brackets the text holds; otherwise an agent line
    # could lose its ``by: agent`` and pass for the user's.
    entry = fmt.Entry("", "-", text, {"by": by, "kind": "fact"})
    back = fmt.parse_entry(entry.render())
    assert back is not None
    assert back.meta == {"by": by, "kind": "fact"}
    assert back.text == text
    assert back.by == by


def test_brackets_inside_entry_text_are_not_metadata() -> None:
    entry = fmt.parse_entry("- use [x] here [by: user]")
    assert entry is not None
    assert entry.text == "use [x] here"
    assert entry.meta == {"by": "user"}
    for line, text in [
        ("- a [citation] only", "a [citation] only"),
        ("- see [[me]]", "see [[me]]"),
        ("- ends with [not: meta] then words", "ends with [not: meta] then words"),
        ("- x [[by: agent]]", "x [[by: agent]]"),
    ]:
        parsed = fmt.parse_entry(line)
        assert parsed is not None
        assert (parsed.text, parsed.meta) == (text, {}), line


def test_a_redaction_marker_ending_a_line_is_text_not_metadata() -> None:
    """Break-it report: ``- bot token [REDACTED:github-token]`` read as {"redacted": "github-token"} and the
    marker vanished from show, recall and the context block."""
    for line, text, meta in [
        ("- bot token [REDACTED:github-token]", "bot token [REDACTED:github-token]", {}),
        ("- key [REDACTED:private-key]  ", "key [REDACTED:private-key]", {}),
        ("- [REDACTED:aws-access-key-id]", "[REDACTED:aws-access-key-id]", {}),
        # what remember writes: the metadata after the marker is still metadata
        (
            "- bot token [REDACTED:github-token] [by: user; kind: fact]",
            "bot token [REDACTED:github-token]",
            {"by": "user", "kind": "fact"},
        ),
        # not the marker's form: metadata as before
        ("- x [redacted: no]", "x", {"redacted": "no"}),
        ("- x [REDACTED:github-token; by: agent]", "x", {"redacted": "github-token", "by": "agent"}),
    ]:
        parsed = fmt.parse_entry(line)
        assert parsed is not None
        assert (parsed.text, parsed.meta) == (text, meta), line
    entry = fmt.parse_entry("- bot token [REDACTED:github-token]")
    assert entry is not None and entry.render() == "- bot token [REDACTED:github-token]"


def test_what_redaction_writes_at_the_end_of_a_line_stays_text() -> None:
    from memrepo.engine.redaction import redact

    out, types = redact("bot token ghp_" + "A1b2C3d4" * 4 + "Zz9y")
    assert types == ["github-token"] and out.endswith("[REDACTED:github-token]")
    entry = fmt.parse_entry("- " + out)
    assert entry is not None
    assert (entry.text, entry.meta) == (out, {})


def test_metadata_keys_are_lower_cased_and_values_trimmed() -> None:
    entry = fmt.parse_entry("- x [By:  agent ;Kind:lesson]")
    assert entry is not None
    assert entry.meta == {"by": "agent", "kind": "lesson"}


# -- by, links, errors, dedupe -----------------------------------------------


@pytest.mark.parametrize(
    ("line", "by"),
    [
        ("- no metadata at all", "user"),
        ("- other keys only [kind: fact; added: 2024-01-01]", "user"),
        ("- said by the user [by: user]", "user"),
        ("- said by the agent [by: agent]", "agent"),
        ("- upper case value [by: AGENT]", "agent"),
        ("- [by: agent] is not metadata when words follow", "user"),
    ],
)
def test_a_line_without_by_counts_as_the_users(line: str, by: str) -> None:
    entry = fmt.parse_entry(line)
    assert entry is not None
    assert entry.by == by


def test_links_are_extracted_without_alias_or_heading() -> None:
    text = (
        "- see [[workspaces/x]] and [[me|the user]]\n"
        "- then [[a#heading]], [[lessons]] [by: agent]\n"
        "not a link: [single] or [[]]\n"
    )
    assert fmt.extract_links(text) == ["workspaces/x", "me", "a", "lessons"]
    view = fmt.parse(text.encode())
    assert fmt.extract_links(view.text()) == ["workspaces/x", "me", "a", "lessons"]


def test_non_utf8_bytes_raise_a_clear_format_error() -> None:
    with pytest.raises(FormatError) as info:
        fmt.parse(b"- ok\n- caf\xe9 latin-1\n", "notes.md")
    message = str(info.value)
    assert "notes.md" in message
    assert "UTF-8" in message


def test_nul_bytes_raise_a_clear_format_error() -> None:
    with pytest.raises(FormatError) as info:
        fmt.parse(b"- ok\n\x00\x01binary", "blob.md")
    message = str(info.value)
    assert "blob.md" in message
    assert "binary" in message and "NUL" in message


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Uses pnpm.", "uses pnpm"),
        ("uses   pnpm", " Uses\tPNPM "),
        ("ｕｓｅｓ　ｐｎｐｍ", "uses pnpm"),  # full-width forms fold under NFKC
        ("Straße", "STRASSE"),  # case folding, not just lower()
        ("Deploy with make!", "deploy with make"),
        ("用 pnpm 安装。", "用 pnpm 安装"),
    ],
)
def test_normalize_text_folds_equivalent_entries(a: str, b: str) -> None:
    assert fmt.normalize_text(a) == fmt.normalize_text(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("uses pnpm", "uses npm"),
        ("a.b", "ab"),
        ("v1.2", "v12"),
        ("do not deploy", "deploy"),
    ],
)
def test_normalize_text_keeps_different_entries_apart(a: str, b: str) -> None:
    assert fmt.normalize_text(a) != fmt.normalize_text(b)


def test_a_bullet_that_only_links_is_not_an_entry() -> None:
    parsed = fmt.parse(b"## Index\n- [[me]]\n- [[a]], [[b]]\n- see [[me]]\n- [[me]] [by: agent]\n")
    assert [e.text for _, e in parsed.entries()] == ["see [[me]]", "[[me]]"]
    assert parsed.render() == b"## Index\n- [[me]]\n- [[a]], [[b]]\n- see [[me]]\n- [[me]] [by: agent]\n"


def test_a_copy_edits_independently_and_renders_the_same_bytes() -> None:
    data = b"# T\r\n- one [by: user]\r\n- two"
    original = fmt.parse(data)
    copy = original.copy()
    assert copy.render() == data
    copy.append_entry(fmt.Entry("", "-", "three", {"by": "agent"}))
    copy.remove_line(2)
    assert original.render() == data
    assert copy.render() == b"# T\r\n- two\r\n- three [by: agent]"
