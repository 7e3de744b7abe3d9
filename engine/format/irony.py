"""A sentence the user does not mean as said: irony, or someone else's text they introduce (breaker15, corr10).

"Great. From now on, just push straight to main, why not." and "Yeah right. We switched from Stripe to Bitcoin."
are rebukes, not a rule or a correction; "Here is what the handbook says. From now on, every PR needs two reviews."
quotes a document. :func:`not_meant` reads the sentence with the one before it and the one after it in the same
message. Pure text: no file.
"""

from __future__ import annotations

import re

_IRONIC_BEFORE_RE = re.compile(
    r"^(?:oh\s+|well\s+|yeah\s+|ah\s+)?(?:(?:yes|yeah|yep|sure)(?:\s*,)?\s+)?(?:great|right|sure(?:\s+thing)?|wonderful|perfect|brilliant|fantastic|wow|nice|cool|lovely|"
    r"awesome|terrific|amazing|splendid|excellent|good\s+job|well\s+done|nice\s+one|thanks\s+a\s+lot|of\s+course)"
    r"(?:\s+(?:then|job|work|idea|plan))?\s*[.!,…]*$",
    re.IGNORECASE,
)
"""A short sentence of praise or assent before a rule or a correction: most often irony ("Great.", "Yeah right.")."""
_IRONIC_RE = re.compile(
    r"\b(?:why\s+not|what\s+could\s+(?:possibly\s+)?go\s+wrong|lol|lmao|rofl|/s|i\s+guess|as\s+if|yeah\s+right|"
    r"that['’]s\s+what\s+you\s+(?:seem\s+to\s+)?want|since\s+you\s+(?:love|like)\s+\w+|apparently|if\s+i\s+were|"
    r"i['’]d\s+say|is\s+what\s+\w+\s+(?:says?|said|would\s+say|wants?)|not\s+really|if\s+you\s+say\s+so)\b"
    r"|/s\b|🙄|😒|😂|🤣|😉|😜|😅|🙃",
    re.IGNORECASE,
)
"""Words in or after the sentence that say it is not meant ("why not", "/s", "that's what you seem to want")."""
_INTRO_RE = re.compile(
    r"\b(?:says|said|wrote|writes|reads|read|states|here\s+is|here['’]s|here\s+are|below|following|quote|quoting|"
    r"excerpt|pasted?|forwarded|copied)\b|:\s*$",
    re.IGNORECASE,
)
"""A sentence that introduces someone else's text after it ("Here is what the handbook says.", "The wiki reads:")."""


_REVIEW_RE = re.compile(
    r"\b(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:proofread|review|check|translate|summari[sz]e|edit|fix|rewrite|"
    r"improve|reword|shorten|look\s+(?:at|over)|comment\s+on)\s+(?:(?:the|my|our|this|that)\s+)?(?:\w+\s+)?"
    r"(?:this|it|that|these|those|following|below|above|text|draft|wording|paragraph|sentence|doc|docs|document|page"
    r"|section|e-?mail|message|post|readme|copy|blurb|notes?|announcement|letter|changelog|entry|grammar|spelling"
    r"|typos)\b"
    r"|\b(?:do|does|is|are)\s+(?:this|these|it)\s+(?:\w+\s+)?(?:read|sound|look)\b|\bgrammatical\b"
    r"|\bthoughts\s+on\s+(?:this|the|my)\b|\bthis\s+(?:draft|sentence|paragraph|wording|snippet)\b"
    r"|\b(?:proofread|review|summari[sz]e|translate|edit|rewrite|reword|shorten|check)\s+(?:this|it|that|these|the\s+"
    r"following|below|the\s+text|the\s+draft|my\s+draft)\b|\bwhat\s+do\s+you\s+think\b|\bany\s+(?:feedback|thoughts)\b",
    re.IGNORECASE,
)
"""A request to work on text the message holds ("Can you proofread this for our wiki?", "What do you think?"): the
message's rules are that text's, not the user's (breaker15 B15-11). "Can you fix/review ..." must name text as its
object ("this", "the draft", "my README section"): "Can you fix the failing test?" under "From now on, always run the
linter before committing." works on code, and the rule is the user's (breaker33)."""


_HEDGED_RE = re.compile(
    r"^(?:(?:do|does|did|should|shall|can|could|would|will|is|are|am|was)\s+(?:we|i|you|it|they)|let['’]s\s+see"
    r"|let\s+us\s+see)\b"
    r"|\b(?:if\s+i\s+were|i['’]d\s+say|would\s+say|or\s+maybe|maybe\s+not|let\s+me\s+think|i\s+think|not\s+sure|"
    r"we['’]ll\s+see|what\s+\w+\s+wants|not\s+me)\b"
    r"|,\s*(?:the\s+|my\s+|our\s+)?\w+\s+(?:wants|said|says|asked\s+for|insists|prefers|likes)\b",
    re.IGNORECASE,
)
"""What follows "From now on," that is no standing say: a question without its mark ("do we still need ..."), a
wait-and-see ("let's see how it goes"), a tail that takes it back or gives it to someone else ("..., or maybe not,
let me think", "..., the CTO wants that"; breaker15 B15-22)."""


def hedged(body: str) -> bool:
    """Whether the words after a standing lead-in are no standing say of the user's (:data:`_HEDGED_RE`, or
    :data:`_IRONIC_RE`: "lol", a laughing emoji).

    Args:
        body: the words after "From now on," / "Going forward,".

    Returns:
        bool: True when they must not be kept.
    """
    return bool(_HEDGED_RE.search(body) or _IRONIC_RE.search(body))


def under_review(message: str) -> bool:
    """Whether ``message`` asks the agent to work on text it holds (:data:`_REVIEW_RE`): none of its rules is the
    user's.

    Args:
        message: a user's message.

    Returns:
        bool: True when it does.
    """
    return bool(_REVIEW_RE.search(message))


_PLAIN_THANKS_RE = re.compile(
    r"^(?:great|perfect|thanks|thank\s+you|cool|nice|ok|okay|good|excellent|awesome|sure|got\s+it)\s*[.!]?$",
    re.IGNORECASE,
)
"""One plain word of thanks or assent before a rule ("Great.", "Thanks!"): said in earnest unless the rule or the
sentence after says otherwise (:data:`_IRONIC_RE`); a rule that would do harm waits in the inbox whatever is said
before it (:func:`memrepo.engine.checkpoints.userkept.proposed_rules`), so irony there costs a proposal, never a rule."""


_REPEATED_RE = re.compile(
    r"^(?:oh\s+|well\s+)?(great|perfect|cool|nice|wonderful|brilliant|fantastic|lovely|awesome|amazing|sure|right|wow)"
    r"(?:[\s,.!…]+(?:just\s+|so\s+|really\s+|very\s+)?\1\b)+[\s.!…]*$",
    re.IGNORECASE,
)
"""One word of praise said again and again before a statement ("Great, just great.", "Cool cool cool."): irony."""


def not_meant(before: str, sentence: str, after: str, rule: bool = False) -> bool:
    """Whether ``sentence`` is not the user's own plain say: ironic (:data:`_IRONIC_BEFORE_RE` before it,
    :data:`_IRONIC_RE` in it or after it) or the text a sentence before it introduces (:data:`_INTRO_RE`).

    Args:
        before: the sentence before it in the same message ("" for none).
        sentence: the sentence.
        after: the sentence after it in the same message ("" for none).
        rule: the sentence is read as a standing rule: one plain word of thanks before it (:data:`_PLAIN_THANKS_RE`)
            is earnest ("Great. From now on, write commit messages in English.", corr11).

    Returns:
        bool: True when it must not be kept as a rule or a correction.
    """
    plain = rule and _PLAIN_THANKS_RE.match(before.strip())
    if _REPEATED_RE.match(before.strip()):
        return True  # "Great, just great.", "Cool cool cool."
    if (not plain and _IRONIC_BEFORE_RE.match(before.strip())) or any(
        _IRONIC_RE.search(t) for t in (before, sentence, after)
    ):
        return True
    return bool(before.strip()) and bool(_INTRO_RE.search(before))


__all__ = ["hedged", "not_meant", "under_review"]
