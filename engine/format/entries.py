"""The entry format of a memory file (docs/architecture.md §2): parse, edit, write back.

A memory file is markdown. Every bullet line outside front matter, fenced
code and HTML comment blocks (``<!--`` at a line's start up to the line
holding ``-->``, as CommonMark reads them) is an *entry* (except a bullet that
only links, ``- [[me]]`` in an index): ``- text [key: value; key: value]``, metadata last. Values
cannot hold ``;``, ``[`` or ``]``; they are stored as ``%3B``, ``%5B``, ``%5D``
and decoded on read.

:func:`parse` keeps every byte it reads: the BOM, each line's own ending
(``\\n`` or ``\\r\\n``), trailing whitespace, a missing final newline. A
:class:`MemoryFile` renders back to the exact input bytes until a line is
changed, and then only that line's bytes change (plus the newline a new last
line needs).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from memrepo.engine.errors import FormatError, RefError

from .conflicts import conflict_regions
from .metadata import REDACTION_MARK_RE as REDACTION_MARK_RE  # the metadata codec, re-exported: callers read it here
from .metadata import decode_value as decode_value
from .metadata import encode_value as encode_value
from .metadata import parse_metadata as parse_metadata
from .metadata import render_metadata as render_metadata

BOM = b"\xef\xbb\xbf"

_BULLET_RE = re.compile(r"(?P<indent>[ \t\ufeff]*)(?P<bullet>[-*+])[ \t]+(?P<body>.*)", re.DOTALL)
"""A bullet line; a stray U+FEFF before the bullet (an editor's or a paste's) never hides the entry."""
_LINK_RE = re.compile(r"\[\[([^\[\]|#]+?)(?:[#|][^\[\]]*)?\]\]")
_FENCE_RE = re.compile(r"^[ \t]{0,3}(```+|~~~+)")
_COMMENT_OPEN_RE = re.compile(r"^[ \t]{0,3}<!--")
_WS_RE = re.compile(r"\s+")


def normalize_text(text: str) -> str:
    """Fold entry text for dedupe (docs/architecture.md §3): NFKC, case-folded, spaces collapsed.

    Trailing sentence punctuation is dropped, so "Uses pnpm." and "uses pnpm"
    are the same entry.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = _WS_RE.sub(" ", folded).strip()
    return folded.rstrip(" .!。！;；")


def extract_links(text: str) -> list[str]:
    """Return the ``[[links]]`` in text, in order, as written (no ``.md``).

    Args:
        text: any markdown text.

    Returns:
        list[str]: link targets, stripped, with a ``#heading`` or ``|alias`` part removed.
    """
    return [m.group(1).strip() for m in _LINK_RE.finditer(text)]


def is_link_line(text: str) -> bool:
    """True when bullet text holds only ``[[links]]`` (and separators), like an index line."""
    if "[[" not in text:
        return False
    return not _LINK_RE.sub("", text).strip(" \t,;·|-–—")


class Entry:
    """One bullet line read as an entry.

    A plain slotted class with value equality, not a dataclass: a one-shot
    ``memrepo recall`` that re-reads a hand-edited file would import
    ``dataclasses`` (and ``inspect``) for it, 5 ms of a 40 ms command.

    Attributes:
        indent: leading whitespace before the bullet.
        bullet: ``-``, ``*`` or ``+``.
        text: the entry text without metadata, as written.
        meta: decoded metadata, keys lower-cased, in file order (a new dict when omitted).
    """

    __slots__ = ("bullet", "indent", "meta", "text")
    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __init__(self, indent: str, bullet: str, text: str, meta: dict[str, str] | None = None) -> None:
        self.indent = indent
        self.bullet = bullet
        self.text = text
        self.meta: dict[str, str] = {} if meta is None else meta

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Entry):
            return NotImplemented
        return (self.indent, self.bullet, self.text, self.meta) == (other.indent, other.bullet, other.text, other.meta)

    def __repr__(self) -> str:
        return f"Entry(indent={self.indent!r}, bullet={self.bullet!r}, text={self.text!r}, meta={self.meta!r})"

    @property
    def by(self) -> str:
        """``user`` or ``agent``; a line without a ``by`` key counts as the user's (§2)."""
        return "agent" if self.meta.get("by", "").strip().lower() == "agent" else "user"

    def render(self) -> str:
        """The line text (no line ending) for this entry."""
        line = f"{self.indent}{self.bullet} {self.text}"
        if self.meta:
            line += " " + render_metadata(self.meta)
        return line


class Line:
    """One line of a file (a plain slotted class, as :class:`Entry` says why).

    Attributes:
        text: the line without its ending, exactly as read (or as rewritten).
        ending: ``"\\n"``, ``"\\r\\n"`` or ``""`` (the last line with no newline).
        entry: the entry on this line, or None for headings, prose, front
            matter, code and blank lines.
        changed: True once the line was rewritten or added.
    """

    __slots__ = ("changed", "ending", "entry", "text")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, text: str, ending: str, entry: Entry | None = None, changed: bool = False) -> None:
        self.text = text
        self.ending = ending
        self.entry = entry
        self.changed = changed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Line):
            return NotImplemented
        return (self.text, self.ending, self.entry, self.changed) == (
            other.text,
            other.ending,
            other.entry,
            other.changed,
        )

    def __repr__(self) -> str:
        return f"Line(text={self.text!r}, ending={self.ending!r}, entry={self.entry!r}, changed={self.changed!r})"


def parse_entry(text: str) -> Entry | None:
    """Read one line (without ending) as an entry.

    Returns:
        Entry | None: the entry, or None when the line is not a bullet.
    """
    m = _BULLET_RE.match(text)
    if m is None:
        return None
    body = m.group("body")
    meta: dict[str, str] = {}
    tail = body.rstrip(" \t")
    if tail.endswith("]"):
        # Trailing metadata: the last bracket group, holding no bracket, not
        # the inside of a ``[[link]]``.
        start = tail.rfind("[")
        if start >= 0 and (start == 0 or tail[start - 1] != "["):
            inner = tail[start + 1 : -1]
            if "]" not in inner:
                parsed = parse_metadata(inner)
                if parsed is not None:
                    meta = parsed
                    body = tail[:start]
    return Entry(indent=m.group("indent"), bullet=m.group("bullet"), text=body.rstrip(), meta=meta)


class MemoryFile:
    """A parsed memory file that renders back byte for byte (a plain slotted class, as :class:`Entry` says why).

    Attributes:
        lines: every line in order; ``lines[i]`` is line ``i + 1``.
        bom: True when the file started with a UTF-8 BOM.
        unclosed: 1-based numbers of the lines that open a code block,
            comment or front matter never closed, as parsed (see
            :func:`scan_blocks`); not kept up to date by edits.
    """

    __slots__ = ("bom", "lines", "unclosed")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, lines: list[Line], bom: bool = False, unclosed: list[int] | None = None) -> None:
        self.lines = lines
        self.bom = bom
        self.unclosed: list[int] = [] if unclosed is None else unclosed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MemoryFile):
            return NotImplemented
        return (self.lines, self.bom, self.unclosed) == (other.lines, other.bom, other.unclosed)

    def __repr__(self) -> str:
        return f"MemoryFile(lines={self.lines!r}, bom={self.bom!r}, unclosed={self.unclosed!r})"

    @property
    def newline(self) -> str:
        """The file's dominant line ending, used for new and rewritten lines."""
        crlf = sum(1 for line in self.lines if line.ending == "\r\n")
        lf = sum(1 for line in self.lines if line.ending == "\n")
        return "\r\n" if crlf > lf else "\n"

    def entries(self) -> list[tuple[int, Entry]]:
        """Return ``(line number, entry)`` pairs; line numbers start at 1."""
        return [(i + 1, line.entry) for i, line in enumerate(self.lines) if line.entry is not None]

    def entry_at(self, number: int) -> Entry | None:
        """Return the entry on 1-based line ``number``, or None."""
        if 1 <= number <= len(self.lines):
            return self.lines[number - 1].entry
        return None

    def set_entry(self, number: int, entry: Entry) -> None:
        """Rewrite line ``number`` (1-based) as ``entry``, keeping its line ending."""
        line = self.lines[number - 1]
        line.text = entry.render()
        line.entry = entry
        line.changed = True

    def remove_line(self, number: int) -> Line:
        """Delete line ``number`` (1-based) and return it.

        When the removed line was the last one and had no newline, the new
        last line keeps its newline: only the removed bytes go.
        """
        return self.lines.pop(number - 1)

    def insert_line(self, index: int, text: str, entry: Entry | None = None) -> int:
        """Insert a line before 0-based ``index`` (``len(lines)`` appends).

        Returns:
            int: the new line's 1-based number.
        """
        nl = self.newline
        if index >= len(self.lines):
            index = len(self.lines)
            if self.lines and self.lines[-1].ending == "":
                # The old last line needs a newline before a line can follow it;
                # the new line then ends without one, as the file did.
                self.lines[-1].ending = nl
                self.lines[-1].changed = True
                self.lines.append(Line(text, "", entry, True))
                return index + 1
        self.lines.insert(index, Line(text, nl, entry, True))
        return index + 1

    def append_entry(self, entry: Entry, after_section: str | None = None, before_section: str | None = None) -> int:
        """Add ``entry`` after the last entry (of a section, when given) or at the end.

        Args:
            entry: the entry to add.
            after_section: a heading text such as ``"## Index"``; the entry goes
                after the last non-blank line of that section, or the section is
                created at the end of the file.
            before_section: a heading text; the entry goes after the last entry
                above that heading (or just above it), when the heading exists.

        Returns:
            int: the 1-based line number of the new entry.
        """
        if after_section is not None:
            start = next((i for i, ln in enumerate(self.lines) if ln.text.strip() == after_section), None)
            if start is None:
                if self.lines and self.lines[-1].text.strip():
                    self.insert_line(len(self.lines), "")
                self.insert_line(len(self.lines), after_section)
                return self.insert_line(len(self.lines), entry.render(), entry)
            end = start + 1
            while end < len(self.lines) and not self.lines[end].text.lstrip().startswith("#"):
                end += 1
            pos = end
            while pos > start + 1 and not self.lines[pos - 1].text.strip():
                pos -= 1
            return self.insert_line(self._outside_block(pos), entry.render(), entry)
        last = max((i for i, ln in enumerate(self.lines) if ln.entry is not None), default=None)
        if before_section is not None:
            head = next((i for i, ln in enumerate(self.lines) if ln.text.strip() == before_section), None)
            if head is not None:
                last = max(
                    (i for i, ln in enumerate(self.lines[:head]) if ln.entry is not None),
                    default=None,
                )
                if last is None:
                    self.insert_line(head, "")
                    return self.insert_line(head, entry.render(), entry)
        if last is None:
            # No entry yet: at the end, after the blank line that closes the
            # prose, so the list starts as its own block.
            return self.insert_line(len(self.lines), entry.render(), entry)
        return self.insert_line(last + 1, entry.render(), entry)

    def _outside_block(self, index: int) -> int:
        """``index``, or the first line of the block ``index`` is inside.

        Args:
            index: a 0-based insertion index.

        Returns:
            int: where a line inserted there is read as an entry: ``index``
            itself unless the line now at ``index`` belongs to a code block,
            comment or front matter that began above it (a heading-like
            ``# comment`` in code can end a section scan there); then the
            index of that block's first line.
        """
        if index >= len(self.lines):
            return index
        block, _ = scan_blocks([line.text for line in self.lines])
        start = block[index]
        return index if start is None or start == index else start

    def copy(self) -> MemoryFile:
        """A copy whose lines can be edited without touching this one (entries are shared, never edited)."""
        return MemoryFile([Line(ln.text, ln.ending, ln.entry) for ln in self.lines], self.bom)

    def render(self) -> bytes:
        """Serialize to bytes: the input bytes exactly when nothing changed."""
        body = "".join(line.text + line.ending for line in self.lines).encode("utf-8")
        return BOM + body if self.bom else body

    def text(self) -> str:
        """The file as text without BOM."""
        return "".join(line.text + line.ending for line in self.lines)


def _split_lines(text: str) -> list[tuple[str, str]]:
    # Split on "\n" only (a lone "\r" stays inside its line), so "\r\n" and "\n"
    # are kept per line and nothing else (form feeds, U+2028) counts as a break.
    out: list[tuple[str, str]] = []
    start = 0
    n = len(text)
    while start < n:
        nl = text.find("\n", start)
        if nl == -1:
            out.append((text[start:], ""))
            break
        if nl > start and text[nl - 1] == "\r":
            out.append((text[start : nl - 1], "\r\n"))
        else:
            out.append((text[start:nl], "\n"))
        start = nl + 1
    return out


def scan_blocks(texts: Sequence[str]) -> tuple[list[int | None], list[int]]:
    """Find the blocks whose bullets are no entries.

    Blocks: front matter (``---`` on the first line up to ``---`` or
    ``...``), fenced code (a ```` ``` ```` or ``~~~`` fence up to a fence of the
    same character at least as long), and HTML comments (a line starting with
    ``<!--`` up to the first line holding ``-->``, as CommonMark's HTML block
    type 2). An opener that is never closed starts no block: the lines after
    it are read as usual, so one stray fence or ``<!--`` typed by hand cannot
    hide every entry below it (Health names it instead).

    Args:
        texts: the lines' texts, without endings, in order.

    Returns:
        tuple[list[int | None], list[int]]: per line, the 0-based index of the
        first line of the block it belongs to (None outside every block); and
        the 0-based indexes of openers that are never closed.
    """
    n = len(texts)
    block: list[int | None] = [None] * n
    unclosed: list[int] = []
    # The next line at or after each index holding "-->", so an unclosed
    # "<!--" costs no second scan of the file.
    next_close = [n] * (n + 1)
    for k in range(n - 1, -1, -1):
        next_close[k] = k if "-->" in texts[k] else next_close[k + 1]
    for start, last in conflict_regions(texts):  # both sides of a merge conflict (.conflicts)
        block[start : last + 1] = [start] * (last + 1 - start)
    i = 0
    while i < n:
        text = texts[i]
        first = text.lstrip()[:1]
        end: int | None = None  # the block's last line
        if block[i] is not None:
            i += 1
            continue
        if i == 0 and text.strip() == "---":
            end = next((k for k in range(1, n) if texts[k].strip() in ("---", "...")), None)
        elif first in ("`", "~") and (m := _FENCE_RE.match(text)):
            fence = m.group(1)
            for k in range(i + 1, n):
                close = _FENCE_RE.match(texts[k])
                if close and close.group(1)[0] == fence[0] and len(close.group(1)) >= len(fence):
                    end = k
                    break
        elif first == "<" and _COMMENT_OPEN_RE.match(text):
            if "-->" in text[text.index("<!--") + 4 :]:
                end = i
            elif next_close[i + 1] < n:
                end = next_close[i + 1]
        else:
            i += 1
            continue
        if end is None:
            unclosed.append(i)
            i += 1
            continue
        for k in range(i, end + 1):
            block[k] = i
        i = end + 1
    return block, unclosed


def parse(data: bytes | str, path: str = "<memory>", *, replace: bool = False) -> MemoryFile:
    """Parse a memory file.

    Args:
        data: the file's bytes (or text).
        path: the file's path, only used in error messages.
        replace: bytes that are not UTF-8 become U+FFFD instead of an error (recall reads such a
            file and says so, never hides it).

    Returns:
        MemoryFile: lines with their entries; ``render()`` gives ``data`` back.

    Raises:
        FormatError: the bytes are not UTF-8 or hold a NUL byte (a binary file).
    """
    bom = False
    if isinstance(data, bytes):
        if b"\x00" in data:
            raise FormatError(f"{path} is a binary file (it holds NUL bytes), not a memory file")
        if data.startswith(BOM):
            bom = True
            data = data[len(BOM) :]
        try:
            text = data.decode("utf-8", "replace" if replace else "strict")
        except UnicodeDecodeError as exc:
            raise FormatError(f"{path} is not UTF-8 text (byte {exc.start}): save it as UTF-8") from exc
    else:
        text = data
        if text.startswith("\ufeff"):
            bom = True
            text = text[1:]
    lines: list[Line] = []
    split = _split_lines(text)
    block, unclosed = scan_blocks([content for content, _ in split])
    for (content, ending), inside in zip(split, block, strict=True):
        entry = None
        if inside is None and content.lstrip(" \t\ufeff")[:1] in ("-", "*", "+"):
            entry = parse_entry(content)
            if entry is not None and not entry.meta and is_link_line(entry.text):
                entry = None  # an index line such as "- [[me]]" links, it remembers nothing
        lines.append(Line(content, ending, entry))
    return MemoryFile(lines=lines, bom=bom, unclosed=[k + 1 for k in unclosed])


SEEN_HEX = 32
"""Hex digits of a seen token: 128 bits, so no other line can be made to share it (issue 32 found a 40-bit one forged in seconds)."""
SEEN_RE = re.compile(r"^(?P<ref>.+)@(?P<seen>[0-9a-f]{6,64})$")
"""``<ref>@<seen>``: a ref bound to the exact line a person saw (see :func:`seen_hash`)."""


def seen_hash(line: str) -> str:
    """A short hash of one whole line (text and metadata) as a person saw it.

    Triage and review calls take ``<ref>@<seen>`` and act only when the line at
    the ref still hashes the same, so nobody approves one text and gets another
    (docs/architecture.md §3).

    Args:
        line: the line without its ending.

    Returns:
        str: :data:`SEEN_HEX` (32) lowercase hex digits, the first 128 bits of the line's SHA-256.
    """
    import hashlib  # here: parsing a file never needs OpenSSL's digests (3 ms of a one-shot recall)

    return hashlib.sha256(line.encode("utf-8", "surrogatepass")).hexdigest()[:SEEN_HEX]


def split_seen(ref: str) -> tuple[str, str | None]:
    """``repo:x.md#L3@<32 hex>`` -> (``repo:x.md#L3``, ``<32 hex>``); a plain ref -> (ref, None).

    Raises:
        RefError: the token is not :data:`SEEN_HEX` hex digits long (a shortened or an old 10-digit token
            never binds by prefix: list the entries again).
    """
    m = SEEN_RE.match(ref.strip())
    if not m:
        return ref, None
    if len(m.group("seen")) != SEEN_HEX:
        raise RefError(
            f"{m.group('ref')}@{m.group('seen')}: a seen token has {SEEN_HEX} hex digits, this one "
            f"{len(m.group('seen'))}; list the entries again and use the REF@SEEN shown"
        )
    return m.group("ref"), m.group("seen")
