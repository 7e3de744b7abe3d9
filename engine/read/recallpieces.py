"""Recall's CJK pieces: a bigram of a repeated syllable or a Korean name counts only in a hit holding the word whole.

:func:`memrepo.engine.format.stemming.cjk_pieces` gives, for a query's bigrams that need them, the pieces around
each; :func:`piece_held` leaves out of a hit's held terms the bigrams it holds no piece around, so ``하하`` does not
answer ``하하하하`` and ``박지훈`` does not answer ``박지원`` (:mod:`.recallrank`, "Repeated syllables" and "Korean
three-syllable words"). The ranking's score is unchanged: only the confidence reads it.
"""

from __future__ import annotations

from memrepo.engine.format.terms import fold


def piece_held(held: dict[str, float], pieces: dict[str, frozenset[str]], text: str, context: str) -> dict[str, float]:
    """``held`` without the CJK bigrams the hit holds no piece around.

    Args:
        held: the hit's held query terms and their shares (1.0 in its text, less in its context).
        pieces: bigram -> the pieces around it, one of which a hit must hold (:func:`.stemming.cjk_pieces`).
        text: the hit's text; context: its context text (headings, links, ``subject:``), "" when none.

    Returns:
        dict[str, float]: ``held`` less the bigrams whose pieces are not in the text (or the context, for a term
        held there).
    """
    text = fold(text)
    context = fold(context) if context else ""
    out = {}
    for term, share in held.items():
        around = pieces.get(term)
        if around is not None and not any(p in (text if share == 1.0 else context) for p in around):
            continue
        out[term] = share
    return out
