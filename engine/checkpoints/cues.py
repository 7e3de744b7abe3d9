"""A correction's cue in other words and languages than "actually" / "no," (issue 30, sess13).

"Kleine Korrektur: wir sind inzwischen auf Postgres 17", "I had the minimum wrong earlier: marlin needs iOS 16",
"之前记错了，heron 用的是 Dagster", "Corrigindo o que eu disse antes: ...": a lead-in that says what follows corrects
something, before its colon or comma (:func:`cued_statement`); or a sentence that says only that ("すみません、訂正です。",
"아 그거 바뀌었어요.", "That changed."), which cues the next one in the same message. A cue only lets
:mod:`.corrections` ask its rules with ``cued`` (the subject relation then needs no time word); the line the
statement corrects is found by those rules alone. Pure text: no file.
"""

from __future__ import annotations

import re

_CUE_WORDS = (
    r"(?:small\s+|quick\s+|one\s+)?correction|i\s+(?:had|got|have|gave\s+you)\s+(?:[\w'’]+\s+){0,4}?wrong(?:\s+\w+){0,2}"
    r"|my\s+(?:mistake|bad)(?:\s+\w+)?|ho\s+sbagliato\s+[^,:]{1,30}|je\s+me\s+suis\s+trompée?\s+(?:sur|pour|de|d['’])\s*[^,:]{1,30}"
    r"|ich\s+habe\s+mich\s+(?:bei|mit)\s+[^,:]{1,30}\s+geirrt|errei\s+[^,:]{1,30}"
    r"|scratch\s+what\s+i\s+(?:told\s+you|said)(?:\s+about\s+[^,:]{1,40})?|i\s+was\s+wrong(?:\s+about\s+[^,:]{1,40})?"
    r"|(?:kleine\s+)?korrektur(?:\s+zu\s+(?:deinen|meinen)\s+notizen)?|das\s+war\s+falsch|ich\s+habe\s+mich\s+geirrt|stimmt\s+nicht\s+mehr"
    r"|(?:petite\s+)?(?:correction|rectification|mise\s+à\s+jour)|je\s+me\s+suis\s+trompée?|(?:pequeña\s+)?corrección|me\s+equivoqué(?:\s+antes)?(?:\s+con\s+[^,:]{1,30})?"
    r"|corrig(?:indo|iendo)(?:\s+lo\s+que\s+dije(?:\s+antes)?|\s+o\s+que\s+eu\s+disse(?:\s+antes)?)?|correção|correzione"
    r"|change\s+of\s+plans?|plan\s+change|planänderung|changement\s+de\s+(?:programme|plan)|cambio\s+de\s+planes"
    r"|cambio\s+di\s+programma|mudança\s+de\s+planos|(?:ultima|última|last|letzte|dernière)\s+(?:modifica|modificación|change"
    r"|änderung|modification)(?:\s+(?:sul|al|on|am|zu|sur)\s+[^,:]{1,40})?"
    r"|mi\s+sono\s+sbagliat[oa]|之前记错了|我记错了|记错了|更正(?:一下)?|纠正(?:一下)?|訂正(?:です|します)?|정정(?:할게요|합니다)?"
)
"""Words that say the user corrects what they said or what memory holds, in eight languages."""
_CUE_LEAD_RE = re.compile(
    rf"^\W*(?:(?:sorry|oops|ah|oh|so|すみません|죄송해요|不好意思)[,、，\s]+)?(?:{_CUE_WORDS})\s*(?:[:：,，、]|\s[-–—])\s*",
    re.IGNORECASE,
)
"""A cue before the statement it introduces: "Kleine Korrektur: X", "I had the minimum wrong earlier: X", "记错了，X"."""
_CUE_ONLY_RE = re.compile(
    rf"^\W*(?:(?:sorry|oops|ah|oh|아|あ|すみません|죄송해요|不好意思)[,、，\s]*)*(?:(?:{_CUE_WORDS})"
    r"|(?:that|this|it)\s+(?:has\s+)?changed|(?:그거|그건|이거)\s*바뀌었(?:어요|습니다|어)|das\s+hat\s+sich\s+geändert"
    r"|ça\s+a\s+changé|eso\s+cambió|isso\s+mudou|è\s+cambiato|变了|改了|変わりました)\W*$",
    re.IGNORECASE,
)
"""A sentence that says only that what follows corrects: "すみません、訂正です", "아 그거 바뀌었어요", "That changed"."""
_FIRST_CLAUSE_RE = re.compile(
    r"^(.{8,}?)(?:,\s+|，)(?!(?:not|nicht|pas|no|non|não|instead|rather|but|aber|mais|pero|ma|mas|不是|而不是)\b)(?=\S)",
    re.IGNORECASE,
)
"""A statement's first clause, before its first comma ("wir sind inzwischen auf Postgres 17, das Upgrade lief ...")."""


_ASIDE_RE = re.compile(
    r"^\W*(?:fyi|btw|by\s+the\s+way|heads\s+up|for\s+the\s+record|just\s+so\s+you\s+know|quick\s+(?:thing|note)"
    r"(?:\s+before\s+[^:,]{1,30})?|übrigens|au\s+fait|por\s+cierto|trouwens|a\s+proposito|aliás|för\s+övrigt|"
    r"przy\s+okazji)\b\s*(?:[:,–—-]\s*)?(?=\S)",
    re.IGNORECASE,
)
r"""An aside that says nothing of the statement after it: "fyi", "btw", "heads up", "quick thing before the PR:",
"übrigens", "au fait", "por cierto", "trouwens" (not a cue: it says no correction). The space around its
punctuation is one ``\s*`` and an optional ``[:,–—-]\s*``: two ``\s*`` around an optional mark split a run of
spaces every possible way, a time that grows with the square of the run (docs/architecture.md §3)."""
_ASIDE_END_RE = re.compile(r"(?<!\s)\s+(?:btw|fyi)$", re.IGNORECASE)
r"""The same aside said last ("deploys are on Thursdays these days btw"). A match starts where a run of spaces
starts (the lookbehind): tried from inside a long run, ``\s+`` read the rest of it again at every space."""


def aside_dropped(statement: str) -> str:
    """``statement`` less an aside lead-in or tail of :data:`_ASIDE_RE` ("fyi dune is on Node 22" -> "dune is on Node
    22"), or ``statement`` when less than three words would be left: the aside's words are no subject's."""
    rest = _ASIDE_END_RE.sub("", _ASIDE_RE.sub("", statement, count=1)).strip()
    return rest if len(rest.split()) >= 3 else statement


def cued_statement(sentence: str, before: str) -> tuple[str, bool]:
    """A sentence less a cue lead-in of :data:`_CUE_LEAD_RE`, and whether it is cued (by that lead-in, or by a
    sentence ``before`` it in the same message that is only a cue).

    Args:
        sentence: one of the user's sentences.
        before: the sentence before it in the same message ("" for the first).

    Returns:
        tuple: the statement, and whether a cue said it corrects.
    """
    lead = _CUE_LEAD_RE.match(sentence)
    if lead and len(sentence[lead.end() :].split()) >= 1 and sentence[lead.end() :].strip():
        return sentence[lead.end() :].strip(), True
    return sentence, bool(before) and bool(_CUE_ONLY_RE.match(before.strip()))


def first_clause(statement: str) -> str | None:
    """The first clause of a cued statement of two or more (:data:`_FIRST_CLAUSE_RE`), or None: what it corrects may
    be that clause alone, the rest its reason ("..., das Upgrade lief letzte Woche durch")."""
    found = _FIRST_CLAUSE_RE.match(statement)
    return found.group(1).strip() if found else None


__all__ = ["aside_dropped", "cued_statement", "first_clause"]
