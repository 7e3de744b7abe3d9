"""Requests to forget a line the user names in other words, and "delete it" pointing back (issue 30, forget16).

:mod:`.forgetting` forgets a line whose words hold every word of the topic named ("forget the note about the QA
contact"). A user also names the line in words of their own, with the reason it is no longer true: "Oublie ce que
je t'ai dit sur le dossier des captures de démo, on l'a supprimé." for "Les captures d'écran de démo de basalt
sont dans /srv/demo-shots", or in two sentences, the second pointing back: "To, co ci mówiłem o tym, czego trzeba
do odpalenia dune lokalnie, jest już nieaktualne. Usuń to z pamięci."

- :func:`pointed`: a sentence that only asks to drop "it" ("Usuń to z pamięci", "Delete it from memory", "Vergiss
  es", "Oublie-le") after a sentence that names what the user told ("what I told you about X", "ce que je t'ai dit
  sur X", "co ci mówiłem o X") or with "from memory" said, and says it is outdated: X is the topic.
- :func:`mostly`: a topic said with a reason it is over names the one listed line holding two thirds of its words
  or more (words compared by their first five letters: "lokalnie" / "lokalnego"; or four when at most two
  letters of the shorter are left: "kopiach" / "kopie"), two at least, when no other line
  holds as many. In a repo of :data:`.meaningmatch.MIN_POOL` lines or more, the local model must name the same
  line (:func:`.meaningmatch.meant_line`); without the model there, nothing is forgotten this way. A wrong forget
  loses a fact: a topic said without a reason, a question, hearsay or a negated request never reaches here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from . import meaningmatch

T = TypeVar("T")

_IT = (
    r"(?:forget|delete|drop|remove|erase)\s+(?:it|that|this)|vergiss\s+(?:es|das)|lösch(?:e)?\s+(?:es|das)|entferne\s+(?:es|das)"
    r"|oublie[sz]?[-\s](?:le|la|ça)|efface[sz]?[-\s](?:le|la|ça)|supprime[sz]?[-\s](?:le|la|ça)|olvídalo|bórralo|elimínalo"
    r"|dimenticalo|cancellalo|esquece\s+isso|apaga\s+isso|vergeet\s+het|verwijder\s+het|usuń\s+to|zapomnij\s+o\s+tym"
)
_IT_RE = re.compile(
    rf"^(?:(?:please|pls|just|so|bitte|s['’]il\s+te\s+plaît|por\s+favor|proszę|więc|alors|also|dann)(?:\s*,)?\s+)*(?:{_IT})"
    r"(?P<mem>\s+(?:from|out\s+of)\s+(?:your\s+)?(?:memory|notes)|\s+aus\s+(?:dem\s+Gedächtnis|deinen\s+Notizen)"
    r"|\s+de\s+(?:ta|la)\s+mémoire|\s+de\s+tu\s+memoria|\s+dalla\s+memoria|\s+da\s+memória|\s+uit\s+je\s+geheugen"
    r"|\s+z\s+pamięci)?(?:\s*(?:,\s*)?(?:please|bitte|proszę|por\s+favor|s['’]il\s+te\s+plaît))?\s*$",
    re.IGNORECASE,
)
"""A sentence asking only to drop "it" (a request with no object of its own), in nine languages."""
_TOLD_RE = re.compile(
    r"^(?:(?:to|that|das|ce|lo|quello|o|dat),?\s+)?(?:what\s+i\s+(?:told\s+you|said|wrote\s+down)\s+(?:about|on)"
    r"|(?:the|my|your)\s+(?:note|line|entry|memory)\s+(?:about|on)|co\s+ci\s+(?:mówiłem|mówiłam|powiedziałem|powiedziałam)"
    r"\s+o(?:\s+tym,)?|que\s+je\s+(?:t['’]ai|vous\s+ai)\s+dit\s+(?:sur|à\s+propos\s+d(?:e|u|es|['’]))|que\s+te\s+dije\s+sobre"
    r"|che\s+ti\s+ho\s+detto\s+su\w*|que\s+te\s+disse\s+sobre|was\s+ich\s+dir\s+über|wat\s+ik\s+je\s+(?:vertelde|zei)\s+over)"
    r"\s*",
    re.IGNORECASE,
)
"""A sentence's opening that names something the user told the agent ("What I told you about X ...")."""
_OVER_TAIL_RE = re.compile(
    r"\s*(?:,|\s[-–—])?\s*(?:(?:is|was|are|jest|ist|est|es|è|é|is)\s+)?(?:(?:now|już|jetzt|maintenant|ya|ora|nu|já)\s+)?"
    r"(?:no\s+longer\s+(?:true|valid|right)|outdated|obsolete|stale|wrong|not\s+true\s+any\s*more|nieaktualn\w*|"
    r"veraltet|nicht\s+mehr\s+aktuell|obsolète|périmée?|plus\s+vrai\w*|desactualizad\w*|obsolet\w*|verouderd|"
    r"(?:ya\s+)?no\s+es\s+(?:cierto|verdad)|non\s+(?:è\s+)?più\s+vero|niet\s+meer\s+(?:waar|actueel)|"
    r"superat\w*|desatualizad\w*)\b.*$",
    re.IGNORECASE,
)
"""A statement's ending that says what it names is no longer true ("..., jest już nieaktualne")."""


def pointed(before: str, sentence: str) -> str | None:
    """The topic a bare "delete it" points back to (the module docstring), or None.

    Args:
        before: the sentence before it in the same message ("" for none).
        sentence: the user's sentence.

    Returns:
        str | None: the topic the sentence before names.
    """
    it = _IT_RE.match(sentence.strip())
    if it is None or not before:
        return None
    told = _TOLD_RE.match(before.strip())
    over = _OVER_TAIL_RE.search(before.strip())
    if over is None or (told is None and not it["mem"]):
        return None
    text = before.strip()
    what = text[told.end() if told else 0 : over.start()].strip(" ,;:-—–")
    return what or None


def _stems(words: set[str]) -> set[str]:
    """Words by their first five letters (inflected languages: "lokalnie", "lokalnego" -> "lokal")."""
    return {w[:5] if len(w) > 5 else w for w in words}


def _alike(a: str, b: str) -> bool:
    """Whether two stems are one word inflected: equal, or sharing four letters or more with at most two letters of the
    shorter left ("kopia" of "kopiach" / "kopie"), as Slavic and Romance case endings change a word's fifth letter."""
    if a == b:
        return True
    common = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return common >= 4 and common >= min(len(a), len(b)) - 2


def _held(topic: set[str], line: set[str]) -> int:
    """How many of the topic's stems the line holds (:func:`_alike`)."""
    return sum(1 for t in topic if any(_alike(t, w) for w in line))


def mostly(
    want: set[str], lines: Sequence[T], words: Callable[[str], set[str]], key: Callable[[T], str], said: str
) -> T | None:
    """The one line a topic said with its reason names in other words (the module docstring), or None.

    Args:
        want: the topic's content words.
        lines: the listed lines.
        words: the content words of a text (:func:`.forgetting` 's).
        key: a line's text.
        said: the user's sentence (the meaning match's query).

    Returns:
        T | None: the line, or None when no line clearly holds most of the topic.
    """
    topic = _stems(want)
    if len(topic) < 2:
        return None
    scored = [(_held(topic, _stems(words(key(line)))), line) for line in lines]
    best = max((n for n, _line in scored), default=0)
    top = [line for n, line in scored if n == best]
    if best < 2 or 3 * best < 2 * len(topic) or len(top) != 1:
        return None
    if len(lines) <= meaningmatch.MIN_POOL:
        return top[0]  # too few lines for "stands out" to mean anything: the words decide
    meant = meaningmatch.meant_line(said, [], lines, key)
    return top[0] if meant is not None and key(meant) == key(top[0]) else None


__all__ = ["mostly", "pointed"]
