"""The prompt hook's lexical hits for a prompt as people write them: several sentences, an exact identifier
(docs/architecture.md §4).

Recall's confidence is the share of the query's term weight a line holds. A prompt is not a query: it can ask and tell
at once, and it can name one thing by its identifier among task words. Both lost the line they asked for:

- **Several sentences** (:func:`best_clause`, breaker7 B7-8): "How does the shop deploy? Also remember that the staging
  database is called olive." got nothing, though "How does the shop deploy?" alone gets "The shop deploys with make
  ship". The second sentence tells memory something it cannot know yet; its words lower the whole prompt's share.
  When the whole prompt gets no hit, each of its questions (a sentence ending in a question mark; at most
  :data:`CLAUSES_MAX`, with at least :data:`CLAUSE_TERMS` counted terms) is asked on its own, at the question's
  minimum (a long one as a long prompt, :func:`.recallnear.long_prompt`), and the question whose best hit has the
  highest confidence answers. Only questions: a question is what a prompt asks memory; the other sentences tell or
  instruct ("Suggest a fix.", "Use the usual command."), and asked alone their few words matched any line holding
  them (a prompt with no answer in repo A's task prompts got three lessons for "Suggest a fix.").
- **An exact identifier** (:func:`exact_ids`, breaker7 B7-7): "Can you look at SHOP-4417 again, the one we tracked?"
  got nothing while "fix SHOP-4417" got its line. docs/agents.md: an identifier written as one word (letters and
  digits joined by ``- _ . / : #``, holding a digit, :data:`.recallnear.ID_WORD`) names one thing. A line holding
  such a word of the prompt whole (case folded, not inside a longer identifier) is the thing the prompt names,
  whatever filler surrounds it: it is added first, whatever its confidence (at most :data:`EXACT_MAX` lines).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memrepo.engine.format.terms import fold

from .recallnear import ID_WORD, long_prompt
from .recallrank import Found, confidence_weights, query_index_terms

if TYPE_CHECKING:
    from .recall import RecallIndex

CLAUSES_MAX = 6
"""The most sentences of a prompt asked one by one (each is one more search: a pasted text is not read whole)."""
CLAUSE_TERMS = 2
"""The fewest counted terms a sentence needs to be asked on its own: one word ("Thanks!", "Also deploy.") holds no
question, and any line holding it would be its whole share."""
EXACT_MAX = 3
"""The most lines added for holding an identifier of the prompt whole (the hook's places)."""
SENTENCE_END = re.compile(r"(?<=[.?!;。？！；])\s+|\n+")
"""Where a prompt's sentences end: ``. ? ! ;`` (and their CJK forms) before a space, or a line break."""


def prompt_lexical(
    index: RecallIndex, query: str, lexical: Found, scope: tuple[str | None, str | None, bool], depth: int
) -> Found:
    """The prompt hook's lexical hits: the whole prompt's (a long one judged per line it holds), else its best
    question's, with the lines holding one of its identifiers whole first (the module docstring).

    Args:
        index: the recall index.
        query: the prompt.
        lexical: the search of the whole prompt at the documented minimum.
        scope: (workspace id, workspace file, scoped).
        depth: the most hits.

    Returns:
        Found: the hits; ``exact`` holds the item ids added for an identifier (each passes the hook's rules).
    """
    got = long_prompt(index, query, lexical, scope, depth)
    if not got:
        got = best_clause(index, query, got, scope, depth)
    return exact_ids(index, query, got, scope, depth)


def clauses(query: str) -> list[str]:
    """The prompt's questions that can be asked alone (ending in a question mark, at least :data:`CLAUSE_TERMS`
    counted terms), in order, at most :data:`CLAUSES_MAX`; none for a prompt of one sentence."""
    parts = [p.strip() for p in SENTENCE_END.split(query) if p and p.strip()]
    if len(parts) < 2:
        return []
    out = []
    for part in parts:
        if not part.endswith(("?", "？")):
            continue
        terms = query_index_terms(part)[1]
        if len(confidence_weights(dict.fromkeys(terms, 1.0))) >= CLAUSE_TERMS:
            out.append(part)
    return out[:CLAUSES_MAX]


def best_clause(
    index: RecallIndex, query: str, lexical: Found, scope: tuple[str | None, str | None, bool], depth: int
) -> Found:
    """The hits of the prompt's question whose best hit is the most confident, or ``lexical`` when none has one.

    Args:
        index: the recall index.
        query: the prompt (its whole search gave ``lexical``, empty).
        lexical: what the whole prompt got.
        scope: (workspace id, workspace file, scoped).
        depth: the most hits.
    """
    ws_id, ws_file, scoped = scope
    best: tuple[float, Found] | None = None
    for clause in clauses(query):
        got = index.search(clause, workspace_file=ws_file, workspace_id=ws_id, scoped=scoped, limit=depth)
        got = long_prompt(index, clause, got, scope, depth)
        top = max((float(key[1]) for _iid, key in got), default=0.0)
        if got and (best is None or top > best[0]):
            best = (top, got)
    return best[1] if best is not None else lexical


def id_words(query: str) -> list[str]:
    """The prompt's identifiers written as one word (:data:`.recallnear.ID_WORD`) holding a digit and a letter, folded."""
    words = (w for w in ID_WORD.findall(query) if any(c.isdigit() for c in w) and any(c.isalpha() for c in w))
    return list(dict.fromkeys(fold(w) for w in words))


def holds_whole(text: str, words: list[str]) -> bool:
    """Whether ``text`` holds one of ``words`` (folded identifiers) whole: not inside a longer identifier."""
    folded = fold(text)
    return any(
        re.search(rf"(?<![\w\-./:#]){re.escape(w)}(?![\w]|[-./:#]\w)", folded) is not None for w in words if w in folded
    )


def exact_ids(
    index: RecallIndex, query: str, lexical: Found, scope: tuple[str | None, str | None, bool], depth: int
) -> Found:
    """``lexical`` with the lines holding one of the prompt's identifiers whole first (the module docstring).

    Args:
        index: the recall index.
        query: the prompt.
        lexical: the hits so far.
        scope: (workspace id, workspace file, scoped).
        depth: the most hits.

    Returns:
        Found: ``lexical`` when the prompt names no identifier or no line holds one; else those lines (at most
        :data:`EXACT_MAX`, best first) then the others, with ``exact`` their ids and ``answer_floor`` low enough
        that they answer.
    """
    words = id_words(query)
    if not words:
        return lexical
    ws_id, ws_file, scoped = scope
    pool = index.search(
        query, workspace_file=ws_file, workspace_id=ws_id, scoped=scoped, limit=depth, min_confidence=0.0
    )
    exact = []
    for iid, key in pool:
        row = index.row(iid)
        if row is not None and holds_whole(row[3], words):
            exact.append((iid, key))
            if len(exact) >= EXACT_MAX:
                break
    if not exact:
        return lexical
    ids = {iid for iid, _key in exact}
    out = Found([*exact, *((iid, key) for iid, key in lexical if iid not in ids)])
    out.minimum = lexical.minimum
    out.answer_floor = min(lexical.answer_floor, *(float(key[1]) for _iid, key in exact))
    out.exact = frozenset(ids)
    return out


def since_of(index: RecallIndex, found: list[tuple[int, tuple]]) -> dict[int, tuple[int | None, int | None]]:
    """:func:`.recallnewer.marks_of` the hits (the block's marks); its module (and the block's rule) loaded only
    when there is a hit: a prompt nothing answers imports neither (12 ms)."""
    if not found:
        return {}
    from .recallnewer import marks_of

    return marks_of(index, [iid for iid, _key in found])


def scan_newer(root: Path, hits: list[Any], limit: int, redact: Callable[[str], str]) -> list[Any]:
    """:func:`.recallnewer.scan_with_replacements` of a scan's hits, its module loaded only when there is one."""
    if not hits:
        return hits
    from .recallnewer import scan_with_replacements

    return scan_with_replacements(root, hits, limit, redact)
