"""Standing rules said without an English lead-in: the mood and shape of the sentence, in many languages (issue 30,
sess14).

:mod:`.standing` hears "From now on, X" and "Please stop X-ing". A user states a standing rule in other shapes too,
and this module reads them by the sentence's mood, not by its words:

- a lead-in of another language (:data:`OTHER_LEAD_RE`): Dutch "Vanaf nu ...", Polish "Od teraz ...", Italian
  "D'ora in poi ...", Portuguese "A partir de agora ...", Korean "앞으로 ...", Japanese "今後は、...", Chinese
  "以后 ...";
- the imperative with a word of every time (:func:`always_rule`): "Always run the linter before committing",
  "Never use tabs in YAML", "Bitte immer die Changelog-Einträge auf Englisch schreiben", "Schreib immer ...",
  "Toujours écrire ...", "Siempre usa ...", "Usa sempre ...", "Altijd ... schrijven", "Zawsze pisz ...", "항상 ...
  해 줘", "いつも...してください", "总是...": the verb in the imperative or the infinitive used as one, never a
  statement ("Never heard of it", "Das ist immer so", "Always a pleasure");
- a polite request without a verb (:func:`verbless_rule`): "please no emoji in commit messages", "no emoji in commit
  messages, please", "bitte keine Emojis in Commit-Nachrichten", "説明は日本語でお願い", "답변은 한국어로 부탁해":
  a "please" and a "no X" or a topic with the manner it asks for.

Pure text: :func:`.standing.rule_statements` applies its own guards (quotes, someone else's, a hedge, for now only).
"""

from __future__ import annotations

import re


def _set(words: str) -> frozenset[str]:
    """The words of ``words`` (a list written as one string, to keep long word lists short)."""
    return frozenset(words.split())


OTHER_LEAD_RE = re.compile(
    r"^(?:(?:vanaf\s+nu|voortaan|van\s+nu\s+af(?:\s+aan)?|od\s+teraz|od\s+dziś|odtąd|na\s+przyszłość|d['’]ora\s+in\s+(?:poi"
    r"|avanti)|da\s+ora\s+in\s+(?:poi|avanti)|d['’]ora\s+in\s+avanti|in\s+futuro|a\s+partir\s+de\s+agora|daqui\s+(?:em|pra)"
    r"\s+(?:diante|frente)|de\s+agora\s+em\s+diante|no\s+futuro)(?:\s*,)?\s+"
    r"|(?:앞으로(?:는)?|이제부터(?:는)?|지금부터(?:는)?|今後(?:は)?|これから(?:は)?|以後(?:は)?|以后|今后|从现在(?:开始|起)"
    r"|從現在(?:開始|起)|往后)\s*(?:[,，、]\s*)?)",
    re.IGNORECASE,
)
"""A standing lead-in of a language :mod:`.standing` does not hear (nl, pl, it, pt; ko, ja, zh), at a sentence's start."""
CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
"""A kana, Han or Hangul character: a sentence without spaces between its words."""

_PLEASE = (
    r"please|pls|kindly|bitte|por\s+favor|per\s+favore|s['’]il\s+te\s+pla[iî]t|s['’]il\s+vous\s+pla[iî]t|alsjeblieft"
    r"|alstublieft|proszę|por\s+favor"
)
_ALWAYS = (
    r"always|never|immer|stets|grundsätzlich|nie|niemals|toujours|jamais|ne\s+jamais|siempre|nunca|jamás|sempre|mai"
    r"|altijd|nooit|zawsze|nigdy"
)
_ALWAYS_FIRST_RE = re.compile(
    rf"^(?:(?:{_PLEASE})(?:\s*,)?\s+)?(?P<adv>{_ALWAYS})\b(?:\s*,)?\s+(?P<rest>\S.*)$", re.IGNORECASE
)
"""The word of every time first ("Always run ...", "Bitte immer die ... schreiben", "Nunca uses ...")."""
_VERB_FIRST_RE = re.compile(
    rf"^(?:(?:{_PLEASE})(?:\s*,)?\s+)?(?P<verb>[^\W\d_]{{2,}})\s+(?:(?:{_PLEASE}|mal|doch)\s+)?(?P<adv>{_ALWAYS})\b\s+"
    r"(?P<rest>\S.*)$",
    re.IGNORECASE,
)
"""The verb first, then the word of every time ("Schreib immer ...", "Usa sempre ...", "Écris toujours ...")."""
_ORDER_VERBS = _set("""use prefer avoid answer reply respond write run lint format commit push deploy sign squash rebase document comment
    cite explain indent test pin tag label review skip add put include keep start end check ask mention name call open
    close merge create update bump read show print log wrap split prefix follow mark give translate quote capitalize
    lowercase link attach cc ping branch rerun re-run force-push force-push commit use leave let make send post reference
    double-check verify confirm type annotate sort pin vendor mock stub delete remove drop touch edit change rename move
    copy paste install upgrade downgrade import export put set default target assume treat consider suggest recommend
    mention describe summarize summarise list number bold italicize end begin close stick store save""")
"""English verbs of an order to the agent: after "always" / "never" the sentence is an imperative ("Always run ...")."""
_NOT_VERB = _set("""ist sind war waren wird werden hat haben gibt es das dies der die den dem ein eine einen ich du er sie wir ihr man
    hier da so nicht auch noch schon est c'est il elle on nous vous ils elles ce cela ça je tu ne pas y a en le la les un
    une des es está están hay lo los las el yo que se me te esto eso è sono c'è ci si non io lui lei noi voi loro questo
    quello é são há eu ele ela nós isso isto het de een is zijn was er dat dit ik jij hij zij wij niet ook to jest są był
    była było nie ja ty on ona my wy ten ta tak też""")
"""Words that are no verb in the imperative before "immer", "toujours", "sempre" ("Das ist immer so", "Es gibt ...")."""
_GERMANIC = frozenset(["immer", "stets", "grundsätzlich", "nie", "niemals", "altijd", "nooit"])
_ROMANCE = frozenset(["toujours", "jamais", "siempre", "nunca", "jamás", "sempre", "mai"])
_POLISH = frozenset(["zawsze", "nigdy"])
_DETERMINERS = _set("einen keinen meinen deinen seinen ihren unseren euren allen jeden diesen welchen")
_STATES = _set("pasa falla funciona sale ocurre passa funziona succede capita acontece fica fonctionne marche arrive")
"""Verbs of a statement about things ("Siempre pasa lo mismo"), whose form is also the imperative's."""


def _mood(adverb: str, head: str, rest: str, clause: str) -> bool:
    """Whether the words after a word of every time are an order: an English order verb; a German or Dutch infinitive
    (lowercase, ending in -en, after the first word or last: "immer die Einträge auf Englisch schreiben"); a French
    infinitive or a Spanish, Italian, Portuguese imperative or infinitive; a Polish imperative (a consonant ending:
    "Zawsze pisz testy", never "Zawsze pada deszcz")."""
    words = re.findall(r"[^\W\d_][\w'’-]*", clause)
    if adverb in ("always", "never"):
        after = rest.split()[1:2]
        led = bool(after) and bool(_OBJECT_RE.match(after[0])) and not _STATEMENT_RE.match(rest)
        return (head in _ORDER_VERBS or led) and not _STATEMENT_RE.match(rest)
    if head in _NOT_VERB:
        return adverb in _GERMANIC and bool(words) and _infinitive_after(words)
    if adverb in _GERMANIC:
        return _infinitive_after(words)
    if adverb in ("toujours", "jamais"):
        return bool(re.search(r"(?:er|ir|re|oir)$", head))
    if adverb in _ROMANCE:  # "Nunca hagas X": the negative order's subjunctive
        ends = r"(?:[aeiou]|ar|er|ir|ate|ete|ite|as|es)$" if adverb in ("nunca", "jamás") else r"(?:[aeiou]|ar|er|ir)$"
        return head not in _STATES and bool(re.search(ends, head)) and len(words) >= 4
    return adverb in _POLISH and bool(re.search(r"(?:j|z|ż|ź|ć|ń|ś|w|b|d|ł)$", head))


def _infinitive_after(words: list[str]) -> bool:
    """A lowercase word ending in -en, -ern, -eln past the clause's first two words, or its last word."""
    verbs = [
        i
        for i, w in enumerate(words)
        if w.islower() and len(w) > 4 and w not in _DETERMINERS and re.search(r"(?:en|ern|eln)$", w)
    ]
    return any(i >= 2 or i == len(words) - 1 for i in verbs)


_IMPERATIVE_END_RE = re.compile(
    r"(?:해\s*줘|해\s*주세요|주세요|줘|하세요|해요|마세요|말아\s*줘|지\s*마|하지\s*마|してね|して|してください|ください|しないで"
    r"|しないでください|すること|こと|でお願い(?:します)?|にして|吧|要)$"
)
"""A request's ending in Korean or Japanese ("... 써 줘", "... してください"), or a Chinese one ("... 吧")."""
_CJK_ALWAYS_RE = re.compile(
    r"(?:항상|늘|언제나|절대(?:로)?|반드시|꼭|いつも|必ず|常に|絶対(?:に)?|总是|總是|始终|一律|永远|每次都|一定要|务必|都要"
    r"|不要|别|請|请)"
)
"""A word of every time, or a Chinese request word, in a CJK sentence."""
_STATEMENT_RE = re.compile(
    r"^(?:been|be|being|mind|again|ever|a|an|the|so|too|that|this|it|one|more|less|enough|heard|seen|knew|thought|said"
    r"|had|did|was|were|is|am|are|gonna|going|really|quite|just)\b|^\w+(?:ed|ly)\b",
    re.IGNORECASE,
)


_OBJECT_RE = re.compile(
    r"^(?:the|a|an|my|our|your|its|their|this|that|these|those|every|each|all|any|it|them|me|us|[`'\"\d]|[A-Z])",
)
"""An object right after the word after "always"/"never": that word is the order's verb, whatever it is ("Always
query the read replica", "Never hand-edit the lockfile"); no list of verbs decides it (sess17)."""
_SCOPE_FIRST_RE = re.compile(
    rf"^(?:for|in|on|with|inside|within)\s+(?!(?:now|example|instance|once|today|a\s+while|this\s+(?:one|time|pr))\b)"
    rf"[^,;:.!?]{{1,40}}?(?:\s*,)?\s+(?=(?:{_PLEASE}|always|never)\b)",
    re.IGNORECASE,
)
"""A short scope before the order ("For the dashboards always query ...", "In SQL files, never use ..."): the rule's
scope, no part of its verb."""


def always_rule(sentence: str) -> str | None:
    """The rule a sentence in the imperative with a word of every time states (the module docstring), or None.

    Args:
        sentence: one of the user's sentences, less its end mark.

    Returns:
        str | None: the sentence less a leading "please", or None when it is no such rule.
    """
    text = sentence.strip()
    if CJK_RE.search(text):
        bare = re.split(r"[,，、;；]", text, maxsplit=1)[0].strip()
        whole = text.rstrip(" .!。！")
        ends = _IMPERATIVE_END_RE.search(whole) or _IMPERATIVE_END_RE.search(bare)
        return whole if _CJK_ALWAYS_RE.search(bare) and ends and len(re.sub(r"\s", "", whole)) >= 8 else None
    scope = _SCOPE_FIRST_RE.match(text)
    if scope is not None and not text.lower().startswith(("in this", "for this")):
        return text if always_rule(text[scope.end() :]) else None  # "For the dashboards always query ..." (sess17)
    first = _ALWAYS_FIRST_RE.match(text)
    verb_first = None if first else _VERB_FIRST_RE.match(text)
    if first is None and verb_first is None:
        return None
    unasked = re.sub(
        rf"^(?:{_PLEASE})(?:\s*,)?\s+", "", text, flags=re.IGNORECASE
    )  # "Por favor, sempre ...": its clause
    clause = re.split(r"\s*[,;:]\s+|\s+[-–—]\s+", unasked, maxsplit=1)[0]
    if first is not None:
        rest = first["rest"]
        head = rest.split()[0].casefold()
        ok = _mood(first["adv"].casefold().split()[-1], head, rest, clause)
    else:
        verb, adverb = verb_first["verb"].casefold(), verb_first["adv"].casefold()  # type: ignore[index]
        ok = verb not in _NOT_VERB and verb not in _STATES and not verb.endswith(("ed", "ly", "ing"))
        if adverb in _GERMANIC:
            ok = ok and not verb.endswith("t")  # "Klappt immer", "Läuft nie": a statement, not "Schreib immer"
        elif adverb in _POLISH:
            ok = ok and bool(re.search(r"(?:j|z|ż|ź|ć|ń|ś|w|b|d|ł)$", verb))
        ok = ok and adverb not in ("always", "never", "ne jamais")
        rest = verb_first["rest"]  # type: ignore[index]
    content = [w for w in re.findall(r"[\w'’`.-]+", rest) if len(w) > 1]
    if not ok or len(content) < 2:
        return None
    return re.sub(rf"^(?:{_PLEASE})(?:\s*,)?\s+", "", text, flags=re.IGNORECASE)


_NO_RE = re.compile(
    rf"^(?:(?:ugh|oh|and|also|so|btw|ok|okay)(?:\s*,)?\s+)*(?:(?P<please>{_PLEASE})(?:\s*,)?\s+)?(?P<no>no|keine?n?|pas\s+de|pas\s+d['’]"
    r"|nada\s+de|sin|niente|nessun[oa]?|geen|żadnych|bez)\s+(?P<what>[^,;:.!?]+?)\s+(?P<prep>in|on|for|inside|within|im|in\s+den"
    r"|bei|dans|sur|pour|en|para|nei|nelle|negli|nel|per|em|nos|nas|op|bij|voor|w|we|na|dla)\s+(?P<where>[^,;:.!?]+?)"
    rf"(?:\s*(?:,\s*)?(?P<tail>{_PLEASE}))?(?=\s*(?:[,;:]|$))",
    re.IGNORECASE,
)
"""A polite "no X in Y" ("please no emoji in commit messages", "bitte keine Emojis in Commit-Nachrichten", "no
trailing spaces in YAML, please"): a rule for every Y, as "never put X in Y" would be."""
_TOPIC_MANNER_RE = re.compile(
    r"(?P<topic>[^\s、。,，]{1,12}?(?:\s[^\s、。,，]{1,12}?)?)(?:は|는|은)\s*(?P<manner>[^\s、。,，]{1,16}?)(?:で|로|으로)\s*(?:お願い(?:します)?|おねがい"
    r"|頼む|頼みます|よろしく|부탁해(?:요)?|부탁드려요|부탁합니다|해\s*줘|해\s*주세요"
    r"|[^\s、。,，]{1,6}?(?:て|で)(?:ほしい|欲しい|ください|下さい)(?:です)?)"
)
"""A topic and the manner asked for it, then "please", in Japanese or Korean ("説明は日本語でお願い", "답변은 한국어로
부탁해"), or a verb asked for in that manner in Japanese ("SQLのキーワードは全部大文字で書いてほしいです"): a
request for every time the topic comes up, not one."""


_FILLER_RE = re.compile(
    r"^(?:(?:あ|ああ|えっと|ちなみに|あと|それと|참고로|그리고|아|근데|그런데|顺便说一下|另外|对了)[、,，\s]*)+"
)
"""Words a CJK sentence may open with that are no part of the request ("あ、ちなみに", "참고로")."""


_TOPIC_ALWAYS_RE = re.compile(
    rf"^(?P<topic>[^\s,;:.!?]+(?:\s+[^\s,;:.!?]+){{0,3}}?)\s+(?:(?P<please>{_PLEASE})\s+)?(?:{_ALWAYS})\s+"
    r"(?P<manner>(?:in|auf|en|op|na|w|po|på|i|em|on|with|mit|avec|con|com|met|z|med)\s+[^,;:.!?]{2,60}?)"
    rf"(?:\s*,\s*(?P<tail>{_PLEASE}))?(?=\s*(?:[,;:]|$))",
    re.IGNORECASE,
)
"""A topic, "please", a word of every time and the manner asked for it, with no verb ("Commit-Messages bitte immer auf
Englisch", "commit messages always in English, please", "i messaggi di commit per favore sempre in inglese")."""


_COPULAS = _set("is it that this ist sind es das dies est c'est ce ça es esto eso è questo é isso isto het dat dit")
"""A subject or copula that makes the words before "please always" a statement ("Das ist bitte immer so")."""


def verbless_rule(sentence: str) -> str | None:
    """The rule a polite request without a verb states (the module docstring), or None.

    Args:
        sentence: one of the user's sentences, less its end mark.

    Returns:
        str | None: the request, from its "no" or its topic, or None.
    """
    text = _FILLER_RE.sub("", sentence.strip())
    found = _NO_RE.match(text)
    if found and (found["please"] or found["tail"]) and len(found["what"].split()) <= 4:
        return text[found.start("no") : found.end("where")]
    topic = _TOPIC_ALWAYS_RE.match(text)
    if topic and (topic["please"] or topic["tail"]) and not set(topic["topic"].casefold().split()) & _COPULAS:
        return text[: topic.end("manner")]
    manner = _TOPIC_MANNER_RE.search(text)
    if manner is None or _CJK_NOW_RE.search(manner["topic"]):
        return None  # "これは英語で書いてください": this one, not every time
    return text[manner.start("topic") :].rstrip(" .!。！")


_STOP_RE = re.compile(
    rf"^(?:(?:{_PLEASE})(?:\s*,)?\s+)?(?P<stop>stop\s+(?:with|using|putting|adding)|stop\s+met|hou\s+(?:eens\s+)?op\s+met"
    r"|hör\s*(?:e\s+)?(?:doch\s+|bitte\s+)?auf\s+mit|arr[êe]te[sz]?\s+(?:avec|de|d['’])|deja\s+de|para\s+de|pare\s+de"
    r"|basta\s+(?:de|con)|chega\s+de|smetti(?:la)?\s+(?:di|con)|sluta\s+(?:med|att)?|przestań)\s*(?P<what>\S.*)$",
    re.IGNORECASE,
)
"""An order to stop something from now on, the imperative of "stop" and what it governs, in nine languages ("Stop
with the emoji in PR descriptions", "Stop met emoji in de PR-beschrijvingen", "Hör auf mit den Emojis in ...",
"Arrête de mettre des emoji ...", "Deja de poner ...", "Smetti di usare ...", "Sluta med emoji i ..."): its first
clause (a reason after a comma is not the rule)."""
_THAT_ONLY_RE = re.compile(
    r"^(?:it|that|this|dat|dit|das|ça|cela|eso|esto|questo|isso|det|to|the\s+\w+ing|met\s+dat|damit|con\s+eso)\b"
    r"|\b(?:now|right\s+now|nu|jetzt|maintenant|ahora|adesso|agora|genast)\b",
    re.IGNORECASE,
)
"""What a stop order governs that is the moment's, not a practice ("Stop that", "Arrête ça", "stop met dat nu")."""


def stop_rule(sentence: str) -> str | None:
    """The rule an order to stop something states (:data:`_STOP_RE`), its first clause, or None (a bare "stop that", a
    stop of the moment, or fewer than two words of what).

    Args:
        sentence: one of the user's sentences, less its end mark.

    Returns:
        str | None: the order less a leading "please" and a reason after its first clause, or None.
    """
    found = _STOP_RE.match(sentence.strip())
    if found is None:
        return None
    what = re.split(r"\s*[,;:]\s+|\s+[-–—]\s+", found["what"], maxsplit=1)[0].strip()
    content = [w for w in re.findall(r"[^\W\d_][\w'’-]*", what) if len(w) > 1]
    if _THAT_ONLY_RE.search(what) or len(content) < 2:
        return None
    return f"{found['stop']} {what}".strip()


_CJK_STOP_RE = re.compile(
    r"그만\s*\S+?\s*(?:주세요|주십시오|줘요?|줄래요?|하세요|해요|해)\s*$|(?:の|こと)[をは]?\s*(?:やめて(?:ください|下さい|ほしい"
    r"|もらえますか)?|やめよう|やめましょう)\s*$|^(?:请|請)?\s*(?:别|別|不要)再\S"
)
"""An order to stop something in Korean, Japanese or Chinese ("디버그용 console.log 좀 그만 남겨 주세요", "コミットに絵文字を
入れるのはやめてください", "别再在提交信息里加表情了"): the verb of stopping at the end, or "别再" first."""
_CJK_NOW_RE = re.compile(r"지금|당장|이거|그거|今すぐ|今は|これ|それ|现在|马上|这个|那个")
"""What makes a CJK stop order the moment's ("지금 그만해", "これはやめて", "现在别再说了")."""


def cjk_stop_rule(sentence: str) -> str | None:
    """The rule a Korean, Japanese or Chinese order to stop something states (:data:`_CJK_STOP_RE`), the sentence less
    its opening filler, or None (the moment's, or under eight characters of what).

    Args:
        sentence: one of the user's sentences, less its end mark.

    Returns:
        str | None: the order, or None.
    """
    text = _FILLER_RE.sub("", sentence.strip()).rstrip(" .!。！")
    found = _CJK_STOP_RE.search(text)
    if found is None or not CJK_RE.search(text) or _CJK_NOW_RE.search(text):
        return None
    what = text[: found.start()] if found.start() else text[found.end() - 1 :]
    return text if len(re.sub(r"\s", "", what)) >= 6 else None


_LIKE_TAG_RE = re.compile(
    r"(?<!\s)\s*[,;]\s*(?:that['’]s|that\s+is|it['’]s)\s+(?:just\s+)?(?:how|the\s+way)\s+i\s+(?:like|want|prefer)\s+it\s*$",
    re.IGNORECASE,
)
"""A closing tag that says the order is the user's taste ("..., that's just how I like it")."""


_HABIT_LEAD_RE = re.compile(
    r"^(?:(?:anyway|anyhow|also|oh|ok|okay|so|and|btw|by\s+the\s+way|one\s+more\s+thing|übrigens|au\s+fait"
    r"|d['’]ailleurs|por\s+cierto|trouwens|comunque|förresten)(?:\s*[,:])?\s+)+",
    re.IGNORECASE,
)
"""Words before the condition that are no part of the order ("Anyway, whenever you ...")."""
_EVERY_TIME_RE = re.compile(
    r"^(?:whenever|every\s+time|each\s+time|any\s*time|immer\s+wenn|jedes\s+mal|chaque\s+fois|cada\s+vez|siempre\s+que"
    r"|ogni\s+volta|sempre\s+que|elke\s+keer|varje\s+gång|za\s+każdym\s+razem)\b",
    re.IGNORECASE,
)
"""A condition said to recur ("whenever", "every time", "chaque fois que"): the order after it is a habit."""


def habit_rule(sentence: str) -> str | None:
    """An order for the agent's recurring work, scoped by a condition of it (:data:`.preferences.HABIT_WHEN_RE`):
    "whenever you write commit messages for me keep the subject line all lowercase", "Every time you open a PR, add
    the ticket number to its title", "Wenn du Tests schreibst, nutze immer pytest" (an order after the condition: an
    English verb of :data:`_ORDER_VERBS`, or one with a word of every time); the sentence less a closing "that's how I
    like it", or None.

    Args:
        sentence: one of the user's sentences, less its end mark.

    Returns:
        str | None: the sentence, or None.
    """
    from .preferences import HABIT_WHEN_RE

    text = _HABIT_LEAD_RE.sub("", _LIKE_TAG_RE.sub("", sentence.strip()))
    cond = HABIT_WHEN_RE.match(text)
    if cond is None or "?" in text:
        return None
    every = bool(_EVERY_TIME_RE.match(text))  # "whenever": a habit; a bare "when" needs "always" in the order
    words = text[cond.end() :].split()
    for i, word in enumerate(words):
        main = " ".join(words[i:])
        head = " ".join([text[: cond.end()], *words[:i]])
        if i == 0 or not HABIT_WHEN_RE.match(head + " "):
            continue
        bare = word.strip(",").casefold()
        comma = words[i - 1].endswith(",")
        if word.startswith(("always", "never", "please")) or (bare in _ORDER_VERBS and (comma or i >= 2)):
            return text if (every and bare in _ORDER_VERBS) or always_rule(main) else None
        if comma:
            return text if always_rule(main) or (every and verbless_rule(main)) else None
    return None


def long_enough(body: str) -> bool:
    """Whether a rule says enough to be one: three words, or eight characters of a language written without spaces."""
    return len(body.split()) >= 3 or (bool(CJK_RE.search(body)) and len(re.sub(r"\s", "", body)) >= 8)


__all__ = [
    "CJK_RE",
    "OTHER_LEAD_RE",
    "always_rule",
    "cjk_stop_rule",
    "habit_rule",
    "long_enough",
    "stop_rule",
    "verbless_rule",
]
