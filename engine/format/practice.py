"""A rule or practice said for the project at hand, and the reader of every unled rule shape (issue 30, sess14-sess17;
split from :mod:`.ruleforms` in round 18).

:func:`project_practice` hears a practice said for this project ("In this repo we manage dependencies with Poetry",
"For falcon we deploy with kamal", "... in this codebase"); :func:`unled_rule` asks every shape of a rule said
without a standing lead-in, :mod:`.ruleforms`' and this one. Pure text.
"""

from __future__ import annotations

import re

from .dropped import team_present
from .labelled import labelled_rule
from .relativedates import NOW_WORDS
from .ruleforms import always_rule, cjk_stop_rule, habit_rule, stop_rule, verbless_rule

PROJECT_HERE_RE = re.compile(
    r"^(?:in\s+this\s+(?:repo|repository|project|codebase|monorepo)|in\s+diese[mr]\s+(?:repo|repository|projekt|codebasis)"
    r"|dans\s+ce\s+(?:dépôt|projet|repo)|en\s+este\s+(?:repo|repositorio|proyecto)|in\s+questo\s+(?:repo|progetto)"
    r"|neste\s+(?:repo|repositório|projeto)|in\s+deze\s+repo|in\s+dit\s+(?:project|repo)|w\s+tym\s+(?:repo|projekcie"
    r"|repozytorium)|v\s+(?:tomhle|tomto)\s+(?:repu|repozitáři|projektu)|i\s+(?:det\s+här|detta|dette)\s+(?:projekt(?:et)?"
    r"|repo(?:t)?))\b\s*(?:,\s*)?"
    r"|(?:^|\s)이\s*(?:프로젝트|저장소|레포(?:지토리)?)에서(?:는|도)?|この(?:リポジトリ|プロジェクト|リポ)(?:では|で)"
    r"|(?:在)?(?:这个|這個|本)(?:项目|項目|仓库|倉庫|代码库|repo)(?:里|裡|中)?",
    re.IGNORECASE,
)
"""A rule or a practice said for the project at hand ("In this repo we ...", "이 프로젝트에서는 ...", "このリポジトリでは
..."): the project's, not one for every project."""
_TEAM_HABIT_RE = re.compile(
    r"^(?:we|we['’](?:ve|re))\s+(?:always\s+|only\s+|never\s+|just\s+)?(?:use|manage|build|deploy|run|ship|write|keep"
    r"|follow|prefer|avoid|release|test|lint|format|pin|tag|squash|rebase|merge|name|store|host|install|package|vendor"
    r"|commit|track|document|don['’]t|do\s+not|handle|pull|push|publish|bundle|compile|generate)\b",
    re.IGNORECASE,
)
"""A practice of the team's, in the present ("we manage dependencies with Poetry", "we never push to main")."""


_HERE_END_RE = re.compile(
    r"\s+(?:(?:in|for)\s+this\s+(?:repo|repository|project|codebase|monorepo)|in\s+diese[mr]\s+(?:repo|repository|projekt"
    r"|codebasis)|dans\s+ce\s+(?:dépôt|projet|repo)|en\s+este\s+(?:repo|repositorio|proyecto)|in\s+questo\s+(?:repo"
    r"|progetto)|neste\s+(?:repo|repositório|projeto)|in\s+(?:deze|dit)\s+(?:repo|project)|i\s+(?:det\s+här|detta)"
    r"\s+(?:projekt(?:et)?|repo))\s*$",
    re.IGNORECASE,
)
"""The project at hand named at a practice's end ("We keep all imports at the top of the module in this codebase")."""
NAMED_PROJECT_RE = re.compile(
    r"^(?:for|für|bei|pour|chez|para|per|voor|bij|för|dla)\s+(?!(?:now|today|example|instance|once|reference|context|the"
    r"|record|real|sure|me|you|us|them|it|this|that|jetzt|heute|beispiel|maintenant|exemple|ahora|ejemplo|ora|esempio"
    r"|agora|exemplo|nu|voorbeeld|exempel|teraz|uns|nous|nosotros|noi|ons|oss|nas)\b)(?P<name>[\w.-]{2,40})(?:\s*[,:])?\s+"
    r"(?=(?:we|we['’]ve|wij|wir|nous|on|vi|my)\s|[^\W\d_]+\s+(?:wir|we|wij|vi)\s)",
    re.IGNORECASE,
)
"""A project named first, then the team's practice ("For falcon we deploy with kamal", "Für falcon nutzen wir
Podman", "Pour falcon, on déploie avec kamal"): the named project's, not the user's rule for all."""
_TEAM_ANY_RE = re.compile(
    r"^(?:(?:wir|wij|nous|on|vi|my)\s+[^\W\d_]{3,}|[^\W\d_]{3,}\s+(?:wir|we|wij|vi))\s+\S",
    re.IGNORECASE,
)
"""The team's practice in a language :data:`_TEAM_HABIT_RE` does not read: a team pronoun with its verb, either
order ("wir nutzen ...", "nutzen wir ...", "on déploie ...", "vi bygger ...")."""
_NOT_PRACTICE_RE = re.compile(
    rf"\b(?:{NOW_WORDS}|last\s+\w+|had|did|was|were|hatten|haben\s+\w+t|avons|avions|hebben|hadden"
    r"|hade|har\s+\w+t|mieliśmy)\b|\b(?:should|could|might|may|sollten|könnten|devrions|pourrions|zouden|borde)\b|\?",
    re.IGNORECASE,
)
"""An event, a past, a hedge or a question: not the team's standing practice."""


def _practice(rest: str) -> bool:
    """Whether ``rest`` is the team's standing practice, said in any of the forms above."""
    rest = rest.strip(" ,:")
    if _NOT_PRACTICE_RE.search(rest):
        return False
    return bool(_TEAM_HABIT_RE.match(rest) or _TEAM_ANY_RE.match(rest) or always_rule(rest))


def project_practice(sentence: str) -> str | None:
    """A rule or a practice said for the project at hand without a lead-in: "In this repo we manage dependencies
    with Poetry, don't pip install things directly", "In this project, always run X" (kept as the project's rule).

    Args:
        sentence: one of the user's sentences, less its end mark.

    Returns:
        str | None: the sentence, or None.
    """
    text = sentence.strip()
    here = PROJECT_HERE_RE.match(text)
    if here is not None and _CJK_RULE_RE.match(text[here.end() :]):
        return text  # "这个项目的分支命名规则是 feature/LYNX-编号": the project's rule, named as one (round 18)
    if here is not None and team_present(text[here.end() :]):
        return text  # "W tym projekcie używamy Poetry", "이 프로젝트에서는 ... 저장해요": the subject dropped (sess17)
    if not re.match(r"[a-z]", text, re.IGNORECASE):
        return None  # the CJK forms are read by :func:`always_rule` (the rule's own word of every time)
    named = NAMED_PROJECT_RE.match(text)  # "For falcon we deploy with kamal deploy from the repo root" (sess16)
    if named is not None:
        return text if _practice(text[named.end() :]) else None
    trailing = _HERE_END_RE.search(text)  # "We keep all imports at the top of the module in this codebase" (sess16)
    if trailing is not None:
        return text if _practice(text[: trailing.start()]) and not _HERE_END_RE.match(text) else None
    here = PROJECT_HERE_RE.match(text)
    if here is None:
        return None
    rest = text[here.end() :]
    return text if _TEAM_HABIT_RE.match(rest) or always_rule(rest) or _standing(rest) else None


_CJK_RULE_RE = re.compile(
    r"^(?:的|の)?[^。，,、]{0,12}?(?:规则|規則|规范|規範|约定|約定|ルール|規約|규칙|컨벤션)\s*(?:是|为|為|は|는|은)"
)
"""A project's rule named as the subject after the opener, in Chinese, Japanese or Korean ("...的分支命名规则是 X")."""


_STANDING_WORD_RE = re.compile(
    r"(?:^|\s)(?:always|never|only|immer|nie|niemals|nur|toujours|jamais|uniquement|seulement|siempre|nunca|solo|sólo"
    r"|sempre|mai|soltanto|apenas|altijd|nooit|alleen|zawsze|nigdy|tylko|alltid|aldrig|bara|kun|vždy|nikdy|jen|pouze)"
    r"(?=\s)",
    re.IGNORECASE,
)
"""A word of every time or of the only way, in its own place in the clause ("API errors always come back as ...",
"las traducciones nunca se editan a mano", "se changelog dělá jen skriptem")."""


def _standing(rest: str) -> bool:
    """Whether what follows a project opener states the project's standing practice with a subject of its own, by a
    word of every time in its first clause (:data:`_STANDING_WORD_RE`): "In this project API errors always come back
    as problem+json", "En este repo las traducciones nunca se editan a mano", "V tomhle repu se changelog dělá jen
    skriptem release-notes" (round 18); never a past, a hedge, the moment or a question (:data:`_NOT_PRACTICE_RE`)."""
    first = re.split(r"[,;:]|\s[-–—]\s", rest, maxsplit=1)[0]
    if len(first.split()) < 3 or _NOT_PRACTICE_RE.search(rest):
        return False
    return bool(_STANDING_WORD_RE.search(f" {first} "))


def unled_rule(sentence: str) -> str | None:
    """The rule a sentence states without a standing lead-in, in any of this module's shapes, or None.

    Args:
        sentence: one of the user's sentences, less its end mark.

    Returns:
        str | None: the rule as the first shape that hears it gives it, or None.
    """
    return (
        always_rule(sentence)
        or verbless_rule(sentence)
        or project_practice(sentence)
        or stop_rule(sentence)
        or cjk_stop_rule(sentence)
        or habit_rule(sentence)
        or labelled_rule(sentence)
    )


__all__ = ["NAMED_PROJECT_RE", "PROJECT_HERE_RE", "project_practice", "unled_rule"]
