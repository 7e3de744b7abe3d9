"""Requests to forget that name a thing, not a note, and requests to unpin a line that is over (issue 30, sess14).

:mod:`.forgetting` hears "forget that X" and "forget the note about X". A user also names the thing itself, in the
imperative of any language: "you can forget the vpn-legacy host, that box was decommissioned", "Oublie mon numéro
de badge", "Vergiss meine alte Adresse", "Olvida mi número de teléfono", "코드 프리즈 메모는 잊어 줘", "把旧的 VPN
地址忘掉". :func:`named_request` gives what such a sentence names when the thing is the user's own (a possessive:
"my", "mon", "mein") or a name no common word is (a token with a digit, a hyphen, a dot or an inner capital:
"vpn-legacy", "ThinkPad"): "forget the tests, just ship it" names nothing (a task, not a request).

A request to unpin ("unpin the freeze note", "코드 프리즈 메모는 이제 고정 해제해 줘", "取消置顶...", "désépingle ...") said
in a message that also says the thing is over ("the freeze ended yesterday", "프리즈는 어제 끝났어") names the line too:
a pinned line that is no longer true is forgotten, not moved. Said of a line still true ("unpin it, still true
though") it names nothing here. Pure text.
"""

from __future__ import annotations

import re

_ASK = (
    r"^(?:(?:please|pls|kindly|can\s+you|could\s+you|would\s+you|you\s+can|you\s+may|go\s+ahead\s+and|just|and|also|oh"
    r"|ok|okay|bitte|por\s+favor|per\s+favore|alsjeblieft|proszę)(?:\s*,)?\s+)*"
)
_OWN = r"my|mon|ma|mes|mein(?:e[nms]?)?|mi|mis|mio|mia|miei|mie|meu|minha|meus|minhas|mijn|mój|moja|moje|mojego|moją"
"""A possessive of the user's own ("my badge number", "mon numéro de badge")."""
_ART = r"the|your|that|this|le|la|les|l['’]|den|die|das|dem|el|los|las|il|lo|gli|o|a|os|as|de|het|ten|tę|to"
_VERB = r"forget|vergiss|oublie[zs]?|olvida|olvídate\s+de|dimentica|scordati|esquece|esqueça|vergeet|zapomnij(?:\s+o)?"
_NAMED_RE = re.compile(
    rf"{_ASK}(?:{_VERB})(?:\s*,)?\s+(?:(?:bitte|mal|please)\s+)?(?:(?P<own>{_OWN})|(?:{_ART}))\s*(?P<what>[^,;:.!?]+?)"
    r"\s*(?:[,;:]|\s[-–—]\s|$)",
    re.IGNORECASE,
)
r"""A request to forget a named thing at a sentence's start, in eight languages: what it names ends at a comma.
A comma after a word is ``(?:\s*,)?\s+``, not ``\s*,?\s+``: that split a run of spaces every possible way (10 s
of CPU for "dimentica" and 5,000 spaces; docs/architecture.md §3)."""
_CJK_FORGET_RE = re.compile(
    r"^(?P<what>[^,，、。](?:[^,，、。]*?[^,，、。\s])??)\s*(?:은|는|을|를|は|を)\s*(?:이제\s*|もう\s*)?(?:잊어\s*(?:줘|주세요|버려)?|지워\s*(?:줘|주세요)?"
    r"|忘れて(?:ください)?|消して(?:ください)?)"
    r"|^(?:请|請)?(?:把|將|将)?(?P<zh>[^,，、。]+?)(?:忘掉|忘了吧|忘记吧|删掉|刪掉|(?:就)?不用(?:再)?记了|(?:就)?不用(?:再)?記了)"
    r"|^(?:请|請)?(?:忘掉|忘记|忘記)(?P<zh2>[^,，、。]+)"
)
r"""The same in Korean, Japanese ("X는 잊어 줘", "Xは忘れて") and Chinese ("把X忘掉", "忘掉X"). What the first
form names is one character, or ends on one that is not a space: the shortest name ending in a space is never the
first that fits (one character less fits too), and trying each, the ``\s*`` after it read the rest of a run of
spaces again each time (docs/architecture.md §3)."""
_UNPIN_RE = re.compile(
    rf"{_ASK}(?:unpin|désépingle[zs]?|desfija|desancla|sblocca|desafixa|losmaken)\s+(?:{_ART}|{_OWN})?\s*"
    r"(?P<what>[^,;:.!?]+?)\s*(?:[,;:]|\s[-–—]\s|$)"
    r"|^(?P<cjk>[^,，、。]+?)\s*(?:은|는|을|를|は|を|の)?\s*(?:이제\s*|もう\s*)?(?:고정\s*해제|ピン(?:留め)?(?:を)?(?:外して|解除)"
    r"|取消置顶|取消固定)"
    r"|^(?:请|請)?取消置顶(?P<zh>[^,，、。]+)",
    re.IGNORECASE,
)
"""A request to unpin X, at a sentence's start ("unpin the freeze note", "X는 이제 고정 해제해 줘", "取消置顶X")."""
_AND_FORGET_RE = re.compile(
    r"(?<!\s)\s+(?:and|und|et|y|e|en|i)\s+(?:forget|delete|drop|remove|vergiss|oublie|olvida)\b.*$", re.I
)
"""An unpin that also asks to forget ("unpin X and forget it"); searched from a run of spaces' start only."""
_NOTE_ABOUT_RE = re.compile(r"^(?:(?:note|line|entry|thing|bit|part)\s+(?:about|on|regarding)\s+)", re.IGNORECASE)
_ENDED_RE = re.compile(
    r"\b(?:ended|finished|is\s+over|was\s+over|are\s+over|(?:is|was)\s+done|decommissioned|shut\s+down|retired|lifted"
    r"|(?:we|they|i)\s+(?:dropped|ditched|removed|deleted|abandoned|stopped\s+using|got\s+rid\s+of|no\s+longer\s+use)"
    r"|(?:we|they|i)\s+(?:don['’]t|do\s+not)\s+(?:use|need)\s+(?:\S+\s+){0,4}?(?:any\s*more|any\s+longer)"
    r"|(?:got|was|were|has\s+been|have\s+been)\s+(?:deleted|removed|dropped|shut\s+down|turned\s+off|switched\s+off)"
    r"|(?:on|nous)\s+l['’]a(?:vons)?\s+(?:supprimée?|retirée?|abandonnée?)|supprimée?s?\b|nieaktualn[aey]|veraltet"
    r"|obsolète|périmée?|desactualizad[oa]|obsolet[oa]|verouderd|(?:ya\s+)?no\s+es\s+cierto|nicht\s+mehr\s+aktuell"
    r"|gelöscht|abgeschaltet|gibt\s+es\s+nicht\s+mehr|(?:lo|la|los|las)\s+(?:borramos|eliminamos|quitamos)|ya\s+no\s+existe"
    r"|(?:got|was|were|has\s+been)\s+wiped|(?:is|zijn)\s+weg|bestaat\s+niet\s+meer|(?:l['’]|lo|la)\s*abbiamo\s+(?:cancellat[oa]|eliminat[oa]|tolt[oa])|non\s+esiste\s+più"
    r"|cancel(?:l)?ed|gone|sold|dead|no\s+longer\s+(?:true|valid|applies|exists?)|vorbei|verkauft|beendet|aufgehoben|fini|finie|terminée?|levée?"
    r"|terminó|acabó|ya\s+no\s+aplica|finito|finita|terminat[oa]|acabou|terminou|afgelopen|voorbij|skończył[aoy]?)\b"
    r"|끝났|끝남|종료됐|종료되|해제됐|終わった|終わりました|終了した|解除された|结束了|結束了|取消了"
    r"|停用|删除了|刪除了|删了|作废|作廢|不用了|廃止|削除した|削除された|없어졌|삭제됐|삭제했|안\s*써",
    re.IGNORECASE,
)
"""A statement that the thing is over: the pinned line is no longer true."""
_NOTE_WORDS = r"(?:note|line|entry|memory|fact|notiz|eintrag|entrée|nota|entrada|notitie|notatka)s?"
_DROP_RE = re.compile(
    rf"{_ASK}(?:drop|delete|remove|erase|scrap|ditch|lösche?|entferne|supprime[zs]?|efface[zs]?|borra|elimina|cancella"
    rf"|apaga|verwijder|usuń)\s+(?:(?:bitte|mal|please)\s+)?(?:{_ART}|{_OWN})\s*(?:(?P<what>[^,;:.!?]+?)\s+{_NOTE_WORDS}"
    rf"|{_NOTE_WORDS}\s+(?:about|on|regarding|über|zu[mr]?|sur|du|de(?:l|\s+la)?|sobre|sul(?:la)?|su|over|o)\s+"
    rf"(?:(?:{_ART})\s*)?(?P<about>[^,;:.!?]+?))\s*(?:[,;:.!?]|\s[-–—]\s|$)",
    re.IGNORECASE,
)
"""A request to drop a note named by its subject: "drop the QA contact note", "lösch die Staging-Server Notiz", "borra
la nota del contacto de QA"; a note word is needed ("drop the table" is a task)."""
_JOIN_RE = re.compile(
    r"[,;]\s*(?:so|and|then|just|donc|et|alors|also|dann|und|así\s+que|y|entonces|quindi|e|allora|dus|en|więc|i)\s+",
    re.IGNORECASE,
)
"""A clause joiner after which a request may start: "Bjorn left last week, so drop the QA contact note"."""
_NAME_RE = re.compile(r"(?<![\w.])[\w.]*(?:\d|[-_.][^\W_]|[a-z][A-Z])[\w.-]*")
"""A name no common word is: a digit, a hyphen, dot or underscore inside, or an inner capital ("vpn-legacy")."""


_WHAT = (
    r"(?:(?:everything|all|tout|alles|todo|tutto|tudo|allt|alt|wszystko)\s*,?\s*)?(?:what|ce\s+qu['’]|ce\s+que|lo\s+que"
    r"|o\s+que|quello\s+che|quel\s+che|ciò\s+che|was|wat|co|vad|hvad|hva)"
)
"""The relative "what" that opens a told-about topic, in eleven languages ("what", "ce que", "lo que", "co", "was")."""
_ABOUT = (
    r"(?:about|on|regarding|concerning|über|zu[mr]?|sur|à\s+propos\s+d(?:e|u|es|['’])|concernant|au\s+sujet\s+d(?:e|u|es"
    r"|['’])|sobre|acerca\s+del?|del?|su(?:l|lla|llo|i|gli|lle)?|riguardo\s+a(?:l|lla|i)?|di|over|o|na\s+temat|om)"
)
"""The preposition that names the topic ("about", "über", "sur", "sobre", "su", "over", "o", "om")."""
TOLD = rf"{_WHAT}\s+(?P<teller>(?:[^\s,.;:!?]+\s+){{1,5}}?){_ABOUT}\s+"
"""A told-about topic in any of those languages: "what" + a clause of at most five words + "about" ("co mówiłem o X",
"quello che ho detto sul X", "ce que j'ai dit à propos du X", "was ich über X gesagt habe"); :func:`own_telling`
says whether the clause is the user's or the agent's (a first or second person), not someone else's."""
_PERSON_RE = re.compile(
    r"(?:^|\s)(?:i|i['’]\w+|ich|je|j['’]\w+|yo|io|ho|eu|ik|ja|jag|jeg|you|you['’]\w+|du|dir|tu|te|t['’]\w+|ti|vous|jij|u"
    r"|ci|ty|dig|deg|dije|conté|mencioné|escribí|anoté|disse|contei|\w+łe[mś]|\w+ła[mś])(?=\s|$)",
    re.IGNORECASE,
)
"""A first or second person in the telling clause: a pronoun, or a verb whose ending says it ("mówiłem", "dije")."""
_ARTICLE_RE = re.compile(
    r"(?:^|\s)(?:the|a|an|der|die|das|den|dem|le|la|les|el|los|las|il|lo|gli|o|os|as|de|het|een)(?=\s)", re.IGNORECASE
)


def own_telling(teller: str) -> bool:
    """Whether the clause of a told-about topic (:data:`TOLD`) is the user's own telling or the agent's notes ("what
    I said", "co mówiłem", "what you have"), not someone else's words ("what the docs say", "what Bob said": a noun
    with its article, or a name).

    Args:
        teller: the words between "what" and "about".

    Returns:
        bool: True for a first or second person with no article and no capitalised name.
    """
    words = teller.split()
    named = any(w[:1].isupper() and w not in ("I", "I've", "I’ve") for w in words)
    return bool(_PERSON_RE.search(teller)) and not _ARTICLE_RE.search(f" {teller}") and not named


_KEEP_VERB_RE = re.compile(
    r"\b(?:remember|keep\s+track\s+of|ricordar(?:e|ti|lo|la|telo|tela)?|tenere\s+a\s+mente|recuerdes|recordar(?:lo|la)?"
    r"|retiens|retenir|merk(?:e|en)?|onthoud(?:en)?|lembr(?:ar|e|es)|pamiętać|kom\s+ihåg|komma\s+ihåg|husk(?:e)?)\b",
    re.IGNORECASE,
)
"""A verb of keeping in mind, in the imperative or the infinitive a negated order takes ("remember", "ricordare",
"recuerdes", "retiens", "merk", "onthoud", "lembre", "pamiętać"); never the first person ("ricordo", "recuerdo")."""
_NEGATION_RE = re.compile(
    r"(?:^|\s)(?:don['’]t|do\s+not|no\s+need|non|no|ne|n['’]\w+|nicht|niet|não|nie|inte|ikke|plus\s+besoin)(?=\s|$)",
    re.IGNORECASE,
)
_NO_LONGER_RE = re.compile(
    r"\b(?:any\s*more|any\s+longer|no\s+longer|ya\s+no|più|plus|más|mehr|meer|mais|już|längre|længere|lenger)\b",
    re.IGNORECASE,
)
"""The adverb that ends a keeping: "anymore", "più", "plus", "más", "mehr", "meer", "mais", "już", "längre"."""
_SELF_RE = re.compile(r"(?:^|\s)(?:i|je|j['’]\w*|io|yo|ich|ik|eu|jag|jeg)(?=\s|$)", re.IGNORECASE)
_NEED_RE = re.compile(
    r"(?:^|\s)(?:you|need|needs|to|have|c['’]è|bisogno|serve|devi|di|hace|falta|necesitas|ya|besoin|de|d['’]|tu|te|ti"
    r"|du|dir|musst|brauchst|precisa|precisas|mais|musisz|hoef|hoeft|je|dig|deg|behöver|trenger|behøver|skal|att|at)"
    r"(?=\s|$)",
    re.IGNORECASE,
)
"""The words of "you need not" around the verb ("you don't need to", "non c'è bisogno di", "du musst dir"): no topic."""


def unremembered(sentence: str) -> str | None:
    """The topic of an order to stop keeping something in mind, or None: a clause holding a verb of keeping
    (:data:`_KEEP_VERB_RE`), a negation and "any more" (:data:`_NO_LONGER_RE`), with no first person as its subject
    ("Non ricordare più il numero del badge", "You don't need to remember the old staging IP anymore", "Merk dir die
    alte Adresse nicht mehr", "Ya no recuerdes mi número viejo"; never "I don't remember the port anymore").

    Args:
        sentence: one of the user's sentences (:func:`.remembering.said`).

    Returns:
        str | None: the clause's words less the order's (what it names), or None.
    """
    for clause in re.split(r"[,;:]|\s[-–—]\s", sentence):
        verb = _KEEP_VERB_RE.search(clause)
        if verb is None or _SELF_RE.search(clause) or not _NO_LONGER_RE.search(clause):
            continue
        if not _NEGATION_RE.search(f" {clause[: verb.start()]} ") and not re.search(
            r"\b(?:nicht|niet)\s+(?:mehr|meer)\b", clause, re.IGNORECASE
        ):
            continue
        rest = _NO_LONGER_RE.sub(" ", _KEEP_VERB_RE.sub(" ", clause))
        rest = _NEGATION_RE.sub(" ", f" {rest} ")
        for _ in range(2):  # "you need to": adjacent words share their spaces
            rest = _NEED_RE.sub(" ", f" {rest} ")
        rest = re.sub(r"\s+", " ", rest).strip(" .!")
        return rest if len(rest.split()) >= 1 else None
    return None


_UNTIL_RE = re.compile(r"\buntil\s+(?:the\s+)?(?P<what>.+?)\s+(?P<verb>[a-z]+?)(?:es|s)?\s*$", re.IGNORECASE)
_TOKEN_RE = re.compile(r"(?<![\w.])[\w.]*\d[\w.]*|[^\W\d_]{4,}")
r"""A token with a digit, or a word of four letters. Like :data:`_NAME_RE`, it starts at a run of ``[\w.]`` (the
lookbehind: its leading ``[\w.]*`` would take the run's start anyway): tried from each letter of a long run without a
digit, it read the rest of the run each time, a time that grew with the run's square (docs/architecture.md §3)."""


def until_happened(line: str, message: str) -> bool:
    """Whether ``message`` says the event a pinned line holds until happened: "4.2 shipped this morning" for "no
    merges to main until the 4.2 release ships" (the past of the until-clause's verb, with a word of its subject).

    Args:
        line: the stored line.
        message: the user's message.

    Returns:
        bool: True when the line's "until X <verb>s" is said done.
    """
    found = _UNTIL_RE.search(line.strip().rstrip("."))
    if found is None:
        return False
    verb = found["verb"].casefold()
    past = rf"\b{re.escape(verb)}{re.escape(verb[-1])}?ed\b|\b{re.escape(verb.removesuffix('e'))}ed\b"
    if not re.search(past, message, re.IGNORECASE):
        return False
    said = {t.casefold() for t in _TOKEN_RE.findall(message)}
    tokens = [t.casefold() for t in _TOKEN_RE.findall(found["what"])]
    named = [t for t in tokens if any(c.isdigit() for c in t)] or tokens  # "4.2" when the clause has a version
    return bool(named) and all(t in said for t in named)


def said_over(message: str) -> bool:
    """Whether a message says a thing is over or no longer true ("that machine is gone", "on l'a supprimé", "jest
    już nieaktualne"): the reason that lets a topic named in other words name a line (:mod:`.forgetnear`)."""
    return bool(_ENDED_RE.search(message) or _STALE_RE.search(message))


_STALE_RE = re.compile(
    r"\b(?:outdated|obsolete|stale|no\s+longer\s+(?:true|valid|right|the\s+case)|not\s+true\s+any\s*more|out\s+of\s+date)\b",
    re.IGNORECASE,
)


def unpin_named(sentence: str) -> str | None:
    """What a request to unpin names, whether or not the message says it is over ("you can unpin the code freeze
    note" -> "code freeze note"); None when the sentence is no unpin request."""
    text = sentence.strip()
    for start in [0, *(m.end() for m in re.finditer(r"[,;]\s*", text))]:  # "The migration landed, unpin X"
        unpin = _UNPIN_RE.match(text[start:])
        what = (unpin["what"] or unpin["cjk"] or unpin["zh"] or "").strip() if unpin else ""
        if what and not _AND_FORGET_RE.search(what):
            return _NOTE_ABOUT_RE.sub("", what).strip() or None
    return None


_CJK_DEIXIS = (
    re.compile(r"^(?:之前|以前|刚才|剛才|上次|前面)?(?:记|記|说|說|存|告诉你|告訴你)(?:过|過)?的"),
    re.compile(r"^(?:那个|那個|这个|這個|那条|那條|这条|這條)"),
    re.compile(r"^(?:关于|關於)"),
    re.compile(r"^(?:前に|以前)?(?:言った|話した|伝えた|メモした)"),
    re.compile(r"^(?:전에|예전에)?\s*(?:말한|말했던|알려준|적어둔)\s+"),
)
_CJK_NOT_RE = re.compile(r"(?:^|[^\w])?(?:不要|不能|别|別|不|勿|没|沒|안|못|말고)\s*$|^(?:不要|别|別|勿)")
_CJK_TAIL_RE = re.compile(
    r"(?:那条|那條|这条|這條|那个|那個)$|(?:的事|的那条|的那條|的记录|的記錄|のこと|の件|の話|관련\s*메모|얘기|이야기)$"
)


def cjk_topic(what: str) -> str:
    """A Chinese, Japanese or Korean topic less the words that point back at the memory ("之前记的那个测试账号" ->
    "测试账号", "前に言ったテストアカウントのこと" -> "テストアカウント", "전에 말한 테스트 계정" -> "테스트 계정")."""
    rest = what.strip()
    for deixis in _CJK_DEIXIS:
        rest = deixis.sub("", rest, count=1).strip()
    rest = _CJK_TAIL_RE.sub("", rest).strip()
    return rest or what.strip()


def unpin_and_forget(sentence: str) -> bool:
    """Whether a sentence asks to unpin a line and forget it ("Unpin the note about X and forget it"): its "forget it"
    is no retraction of what came before."""
    unpin = _UNPIN_RE.match(sentence.strip())
    return bool(unpin and unpin["what"] and _AND_FORGET_RE.search(unpin["what"]))


def named_request(sentence: str, message: str) -> str | None:
    """What a request to forget a named thing names (the module docstring): the words every line it forgets holds.

    Args:
        sentence: one of the user's sentences (:func:`.remembering.said`).
        message: the whole message it is in (an unpin request needs "it is over" somewhere in it).

    Returns:
        str | None: the words, or None when the sentence is no such request.
    """
    text = sentence.strip()
    for start in [0, *(m.end() for m in _JOIN_RE.finditer(text))]:  # at the start, or a clause's ("..., so drop X")
        drop = _DROP_RE.match(text[start:])
        what = (drop["what"] or drop["about"] or "").strip() if drop is not None else ""
        if len(what) >= 2:
            return what
    unpin = _UNPIN_RE.match(text)
    if unpin is not None:
        what = (unpin["what"] or unpin["cjk"] or unpin["zh"] or "").strip()
        also = _AND_FORGET_RE.search(what)  # "Unpin the note about her deploy sign-off and forget it"
        what = _NOTE_ABOUT_RE.sub("", what[: also.start()] if also else what).strip()
        return what if what and (also or _ENDED_RE.search(message)) else None
    cjk = _CJK_FORGET_RE.match(text)
    if cjk is not None:
        what = cjk["what"] or cjk["zh"] or cjk["zh2"]
        return None if _CJK_NOT_RE.search(what) else cjk_topic(what)  # "不要忘掉X", "别删X": the opposite
    found = _NAMED_RE.match(text)
    if found is None:
        return None
    what = found["what"].strip()
    if found["own"]:
        return what if len(what) >= 3 else None
    names = [n for n in _NAME_RE.findall(what) if re.search(r"[^\W\d_]", n)]
    after = text[found.end() :] + (message[message.find(text) + len(text) :] if text in message else "")
    if not names and _ENDED_RE.search(after):
        return what  # "Forget the laptop hostname, that machine is gone.": a thing said to be over
    return " ".join(names) or None


__all__ = [
    "TOLD",
    "cjk_topic",
    "named_request",
    "own_telling",
    "said_over",
    "unpin_and_forget",
    "unpin_named",
    "unremembered",
    "until_happened",
]
