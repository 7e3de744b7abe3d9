"""The write policy: what a candidate may become before it reaches disk (docs/architecture.md §3 "policy").

:func:`decide` runs first in :meth:`memrepo.engine.repo.store.MemoryStore.remember`, before
routing and before the lock. In order it refuses:

- scopes that never go to the repo (``private``, ``contact``, ``task``);
- a ``<no-memory>`` marker in the origin text (the user message the fact came
  from) or in the text itself;
- empty text;

then redacts secrets in ``text``, ``subject``, ``supersedes``, ``source`` and ``task`` (each value
replaced by ``[REDACTED:<type>]``), and refuses text that is nothing but
secrets ("secret-only text dropped"), filler, or over the entry limit.

Secrets are found by :mod:`memrepo.engine.redaction`, the one redaction every way
out of memrepo uses (docs/architecture.md §3); :func:`redact` is it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from memrepo.engine.errors import LimitError
from memrepo.engine.format.cleantext import clean_in
from memrepo.engine.format.entrytext import clean_text
from memrepo.engine.format.limits import ENTRY_MAX_CHARS, check_entry
from memrepo.engine.models import Candidate
from memrepo.engine.redaction import redact

REFUSED_SCOPES: dict[str, str] = {
    "private": "scope private never goes to the memory repo (docs/architecture.md §3)",
    "contact": "scope contact (facts about other people) never goes to the memory repo (docs/architecture.md §3)",
    "task": "scope task lives only as long as its task and never goes to the memory repo (docs/architecture.md §3)",
}

NO_MEMORY = "<no-memory>"

RAW_MAX_CHARS = 40 * ENTRY_MAX_CHARS
"""Text longer than this (characters, before redaction) is refused before any redaction runs: redaction
shortens a long key to a short mark, so the entry limit applies after it, but megabytes of pasted text
would hold the write lock for minutes first. 40 entries' worth holds any key or certificate."""


def raw_too_long(text: str) -> str | None:
    """The refusal reason for a text over :data:`RAW_MAX_CHARS` characters, else None (checked before redaction).

    Front ends ask it before they hand such a text to a write, to keep it where the person wrote it
    (the app's edit box keeps the editor's file, docs/architecture.md §8).
    """
    size = len(text)
    if size <= RAW_MAX_CHARS:
        return None
    return (
        f"too long: {size:,} characters (an entry holds at most {ENTRY_MAX_CHARS}); split it, or keep the"
        " detail in a topic note and remember a line that links to it"
    )


FILLER = frozenset(
    {
        "ok",
        "okay",
        "k",
        "kk",
        "thanks",
        "thank",
        "thx",
        "ty",
        "hello",
        "hi",
        "hey",
        "noted",
        "sure",
        "yes",
        "yeah",
        "yep",
        "no",
        "nope",
        "nah",
        "cool",
        "lol",
        "hmm",
        "um",
        "uh",
        "好",
        "好的",
        "谢谢",
        "是",
        "是的",
        "不",
        "嗯",
        "收到",
        "行",
    }
)
"""Words that carry nothing to remember on their own ("ok thanks" is still filler)."""

_WORD_RE = re.compile(r"[^\W_]+")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_MARK_RE = re.compile(r"\[REDACTED:[a-z0-9-]+\]")


@dataclass(slots=True)
class Decision:
    """What the policy made of a candidate.

    Attributes:
        candidate: the candidate to write (secrets redacted), or None when refused.
        reason: why the candidate was refused, or None.
        redacted: the types of secrets redacted, in order, each once (never values).
    """

    candidate: Candidate | None
    reason: str | None = None
    redacted: list[str] = field(default_factory=list)


def word_count(text: str) -> int:
    """Word-ish tokens of ``text`` that are not filler; each CJK character counts as one."""
    count = 0
    for word in _WORD_RE.findall(text.casefold()):
        cjk = _CJK_RE.findall(word)
        rest = _CJK_RE.sub(" ", word).split()
        if cjk and "".join(cjk) in FILLER:
            cjk = []
        count += len(cjk) + sum(1 for w in rest if w not in FILLER)
    return count


_LINK_RE = re.compile(r"\[\[([^\[\]|#]+?)(?:[#|][^\[\]]*)?\]\]")
_DRIVE_RE = re.compile(r"^[A-Za-z]:")


def unsafe_link(text: str) -> str | None:
    """The first ``[[link]]`` in ``text`` that points outside the repo (absolute, ``~``, ``..``, ``.git``), or None."""
    for m in _LINK_RE.finditer(text):
        target = m.group(1).strip()
        parts = target.replace("\\", "/").split("/")
        if (
            target.startswith(("/", "~", "\\"))
            or _DRIVE_RE.match(target)
            or any(p in ("..", ".") or p.casefold() == ".git" for p in parts)
        ):
            return target
    return None


def screen_text(text: str, clean: Callable[[str], str] = clean_text) -> tuple[str, list[str], str | None]:
    """The checks of :func:`decide` that look at the entry text alone, in its order.

    Args:
        text: the entry text as asked.
        clean: folds text to one clean line (the writer's ``clean_text``).

    Returns:
        tuple[str, list[str], str | None]: the text redacted and folded, the types of secrets
        redacted in it (in order, repeats kept), and the refusal reason or None. Refused: a
        ``<no-memory>`` marker, over :data:`RAW_MAX_CHARS`, empty, an unsafe link, over the entry
        limit after redaction (docs/architecture.md §2), nothing but secrets or filler.
    """
    if NO_MEMORY in text.casefold():
        return text, [], f"the text holds {NO_MEMORY}: the user asked not to remember it"
    too_long = raw_too_long(text)
    if too_long is not None:
        return text, [], too_long
    # Redacted before folding too: a token a line break cut is found only while the break is there.
    raw, types = redact(text)
    text = clean(clean_in(raw))
    if not text:
        return text, types, "empty text: nothing to remember"
    text, more = redact(text)
    types += more
    unsafe = unsafe_link(text)
    if unsafe:
        return text, types, f"unsafe link [[{unsafe}]]: a link names a file inside the memory repo"
    try:
        check_entry(text)
    except LimitError as exc:
        return text, types, str(exc)
    if word_count(_MARK_RE.sub(" ", text)) < 2:
        if types:
            return text, types, "secret-only text dropped: nothing but secrets (and filler) was left"
        return text, types, "filler: fewer than two words worth remembering"
    return text, types, None


def text_refusal(text: str) -> str | None:
    """Why a write would refuse ``text`` as an entry's text before touching a file, or None.

    The same checks, in the same order and with the same words, as the write policy
    (:func:`screen_text`): over the raw limit, over the entry limit once secrets are redacted
    (docs/architecture.md §2), empty, filler, an unsafe link, ``<no-memory>``. Front ends ask it
    before they hand a person's text to a write, to keep the text where the person wrote it
    (the app's edit box, docs/architecture.md §8). A limit of the target file is not known here.

    Args:
        text: the text a person typed or wrote in an editor.

    Returns:
        str | None: the refusal reason (one line), or None when the policy takes the text.
    """
    return screen_text(text)[2]


def decide(cand: Candidate, clean: Callable[[str], str]) -> Decision:
    """Decide what ``cand`` may become before it reaches disk.

    Args:
        cand: the candidate as asked.
        clean: folds text to one clean line (the writer's ``clean_text``).

    Returns:
        Decision: the candidate with secrets redacted in text, subject and
        source, or a refusal with its reason. Other checks (NUL bytes,
        pinning, a missing workspace) stay with the writer.
    """
    if cand.scope in REFUSED_SCOPES:
        return Decision(None, REFUSED_SCOPES[cand.scope])
    if cand.origin_text and NO_MEMORY in cand.origin_text.casefold():
        return Decision(None, f"the origin text holds {NO_MEMORY}: the user asked not to remember it")
    text, types, reason = screen_text(cand.text or "", clean)
    if reason is not None:
        return Decision(None, reason, list(dict.fromkeys(types)))
    update: dict[str, str] = {"text": text}
    for key in ("subject", "supersedes", "source"):
        value = getattr(cand, key)
        if value:
            value, more = redact(value)
            update[key] = clean(clean_in(value))
            types += more
    if cand.task:  # kept as given (a session's id is matched by forget-session) unless it holds a secret (B24-7)
        value, more = redact(cand.task)
        if more:
            update["task"], types = value, types + more
    return Decision(cand.model_copy(update=update), None, list(dict.fromkeys(types)))
