"""Statements the user makes for later without asking to keep them, read by their shape (issue 30, sess15).

Two shapes, in nine languages, each a standing fact and not the task at hand:

- a fact said for the project at hand (:func:`project_statement`): a project opener ("For this project", "In this
  repo", "Voor dit project:", "Für dieses Projekt", "Pour ce projet", "En este proyecto", "Per questo progetto",
  "Neste projeto", "I det här projektet") then a statement of how things are ("... the Python version is pinned to
  3.11", "... de feature flags staan in LaunchDarkly");
- a notice bounded in time (:func:`bounded_notice`): a span or an end first ("for the next two weeks", "until
  Friday", "hasta el viernes", "bis Freitag", "jusqu'à vendredi", "fino a venerdì", "até sexta", "tot vrijdag",
  "till fredag", "this week"), after a heads-up or not, then a state ("the staging cluster is shared with ...",
  "el entorno de staging está congelado ..."), or a Chinese, Japanese or Korean end or span first ("다음 달 말까지",
  "来月末まで", "周五之前": :mod:`.cjkdates`) then a statement, no question, request or task. The checkpoint dates
  it (:func:`.relativedates.dated`);
- a state said with its end after it (:func:`state_with_end`): a statement of how things are whose first clause holds
  an end or a span the checkpoint can date, wherever it stands ("the payments sandbox is down until December 20, so
  mock the gateway", "the staging db is read-only for the next two weeks"): the end's place is no part of the rule.

What follows the opener must be a statement: a subject (a determiner, a pronoun of the team, a name) and a verb of
state, never an order for now ("For this project, fix the login bug"), an event ("In this repo the build failed
yesterday"), a progressive ("... the tests are failing"), a question or a hedge. Pure text: no file.
"""

from __future__ import annotations

import re
from datetime import date

from .cjkdates import cjk_span
from .irony import hedged, under_review
from .relativedates import DAY_MONTH, NOW_WORDS, dated
from .remembering import pasted_lines, retraction, said, scoped

_PROJECT_RE = re.compile(
    r"^(?:for|in|on)\s+this\s+(?:project|repo|repository|codebase)|(?:für|in|bei)\s+diese[mns]?\s+(?:projekt|repo"
    r"|repository)|(?:pour|dans)\s+ce\s+(?:projet|dépôt|repo)|(?:para|en)\s+este\s+(?:proyecto|repo|repositorio)"
    r"|(?:per|in)\s+questo\s+(?:progetto|repo)|(?:para\s+este|neste|nesse)\s+(?:projeto|repo|repositório)"
    r"|(?:voor|in|bij)\s+(?:dit|deze)\s+(?:project|repo)|(?:för|i)\s+(?:det\s+här|detta)\s+(?:projekt(?:et)?|repo)"
    r"|(?:dla|w)\s+tym\s+(?:projekcie|projektu|repo)",
    re.IGNORECASE,
)
"""A project opener at a sentence's start (its comma or colon after it)."""
_DAY = (
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|montag|dienstag|mittwoch|donnerstag|freitag|samstag"
    r"|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|miércoles|jueves|viernes|sábado|domingo"
    r"|lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica|segunda|terça|quarta|quinta|sexta|maandag|dinsdag"
    r"|woensdag|donderdag|vrijdag|zaterdag|zondag|måndag|tisdag|onsdag|torsdag|fredag|lördag|söndag"
)
_END = (
    rf"(?:(?:el|der|den|le|il|a|o|the|zum|ao|dia)\s+)?(?:{_DAY}|\d{{4}}-\d{{2}}-\d{{2}}|{DAY_MONTH}(?:,?\s+\d{{4}})?"
    r"|(?:the\s+)?end\s+of\s+\w+(?:\s+\w+)?)"
)
_SPAN_RE = re.compile(
    rf"^(?:(?:until|till|through|hasta|bis(?:\s+zum|\s+zur)?|jusqu['’](?:à|au)|fino\s+al?|até(?:\s+[àa])?|tot(?:\s+en\s+met)?"
    rf"|till(?:\s+och\s+med)?|tills)\s+{_END}"
    r"|(?:for|over|during)\s+the\s+(?:next|coming)\s+(?:\d{1,2}|one|two|three|four|five|six|a\s+few|a\s+couple\s+of)\s+"
    r"(?:days?|weeks?|months?)|this\s+(?:week|month|sprint)|(?:durante\s+)?(?:las|los)\s+próxim[ao]s\s+\w+\s+\w+"
    r"|(?:die|in\s+den)\s+nächsten\s+\w+\s+\w+|diese\s+woche|pendant\s+les\s+\w+\s+prochaines?\s+\w+|cette\s+semaine"
    r"|per\s+le\s+prossime\s+\w+\s+\w+|questa\s+settimana|nas\s+próximas\s+\w+\s+\w+|esta\s+semana"
    r"|de\s+komende\s+\w+\s+\w+|deze\s+week|de\s+närmaste\s+\w+\s+\w+|den\s+här\s+veckan)\b",
    re.IGNORECASE,
)
"""A span or an end first ("for the next two weeks", "hasta el viernes", "bis Freitag", "this week")."""
_HEADS_UP_RE = re.compile(
    r"^(?:(?:heads[\s-]up|fyi|note|ojo|atención|aviso|achtung|hinweis|info|attention|à\s+noter|attenzione|nota"
    r"|atenção|let\s+op|observera|obs|uwaga|btw|also|and|oh|ok|okay|so)(?:\s*[:,!])?\s+)+",
    re.IGNORECASE,
)
"""A heads-up before the notice ("heads up:", "Ojo:", "Achtung:", "Let op:")."""
_SUBJECT_RE = re.compile(
    r"^(?:the|our|all|every|we|we['’]re|i|i['’]m|my|there|es\s+gibt|hay|det\s+finns|de|het|die|der|das|alle|unser\w*|wir"
    r"|le|la|les|l['’]|nos|notre|on"
    r"|el|los|las|nuestr\w*|todo\w*|il|lo|gli|i|tutt\w*|nostr\w*|o|a|os|as|noss\w*|den|det|alla|vår\w*|vi|wszystk\w*"
    r"|nasz\w*|(?-i:[A-Z][\w.-]*[A-Z0-9][\w.-]*)|[\w-]+(?:\.[\w-]+)+)\b",
    re.IGNORECASE,
)
"""A statement's subject: a determiner, the team, the user, "there is" (and "es gibt", "hay"), a name with a capital,
digit or dot inside."""
_STATE_RE = re.compile(
    r"['’](?:m|re|s)\b|\b(?:is|are|stays?|remains?|lives?|sits?|runs?|goes|go|uses?|needs?|has|have|must|cannot|can['’]t|won['’]t"
    r"|está|están|es|son|queda|usa|usamos|ist|sind|bleibt|liegt|liegen|läuft|laufen|steht|stehen|nutzen|est|sont|reste"
    r"|utilise|è|sono|resta|usa|usiamo|é|são|fica|ficam|usamos|zit|zitten|staat|staan|draait|gebruiken|blijft|är"
    r"|ligger|kör|använder|förblir|jest|są|używamy|gibt|hay|finns)\b",
    re.IGNORECASE,
)
"""A verb of how things are (a copula, a place, a use, a need), in the nine languages."""
_NOT_STATE_RE = re.compile(
    rf"\b(?:is|are|was|were)\s+\w+ing\b|\b(?:{NOW_WORDS}|right\s+now|last\s+(?:night|week))\b"
    r"|\b(?:broken|failing|fails|failed|crash\w*|flaky|bug|error|kaputt|cassé|roto|rotto|quebrado|kapot|trasig)\b",
    re.IGNORECASE,
)
"""An event, a progressive or a fault: the task at hand ("In this repo the build failed yesterday")."""


_FIRST_CLAUSE_RE = re.compile(r"(?:(?<!\s)\s+)?[,;]\s+|(?<!\s)\s+[-–—]\s+")
"""What ends a sentence's first clause: a comma or semicolon and spaces, or a dash between spaces. The spaces before
the mark start where their run starts (a match would start there anyway): read from each space of a long run, they
cost its square (docs/architecture.md §3)."""
_PROGRESSIVE_RE = re.compile(r"\b(is|are)\s+(\w+ing)\b", re.IGNORECASE)


def _statement(rest: str, spanned: bool = False) -> bool:
    """Whether ``rest`` is a statement of how things are (the module docstring); ``spanned``: said within a span of
    time ("For the next three weeks Priya is covering code review"), where a progressive is the state of that span,
    not an event of the moment (round 18)."""
    rest = rest.strip(" ,:;-–—")
    words = rest.split()
    verb = _STATE_RE.match(rest)  # "Bis Freitag ist der Server ...": the verb second, its subject after it
    named = spanned and rest[:1].isupper() and bool(_STATE_RE.match(rest.split(None, 1)[-1]))  # "... weeks Priya is"
    subject = named or _SUBJECT_RE.match(rest) or (verb and _SUBJECT_RE.match(rest[verb.end() :].strip()))
    if len(words) < 4 or not subject:
        return False
    first = _FIRST_CLAUSE_RE.split(rest, maxsplit=1)[0]
    checked = _PROGRESSIVE_RE.sub(r"\1 ~ \2", rest) if spanned else rest  # a fault word still counts
    return bool(_STATE_RE.search(first)) and not _NOT_STATE_RE.search(checked) and not hedged(rest) and not scoped(rest)


_POSSESSIVE_RE = re.compile(r"^[\w.-]+['’]s\s+(?=\w)")
"""A possessive name before the subject ("lantern's uploads go to ..."): a determiner like "the"."""


def state_clause(text: str) -> bool:
    """Whether ``text`` opens with a statement of how things are (:func:`_statement`), its first clause read, a
    possessive name ("lantern's uploads go to ...") taken as a determiner.

    Args:
        text: a clause the user said.

    Returns:
        bool: whether it is such a statement.
    """
    first = _FIRST_CLAUSE_RE.split(text.strip(), maxsplit=1)[0]
    return _statement(_POSSESSIVE_RE.sub("the ", first))


def project_statement(sentence: str) -> str | None:
    """A fact said for the project at hand (the module docstring), the sentence as said, or None.

    Args:
        sentence: one of the user's sentences, less its end mark.

    Returns:
        str | None: the sentence, or None.
    """
    text = sentence.strip()
    opener = _PROJECT_RE.match(text)
    if opener is None or not re.match(r"\s*[,:]?\s", text[opener.end() :]):
        return None
    rest = text[opener.end() :].strip(" ,:")
    mine = re.match(r"(?:i|i['’]m|my|me)\b", rest, re.IGNORECASE)  # "For this project I need help ...": a task
    return text if _statement(rest) and not mine else None


def bounded_notice(sentence: str) -> str | None:
    """A notice bounded in time (the module docstring), the sentence less its heads-up, or None.

    Args:
        sentence: one of the user's sentences, less its end mark.

    Returns:
        str | None: the notice, or None.
    """
    text = _HEADS_UP_RE.sub("", sentence.strip())
    cjk = cjk_span(text, date.today())
    if cjk is not None:  # "다음 달 말까지 lynx 베타 빌드는 ... 배포해요" (sess19)
        return text if _cjk_statement(text[cjk.end :]) else None
    span = _SPAN_RE.match(text)
    if span is None:
        return None
    return text[:1].upper() + text[1:] if _statement(text[span.end() :], spanned=True) else None


_CJK_NOT_STATE_RE = re.compile(
    r"[?？]|까요|나요|습니까|세요|주세요|십시오|해야|하자|할게|겠습니다|고쳐|끝내"
    r"|ですか|ますか|のか|ください|下さい|てね|しよう|しましょう|なければ|直して|終わらせ"
    r"|吗|呢|请|帮我|你要|必须|得要|要把|修好|做完|完成"
)
"""A question, a request or a task in Chinese, Japanese or Korean ("금요일까지 이 버그 고쳐 주세요", "金曜日までに直して
ください", "周五之前修好这个 bug"): a deadline for work, not a state that holds until then."""


def _cjk_statement(rest: str) -> bool:
    """Whether ``rest``, said after a CJK end or span, is a statement of how things are: some words (at least six
    characters), no question, request or task (:data:`_CJK_NOT_STATE_RE`), no fault (:data:`_NOT_STATE_RE`)."""
    rest = rest.strip(" ,、，:：")
    return len(rest) >= 6 and not _CJK_NOT_STATE_RE.search(rest) and not _NOT_STATE_RE.search(rest)


def state_with_end(sentence: str) -> str | None:
    """A state said with its end after it (the module docstring), the sentence less its heads-up, or None.

    The rule is the end, not its words or its place: the sentence's first clause (up to its first comma, semicolon or
    dash) is a statement of how things are (a subject, a verb of state; no event, fault, progressive or hedge) and
    :func:`.relativedates.dated` finds in that clause an end it can write as an ``until:`` date. "I was out until
    Friday" (an event), "the build is broken until Friday" (a fault) and "we ship on Fridays" (no end) are none.

    Args:
        sentence: one of the user's sentences, less its end mark.

    Returns:
        str | None: the notice, or None.
    """
    text = _HEADS_UP_RE.sub("", sentence.strip())
    first = _FIRST_CLAUSE_RE.split(text, maxsplit=1)[0]
    if not _statement(first) or dated(first, date.today()).until is None:
        return None
    return text[:1].upper() + text[1:]


def unasked_statements(texts: list[str]) -> list[str]:
    """The project facts and the notices bounded in time in the user's messages (the module docstring), in order;
    never in a text under review, pasted lines, or a message that takes something back.

    Args:
        texts: the user's messages, as the harness's transcript holds them.

    Returns:
        list[str]: the statements, each less its end mark.
    """
    out: list[str] = []
    for text in texts:
        if under_review(text) or retraction(text) is not None or pasted_lines(text):
            continue
        for sentence in said(text):
            found = project_statement(sentence) or bounded_notice(sentence) or state_with_end(sentence)
            if found:
                out.append(found)
    return out


__all__ = ["bounded_notice", "project_statement", "state_clause", "state_with_end", "unasked_statements"]
