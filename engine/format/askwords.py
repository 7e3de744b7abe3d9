"""The words of a request to keep or to pin, beyond English "remember" (issue 30, sess13).

:data:`PIN_RE` hears a request to pin X (keep it at MEMORY.md's top, where every session reads it) at a sentence's
start, in six languages and the CJK ones: "Pin this so every session sees it: X", "Keep this at the top: X",
"Épingle ça : X", "Fissa questo in memoria, deve restare sempre in vista: X", "Pinne das dauerhaft: X", "置顶：X";
:data:`PIN_BEFORE_RE` a sentence that only asks to pin the one before it ("Pin that."). :data:`EURO_RE` hears a
request to remember X in Spanish, French, German, Italian and Portuguese ("Recuerda que X", "Merk dir bitte: X",
"N'oublie pas que X", "Ricordati che X", "Lembra que X"). Pure text: :mod:`.remembering` reads what follows.
"""

from __future__ import annotations

import re

_LEAD = (
    r"(?:(?:also|and|oh|so|but|btw|by\s+the\s+way|please|pls|just|ok|okay|por\s+favor|por\s+cierto|bitte|übrigens"
    r"|s['’]il\s+te\s+pla[iî]t|au\s+fait|per\s+favore|a\s+proposito|aliás|ah|y|et|und|e)\b,?\s+)"
)
"""Words that may come before a request: "Oh, and please pin this ...", "Por cierto, recuerda que ..."."""
_PIN_VERB = (
    r"(?:pin|sticky)\s+(?:this|that|it)(?:\s+one)?(?:\s+(?:to\s+the\s+top|at\s+the\s+top|on\s+top|in\s+(?:your\s+|the\s+)?memory))?"
    r"|keep\s+(?:this|that|it)\s+(?:at\s+the\s+top|on\s+top|pinned|always\s+(?:visible|in\s+view)|front\s+and\s+cent(?:er|re))"
    r"|épingle[sz]?\s+(?:ça|ceci|cela|ce\s+point)|garde[sz]?\s+(?:ça|ceci|cela)\s+(?:en\s+haut|épinglé)"
    r"|fissa(?:te)?\s+(?:questo|quello|questa|ciò)|pinne?\s+(?:das|dies|dieses)|hefte?\s+(?:das|dies)(?=\s+(?:\w+\s+)?(?:oben\s+)?an\b)"
    r"|fija(?:r)?\s+(?:esto|eso)|ancla\s+(?:esto|eso)|fix[ae]\s+(?:isto|isso)|pin\s+(?:dit|dat)(?:\s+vast)?"
    r"|zet\s+(?:dit|dat)\s+bovenaan|przypnij\s+(?:to|tę\s+notatkę)|fastgør\s+(?:det(?:te)?|dette)(?:\s+her)?"
    r"|fest\s+(?:dette|det)(?:\s+her)?|fäst\s+(?:detta|det\s+här)|připni\s+(?:to|tohle)"
)
"""A request to pin: "pin this", "keep this at the top", "épingle ça", "fissa questo", "pinne das", "fija esto",
"fastgør det her" (da), "fest dette" (no), "fäst detta" (sv), "připni to" (cs)."""
_PIN_WHY = (
    r"\s*,[^.!?\n:：]{0,80}?|\s+(?:so|please|because|since|così|perché|pour|afin|damit|para|sempre|always|forever"
    r"|permanently|dauerhaft|for\s+(?:good|later|ever|every|all|future|the\s+future|next)|in\s+(?:your\s+|the\s+)?memor(?:y|ia)"
    r"|en\s+(?:la\s+)?m[ée]moir?e?|na\s+memória|im\s+gedächtnis|(?:at|to)\s+the\s+top(?!\s+of)|on\s+top(?!\s+of))\b"
    r"[^.!?\n:：]{0,80}?"
)
"""What a pin request says it is for, before its colon ("so every session sees it", ", deve restare sempre in vista");
never a noun after "this" ("Pin this version: numpy 1.26" pins a dependency, "Pin this in the README: X" edits a file)."""
_FILLER = (
    r"(?:\s+(?:please|pls|kindly|for\s+me|too|also|as\s+well|bitte|mal|doch|por\s+favor|per\s+favore|s['’]il\s+te\s+pla[iî]t|alsjeblieft"
    r"|proszę))*(?:\s+(?:an|fest|oben\s+an)\b)?"
)
"""Words between a pin request's verb and its colon that ask nothing else: "please", "bitte", and the particle of a
German separable verb ("Pinne das bitte an: X", "Heft das mal oben an: X")."""
_START = r"(?:^|(?<=[.!?。！？])\s+|\n)\s*"
PIN_RE = re.compile(
    rf"{_START}{_LEAD}*(?P<ask>(?:can|could|would|will)\s+you\s+(?:please\s+)?)?{_LEAD}*(?:{_PIN_VERB}){_FILLER}(?:{_PIN_WHY})?"
    r"\s*[:：]\s*"
    r"|(?:^|(?<=[。！？.!?])\s*|\n)\s*(?:请|把这(?:条|个|一点)?)?(?:置顶|固定在(?:顶部|最上面)|ピン留め(?:して(?:ください|おいて)?)?"
    r"|고정해\s*(?:줘|둬|주세요)?)\s*[:：,，、]\s*",
    re.IGNORECASE,
)
"""A pin request at a sentence's start, what it is for, then its colon; or the CJK one with its mark ("置顶：X")."""
PIN_BEFORE_RE = re.compile(
    r"(?:(?:please|pls|and|also|oh|ok|okay)[,\s]+)*(?:pin\s+(?:this|that|it)(?:\s+(?:to|at)\s+the\s+top)?|épingle[sz]?\s+"
    r"(?:ça|ceci|cela)|fissa(?:lo|la)|pinne?\s+das\s+an)(?:\s*(?:,\s*)?please)?\s*[.!。！]*",
    re.IGNORECASE,
)
"""A sentence that only asks to pin what was said before it: "Pin that.", "Épingle ça !"."""
_EURO_VERB = (
    r"recuerda(?:lo)?|acuérdate(?:\s+de)?|no\s+(?:te\s+)?olvides(?:\s+de)?|ten\s+(?:en\s+cuenta|presente)"
    r"|souviens[- ]toi|souvenez[- ]vous|rappelle[- ]toi|retiens|retenez|n['’]oublie[sz]?\s+pas|garde\s+(?:en\s+tête|à\s+l['’]esprit)"
    r"|merk\s+dir|merken\s+sie\s+sich|vergiss\s+nicht|vergessen\s+sie\s+nicht|denk\s+daran|behalte\s+im\s+kopf"
    r"|ricorda(?:ti)?|non\s+dimenticare|tieni\s+(?:a\s+mente|presente)"
    r"|lembr[ae](?:-(?:te|se))?|não\s+(?:te\s+)?esque[çc]as?|tenha\s+em\s+mente"
    r"|onthoud|vergeet\s+niet|kom\s+ihåg|glöm\s+inte|husk|pamiętaj|zapamiętaj|nie\s+zapomnij"
)
"""Remember, don't forget, keep in mind: es, fr, de, it, pt, nl, sv, da/no, pl."""
_EURO_START = r"(?:^|(?<=[.!?。！？])\s+|\n|\s(?:--|[–—])\s+|;\s*)\s*"
"""A sentence's start, or a clause's after a spaced dash or a semicolon ("... mit dem Token X – merk dir, dass Y")."""
_SOFT = (
    r"bitte|mal|doch|gerne?|bien|even|eens|effe|ff|por\s+favor|per\s+favore|s['’]il\s+te\s+pla[iî]t|snälla|gärna"
    r"|lige|proszę"
)
"""A softening particle after the verb, one or two of them ("merk dir bitte", "Onthoud even:", "Kom ihåg snälla att")."""
EURO_RE = re.compile(
    rf"{_EURO_START}{_LEAD}*(?:{_EURO_VERB})(?:\s+(?:{_SOFT})){{0,2}}"
    r"(?:\s*[:,]\s*(?:dass\s+|que\s+|qu['’]|che\s+|dat\s+|att\s+|at\s+|że\s+)?"
    r"|\s+(?:de\s+)?(?:que\s+|qu['’]|dass\s+|che\s+|dat\s+|att\s+|at\s+|że\s+))",
    re.IGNORECASE,
)
"""A request to remember X at a sentence's start, then "que"/"dass"/"che" or a colon: "Recuerda que X", "Merk dir
bitte: X", "N'oublie pas qu'X", "Ricordati che X", "Lembra que X"; never "Je me souviens que" (the user's memory)."""

PLEASE_TAIL_RE = re.compile(
    r",\s*(?:please|pls|por\s+favor|per\s+favore|bitte|s['’]il\s+te\s+pla[iî]t|s['’]il\s+vous\s+pla[iî]t|stp)\s*$",
    re.IGNORECASE,
)
"""A "please" after a comma at a kept statement's end: not the user's fact ("prefiero X, por favor")."""

__all__ = ["EURO_RE", "PIN_BEFORE_RE", "PIN_RE", "PLEASE_TAIL_RE"]
