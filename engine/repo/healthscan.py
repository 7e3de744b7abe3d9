"""The health checks' one pass over the markdown files (docs/architecture.md §9).

:class:`Scan` reads each memory file once for the content rows of :func:`.health.check`:
long entries, malformed metadata (:func:`metadata_problem`), unclosed blocks, conflict
markers, ``[[links]]`` and the files none reaches, symlinks and files too large to read,
the inbox's size and the workspace files holding a user's rule.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memrepo.engine.errors import FormatError
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.conflicts import conflicted_lines
from memrepo.engine.format.limits import ENTRY_MAX_CHARS

if TYPE_CHECKING:
    from .store import MemoryStore


_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_UNCLOSED_META_RE = re.compile(r"\s\[[A-Za-z][\w-]*:[^\]]*$")
_AFTER_META_RE = re.compile(r"\s\[([A-Za-z][\w-]*:[^\[\]]*)\][ \t]+(\S.*)$")
"""A metadata group with text typed after it (then it is no longer last, so not read as metadata)."""
_NO_OPEN_META_RE = re.compile(r"\s[A-Za-z][\w-]*:[^\[\];]*;[^\[]*\]$")
"""``key: value; ...]`` at the end with its ``[`` deleted."""


def metadata_problem(line: str, entry: fmt.Entry) -> str | None:
    """Why an entry's metadata is malformed, or None.

    Malformed: a trailing ``[...]`` group with a ``key:`` that does not parse
    as metadata, an unclosed ``[key: ...`` at the end, ``by`` other than
    user/agent, ``added`` not a YYYY-MM-DD date, and the hand edits that lose a
    line's metadata without a word: its ``[`` deleted or doubled, text typed after
    it, a key written twice, a value deleted.
    """
    if entry.meta:
        tail = line.rstrip()
        start = tail.rfind("[")
        if start > 0 and tail[start - 1] == "[":
            return "a [ too many before the metadata"
        keys = [part.partition(":")[0].strip().lower() for part in tail[start + 1 : -1].split(";") if ":" in part]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        if twice:
            return f"{', '.join(twice)} written twice in the metadata (the last one counts)"
        empty = [k for k, v in entry.meta.items() if not v.strip()]
        if empty:
            return f"{', '.join(empty)}: empty value in the metadata"
        by = entry.meta.get("by")
        if by is not None and by.strip().lower() not in ("user", "agent"):
            return f"by: {by!r} is neither user nor agent"
        added = entry.meta.get("added")
        if added is not None and not _DATE_RE.match(added.strip()):
            return f"added: {added!r} is not a YYYY-MM-DD date"
        return None
    tail = line.rstrip()
    if tail.endswith("]") and not tail.endswith("]]"):
        start = tail.rfind("[")
        inner = tail[start + 1 : -1]
        if start > 0 and tail[start - 1] != "[" and ":" in inner and not fmt.REDACTION_MARK_RE.fullmatch(inner):
            return f"[{inner}] is not valid metadata (write [key: value; key: value])"
        if start > 1 and tail[start - 1] == "[" and tail[start - 2] != "[" and fmt.parse_metadata(inner):
            return "a [ too many before the metadata"
    if _UNCLOSED_META_RE.search(tail):
        return "metadata is not closed with ]"
    after = _AFTER_META_RE.search(tail)
    if after and fmt.parse_metadata(after.group(1)) is not None:
        return f"text after the metadata ({after.group(2)[:40]!r}): the [key: value] group must end the line"
    if "[" not in tail and _NO_OPEN_META_RE.search(tail):
        return "metadata has no opening ["
    return None


NOT_READ = "memrepo never reads through symlinks, so no agent sees it: put the file itself there"
"""Why a symlinked memory file is a problem, and the fix (docs/architecture.md §3)."""


class Scan:
    """One pass over the markdown files for the content checks."""

    def __init__(self, store: MemoryStore) -> None:
        self.files = store.list_files()
        self.paths = {p for p, _ in self.files}
        self.links: dict[str, list[str]] = {}
        self.long: list[str] = []
        self.malformed: list[str] = []
        self.unclosed: list[str] = []
        self.unreadable: list[str] = []
        self.symlinks: list[str] = []
        """Markdown files that are symlinks: never read (docs/architecture.md §3), so no agent sees them."""
        self.huge: list[str] = []
        """Markdown files over recall's bound: not parsed (a 50 MB file cost 8 s and 600 MB here), as recall skips them."""
        self.conflicts: list[str] = []
        """git's conflict-marker regions (``path#L5-L11``): no side of one is an entry (B8-6: committed by a stash pop)."""
        self.inbox = 0
        self.ruled: set[str] = set()
        """Workspace files holding a rule, decision or correction of the user's: the context budget row judges these."""
        from memrepo.engine.read.contextselect import RULE_KINDS
        from memrepo.engine.read.recallentries import MAX_INDEXED_FILE

        for path, size in self.files:
            if not path.endswith(".md"):
                continue
            full = store.root / path
            if full.is_symlink():
                self.symlinks.append(path)
                continue
            if size > MAX_INDEXED_FILE:
                self.huge.append(path)
                continue
            try:
                data = read_work_file(full)
                parsed = fmt.parse(data, path)
            except (OSError, FormatError):
                self.unreadable.append(path)
                continue
            self.conflicts += [f"{path}#L{first}-L{last}" for first, last in conflicted_lines(data)]
            self.links[path] = fmt.extract_links(parsed.text())
            for number in parsed.unclosed:
                opener = parsed.lines[number - 1].text.strip()[:4]
                self.unclosed.append(f"{path}#L{number} ({opener!r})")
            for number, entry in parsed.entries():
                ref = f"{path}#L{number}"
                if path == "inbox.md":
                    self.inbox += 1
                elif entry.by == "user" and entry.meta.get("kind", "").strip().casefold() in RULE_KINDS:
                    self.ruled.add(path)
                if len(entry.text) > ENTRY_MAX_CHARS:
                    self.long.append(f"{ref} ({len(entry.text)} characters)")
                problem = metadata_problem(parsed.lines[number - 1].text, entry)
                if problem:
                    self.malformed.append(f"{ref}: {problem}")

    def resolve(self, link: str) -> str | None:
        """The file a ``[[link]]`` names (links start at the root and omit ``.md``), or None."""
        target = link.strip().lstrip("/")
        for candidate in (f"{target}.md", target):
            if candidate in self.paths:
                return candidate
        return None

    def broken(self) -> list[str]:
        out = []
        for path, links in sorted(self.links.items()):
            out += [f"[[{link}]] in {path}" for link in links if self.resolve(link) is None]
        return out

    def orphans(self) -> list[str]:
        seen = {"MEMORY.md"}
        todo = ["MEMORY.md"]
        while todo:
            for link in self.links.get(todo.pop(), []):
                target = self.resolve(link)
                if target is not None and target not in seen:
                    seen.add(target)
                    todo.append(target)
        never_linked = {"MEMORY.md", "inbox.md"}  # the entry point, and the never-injected inbox
        return sorted(p for p in self.paths if p.endswith(".md") and p not in seen and p not in never_linked)
