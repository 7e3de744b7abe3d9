"""The team's practice said with its subject dropped, as the language allows (issue 30, sess17).

Polish, Spanish, Italian and Portuguese carry the person in the verb ("W tym projekcie używamy Poetry", "En este
proyecto usamos Helm", "In questo progetto usiamo Ruff": "we use" with no "we"); Korean and Japanese drop the subject
and say the practice in the polite present at the clause's end ("이 프로젝트에서는 모든 시간을 KST로 저장해요",
"このリポジトリではタブを使います"). After a project opener (:data:`.practice.PROJECT_HERE_RE`), such a present
statement is the project's standing practice, read by the verb's person or tense, not by a list of verbs: a
first-person plural ending (-my, -amos/-emos/-imos, -iamo) or a polite ending (-요/-니다, ます/です) that is not a
past, a request or a question. Never a past (했어요, ました, -liśmy), a request (주세요, ください), a question, a hedge or the moment ("today").
Pure text: no file.
"""

from __future__ import annotations

import re

from .relativedates import NOW_WORDS

_WE_VERB_RE = re.compile(r"^[^\W\d_]{2,}(?:amy|emy|imy|ymy|amos|emos|imos|iamo)\b", re.IGNORECASE)
"""A verb in the first person plural, its subject dropped ("używamy", "usamos", "mantenemos", "usiamo")."""
_NOT_STANDING_RE = re.compile(
    rf"\b(?:{NOW_WORDS}|ahora|adesso|agora|teraz)\b|\b(?:podemos|podríamos|potremmo|possiamo|poderíamos|możemy"
    r"|moglibyśmy|deberíamos|dovremmo|deveríamos|powinniśmy)\b|[?？]"
    r"|\b(?:bugs?|errors?|errore|erro|error(?:es)?|problem\w*|błąd\w*|issues?|fallos?|awari\w+|crash\w*)\b",
    re.IGNORECASE,
)
"""The moment, a hedge, a fault or a question: not the standing practice ("ahora usamos ...", "podemos usar ...",
"tenemos un bug")."""
_CJK_PRESENT_RE = re.compile(r"(?:요|니다|ます|です)$")
"""The polite ending of a Korean or Japanese clause (남겨요, 저장합니다, 使います, です)."""
_CJK_NOT_RE = re.compile(
    r"(?:[었았했였]어요|[었았했였]습니다|[었았했였]죠|세요|줘요|까요|나요|죠|ました|でした|ません|ください|ますか|ですか)$|[?？]"
)
"""A past (저장했어요, 使いました), a request (주세요, ください), a question or a tag at a Korean or Japanese clause's end."""

_CJK_OBJECT_RE = re.compile(r"\S(?:을|를|으로|로|を|で)\s*\S")
"""What the team does something to or with (시간을, KST로, タブを): a practice, not a thing's state ("빌드가 느려요")."""
_CJK_FAULT_RE = re.compile(r"실패|에러|오류|버그|문제|エラー|バグ|失敗|問題")
"""A fault: the task at hand ("테스트가 실패해요")."""


def team_present(rest: str) -> bool:
    """Whether ``rest`` (what follows a project opener) is the team's practice with its subject dropped (the module
    docstring).

    Args:
        rest: the clause after the opener.

    Returns:
        bool: whether it is such a practice.
    """
    clause = re.split(r"[.。!！]\s*", rest.strip(" ,:、，"), maxsplit=1)[0].strip()
    if len(clause) < 4 or _NOT_STANDING_RE.search(clause):
        return False
    if _WE_VERB_RE.match(clause):
        return len(clause.split()) >= 3  # "używamy Poetry do zależności": the verb and what it holds
    done = bool(_CJK_OBJECT_RE.search(clause)) and not _CJK_FAULT_RE.search(clause)
    return done and bool(_CJK_PRESENT_RE.search(clause)) and not _CJK_NOT_RE.search(clause) and len(clause) >= 6


__all__ = ["team_present"]
