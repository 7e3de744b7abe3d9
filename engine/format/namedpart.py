"""A request to remember only a part of what was just said, naming that part (docs/architecture.md §7, sess20).

"bramble 的告警发到 #data-alerts 频道，webhook 是 https://…，记一下告警频道就行", "Alerts go to #ops-pager, the
webhook is https://…, just note the alert channel", "…, merk dir nur den Kanal", "…, retiens juste le canal": the
user says several things and asks to keep the one they name. What is kept is the clauses before the request that
name that part (a word of it, or for Chinese and Japanese two of its characters in a row); the others, most often a
secret pasted beside it (a webhook, a token), are not. A request whose part no clause names keeps nothing.

Pure text: no file, no repo.
"""

from __future__ import annotations

import re

_PART_RE = re.compile(
    r"^(?P<said>.+?)\s*[,，、;；]\s*(?:"
    r"(?:请|帮我)?只?(?:记|記)(?:一下|下|住)(?P<zh>[^，。,!！]{1,16}?)(?:就行|就好|就可以|即可)了?"
    r"|(?:please\s+)?(?:just|only)\s+(?:note|remember|keep|save)\s+(?:down\s+)?the\s+(?P<en>[\w\s#-]{1,40}?)"
    r"(?:\s+(?:part|bit))?"
    r"|(?:bitte\s+)?(?:merk|notier)\s+dir\s+nur\s+(?:den|die|das)\s+(?P<de>[\w\s-]{1,40}?)"
    r"|(?:retiens|note)\s+(?:juste|seulement)\s+(?:le|la|les|l['’])\s*(?P<fr>[\w\s-]{1,40}?)"
    r")\s*[.!。！]*$",
    re.IGNORECASE | re.DOTALL,
)
"""A statement, then a request that names the part of it to keep."""
_CLAUSE_RE = re.compile(r"\s*[,，、;；]\s*")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_STEM = 4
"""Letters of a word two words must share at their start to name one thing ("alert" / "alerts")."""


def _names(clause: str, part: str) -> bool:
    """Whether ``clause`` names ``part``: a word of it (its first :data:`_STEM` letters), or two CJK characters."""
    if _CJK_RE.search(part):
        return any(part[i : i + 2] in clause for i in range(len(part) - 1) if _CJK_RE.match(part[i : i + 2]))
    said = {w.casefold()[:_STEM] for w in re.findall(r"\w+", clause) if len(w) >= _STEM}
    return any(w.casefold()[:_STEM] in said for w in re.findall(r"\w+", part) if len(w) >= _STEM)


def named_part(sentence: str) -> str | None:
    """What a sentence that ends by asking to keep a part of it keeps (the module docstring), or None.

    Args:
        sentence: one sentence of the user's.

    Returns:
        str | None: the clauses before the request that name the part, joined as said; None when the sentence has
        no such request, or no clause names the part.
    """
    found = _PART_RE.match(sentence.strip())
    if found is None:
        return None
    part = next(found[k] for k in ("zh", "en", "de", "fr") if found[k])
    clauses = [c for c in _CLAUSE_RE.split(found["said"]) if c.strip()]
    kept = [c.strip() for c in clauses if _names(c, part.strip())]
    return ", ".join(kept) if kept else None


__all__ = ["named_part"]
