"""The explicit "remember that X" rule: what the user asked to keep, in their own words (docs/architecture.md §7).

One rule for both places that read a conversation without a model: the
``rules`` checkpoint distillation (:mod:`memrepo.engine.checkpoints.distill`)
and the offline ``rules`` dream (:mod:`memrepo.engine.dreams.remembers`), which
reads the sessions whose checkpoint hooks never ran. Pure text: no file, no
repo. The phrasings it hears, and those it leaves alone on purpose, are a labelled set measured by
``benchmarks/bench_remember_phrasings.py`` (precision first: a wrong store is worse than none).
"""

from __future__ import annotations

import re

from .askwords import EURO_RE, PIN_BEFORE_RE, PIN_RE, PLEASE_TAIL_RE
from .firstperson import ABOUT_USER_RE, OWN_WORD_RE
from .irony import hedged, not_meant, under_review
from .namedpart import named_part
from .pasted import own_short_message, pasted_lines, readable
from .relativedates import MONTH_NAMES
from .retracting import retraction, retraction_scope
from .rulebody import without_reason
from .secretclauses import without_secrets
from .thatclauses import that_clauses, without_refused

_LEAD = (
    r"(?:(?:also|and|oh|so|but|btw|by\s+the\s+way|please|pls|kindly|just|then|finally|ok|okay|plus|always|"
    r"going\s+forward|from\s+now\s+on|for\s+future\s+reference|correction)\b,?\s+)"
)
"""Words that may come before a request to keep: "Also remember that", "Oh, and please remember that"."""
_ASK = r"(?P<ask>(?:can|could|would|will)\s+you\s+(?:please\s+)?)"
"""A polite request ends with "?" and is still a request: "Could you remember that X?"."""
_SUBJECT = r"(?:we|we['’]re|our|my|i|i['’]m|it|it['’]s|its|they|their|you|your|this|these|us)\s+\w"
"""The start of a clause "remember" may take without "that": "remember we use X", "remember our CI ..."."""
_THE_IS = r"(?:the|a|an)\s+[^.!?\n,;:]{1,60}?\s(?:is|are|isn['’]t|aren['’]t)\s"
"""A noun phrase then "is"/"are": "remember the staging host is pg-stage-12" (not "remember the meeting")."""
_MEMORY = r"(?:your|my|the|our)\s+memory"
_WH_COLON = r"(?:how|where|which)\s(?![^.!?\n:]*\b(?:told|said|showed|asked|explained)\b)[^.!?\n:]{3,80}:\s*\S"
"""A question word's clause then a colon: "remember how I reach the staging db: psql ..." keeps both (sess15); not a
reminder of what was said ("remember how I told you to run it: ...")."""
_POINTS_BACK_RE = re.compile(r"^(?:it|that|this)(?:['’]s|\s+(?:is|was|has|needs|goes|uses))\b", re.IGNORECASE)
"""What a request to keep after a dash points back with: "curl ... https://host/api/v2 -- remember it's the v2 path"
keeps the sentence it points into (sess15)."""
_VERB = (
    rf"(?:(?:remember|keep\s+this\s+in\s+mind)(?:\s+th(?:is|at))?,?\s+(?:permanently|forever|always|for\s+(?:later|good"
    rf"|next\s+time|the\s+future))(?=\s*:|\s+that\s)|(?:save|pin)\s+this(?:\s+for\s+later)?(?=\s*:)|remember|don['’]?t"
    rf"\s+forget|do\s+not\s+forget|never\s+forget|(?:keep|bear)\s+in\s+mind|please\s+note|make\s+a\s+note|take\s+note|note\s+to\s+self(?:\s+for"
    rf"\s+{_MEMORY}|\s+for\s+memory)?|note\s+for\s+(?:{_MEMORY}|memory)|update\s+{_MEMORY}"
    rf"|(?:save|store|add|put|keep)\s+(?:this|that|it)\s+(?:to|in|into)\s+(?:{_MEMORY}|memory))"
)
"""The words of a request to keep: "remember", "don't forget" (or "never forget"), "keep in mind" (or "bear"), "please note", "make a note", "note to
self", "update your memory", "save this to memory"; a qualifier before ":" or "that" ("Remember this permanently: X",
"Save this for later: X", "Pin this: X", B17-13). A plain "Note that ..." is not one: in a prompt it is most often
the task's context ("Note that the function below returns None; fix the caller")."""
_BARE_VERB_RE = re.compile(r"remember|don['’]?t\s+forget|do\s+not\s+forget", re.IGNORECASE)
"""The verbs that take a bare clause ("remember we ship on Tuesdays"); "keep in mind" and the rest need "that" or
a colon ("Keep in mind this is only a prototype, so skip the tests" is the task's context)."""
_REMEMBER_RE = re.compile(
    rf"(?:^|(?<=[.!?。！？])\s|[,;:]|\s(?:--|[-–—])\s|\n|\s(?=and\s))\s*{_LEAD}*{_ASK}?{_LEAD}*"
    rf"(?P<verb>{_VERB})(?:\s+that\s+|(?:\s+(?:with\s+)?this)?\s*[:,]\s*|\s+with\s+|(?P<bare>\s+(?={_SUBJECT})|\s+(?={_THE_IS}))|(?P<wh>\s+(?={_WH_COLON})))",
    re.IGNORECASE,
)
r"""The start of a request to keep X, at a sentence's or clause's start (after ``.``, ``,``, ``;``, ``:``, a dash, a
line's start, or " and ": "use password X and remember that H", breaker11 B11-4), after words of :data:`_LEAD` only, so "I remember that ..." and "you also remember that ..." are no
request. X is the rest of the sentence (:func:`_sentence_end`). One ``\s*`` after the mark: two split spaces every way."""
_STANDING_RE = re.compile(
    r"(?:^|(?<=[.!?。！？])\s+|\n)\s*(?:(?:ok|okay|also|and|so|oh|btw|alright|right|but)(?:\s*,)?\s+)?"
    r"(?:from\s+now\s+on|going\s+forward|for\s+future\s+reference)(?:\s*,)?\s+(?=\w)"
    r"(?!(?:is|was|will|would|seems?|looks?|sounds?|means?|has|had|i\s+(?:think|guess|suppose)|maybe|perhaps)\b)",
    re.IGNORECASE,
)
"""A standing statement at a sentence's start, after one short word of talk or none ("Ok from now on X", round 18):
"From now on, X", "For future reference, X"; not the lead-in as a noun
("Going forward is the only option") nor a hedge after it ("Going forward, I think we should ...", corr10)."""
_CJK_RE = re.compile(
    r"(?:^|(?<=[。！？.!?])\s*|\n)\s*(?:请|要|一定要|帮我)?(?:记住|記住|记一下|記一下|记下来|记下|기억해\s*(?:줘|둬|주세요)?"
    r"|메모해\s*(?:줘|둬|주세요)?|覚えておいて(?:ください)?|覚えといて|メモして(?:おいて)?(?:ください)?)"
    r"\s*[:：,，、]\s*"
)
"""The same request in Chinese, Korean or Japanese, with its mark: "记住：X", "请记住，X", "기억해: X", "覚えておいて：X"."""
_ORDINAL = rf"(?<=\d)\.(?=\s+(?i:{MONTH_NAMES})\b)"
"""The point of a German, Danish or Polish ordinal day before a month ("bis zum 18. Dezember"): no sentence's end."""
_END_RE = re.compile(rf"(?!{_ORDINAL})[.!?]+(?=\s|$)|[。！？]+|\n|$")
"""A sentence's end: ``.``, ``!`` or ``?`` before a space or the text's end, a CJK end mark, or a line's end."""
_QUOTE_INTRO_RE = re.compile(
    r"\b(?:say|says|said|saying|write|writes|wrote|read|reads|text|line|comment|message|phrase|prints?)\s*(?:[:,]\s*)?$",
    re.IGNORECASE,
)
"""Words before a colon that introduce quoted text: "update the README to say: remember that ..." is no request."""
_LEADIN_RE = re.compile(
    r"^(?:(?:scratch\s+that|correction|update|actually|also|and\s+also|plus|anyway|so|no\s+wait|wait\s+no|no|nope|wait|sorry|oh|ok|okay|fyi|btw|"
    r"by\s+the\s+way|that['’]s\s+(?:wrong|not\s+right|outdated|old|stale|not\s+true)|not\s+quite|one\s+more\s+thing|"
    r"en\s+fait|en\s+réalité|eigentlich|tatsächlich|en\s+realidad|de\s+hecho)\s*[,:;!.—–-]+\s*"
    r"|(?:actually|also|and|so|btw|oh|well|en\s+fait|en\s+réalité|en\s+realidad|de\s+hecho|in\s+realtà|na\s+verdade)\s+)+",
    re.IGNORECASE,
)
"""A conversational lead-in that is not the fact: "Scratch that:", "Actually,", "No, that's wrong:" (breaker7 B7-6), "No
wait,", "That's outdated:", "En fait,", "Eigentlich", "En realidad," (corr10); in English and the Romance languages,
whose word order stays the same after it, without its comma too ("En realidad la web ...", breaker27 B27-1)."""
_PREAMBLE_RE = re.compile(
    r"^(?:for\s+context|quick\s+note|fyi|[a-z][a-z'’ ]{0,40}?:)(?:\s*[,:])?\s+"
    r"(?=(?:i|i['’](?:m|ve|d|ll)|my)\b)",
    re.IGNORECASE,
)
"""A short preamble before a statement about the user: up to a few words then ":" ("Some background before we start:
I prefer pnpm"), or "For context," / "Quick note:" / "FYI" (breaker11 B11-3)."""
_SENTENCE_RE = re.compile(rf"(?:[^.!?。！？\n]|[.!?](?!\s|$)|{_ORDINAL})+(?:[.!?]+(?=\s|$)|[。！？]+|\n|$)")
"""A sentence: text up to its end mark (``.``, ``!``, ``?`` before a space, a CJK mark) or the line's end."""
_REMEMBER_BEFORE_RE = re.compile(
    r"(?:(?:please|pls|and|also|oh|ok|okay)[,\s]+)*(?:"
    r"(?:remember|note|don['’]?t\s+forget|save|store|keep)\s+(?:that|this|it)(?:\s+in\s+mind)?"
    r"|update\s+(?:your|my|the)\s+memory|for\s+future\s+reference"
    r"|记住(?:这个|这一点|了)?|記住|(?:帮我)?记(?:一下|下来|下|着)|記一下|(?:기억|메모)해\s*(?:줘|둬|주세요)?"
    r"|覚えておいて(?:ください)?|覚えといて|メモして(?:おいて)?(?:ください)?|merk\s+dir\s+das|retiens[- ](?:le|ça|bien)"
    r"|recuérdalo|ricordatelo|lembra(?:-te)?\s+disso|onthoud\s+(?:dat|het|dit)|kom\s+ihåg\s+det|zapamiętaj\s+to|husk\s+det"
    r")(?:\s+for\s+(?:anything|everything|later|next\s+time|the\s+rest)[^.!?。！]{0,40})?(?:\s*(?:,\s*)?please)?\s*[.!。！]*",
    re.IGNORECASE,
)
"""A sentence that only asks to keep what was said before it: "Remember that.", "Please update your memory.",
"기억해 줘."."""
_TRAILING_RE = re.compile(
    r"^(.(?:.*?\S)??)(?:,?\s+for\s+future\s+reference|\s*(?:[,，、]|\s[-–—])\s*(?:"
    + _REMEMBER_BEFORE_RE.pattern
    + r"))\s*[.!。！]*$",
    re.IGNORECASE | re.DOTALL,
)
r"""A statement that ends by saying it is for later or asking to keep it, after a comma or a dash: "The VPN profile is
wg-shop-prod, for future reference.", "We moved to Python 3.13, remember that." (breaker8 B8-13), "X，记住。". Its
statement ends on a non-space (one shorter fits first): tried at each space, ``\s+`` re-read the run (its square)."""
_NOT_A_FACT_RE = re.compile(
    rf"^(?:{_VERB}|remember|from\s+now\s+on|going\s+forward|for\s+future\s+reference|to\s|when\b|where\b|how\b|"
    r"what\b|why\b|which\b|if\b|whether\b)",
    re.IGNORECASE,
)
"""What a found X may not start with: a second request (found on its own), "to ..." (a task: "don't forget to
run the linter"), or a question word."""


def about_user(text: str) -> bool:
    """Whether a statement is about the user ("I now use zsh", "My editor is Helix"): it belongs in me.md
    (breaker7 B7-16), whatever project the session ran in.

    Args:
        text: a statement of the user's.

    Returns:
        bool: True when, less its lead-in (:func:`without_leadin`), it starts with "I", "I'm", "my", "me" (我, 나는, 私は;
        "ich", "mein", "je", "mon", "mi", "il mio", "meu", "mijn", "min", "mój" ...: :data:`.firstperson.OWN_WORD_RE`),
        and is not what someone the user knows does or says ("my colleague Bob prefers tabs", "my manager said ...";
        "my manager is Alice Kim" and "my wife's birthday is May 3" are the user's).
    """
    rest = without_leadin(text)
    other = OTHER_PERSON_RE.match(rest)
    if other and not other.group("own"):
        after = rest[other.end() :]
        if not re.match(r"^(?:\s+[A-Z][\w-]*)?\s+(?:is|are|was|were)\b|^['’]s\b", after):
            return False  # "my colleague Bob prefers tabs", "my manager said ...": about them (breaker9 B9-9)
    if _OTHER_CLAUSE_RE.search(rest):
        return False  # "my editor is Helix and the blog deploys ...": a project's part too (breaker11 B11-6)
    return bool(ABOUT_USER_RE.match(rest) or OWN_WORD_RE.match(rest))


_OTHER_CLAUSE_RE = re.compile(
    r"(?:,\s*|(?<!\s)\s+)and\s+(?=(?:the|our|we|it|its|their|they|this|these|those)\b)",
    re.IGNORECASE,
)
"""Where a statement goes on with a part about something else: "... and the blog deploys ...", "... and we ..."."""
_FULL_CLAUSE_RE = re.compile(
    r"^(?:(?:we|they|it)\s+\w"
    r"|(?:the|our|its|their|this|these|those)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:is|are|was|were|has|have|had|must|should|will|can|does|do|[a-z]+(?:s|ed))\s+\w)",
    re.IGNORECASE,
)
"""A clause with its own subject and a verb: "the blog deploys with make publish", "we ship on Fridays"."""


def by_owner(text: str) -> list[str]:
    """A statement about the user split from a project's part joined by "and" (breaker11 B11-6): "my editor is Helix
    and the blog deploys with make publish" gives "my editor is Helix" (me.md) and "the blog deploys with make
    publish" (the workspace file), only when each part is a full clause with its own subject. Otherwise the
    statement stays whole (and :func:`about_user` is False for it: never a project's fact in me.md).

    Args:
        text: a statement of the user's.

    Returns:
        list[str]: the parts, or ``[text]``.
    """
    cut = _OTHER_CLAUSE_RE.search(text)
    if cut is None:
        return [text]
    head, tail = text[: cut.start()].strip().rstrip(","), text[cut.end() :].strip()
    if len(head.split()) >= 3 and about_user(head) and _FULL_CLAUSE_RE.match(tail):
        return [head, tail]
    return [text]


def said(text: str) -> list[str]:
    """The sentences of a user's message that are statements: code and quotes left out (:func:`readable`), no
    question, each in the user's own words less its end mark.

    Args:
        text: a user's message.

    Returns:
        list[str]: the statements, in order.
    """
    shown = readable(text)
    out: list[str] = []
    for match in _SENTENCE_RE.finditer(shown):
        sentence = text[match.start() : match.end()].strip()
        if sentence and not sentence.endswith(("?", "？")) and match.group(0).strip():
            out.append(sentence.rstrip(".!。！").strip())
    return [s for s in out if s]


def without_leadin(text: str) -> str:
    """A statement less its conversational lead-in ("Scratch that:", "Actually,", "No, that's wrong:"), and less a
    short preamble before a statement about the user ("Some background before we start: I prefer pnpm", "For
    context, my timezone is CET", "Quick note: I use fish"; :data:`_PREAMBLE_RE`, breaker11 B11-3)."""
    rest = _LEADIN_RE.sub("", text.strip()).strip()
    rest = _PREAMBLE_RE.sub("", rest, count=1).strip()
    return rest if len(rest.split()) >= 2 or (rest and not rest.isascii()) else text.strip()


def _requests(text: str, shown: str, pins: bool = False) -> list[tuple[int, str]]:
    """(position, X) of each request to keep X in ``text`` (``shown``: the same text, code and quotes blanked); with
    ``pins``, of each request to pin X only (:data:`PIN_RE`)."""
    found: list[tuple[int, str]] = []
    starts = [(m, bool(m.groupdict().get("ask"))) for m in PIN_RE.finditer(shown)]
    if not pins:
        starts += [(m, False) for m in EURO_RE.finditer(shown)]
        starts += [(m, "ask" in m.groupdict() and bool(m.group("ask"))) for m in _REMEMBER_RE.finditer(shown)]
        starts += [(m, False) for m in _STANDING_RE.finditer(shown)]
        starts += [(m, False) for m in _CJK_RE.finditer(shown)]
    for match, ask in starts:
        begin = match.end()
        if any(begin == pos for pos, _fact in found):
            continue  # "Pin this: X" is a request to keep and a request to pin
        end = _END_RE.search(shown, begin)
        stop = end.start() if end else len(shown)
        mark = end.group(0) if end else ""
        fact = text[begin:stop].strip()
        if match.re is _REMEMBER_RE and match.group("bare") and not _BARE_VERB_RE.fullmatch(match.group("verb")):
            continue  # "keep in mind this is only a prototype": the bare clause form is remember's alone
        wh = match.re is _REMEMBER_RE and bool(match.group("wh"))
        if not fact or (mark.startswith(("?", "？")) and not ask) or (_NOT_A_FACT_RE.match(fact) and not wh):
            continue
        if match.re is _REMEMBER_RE and _POINTS_BACK_RE.match(fact):
            said_at = len(shown[: match.start()]) - len(_last_sentence(shown[: match.start()]).lstrip())
            if said_at < match.start() and not shown[said_at : match.start()].strip().endswith((":", ".")):
                begin, fact = said_at, text[said_at:stop].strip()  # the sentence "it" points into, marker and all
        tail = shown[end.end() if end else stop :][:200]
        if match.re is _STANDING_RE and (
            under_review(text)
            or len(fact.split()) < 3
            or hedged(fact)
            or re.search(r"\b(?:said|says|told|tells)\b", fact, re.IGNORECASE)
            or not_meant(_last_sentence(shown[: match.start() + 1]), fact, tail)
        ):
            continue  # "Going forward, Bob handles it, he said" (corr10), "From now on, me too" (two words: corr11)
        if match.re is _STANDING_RE:
            fact = without_reason(fact)  # "Going forward, indent with 4 spaces; 2 was too cramped" (B23-12)
        head = shown[: match.start() + 1].rstrip()
        if head.endswith(":") and _QUOTE_INTRO_RE.search(head[:-1]):
            continue  # "update the README to say: remember that ..." quotes a line, asks nothing
        if re.match(r"\s+(?:--|[-–—])", shown[match.start() :]) and _SAYS_END_RE.search(shown[: match.start()]):
            continue  # "My colleague says -- remember that ...": his words after the dash, not the user's request
        found.append((begin, fact))
    return found


_SAYS_END_RE = re.compile(
    r"\b(?:says?|said|told\s+(?:me|us)|sagt|sagte|meint|dit|disait|dice|dijo|diz|disse|zegt|zei|säger|sade|mówi)\s*$",
    re.IGNORECASE,
)
"""A clause ending with a verb of saying: what follows its dash is someone's words (sess16)."""


def without_request(statement: str) -> str:
    """A statement less a request to keep it said at its end ("I prefer X, keep that in mind for anything you touch"
    -> "I prefer X"; :data:`_TRAILING_RE`), or unchanged."""
    trailing = _TRAILING_RE.match(statement)
    return trailing.group(1).strip() if trailing else statement


def _last_sentence(text: str) -> str:
    found = [m.group(0).strip() for m in _SENTENCE_RE.finditer(text) if m.group(0).strip()]
    return found[-1] if found else ""


def pinned_statements(texts: list[str]) -> list[str]:
    """What the user asked to pin, in their own words (a part of :func:`user_statements`): "Pin this so every session
    sees it: X", "Keep this at the top: X", "Épingle ça : X", "Fissa questo in memoria: X", "置顶：X", or "X. Pin that."
    (:data:`PIN_RE`, :data:`PIN_BEFORE_RE`). The checkpoint writes them pinned, in MEMORY.md.

    Args:
        texts: the user's messages, in order.

    Returns:
        list[str]: the statements, each stripped of its end mark.
    """
    return user_statements(texts, pins=True)


def user_statements(texts: list[str], pins: bool = False) -> list[str]:
    """What the user asked to remember, in their own words, in order (duplicates kept).

    The forms (docs/architecture.md §7, the ``rules`` distillation): a request to keep X at a sentence's or a
    clause's start gives X: "remember that X", "remember: X", "remember, X", "remember we ... X", "remember the
    X is Y", "don't forget that X", "keep in mind that X", "please note that X", "note to self: X", "update your
    memory: X", "save this to memory: X", "記住：X", "기억해: X" (:data:`_REMEMBER_RE`, :data:`_CJK_RE`); a sentence
    starting "From now on, X", "For future reference, X" gives X, and "X, for future reference." gives X; a sentence
    that only says "Remember that." / "Please update your memory." / "기억해 줘." gives the sentence before it
    (in the same message, else the last one of the user's message before), unless that one is a question. Never:
    a question (a polite "Could you remember that X?" is a request), "I remember that X", "Note that X" alone,
    "don't forget to X", words in code or quotes (:func:`readable`), or a line an edit request quotes ("make it
    say: remember that X"). X loses its conversational lead-in (:func:`without_leadin`) and its clauses about a
    redacted secret (:func:`without_secrets`).

    Args:
        texts: the user's messages, in order.
        pins: only the requests to pin (:func:`pinned_statements`).

    Returns:
        list[str]: the statements, each stripped of its end mark.
    """
    facts: list[str] = []
    per_message: list[list[str]] = []  # the facts each message gave, so a later "forget that," takes them back
    previous: list[tuple[str, str]] = []  # the last message's sentences: (as checked, in the user's words)
    for text in texts:
        shown = readable(text)
        pasted = pasted_lines(text)
        taken_back = retraction(text)
        sentences = [
            (shown[m.start() : m.end()].strip(), text[m.start() : m.end()].strip())
            for m in _SENTENCE_RE.finditer(shown)
            if m.group(0).strip()
        ]
        found = [(pos, fact) for pos, fact in _requests(text, shown, pins) if not any(a <= pos < b for a, b in pasted)]
        pos = 0
        for i, (sentence, _words) in enumerate(sentences):
            pos = shown.find(sentence, pos)
            if not pins and (part := named_part(sentence)) is not None:  # "X, Y，记一下告警频道就行" (sess20)
                found.append((pos, part))
                continue
            trailing = None if pins else _TRAILING_RE.match(sentence)
            if trailing and not sentence.endswith(("?", "？")):
                found.append((pos, text[pos : pos + len(trailing.group(1))]))
                continue
            if not PIN_BEFORE_RE.fullmatch(sentence) and (pins or not _REMEMBER_BEFORE_RE.fullmatch(sentence)):
                continue
            before, said_before = sentences[i - 1] if i else (previous[-1] if previous else ("", ""))
            asks = _REMEMBER_BEFORE_RE.fullmatch(before) or PIN_BEFORE_RE.fullmatch(before)
            if before and not before.endswith(("?", "？")) and not asks:
                if task(before) or ABOUT_AGENT_RE.match(without_leadin(before)):
                    continue  # "Check the window. Remember that." / "You wrote X. Remember that." (B9-18, B9-1)
                found.append((pos, said_before))  # in the user's words: a quote in it is theirs too
        mine: list[str] = []
        since = retraction_scope(text, taken_back)
        for pos, fact in sorted(found):
            if taken_back is not None and since <= pos < taken_back:
                continue  # "... Just kidding." takes it back
            fact = PLEASE_TAIL_RE.sub("", fact.strip().rstrip(".!?。！？").strip())
            for kept in map(without_secrets, that_clauses(without_refused(without_leadin(fact)))):
                if kept and not scoped(kept):  # "this is a throwaway branch": true of now only (breaker9 B9-19)
                    mine.extend(by_owner(kept))  # "remember that A and that B": A and B, each a line (B30-20)
        if taken_back is not None and _retracts_earlier(text, taken_back):
            near = re.match(
                r"(?:don['’]?t|do\s+not)\s", shown[taken_back:], re.I
            )  # "Don't save that": the last message's
            for earlier in reversed(per_message[-1:] if near else per_message):
                if earlier:  # the last request's facts are the last ones kept: later messages gave none
                    del facts[-len(earlier) :]
                    earlier.clear()
                    break
        facts.extend(mine)
        per_message.append(mine)
        previous = sentences or previous
    return facts


def _retracts_earlier(text: str, at: int) -> bool:
    """Whether the retraction at ``at`` opens ``text`` ("Actually, forget that, ...") and so takes back the
    last message's request (breaker9 B9-8); "That's wrong" there speaks of the agent's words, not the user's."""
    shown = readable(text)
    head = _LEADIN_RE.sub("", re.sub(r"^(?:hmm+|um+|please|ah)\b[,!.]?\s*", "", shown[:at].strip(), flags=re.I))
    head = head.strip(" ,.;:!-—–")  # "Hmm, don't save that one", "Please don't store that" (B17-12)
    word = shown[at:].lower()
    return not head and not word.startswith(("that", "not"))


_NOW_ONLY_RE = re.compile(
    r"\b(?:for\s+now|temporar(?:y|ily)|throwaway|throw-away|for\s+the\s+time\s+being|at\s+the\s+moment|right\s+now|"
    r"this\s+(?:session|conversation|chat)|nothing\s+here\s+matters|"
    r"for\s+(?:this|the)\s+(?:\w+\s+)?(?:task|session|conversation|chat|demo|experiment|run|spike))\b",
    re.IGNORECASE,
)
"""A statement true of this session only, the part of :data:`_SCOPED_RE` a request to remember is held to."""
_PEOPLE = (
    r"colleague|colleagues|coworker|co-worker|coworkers|manager|boss|lead|team\s*lead|teammate|teammates|team|wife|"
    r"husband|partner|spouse|friend|friends|girlfriend|boyfriend|mom|mum|mother|dad|father|brother|sister|son|daughter|"
    r"kid|kids|child|children|client|customer|cto|ceo|cfo|roommate|flatmate|neighbou?r|landlord|doctor|reviewer|"
    r"intern|report|reports|mentor|pm|designer"
)
OTHER_PERSON_RE = re.compile(rf"^(?:my|our)\s+(?P<who>{_PEOPLE})\b(?P<own>['’]s)?", re.IGNORECASE)
"""A statement about someone the user knows: "my colleague Bob prefers tabs", "my manager's rule"."""
_TASK_RE = re.compile(
    r"^(?:(?:now|then|so|ok|okay|and|also)(?:\s*,)?\s+)?(?:please|pls|can|could|would|will|let['’]?s|lets|fix|add|run|make|use|remove|delete|write|create|check|try|"
    r"change|move|rename|update|upgrade|downgrade|bump|switch|migrate|set|install|put|bring|implement|refactor|revert|build|deploy|test|show|tell|explain|look|open|go|do|don['’]?t|"
    r"find|read|summari[sz]e|review|search|list|print|verify|debug|investigate|ask|send|call|get|see|compare|figure)\b"
    r"(?!\s+(?:on|about|regarding)\s[^.!?:]{1,60}:)",
    re.IGNORECASE,
)
"""A sentence that starts as a task ("Now fix the tests"); not a heading: "Update on the push provider: ..." (sess19)."""
ABOUT_AGENT_RE = re.compile(
    r"^(?:you|you['’](?:re|ve|d|ll)|your|claude|codex|the\s+(?:agent|assistant|model|bot|ai))\b(?!['’]s\b)",
    re.IGNORECASE,
)
"""A sentence about the agent or its words ("You said X", "You wrote X in the PR"): not the user's fact; "The bot's
prod channel is ..." is about a thing the project has (a possessive), not the agent."""


def scoped(text: str) -> bool:
    """Whether a statement the user asked to keep is true of this session only (:data:`_NOW_ONLY_RE`: "this is a
    throwaway branch", "for now", "for this task"): no standing fact (breaker9 B9-19). A time or place it names
    ("I'm out next week", "in the EU region") is the user's to keep when asked."""
    return bool(_NOW_ONLY_RE.search(text))


def task(text: str) -> bool:
    """Whether a sentence starts as a task for the agent (:data:`_TASK_RE`)."""
    return bool(_TASK_RE.match(without_leadin(text)))


__all__ = [
    "about_user",
    "by_owner",
    "own_short_message",
    "pasted_lines",
    "pinned_statements",
    "readable",
    "retraction",
    "retraction_scope",
    "said",
    "scoped",
    "task",
    "user_statements",
    "without_leadin",
    "without_request",
    "without_secrets",
]
