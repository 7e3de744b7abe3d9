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
allowed with ``memrepo secrets allow``) never asks again while its line stays
as it is; a line edited around it is a new line and is asked about again.
"""

from __future__ import annotations

import re

from memrepo.engine.models import HandEditQuestion

from .settle import bytes_seen

_MARK = re.compile(r"\[REDACTED:([^\]\s]+)\]")
"""The marker redaction writes (``[REDACTED:<type>]``); its type names what was found."""

SHOWN_MAX = 5
"""Lines named in a question at most (the rest are counted)."""


def _blocks(committed: bytes | None, now: bytes) -> list[tuple[int, list[str]]]:
    """Runs of consecutive lines of ``now`` that ``committed`` does not have: (first line's number, lines).

    Redaction reads a run whole, so a secret cut across lines (a PEM private key's body, a wrapped
    token) is found and redacted on every line it spans.
    """
    before = set((committed or b"").decode("utf-8", "surrogateescape").splitlines())
    out: list[tuple[int, list[str]]] = []
    last = -1
    for n, line in enumerate(now.decode("utf-8", "surrogateescape").splitlines(), 1):
        if not line.strip() or line in before:
            continue
        if out and last == n - 1:
            out[-1][1].append(line)
        else:
            out.append((n, [line]))
        last = n
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
    out = []
    for first, run in _blocks(committed, now):
        for i, (was, now_line) in enumerate(zip(run, _redacted(run), strict=True)):
            if was != now_line:
                kinds = [k for k in _MARK.findall(now_line) if f"[REDACTED:{k}]" not in was]
                out.append(f"L{first + i}: {', '.join(dict.fromkeys(kinds)) or 'secret'}")
    return out


def secret_name(rel: str, committed: bytes | None) -> list[str]:
    """``["file name: <type>"]`` when a new file's path (one HEAD does not hold) holds a secret, else empty.

    breaker21 B21-11: a token in a new file's name went into git's tree and every ref to its lines. A name
    HEAD already holds is the user's, committed or allowed before, and is not asked about again.
    """
    if committed is not None:
        return []
    from memrepo.engine.redaction import redact

    types = redact(rel)[1]
    return [f"file name: {', '.join(dict.fromkeys(types))}"] if types else []


def shown_path(rel: str) -> str:
    """``rel`` as a question shows it: a secret in its name redacted (the answer still takes the real path)."""
    from memrepo.engine.redaction import redact_text

    return redact_text(rel)


def _redacted(run: list[str]) -> list[str]:
    """The lines of ``run`` redacted as one text (a secret spanning lines is found), line by line if that
    changed how many lines there are; through the redaction cache, so a status asked again redacts nothing."""
    from memrepo.engine.redaction import redact_text

    redacted = redact_text("\n".join(run)).split("\n")
    return redacted if len(redacted) == len(run) else [redact_text(line) for line in run]


def describe_secrets(rel: str, secrets: list[str]) -> str:
    """What the question says of the secrets, and how to answer (after ``<rel>: ``, or after another question's words)."""
    shown = "; ".join(secrets[:SHOWN_MAX]) + (
        f" and {len(secrets) - SHOWN_MAX} more" if len(secrets) > SHOWN_MAX else ""
    )
    if any(s.startswith("file name: ") for s in secrets):  # no command can name it redacted (breaker24 B24-8)
        return (
            f"the file's name (or a hand edit) holds what looks like a secret ({shown}); memrepo has not committed "
            "it: rename the file, then memrepo asks about its lines"
        )
    rel = shown_path(rel)
    return (
        f"a hand edit added what looks like a secret ({shown}); memrepo has not committed it: "
        f"`memrepo commit-hand-edits --redact {rel}` replaces it with [REDACTED] and commits, "
        f"`memrepo commit-hand-edits --yes {rel}` commits it as written"
    )


def secret_question(rel: str, committed: bytes | None, now: bytes, secrets: list[str]) -> HandEditQuestion:
    """The question for a hand edit of ``rel`` that added ``secrets`` (from :func:`secret_lines`)."""
    from .settle import entry_count  # the entry count, as the other questions give it

    q = HandEditQuestion(
        path=rel,
        entries_before=(entry_count(committed, rel) or 0) if committed is not None else 0,
        entries_now=entry_count(now, rel) or 0,
        seen=bytes_seen(now),
        secrets=secrets,
    )
    shown = shown_path(rel)
    q.message = f"{shown}: {describe_secrets(shown, secrets)}"
    return q


def redact_added(committed: bytes | None, now: bytes) -> bytes:
    """``now`` with the secrets in the lines the edit added replaced by ``[REDACTED:<type>]``.

    Lines that were already committed are kept byte for byte (a secret the user
    committed or allowed before stays theirs). Each run of added lines is
    redacted whole (:func:`_blocks`), so a secret spanning lines goes on every
    line. Line endings are kept.

    Args:
        committed: the file's bytes in HEAD (None: a new file).
        now: its bytes on disk.

    Returns:
        bytes: the file to write and commit.
    """
    text = now.decode("utf-8", "surrogateescape")
    lines = text.splitlines(keepends=True)
    for first, run in _blocks(committed, now):
        for i, body in enumerate(_redacted(run)):
            line = lines[first - 1 + i]
            lines[first - 1 + i] = body + line[len(line.rstrip("\r\n")) :]
    return "".join(lines).encode("utf-8", "surrogateescape")
