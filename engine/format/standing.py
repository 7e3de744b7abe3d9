"""The user's standing rules said in a session: "going forward, ...", "please stop X-ing", in four languages (corr10).

A rule is what the user asks the agent to do (or not) from now on, said at a sentence's start:

- after a standing lead-in (:data:`_LEAD_RE`): "From now on, ...", "Going forward, ...", "From here on, ...", "In
  future, ...", "Moving forward, ..."; French "Désormais, ...", "À partir de maintenant, ..."; German "Ab sofort
  ...", "Von nun an ..."; Spanish "A partir de ahora, ...", "De ahora en adelante, ...". The rule is what follows;
- or as a rule in its own words: "Please stop adding emojis to commit messages" (stop and a verb in -ing), "Don't
  ever force-push to main again", "Never use tabs in YAML files again".

Never a rule: a question, quoted or pasted text (:func:`.remembering.said`), another person's ("My manager says
from now on ...", "Bob's rule is: ..."), a hedge or a supposition ("Going forward, I think we should ...", "If we
ever move to X"), a rule for now only ("For now, stop adding tests", "... while we finish the refactor"), a lead-in
used as a noun ("Going forward is the only option", "In future releases ..."), or a rule with nothing of its own
("Don't ever do that again"). A statement after the lead-in that is a fact, not a rule ("From now on, the staging DB
is pg-stage-12", "From now on I prefer tabs") is kept as before, as a fact (:func:`rule_statements` leaves it out).

A newer rule replaces an older one on the same subject (:func:`same_rule`, in :mod:`.samerule`): "write all commit messages in German"
replaces "Write all commit messages in English", "keep answers under five lines" replaces "Keep answers under ten
lines", "stop writing commit messages in English" replaces it too; "always run the linter before committing" does
not replace "Always run the tests before committing" (another object, not another value). Pure text: no file.
"""

from __future__ import annotations

import re

from .irony import hedged, not_meant, under_review
from .practice import NAMED_PROJECT_RE, PROJECT_HERE_RE, unled_rule
from .remembering import (
    OTHER_PERSON_RE,
    _retracts_earlier,
    pasted_lines,
    readable,
    retraction,
    retraction_scope,
    said,
    scoped,
    user_statements,
)
from .rulebody import TAIL_LEAD_RE, rule_body, without_reason
from .ruleforms import OTHER_LEAD_RE, long_enough
from .samerule import PROJECT_SCOPE_RE, rule_words, same_rule

_LEAD_RE = re.compile(
    r"^(?:(?:ok|okay|also|and|so|oh|btw|alright|right)(?:\s*,)?\s+)?"
    r"(?:(?P<comma>in\s+(?:the\s+)?future|for\s+the\s+future|à\s+l['’]avenir|en\s+el\s+futuro|en\s+lo\s+sucesivo"
    r"|en\s+adelante|in\s+zukunft)\s*,"
    r"|(?:from\s+now\s+on|from\s+here\s+on(?:\s+(?:out|in))?|from\s+this\s+point\s+(?:on|forward)|going\s+forward"
    r"|moving\s+forward|henceforth|(?:starting|beginning)\s+(?:now|today)"
    r"|désormais|dorénavant|à\s+partir\s+de\s+maintenant|à\s+partir\s+d['’]aujourd['’]hui|dès\s+maintenant"
    r"|ab\s+sofort|ab\s+jetzt|ab\s+heute|von\s+nun\s+an|von\s+jetzt\s+an|künftig|zukünftig"
    r"|a\s+partir\s+de\s+ahora|de\s+ahora\s+en\s+adelante|desde\s+ahora|a\s+partir\s+de\s+hoy)\s*,?)\s+",
    re.IGNORECASE,
)
"""A standing lead-in at a sentence's start; a prepositional one ("in future", "en el futuro") only with its comma
("In future releases the API drops v1" is no rule)."""
_STOP_RE = re.compile(r"^(?:please\s+|pls\s+|kindly\s+)?(?P<rule>stop\s+[a-z]+ing\b\s+\S.*)$", re.IGNORECASE)
"""'Please stop adding emojis to commit messages': stop and a verb in -ing, then what."""
_ANYMORE_RE = re.compile(
    r"^(?:(?:actually|ok|okay|so|oh|btw|also)(?:\s*,)?\s+)?(?:please\s+|you\s+can\s+)?(?:(?:don['’]?t|do\s+not)\s+bother"
    r"|no\s+need\s+to\s+keep|(?:you\s+)?(?:don['’]?t|do\s+not)\s+need\s+to\s+keep)\s+(?P<what>[a-z]+ing\b\s+\S.*?)"
    r"\s+(?:any\s*more|any\s+longer)$",
    re.IGNORECASE,
)
"""A rule turned around without a lead-in: "don't bother running the tests before pushing anymore" is "stop running
the tests before pushing" (breaker23 B23-13)."""
_AGAIN_RE = re.compile(
    r"^(?:please\s+)?(?P<rule>(?:(?:don['’]?t|do\s+not)\s+ever|never\s+ever|never)\s+(?P<what>.+?)\s+(?:ever\s+)?again)$",
    re.IGNORECASE,
)
"""'Don't ever force-push to main again', 'Never use tabs in YAML files again'."""
_NOT_RULE_START_RE = re.compile(
    r"^(?:is|was|will|would|seems?|looks?|sounds?|means?|has|had|isn['’]t|wasn['’]t|won['’]t|[?]"
    r"|ist|sind|war|wird|gibt|es|est|c['’]est|il|elle|está|están|son|hay|er|sie)\b"
    r"|^(?:if|when|whenever|unless|suppose|assuming|maybe|perhaps|probably|i\s+(?:think|guess|wonder|suppose|believe)"
    r"|i['’]m\s+not\s+sure|we\s+(?:might|could|may)|should\s+we|what|how|why|which|who"
    r"|remember|note|keep\s+in\s+mind|don['’]?t\s+forget|for\s+future\s+reference"
    r"|(?:do|does|did|should|shall|can|could|would|will|is|are|am|was)\s+(?:we|i|you|it|they)|let['’]s\s+see|let\s+us\s+see)\b",
    re.IGNORECASE,
)
"""A lead-in used as a noun ("Going forward is ..."), a hedge, a supposition or a question word after it, a question
without its mark ("Going forward, do we still need ...", breaker15 B15-22)."""
_NOT_MEANT_RE = re.compile(
    r"\b(?:if\s+i\s+were|i['’]d\s+say|would\s+say|or\s+maybe|maybe\s+not|let\s+me\s+think|i\s+think|not\s+sure|"
    r"we['’]ll\s+see|what\s+\w+\s+wants|not\s+me)\b"
    r"|,\s*(?:the\s+|my\s+|our\s+)?\w+\s+(?:wants|said|says|asked\s+for|insists|prefers|likes)\b|[😂🤣😉😜😅🙃]",
    re.IGNORECASE,
)
"""A tail that takes the rule back or gives it to someone else ("..., or maybe not, let me think", "..., the CTO wants
that", "... is what I'd say if I were Bob", a laughing emoji; breaker15 B15-22)."""
_TEAM_FACT_RE = re.compile(r"^[A-Z][a-z]+\s+(?:will|is|are|has|handles?|owns?|does|takes?|runs?|leads?)\b")
""""Alice will handle the releases": a fact about a person, kept as one, not a rule."""
_FACT_START_RE = re.compile(
    r"^(?:the|a|an|this|that|these|those|its|their|i|i['’](?:m|ve|d|ll)|my|me|mine"
    r"|le|la|les|l['’]|un|une|mon|ma|mes|der|die|das|ein|eine|mein|meine|ich|el|los|las|una|mi|mis|yo)\b",
    re.IGNORECASE,
)
"""A statement after a lead-in that is a fact or the user's own preference, not a rule ("From now on, the staging DB
is pg-stage-12", "From now on I prefer tabs"): kept as before, not as a rule."""
_NOW_ONLY_RE = re.compile(
    r"\b(?:while|until|till|today|tonight|this\s+(?:function|file|module|class|test|pr|branch|week|sprint))\b",
    re.IGNORECASE,
)
"""A rule for the work at hand ("Stop adding debug prints to this function while we finish the refactor")."""
_PROJECT_RE = re.compile(
    r"^(?:we|we['’](?:re|ll|ve|d)|our|us|wir|unser\w*|nous|notre|nos|on|nosotros|nosotras|nuestr\w*)\b", re.IGNORECASE
)
"""A rule the team keeps ("we deploy the shop from the release branch"): the project's, not every project's."""
_TAKE_BACK_RE = re.compile(
    r"^\W*(?:(?:hmm+|ok|okay|wait|no)\W+)*(?:on\s+second\s+thought|ignore\s+what\s+i\s+(?:just\s+)?said|never\s*mind\s+(?:the|that|about)"
    r"|forget\s+(?:the|about)\s+\w+|let['’]s\s+keep|stay\s+with|keep\s+(?:it\s+)?(?:as\s+it\s+was|\w+\s+after\s+all)|no\s+change)"
    r"|\bafter\s+all\b",
    re.IGNORECASE,
)
"""A message that takes back the last one's rule in other words ("On second thought, stay with English", "Ignore
what I said about German", "Never mind the German thing", "Hmm, no, let's keep English after all")."""
_CODE_SPAN_RE = re.compile(r"`[^`\n]+`")
"""Inline code in a rule is its own ("From now on, run `make lint` before committing"); quotes are someone's words."""
_SAYS_RE = re.compile(
    r"^(?:[\w'’-]+\s+){0,4}?(?:says|said|told|tells|thinks|wants|asked|asks|insists|claims|sagt|meint|dit|dice)\b"
    r"|\b(?:said|says|told|tells|according\s+to|sagt|sagte|dit|dice|dijo)\b",
    re.IGNORECASE,
)
"""Someone's words reported ("Bob says from now on ...", "Mein Chef sagt, ab sofort ..."): not the user's rule."""
_EMPTY = frozenset(
    {"do", "that", "this", "it", "so", "anything", "something", "thing", "things", "stuff", "again", "ever", "kind",
     "sort", "of", "these", "those", "them", "one", "like", "about", "me", "us", "him", "her", "much"}
)  # fmt: skip
_MOMENT_RE = re.compile(r"\bnever\s+mind\b|,|\band\s+(?:just\s+)?(?:fix|do|finish|try|get|go|answer)\b", re.IGNORECASE)
"""A dismissal ("Never mind, ...") or a rebuke with a task ("Stop making excuses and fix it"): no rule to keep."""
"""Words of "don't ever do that again": no rule of its own."""


_SHORT_RULE_RE = re.compile(
    r"^(?:use|prefer|avoid|answer|reply|respond|write|run|lint|format|commit|push|deploy|sign|squash|rebase|document"
    r"|comment|cite|explain|indent|test|pin|tag|label|review|skip)\s+(?!(?:it|that|this|them|those|these|so|too|again|more|"
    r"less|both|either|one|me|us|him|her)\b)[\w.+#-]{2,}$",
    re.IGNORECASE,
)
"""A rule of two words: an order verb and what it takes ("use pnpm", "answer briefly", "sign commits"; breaker15
B15-24: kept as a project's fact before, the user's "Use npm" rule left standing)."""


_MARKER_RE = re.compile(
    r"^(?:(?:oh|and|so|well|ok|okay)[ \t]+)*(?:by[ \t]+the[ \t]+way|[^\W\d_]+)[ \t]*[,:][ \t]*(?=\S)", re.IGNORECASE
)
"""A one-word discourse marker and its comma (or colon: "Übrigens: ...", round 18) before an order ("Anyway, always
...", "Comunque, rispondimi sempre ...", "Oh and btw, never ..."): not part of the rule, which the unled shapes then read whole (breaker28 B28-6). One
word only: a longer clause before the comma may be a condition or a scope, which the shapes read themselves."""


def _rule(sentence: str) -> str | None:
    """The rule one sentence states (less its lead-in and "please"), or None."""
    sentence = " ".join(sentence.split()).rstrip(".!")
    quoted = readable(_CODE_SPAN_RE.sub("code", sentence)).split() != _CODE_SPAN_RE.sub("code", sentence).split()
    if quoted or OTHER_PERSON_RE.match(sentence) or _SAYS_RE.search(sentence):
        return None  # quoted words in it, another person's rule
    lead = _LEAD_RE.match(sentence) or OTHER_LEAD_RE.match(sentence)
    tail = None if lead else TAIL_LEAD_RE.match(sentence)
    if lead or tail:
        said_body = sentence[lead.end() :] if lead else tail["body"]  # type: ignore[index]
        if _NOT_MEANT_RE.search(said_body):
            return None
        body = rule_body(said_body)
        if _TEAM_FACT_RE.match(body) or hedged(body):
            return None
        if (
            (not long_enough(body) and not _SHORT_RULE_RE.match(body))
            or _NOT_RULE_START_RE.match(body)
            or _NOT_RULE_START_RE.match(said_body.strip(" ,"))
            or _SAYS_RE.search(body)
            or _FACT_START_RE.match(body)
            or scoped(body)
        ):
            return None
        return f"{body} {tail['lead']}" if tail else body
    unled = unled_rule(sentence)  # sess14, sess15
    if unled is None and (marker := _MARKER_RE.match(sentence)):  # "Anyway, always answer me in English" (B28-6)
        unled = unled_rule(sentence[marker.end() :])
    if unled and not (_NOT_MEANT_RE.search(unled) or hedged(unled) or scoped(unled) or _NOW_ONLY_RE.search(unled)):
        return rule_body(unled)
    anymore = _ANYMORE_RE.match(without_reason(sentence))
    if anymore:  # "Actually, don't bother running the tests before pushing anymore, CI does it" (B23-13)
        sentence = f"stop {anymore['what']}"
    for rx in (_STOP_RE, _AGAIN_RE):
        found = rx.match(sentence)
        if found is None:
            continue
        rule = found["rule"]
        what = found.groupdict().get("what") or rule.split(None, 2)[-1]
        content = [w for w in re.findall(r"[\w'’-]+", what.casefold()) if w not in _EMPTY]
        bad = _MOMENT_RE.search(rule) or _NOT_MEANT_RE.search(rule)
        if len(content) < 2 or scoped(rule) or _NOW_ONLY_RE.search(rule) or bad:
            return None
        return rule
    return None


def rule_statements(texts: list[str]) -> list[str]:
    """The user's standing rules in ``texts`` (the module's forms), in order, each in their words less its lead-in;
    never one in pasted text (under "Here is the README:"), nor one the user takes back ("... Just kidding.", or a
    next message opening "Actually, forget that", "On second thought, ...", "Never mind the German thing"), as
    :func:`.remembering.user_statements` reads them.

    Args:
        texts: the user's messages.

    Returns:
        list[str]: the rules.
    """
    return _rules(texts)[0]


def taken_back(texts: list[str]) -> list[str]:
    """The standing statements after a lead-in ("From now on, X") that a later message takes back in other words
    ("On second thought, stay with English", "Ignore what I said about German"; breaker15 B15-32): kept neither as a
    rule nor as a fact.

    Args:
        texts: the user's messages.

    Returns:
        list[str]: the statements, as :func:`rule_statements` would give them.
    """
    return _rules(texts)[1]


def _asked_to_keep(sentence: str, rule: str) -> bool:
    """Whether the request readers keep a part of ``rule`` from ``sentence`` (:func:`.remembering.user_statements`):
    "Always remember: the staging DB resets nightly" asks to keep what follows its colon, which they keep alone; it is
    no order for every time (round 18: the remember verbs are read once, by the request readers). "From now on,
    always answer in English" gives them the rule itself (or it less "please"), which stays a rule."""
    mine = _norm(rule)
    for part in map(_norm, user_statements([sentence])):
        left = mine.replace(part, " ") if part and part in mine else ""
        if re.sub(r"\b(?:please|pls|bitte|por\s+favor|per\s+favore|s['’]il\s+te\s+pla[iî]t)\b|[^\w]", "", left):
            return True  # words beside the kept part ("always remember:"): a request, not the rule
    return False


_AGAIN_WORDS = (
    r"\b(?:again|schon\s+wieder|wieder|encore|otra\s+vez|de\s+nuevo|di\s+nuovo|ancora|de\s+novo|opnieuw|znowu|igen)\b"
)
_DID_AGAIN_RE = re.compile(
    rf"\b(?:you|du|tu|vous|hai|você|je|ty)\b[^.!?]{{0,40}}?(?:(?P<code>`[^`\n]{{1,60}}`)[^.!?]{{0,20}}?{_AGAIN_WORDS}"
    rf"|{_AGAIN_WORDS}[^.!?]{{0,30}}?(?P<code2>`[^`\n]{{1,60}}`))",
    re.IGNORECASE,
)
"""A complaint that the agent did a thing again, the thing in code ("you added `# type: ignore` again", "du hast
schon wieder `print()` drin gelassen")."""
_FORBIDS_ANY_RE = re.compile(
    r"\b(?:never|don['’]?t|do\s+not|stop|no\s+longer|not|nie|niemals|nicht|kein\w*|jamais|pas|nunca|mai|non|nooit"
    r"|niet|aldrig|inte|nigdy)\b",
    re.IGNORECASE,
)
"""A negation in the languages :data:`_DID_AGAIN_RE` reads: the rule forbids something."""


def _with_example(rule: str, before: str) -> str:
    """``rule`` with the code the sentence before complained of, when it forbids something and that sentence says the
    agent did it again ("Ugh, you added `# type: ignore` again. In this codebase we don't silence mypy, ...": the
    rule is about `# type: ignore`, which its own words do not say; heldout9, sess19): "<rule> (not `# type:
    ignore`)". A rule naming the code already, or one that forbids nothing, is kept as said."""
    found = _DID_AGAIN_RE.search(before)
    code = (found["code"] or found["code2"]) if found else ""
    if not code or not _FORBIDS_ANY_RE.search(rule) or code.strip("`") in rule:
        return rule
    return f"{rule} (not {code})"


def _norm(text: str) -> str:
    """``text`` case-folded, spaces collapsed, end marks dropped: two sayings of one statement compare equal."""
    return " ".join(text.casefold().split()).strip(" .!?;:,")


def _rules(texts: list[str]) -> tuple[list[str], list[str]]:
    per_message: list[list[str]] = []
    dropped: list[str] = []
    for text in texts:
        taken = retraction(text)
        since = retraction_scope(text, taken)  # "..., don't store it." takes back its own sentence only (B23-6)
        pasted = pasted_lines(text)
        mine: list[str] = []
        at = 0
        sentences = [] if under_review(text) else said(text)
        for i, sentence in enumerate(sentences):
            at = text.find(sentence, at)
            if (taken is not None and since <= at < taken) or any(a <= at < b for a, b in pasted):
                continue
            before, after = sentences[i - 1] if i else "", sentences[i + 1] if i + 1 < len(sentences) else ""
            if not_meant(before, sentence, after, rule=True):
                continue  # "Great. From now on, just push to main, why not." (breaker15 B15-11, B15-12)
            rule = _rule(sentence)
            if rule and not _asked_to_keep(sentence, rule):
                mine.append(_with_example(rule, before))
        if (taken is not None and _retracts_earlier(text, taken)) or _TAKE_BACK_RE.search(readable(text)):
            for earlier in reversed(per_message):
                if earlier:
                    dropped.extend(earlier)
                    earlier.clear()
                    break
        per_message.append(mine)
    return [rule for mine in per_message for rule in mine], dropped


_RISKY_RE = re.compile(
    r"\b(?:commit|push|paste|log|print)\s+(?:the\s+|all\s+)?(?:secrets?|credentials?|keys?|passwords?|tokens?)\b"
    r"|\bskip\s+(?:all\s+|the\s+)*(?:tests?|checks?|ci|reviews?)\b|\bdelete\s+(?:\w+\s+){0,2}?tests?\b"
    r"|\bpush\s+(?:straight|directly)\s+to\s+(?:main|master|prod)\b|\bforce[- ]push\b(?!\s+to\s+main\s+again)"
    r"|\bdisable\s+(?:the\s+)?(?:ci|tests?|linter|checks?|hooks?)\b|--no-verify\b|\brm\s+-rf\b",
    re.IGNORECASE,
)
"""A rule that would have the agent do harm ("commit secrets", "skip all tests", "push straight to main"): said in
earnest or not, it waits in the inbox for the user (breaker15's advice on B15-11/12), never kept by a dream."""
_STOPS_CHECKS_RE = re.compile(
    r"^(?:stop|never)\s+(?:running|run)\s+(?:the\s+|all\s+|any\s+)?(?:[\w-]+\s+)?"
    r"(?:tests?|checks?|ci|linters?|lint|reviews?|hooks?)\b",
    re.IGNORECASE,
)
"""A rule that stops the checks ("stop running the tests before pushing"): the user picks it in the inbox (B23-13)."""
_FORBIDS_RE = re.compile(r"\b(?:never|don['’]?t|do\s+not|stop|no\s+longer|not)\b", re.IGNORECASE)


def harmful(rule: str) -> bool:
    """Whether a rule would have the agent do harm (:data:`_RISKY_RE`) rather than forbid it ("never push straight
    to main")."""
    return (bool(_RISKY_RE.search(rule)) and not _FORBIDS_RE.search(rule)) or bool(_STOPS_CHECKS_RE.search(rule))


def project_rule(text: str, workspace: str | None = None) -> bool:
    """Whether a rule is the team's ("we deploy the shop from the release branch") or said for one project ("write
    commit messages in German for the shop repo"): the project's file, not one for the agent in every project
    ("write all commit messages in English": the user's rules, lessons.md), or that names the session's workspace
    ("deploy the shop from the release branch" in the shop's session)."""
    name = re.split(r"[\\/]", (workspace or "").rstrip("/\\"))[-1].casefold()
    said_name = bool(name) and len(name) > 2 and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I)
    here = PROJECT_SCOPE_RE.search(text) or PROJECT_HERE_RE.search(text) or NAMED_PROJECT_RE.match(text.strip())
    return bool(_PROJECT_RE.match(text.strip()) or here or said_name)


__all__ = ["harmful", "project_rule", "rule_statements", "rule_words", "same_rule", "taken_back"]
