"""An entry's context for recall: the headings above it, its section's link-only bullets, its subject (docs/architecture.md §4).

Words there count for the entry, less than its own (:mod:`memrepo.engine.read.recallrank`); the headings
keep a line of their own, so the ranking can tell a heading alone from a link or a subject.
"""

from __future__ import annotations

from collections.abc import Iterable


def entry_context(section: str, meta: dict[str, str]) -> str:
    """An entry's context text: its section's (:func:`section_context`), then a line with its ``subject:`` value."""
    subject = (meta.get("subject") or "").strip()
    if not subject:
        return section
    return f"{section}\n{subject}" if section else f"\n\n{subject}"


def context_beyond_headings(context: str) -> str:
    """The part of an entry's context that is not a heading: its section's link targets and its ``subject:``.

    Args:
        context: an entry's context text (:func:`entry_context`: the headings' line first).

    Returns:
        str: the text after the headings' line ("" when there is none).
    """
    return context.partition("\n")[2]


def section_context(lines: Iterable[str]) -> dict[int, str]:
    """The context text of each line of a file: the headings above it and its section's link-only bullets.

    Args:
        lines: the file's lines, in order (line numbers start at 1).

    Returns:
        dict[int, str]: line number -> context text (headings outermost first, a line break,
        then link targets), for each line that has any.
    """
    import re

    heading_re = re.compile(r"^(#{1,6})[ \t]+(.*)$")
    link_only_re = re.compile(r"^[ \t]*[-*+][ \t]+((?:\[\[[^\[\]]+\]\][ \t,;]*)+)$")
    link_re = re.compile(r"\[\[([^\[\]|#]+)")
    items = list(lines)
    stack: list[tuple[int, str]] = []
    # Link-only bullets belong to the section they are in: gather them per section first.
    section_of: list[int] = []
    links: dict[int, list[str]] = {}
    section = 0
    for number, line in enumerate(items, 1):
        if heading_re.match(line):
            section = number
        section_of.append(section)
        m = link_only_re.match(line)
        if m:
            links.setdefault(section, []).extend(t.strip() for t in link_re.findall(m.group(1)))
    out: dict[int, str] = {}
    for number, line in enumerate(items, 1):
        m = heading_re.match(line)
        if m:
            level = len(m.group(1))
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, m.group(2).strip()))
            continue
        heads = [text for _level, text in stack]
        targets = links.get(section_of[number - 1], [])
        if heads or targets:
            out[number] = " ".join(heads) + "\n" + " ".join(targets)  # the ranking tells headings apart
    return out
