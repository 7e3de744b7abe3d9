"""A hand edit that adds a secret is not committed without the user's word (docs/architecture.md §3).

Every way out of memrepo redacts secrets, but a hand edit is the user's own
text and was committed as written: a token typed into ``MEMORY.md`` went
into git's objects, and from there to every remote. A hand edit whose new
lines hold a value redaction takes for a secret is therefore held like an
emptied file: a question in ``status()``, Health and the app. The answers
are "redact" (the values become ``[REDACTED:<type>]`` in the file, then the
edit is committed: :func:`redact_added`), "commit as written" (the user
says it is no secret, or wants it kept), or "put back" the committed text.
Only lines the edit added are looked at, so a secret already committed (or
allowed with ``memrepo secrets allow``) never asks again.
"""

from __future__ import annotations

from memrepo.engine.models import HandEditQuestion

from .settle import bytes_seen

SHOWN_MAX = 5
"""Lines named in a question at most (the rest are counted)."""


def _added(committed: bytes | None, now: bytes) -> list[tuple[int, str]]:
    """The lines of ``now`` (1-based number, text) that ``committed`` does not have."""
    before = set((committed or b"").decode("utf-8", "surrogateescape").splitlines())
    out = []
    for n, line in enumerate(now.decode("utf-8", "surrogateescape").splitlines(), 1):
        if line.strip() and line not in before:
            out.append((n, line))
    return out


def secret_lines(committed: bytes | None, now: bytes) -> list[str]:
    """The lines a hand edit added that hold a secret, as ``L<n>: <type>, <type>`` (never the values).

    Args:
        committed: the file's bytes in HEAD (None: a new file).
        now: its bytes on disk.

    Returns:
        list[str]: one item per added line redaction would change, in file order; empty for most edits.
    """
    if committed == now:
        return []
    added = _added(committed, now)
    if not added:
        return []
    from memrepo.engine.redaction import redact

    out = []
    for n, line in added:
        _text, types = redact(line)
        if types:
            out.append(f"L{n}: {', '.join(dict.fromkeys(types))}")
    return out


def secret_question(rel: str, committed: bytes | None, now: bytes, secrets: list[str]) -> HandEditQuestion:
    """The question for a hand edit of ``rel`` that added ``secrets`` (from :func:`secret_lines`)."""
    from .settle import _entries  # the entry count, as the other questions give it

    n = _entries(now, rel) or 0
    shown = "; ".join(secrets[:SHOWN_MAX]) + (
        f" and {len(secrets) - SHOWN_MAX} more" if len(secrets) > SHOWN_MAX else ""
    )
    q = HandEditQuestion(
        path=rel,
        entries_before=(_entries(committed, rel) or 0) if committed is not None else 0,
        entries_now=n,
        seen=bytes_seen(now),
        secrets=secrets,
    )
    q.message = (
        f"{rel}: a hand edit added what looks like a secret ({shown}); memrepo has not committed it: "
        f"`memrepo commit-hand-edits --redact {rel}` replaces it with [REDACTED] and commits, "
        f"`memrepo commit-hand-edits --yes {rel}` commits it as written"
    )
    return q


def redact_added(committed: bytes | None, now: bytes) -> bytes:
    """``now`` with the secrets in the lines the edit added replaced by ``[REDACTED:<type>]``.

    Lines that were already committed are kept byte for byte (a secret the user
    committed or allowed before stays theirs). Line endings are kept.

    Args:
        committed: the file's bytes in HEAD (None: a new file).
        now: its bytes on disk.

    Returns:
        bytes: the file to write and commit.
    """
    from memrepo.engine.redaction import redact

    before = set((committed or b"").decode("utf-8", "surrogateescape").splitlines())
    text = now.decode("utf-8", "surrogateescape")
    out = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if body.strip() and body not in before:
            body = redact(body)[0]
        out.append(body + line[len(line.rstrip("\r\n")) :])
    return "".join(out).encode("utf-8", "surrogateescape")
