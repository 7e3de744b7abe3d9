"""The user's own preferences said in passing, in nine languages (issue 30, sess13).

"btw I really can't stand emoji in commit messages, keep them plain", "I'd rather you used British spelling in docs",
"Por cierto, prefiero que me expliques las cosas en español", "Per i test preferisco pytest con le fixture", "Ich
nehme lieber uv als pip", "Je préfère les tabulations", "我更喜欢用 pnpm": a preference of the user's, true beyond the
task at hand, said without "remember". :func:`passing_preferences` finds such sentences (the checkpoint keeps them
``by: user``, ``kind: preference``, in me.md); :func:`prefers` says whether a kept statement holds one, so that a
request to remember it ("Recuerda que prefiero Poetry ...") goes to me.md too, whatever project it was said in.

Never a preference: a question, quoted or pasted text, someone else's ("Bob prefers tabs", "my manager likes ..."),
a hedge or a condition ("I think I prefer ...", "if I had to pick, I'd prefer Go"), a choice among what is on the
table ("I prefer the second option", "I like this better", "I'd rather not"), one for now ("I'd rather you fix the
tests first", "for this PR I prefer squash"), or a feeling about an event ("I hate when the build breaks"). Pure
text: no file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .irony import hedged, under_review
from .remembering import OTHER_PERSON_RE, pasted_lines, retraction, said, scoped, without_leadin, without_request

_VERB = (
    r"(?:i\s+(?:really\s+|much\s+|strongly\s+|definitely\s+|always\s+|generally\s+|usually\s+)?"
    r"(?:prefer|dislike|hate|detest|can['’]?t\s+stand|cannot\s+stand|don['’]t\s+(?:really\s+)?like|do\s+not\s+like"
    r"|like|love)"
    r"|i(?:['’]d|\s+would)\s+(?:much\s+)?rather)"
    r"|ich\s+(?:\w+\s+)?(?:bevorzuge|nehme\s+lieber|mag\s+(?:keine?n?|lieber)|hasse|will\s+keine?n?)"
    r"|mir\s+(?:ist|sind|wäre|wären)\s+(?!das\b|dies)(?:\S+\s+){0,8}?(?:lieber|am\s+liebsten)"
    r"|(?:jag|jeg)\s+(?:\w+\s+)?(?:föredrar|foretrækker|foretrekker|vill\s+helst|gillar\s+inte|tycker\s+inte\s+om|hatar)"
    r"|me\s+gusta[n]?\s+más|mi\s+piac(?:e|ciono)\s+(?:di\s+più|più)|gosto\s+mais\s+de"
    r"|je\s+(?:\w+\s+)?(?:préfère|déteste|n['’]aime\s+pas|ne\s+supporte\s+pas)|j['’](?:aime\s+mieux|ai\s+horreur\s+d)"
    r"|(?:yo\s+)?(?:prefiero|odio|detesto|no\s+(?:me\s+)?gusta[n]?|no\s+soporto)"
    r"|(?:io\s+)?(?:preferisco|odio|detesto|non\s+mi\s+piac(?:e|ciono)|non\s+sopporto)"
    r"|(?:eu\s+)?(?:prefiro|odeio|detesto|não\s+gosto|não\s+suporto)"
    r"|ik\s+(?:\w+\s+)?(?:heb\s+liever|wil\s+liever|hou\s+niet\s+van|haat|kan\s+niet\s+tegen|wil\s+geen"
    r"|vind\s+(?!dat\b|dit\b|het\s+niet\b)(?:\S+\s+){1,6}?(?:fijner|prettiger|het\s+fijnst|het\s+prettigst))"
    r"|(?:ja\s+)?(?:wolę|wolałbym|wolałabym|nie\s+lubię|nie\s+znoszę|nienawidzę|nie\s+cierpię)"
)
"""A first-person verb of liking better or not at all, at a clause's start ("I prefer", "I'd rather", "I can't stand",
"ich nehme lieber", "je préfère", "prefiero", "preferisco", "prefiro")."""
_CJK_RE = re.compile(
    r"^(?:我|私は|저는|나는)\s*(?:更|比较|比較的)?(?:喜欢|偏好|倾向于?|讨厌|不喜欢|不想要|好き|嫌い|선호)"
)
"""The same in Chinese, Japanese or Korean, after the first-person pronoun ("我更喜欢用 pnpm")."""
_SOV_RE = re.compile(
    r"^(?:나는|난|저는|전|私は|僕は|俺は|わたしは)\s*(?P<what>\S.{3,}?)\s*(?:(?:게|것이|걸|편이|쪽이|が|の(?:ほう|方)が|ほうが|方が)"
    r"\s*(?:더\s*|もっと)?(?:좋아(?:요)?|좋습니다|좋더라|편해(?:요)?|편합니다|싫어(?:요)?|싫습니다|好き(?:です)?|いい(?:です)?"
    r"|良い(?:です)?|嫌い(?:です)?)|(?:을|를|を)\s*(?:더\s*)?(?:선호해(?:요)?|선호합니다|好みます|好む))$"
)
"""A Korean or Japanese preference, its verb at the clause's end after the first-person topic ("나는 코드 주석은 영어로
쓰는 게 좋아", "저는 짧은 답변을 선호해요", "私はタブよりスペースの方が好きです")."""
_SOV_CHOICE_RE = re.compile(
    r"^(?:이거|그거|저거|이게|그게|이\s|그\s|これ|それ|あれ|この|その)|번째|番目|옵션|オプション|案"
)
"""A choice among what is on the table in Korean or Japanese ("나는 두 번째 옵션이 좋아", "私はこれがいい")."""
_COMPARED_RE = re.compile(
    r"\S(?:より|보다)\s*\S.*?(?:好き(?:です)?|いい(?:です)?|良い(?:です)?|좋아(?:요)?|좋습니다|편해(?:요)?|편합니다"
    r"|선호해(?:요)?|선호합니다)$"
)
"""A comparison of two ways ending in liking, the first person dropped as Japanese and Korean allow ("説明は長い文章より
箇条書きのほうが好きです", "설명은 긴 문장보다 목록이 더 좋아요"): naming both ways makes it a standing preference."""
_CJK_MOMENT_RE = re.compile(
    r"今日|今回|今は|この|これ|それ|あれ|오늘|지금|이번|이거|그거|번째|番目|さん|様|くん|씨|님|彼|彼女|그는|그녀"
)
"""The moment, a thing on the table or someone else (田中さん, 민수 씨), in Japanese or Korean: not the user's standing
preference."""
_CJK_FILLER_RE = re.compile(
    r"^(?:(?:あ|ああ|えっと|ちなみに|あと|それと|참고로|그리고|아|근데|그런데|顺便说一下|顺便|另外|对了)[、,，\s]*)+"
)
_HEAD_RE = re.compile(r"(?:[,;:]|\s[-–—])\s+(?:(?:and|but|though|also|so)\s+)?(?=\S)", re.IGNORECASE)
"""Where a lead clause ends and the preference begins ("small thing while you're at it, I'd rather ...")."""
_CONDITION_RE = re.compile(
    r"\b(?:if|when|whenever|unless|once|wenn|falls|sobald|si|cuando|quand|lorsque|se|quando|als|om|jeśli|gdy|om)\b"
    r"|\b(?:he|she|they|bob|[A-Z][a-z]+)\s+(?:says?|said|thinks?|wants?)\b|\?",
    re.IGNORECASE,
)
"""A lead clause that makes what follows depend on it, or someone else's words: no lead-in."""
_OPENER = (
    r"(?:(?:for|in|with|on|per|para|pour|für|bei|en|nei|nelle|nos|nas|dans|im|in\s+den|voor|bij|w|we|dla|przy)"
    r"\s+[^,;:.!?]{1,30}?,?\s+)?"
)
"""A short phrase of what the preference is about before it: "Per i test preferisco ...", "For Go code, I prefer ..."."""
_HABIT_RE = re.compile(
    r"(?:i|je|j['’]|ich|yo|io|eu|ik|jag|ja)\s*(?:(?:always|only|toujours|immer|siempre|sempre|alltid|altijd|zawsze)\s+)?"
    r"(?:use|utilise|nutze|benutze|verwende|uso|utilizo|gebruik|använder|używam)\s+(?:(?:always|alltid|immer|toujours|siempre"
    r"|sempre|altijd|zawsze)\s+)?[^\s,;]+\s*"
    r"(?:,\s*|\s+)(?:(?:and|but|et|mais|und|aber|y|pero|e|ma|mas|en|maar|och|men|a)\s+)?(?:never|not|nie|niemals|nicht|jamais"
    r"|pas|nunca|no|mai|non|não|nooit|niet|aldrig|inte|nigdy)\b",
    re.IGNORECASE,
)
"""A habit of the user's set against what they never do ("I use uv, never pip directly", "j'utilise pnpm, jamais
npm", "ich nutze Podman, nie Docker"): the contrast makes it a standing choice, not the task's."""
_PASSING_RE = re.compile(rf"^{_OPENER}(?:(?:{_VERB})\b|{_HABIT_RE.pattern})", re.IGNORECASE)
_ANYWHERE_RE = re.compile(
    rf"(?:^|[,;:]\s*|\s)(?:(?:{_VERB})\b|{_HABIT_RE.pattern})|\bmag\s+ich\s+(?:nicht|lieber)\b", re.IGNORECASE
)
"""A first-person preference anywhere in a statement ("keine Emojis in Commit-Nachrichten, das mag ich nicht")."""
_CHOICE_RE = re.compile(
    r"^(?:it|this|that|these|those|them|one|the\s+(?:first|second|third|last|former|latter|other|new|old|previous|"
    r"current)\b|option|approach|version|variant|solution|suggestion|proposal|idea|your|you\b(?!\s+(?:\w+ed|didn['’]t|did\s+not"
    r"|wouldn['’]t|would\s+not|never|always|only|kept|stuck|wrote|made|left|gave|ran|put|chose|went|spoke|took|did)\b)"
    r"|not\b|when|if|(?:that|dass|que|qu['’]|che|dat|att)\s*(?:it|they|he|she|es|er|sie|il|elle|ils|elles|ça|cela|lo|la"
    r"|het|ze|den|det)"
    r"|how|what|where|why|the\s+way|esto|eso|esta|este|ese|esa|la\s+(?:primera|segunda)|el\s+(?:primero|segundo)|questo"
    r"|quello|questa|quella|la\s+(?:prima|seconda)|isso|isto|esse|essa|das|dies|diese[sn]?|den\s+(?:ersten|zweiten)"
    r"|die\s+(?:erste|zweite|letzte|andere)|de\s+(?:eerste|tweede|laatste|andere)|(?:den|det)\s+(?:första|andra)"
    r"|ça|cela|ceci|celui|celle|la\s+(?:première|deuxième)|le\s+(?:premier|second)|wenn|quand|cuando|quando|si|se)\b",
    re.IGNORECASE,
)
"""What after the verb makes it a choice among what is on the table, a feeling about an event or a condition ("I
prefer the second option", "I like this", "I hate when the build breaks"); "I'd rather you used X" is a preference."""
_NOW_RE = re.compile(
    r"\b(?:first|right\s+now|now|today|tonight|here|for\s+now|this\s+(?:time|pr|branch|file|function|commit|change|"
    r"one|task|ticket)|instead\s+of\s+(?:this|that)|primero|ahora|hoy|d['’]abord|maintenant|aujourd['’]hui|zuerst|jetzt"
    r"|heute|prima|adesso|ora|oggi|primeiro|agora|hoje)\b",
    re.IGNORECASE,
)
"""Words that tie a preference to the work at hand ("I'd rather you fix the tests first")."""
_LEAD_RE = re.compile(
    r"^(?:(?:por\s+cierto|por\s+otro\s+lado|oye|übrigens|ach\s+ja|au\s+fait|d['’]ailleurs|a\s+proposito|comunque|aliás"
    r"|a\s+propósito|honestly|frankly|personally|generally|in\s+general|also|and|btw|oh|ogólnie|w\s+ogóle|generalnie"
    r"|trouwens|overigens|in\s+het\s+algemeen|over\s+het\s+algemeen|allgemein|generell|en\s+général|en\s+general"
    r"|in\s+generale|em\s+geral|small\s+thing|one\s+more\s+thing|side\s+note|apropos|för\s+övrigt|förresten)(?:\s*[,:])?\s+)+",
    re.IGNORECASE,
)
"""A lead-in before the preference in other words than :func:`.remembering.without_leadin` knows ("Por cierto,")."""
_LIKE_RE = re.compile(r"^(?:\S+\s+){0,4}?i\s+(?:\w+\s+)?(?:like|love)\b", re.IGNORECASE)
"""A plain "I like" / "I love": a preference only for a kind of thing, its object bare ("I like single quotes")."""
_DETERMINER_RE = re.compile(r"(?:the|a|an|my|our|his|her|their|its|some|any|all|both|every|each|to\s+be)\b", re.I)
_SAYS_RE = re.compile(r"\b(?:says?|said|told|tells|according\s+to|sagt|dit|dice|dijo|disse)\b", re.IGNORECASE)


def _statement(sentence: str) -> str:
    rest = without_request(without_leadin(sentence))
    rest = _LEAD_RE.sub("", rest).strip()
    return rest[:1].upper() + rest[1:] if rest else rest


def _own_statements(texts: list[str], any_review: bool) -> Iterator[str]:
    """Each sentence of the user's own say in ``texts`` (:func:`_statement`): never a message that takes something
    back, pasted lines, nor a text under review (``any_review``: any message asking for a review; else only one
    that holds the text to work on, after a colon or on lines of its own: "Proofread this: ...")."""
    for text in texts:
        holds = any_review or "\n" in text.strip() or ":" in text
        if (under_review(text) and holds) or retraction(text) is not None or pasted_lines(text):
            continue  # a text to work on, a message that takes something back, pasted lines: not the user's say
        yield from (_statement(sentence) for sentence in said(text))


def passing_preferences(texts: list[str]) -> list[str]:
    """The user's preferences said in passing (the module docstring), each a sentence less its lead-in and end mark.

    Args:
        texts: the user's messages, as the harness's transcript holds them.

    Returns:
        list[str]: the statements, in order.
    """
    out: list[str] = []
    for rest in _own_statements(texts, any_review=False):
        sov = _SOV_RE.match(_CJK_FILLER_RE.sub("", rest))
        if sov and not _SOV_CHOICE_RE.search(sov["what"]) and not _NOW_RE.search(rest):
            out.append(_CJK_FILLER_RE.sub("", rest))
            continue
        if _COMPARED_RE.search(rest) and not (_CJK_MOMENT_RE.search(rest) or _SOV_RE.match(rest)):
            out.append(_CJK_FILLER_RE.sub("", rest))  # the first person dropped (sess17)
            continue
        habit = _habit_scoped(rest) or next(filter(None, map(_habit_scoped, _led_tails(rest))), None)  # sess16, 17
        if habit and not (hedged(habit) or scoped(habit) or _NOW_RE.search(habit) or OTHER_PERSON_RE.match(habit)):
            out.append(habit)
            continue
        fronted = _fronted(rest)  # "Abkürzungen in Variablennamen mag ich gar nicht" (sess17)
        if fronted:
            out.append(fronted)
            continue
        rest = _after_lead(rest)
        found = _PASSING_RE.match(rest) or _CJK_RE.match(rest)
        if found is None or hedged(rest) or scoped(rest) or _NOW_RE.search(rest) or _SAYS_RE.search(rest):
            continue
        after = rest[found.end() :].strip(" ,")
        if OTHER_PERSON_RE.match(rest) or _CHOICE_RE.match(after):
            continue
        if _LIKE_RE.match(rest) and _DETERMINER_RE.match(after):
            continue  # "I like the new dashboard", "I love your idea": a thing at hand, not a kind of thing
        final = not after and len(rest.split()) >= 5  # "mir sind kurze Antworten ... am liebsten": verb last
        final = final or bool(_HABIT_RE.match(rest))  # "Ich nutze Podman, nie Docker": the content is inside
        if len(after.split()) < 2 and after.isascii() and not final:
            continue  # "I'd rather not", "I prefer Go": too little to be the user's line
        out.append(rest)
    return out


HABIT_WHEN_RE = re.compile(
    r"^(?:whenever|every\s+time|each\s+time|any\s*time|when|immer\s+wenn|jedes\s+mal(?:\s*,)?\s+wenn|wenn|chaque\s+fois\s+que"
    r"|quand|lorsque|cada\s+vez\s+que|siempre\s+que|cuando|ogni\s+volta\s+che|quando|sempre\s+que|elke\s+keer\s+(?:als"
    r"|dat)|wanneer|als|varje\s+gång|när|za\s+każdym\s+razem,?\s+gdy|kiedy)\s+"
    r"(?:(?:you|du|tu|vous|t[úu]|je|jij|ty)\s+|(?:me|mi|m['’]|mir)\s*)"
    r"(?!(?:are|['’]re|were|have|['’]ve|had|did|get\s+(?:a\s+)?(?:chance|moment|time)|finish\w*|want|like|need|wish"
    r"|can|could|will|bist|hast|willst|möchtest|es|as|veux|voulez|quieres|vuoi|wilt|vill"
    r"|êtes|avez|estás|eres|sei|hai|bent|hebt|är|har|jesteś|masz)\b)[^,;:.!?]{3,80}?",
    re.IGNORECASE,
)
"""A condition of the agent's recurring work, said in the present ("when you show me changes", "whenever you write
commit messages for me", "quand tu écris des tests", "cuando me muestres cambios"): the scope of a standing
preference or rule that follows, not a one-off ("when you're done", "when you get a chance") nor a supposition."""


_ONE_OFF_RE = re.compile(
    r"\b(?:done|finish\w*|ready|back|fini[st]?|auras|aurez|termin\w+|fertig|acab\w+|klaar|färdig|skończ\w*|chance"
    r"|moment)\b",
    re.IGNORECASE,
)
"""A condition of one moment, not of recurring work ("when you're done", "quand tu auras fini", "wenn du fertig bist")."""


_INVERTED_RE = re.compile(
    r"(?:,\s*|\s)(?:bevorzuge\s+ich|nehme\s+ich\s+lieber|mag\s+ich\s+(?:lieber|(?:gar|überhaupt)\s+nicht|nicht)|hasse\s+ich|hätte\s+ich\s+(?:gern|lieber)|will\s+ich\s+keine?n?"
    r"|(?:ist|sind|wäre|wären)\s+mir|heb\s+ik\s+liever|wil\s+ik\s+liever|wil\s+ik\s+geen|vind\s+ik|föredrar\s+jag"
    r"|vill\s+jag\s+helst|foretrækker\s+jeg|foretrekker\s+jeg)\b",
    re.IGNORECASE,
)
"""A Germanic main clause after the condition, its verb before the first person ("..., bevorzuge ich", "..., ist mir
X am liebsten", "..., heb ik liever", "..., föredrar jag")."""


def _habit_scoped(rest: str) -> str | None:
    """``rest`` whole when it is a preference after a condition of the agent's recurring work (:data:`HABIT_WHEN_RE`:
    "when you show me changes I prefer unified diffs", "quand tu écris des tests, je préfère pytest"), else None."""
    cond = HABIT_WHEN_RE.match(rest)
    if cond is None:
        return None
    inverted = _INVERTED_RE.search(rest)  # "Wenn du mir Code zeigst, bevorzuge ich ...": the verb before "ich"
    if inverted is not None:
        head, after = rest[: inverted.start()], rest[inverted.end() :].strip(" ,")
        own = HABIT_WHEN_RE.match(head + " ") and not (_SAYS_RE.search(head) or "?" in rest or _ONE_OFF_RE.search(head))
        return rest if own and not _CHOICE_RE.match(after) and len(after.split()) >= 2 else None
    for verb in re.finditer(rf"(?:,\s*|\s)(?=(?:{_VERB})\b)", rest, re.IGNORECASE):
        head, tail = rest[: verb.start()], rest[verb.end() :]
        if not HABIT_WHEN_RE.match(head + " ") or _SAYS_RE.search(head) or "?" in head or _ONE_OFF_RE.search(head):
            return None
        found = _PASSING_RE.match(tail)
        after = tail[found.end() :].strip(" ,") if found else ""
        if found and not _CHOICE_RE.match(after) and len(after.split()) >= 2:
            return rest
        return None
    return None


def _fronted(rest: str) -> str | None:
    """``rest`` whole when its main clause fronts what the user likes or not and puts the first person after the verb
    (the Germanic verb-second order: "Abkürzungen in Variablennamen mag ich gar nicht", "Tabs bevorzuge ich", "Lange
    Antworten hasse ich", "Korta svar föredrar jag", :data:`_INVERTED_RE`), else None; never after a condition (that
    is :func:`_habit_scoped`'s), a choice among what is on the table ("Das mag ich nicht", "Den zweiten bevorzuge
    ich"), the moment, a hedge or someone else's words; what comes before the verb is one phrase (no comma or colon)."""
    verb = _INVERTED_RE.search(rest)
    if verb is None:
        return None
    head = rest[: verb.start()].strip(" ,")
    if len(head.split()) < 2 or _CONDITION_RE.search(head) or _CHOICE_RE.match(head) or HABIT_WHEN_RE.match(rest):
        return None
    if re.search(r"[,:;]", head):
        return (
            None  # "Merk dir bitte: keine Emojis ..., das mag ich nicht": a request or a clause before it, not fronted
        )
    if re.match(r"(?:ich|i|je|jag|jeg|ik)\b", head, re.IGNORECASE):
        return None  # "Ich glaube, lange Antworten mag ich nicht": a clause of the user's own before it, a hedge
    if hedged(rest) or scoped(rest) or _NOW_RE.search(rest) or _SAYS_RE.search(rest) or OTHER_PERSON_RE.match(rest):
        return None
    return rest


def _led_tails(rest: str) -> Iterator[str]:
    """What follows each short lead clause of ``rest`` (up to eight words before a comma, colon or dash, with no
    condition, question or someone else's words: :data:`_CONDITION_RE`), capitalised: "Quick thing before we dive in:
    whenever you compare options ..." gives "Whenever you compare options ..." (sess17). The lead is no part of the
    rule, so every reader reads what follows it, not only :func:`_after_lead`'s."""
    for cut in _HEAD_RE.finditer(rest):
        head, tail = rest[: cut.start()], rest[cut.end() :]
        if len(head.split()) > 8 or _CONDITION_RE.search(head):
            return
        yield tail[:1].upper() + tail[1:]


def _after_lead(rest: str) -> str:
    """The sentence from its preference on, when a short lead clause comes first ("small thing while you're at it,
    I'd rather you didn't ...", "Before we start: I prefer ..."); the sentence unchanged when none does, or when the
    lead clause is a condition, a question or someone else's words (:data:`_CONDITION_RE`)."""
    if _PASSING_RE.match(rest):
        return rest
    for cut in _HEAD_RE.finditer(rest):
        head, tail = rest[: cut.start()], rest[cut.end() :]
        if len(head.split()) > 8 or _CONDITION_RE.search(head):
            return rest
        if _PASSING_RE.match(tail):
            return tail[:1].upper() + tail[1:]
    return rest


_SETUP_RE = re.compile(
    r"^(?:i(?:['’]ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|now\s+)?(?:switched|moved|changed|migrated)\s+my\s+"
    r"(?P<own>[^\W\d_][\w .-]{1,30}?)\s+(?:over\s+)?(?:from\s+\S+\s+)?to\s+\S"
    r"|ich\s+habe\s+mein(?:e|en)?\s+\S+(?:\s+\S+)?\s+auf\s+\S+\s+umgestellt|j['’]ai\s+(?:chang[ée]|pass[ée])\s+mon\s+\S+"
    r"|(?:cambié|he\s+cambiado)\s+mi\s+\S+|(?:ho\s+cambiato|ho\s+passato)\s+il\s+mio\s+\S+|mudei\s+(?:o\s+)?meu\s+\S+"
    r"|ik\s+heb\s+mijn\s+\S+(?:\s+\S+)?\s+(?:omgezet|veranderd|overgezet)|zmieniłe[mś]\s+(?:sw[oó]j|mój)\s+\S+)",
    re.IGNORECASE,
)
"""The user saying they changed their own setup ("btw I switched my terminal to fish", "I moved my dotfiles to
chezmoi", "Ich habe meine Shell auf zsh umgestellt", "J'ai changé mon éditeur pour Helix"): a fact about the user,
true beyond the task (what they switched is theirs: "my"), kept like a preference said in passing."""
_SO_RE = re.compile(
    r"\s*(?:,\s*(?:so|which|and\s+so)\b|\s+so\s+(?:that\s+)?(?:bash|your|the|any|you|please)\b|;|\s[-–—]\s).*$",
    re.IGNORECASE,
)


def own_setup(texts: list[str]) -> list[str]:
    """The user's statements that they changed their own setup (:data:`_SETUP_RE`), each its first clause.

    Args:
        texts: the user's messages, as the harness's transcript holds them.

    Returns:
        list[str]: the statements, in order.
    """
    return [
        _SO_RE.sub("", rest).strip()
        for rest in _own_statements(texts, any_review=True)
        if _SETUP_RE.match(rest) and not (hedged(rest) or scoped(rest) or _SAYS_RE.search(rest))
    ]


def prefers(text: str) -> bool:
    """Whether a statement of the user's holds their own preference (:data:`_VERB`, "das mag ich nicht", "我更喜欢")."""
    rest = _statement(text)
    sov = _SOV_RE.match(_CJK_FILLER_RE.sub("", rest))
    habit = _habit_scoped(rest) is not None or _fronted(rest) is not None  # sess16, sess17
    compared = bool(_COMPARED_RE.search(rest)) and not _CJK_MOMENT_RE.search(rest)
    return bool(
        _ANYWHERE_RE.search(rest) or _CJK_RE.match(rest) or sov or habit or compared
    ) and not OTHER_PERSON_RE.match(rest)


__all__ = ["HABIT_WHEN_RE", "own_setup", "passing_preferences", "prefers"]
