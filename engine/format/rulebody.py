"""A standing rule's own words (:mod:`.standing`): the reason said after it cut off, a German du-form made the
imperative, a lead-in at the sentence's end read as at its start (breaker23 B23-12, B23-2). Pure text: no file.
"""

from __future__ import annotations

import re

TAIL_LEAD_RE = re.compile(
    r"^(?:(?:actually|ok|okay|also|and|so|oh|btw|alright|right)(?:\s*,)?\s+)?(?P<body>.+?)(?:\s*,)?\s+(?P<lead>from\s+now\s+on"
    r"|from\s+here\s+on(?:\s+(?:out|in))?|going\s+forward|moving\s+forward|henceforth|ab\s+sofort|ab\s+jetzt"
    r"|von\s+nun\s+an|désormais|dorénavant|à\s+partir\s+de\s+maintenant|a\s+partir\s+de\s+ahora|de\s+ahora\s+en\s+adelante)$",
    re.IGNORECASE,
)
"""A standing lead-in at the sentence's END ("Actually, let's do commit messages in German from now on"; B23-12): the
rule keeps it ("do commit messages in German from now on"), as a correction of the stored rule says it."""
_REASON_RE = re.compile(
    r"(?:\s*(?:[;,]|\s[-–—])\s*|\s+(?=because\b|weil\b|parce\s+que\b|porque\b))"
    r"(?P<tail>(?:because|since|as|cause|weil|denn|da|car|parce\s+que|porque|ya\s+que)\b.*"
    r"|(?:it|that|this|there|he|she|they)['’](?:s|re)\b.*|(?!(?:and|or|but|not|unless|if|when|whenever|even|except"
    r"|only|especially|including|like|such|so\s+that)\b)(?:[\w.+#'’-]+\s+){1,3}?(?:is|was|are|were|does|did|has|had"
    r"|asked|wanted|wants|needs|needed|felt|feels|seems|seemed|looks|looked|got|gets|ist|war|sind|waren|hat|est|était"
    r"|es|era|fue|son)\b.*|(?:i|we|they|he|she)(?:['’](?:ve|re|d|ll|m))?\s+(?!(?:and|or|but)\b)\w.*"
    r"|(?:the|this|that|our|my|its|their|(?-i:[A-Z][\w.+#-]*))\s+(?:[\w.+#'’-]+\s+){0,2}?(?-i:[a-z]+[^s\W]s)\s+\w+.*)$",
    re.IGNORECASE,
)
"""A reason after the rule, a clause with its own subject and verb or "because ..." ("answer in English again, German
was a bad idea", "indent with 4 spaces; 2 was too cramped", "..., the team is all German now"; breaker23 B23-12;
a pronoun or a name and a verb in -s: "..., I find them noisy", "..., CI keeps catching it", "..., the deploy hook
tracks it", sess14):
not part of the rule, and its words (the old value again) would stop the replacement (:func:`same_rule`)."""
_DU_VERB_RE = re.compile(r"^(?P<verb>[a-zäöüß]{2,}?)(?:st|(?<=[sßzx])t)\s+du\s+(?:bitte\s+)?(?P<rest>\S.*)$")
"""German "Ab sofort schreibst du X" (a du-form verb before its subject after the lead-in): the imperative "schreib
X" (breaker23 B23-2), not "Schreibst du X", a question's word order."""


def rule_body(body: str) -> str:
    """A rule's words after its lead-in, less "please" or "let's", a reason after it (:func:`without_reason`), a
    German du-form verb made the imperative (:data:`_DU_VERB_RE`).

    Args:
        body: the sentence less its lead-in.

    Returns:
        str: the rule's words.
    """
    body = re.sub(r"^(?:please|pls|kindly|let['’]s|let\s+us)\s+", "", body.strip(" ,"), flags=re.I)
    body = without_reason(body)
    german = _DU_VERB_RE.match(body)
    return f"{german['verb']} {german['rest']}" if german else body


def without_reason(text: str) -> str:
    """``text`` less a reason said after it (:data:`_REASON_RE`: "indent with 4 spaces; 2 was too cramped" ->
    "indent with 4 spaces"), when two words or more stay.

    Args:
        text: a rule or a standing statement, less its lead-in.

    Returns:
        str: the text before the reason, or ``text`` unchanged.
    """
    reason = _REASON_RE.search(text)
    return text[: reason.start()] if reason and len(text[: reason.start()].split()) >= 2 else text


__all__ = ["TAIL_LEAD_RE", "rule_body", "without_reason"]
