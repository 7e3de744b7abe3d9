"""Whether two CJK lines are about different owners or subjects (docs/architecture.md §4).

Split from :mod:`.samefact` by job: CJK text has no spaces, so its subject is read as a run of characters at the
line's head (:func:`cjk_head_differs`), with CJK change words read past (:data:`CJK_CHANGE_RE`).
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from memrepo.engine.format.terms import is_cjk

from .changeframe import SLOT_MAX, frame_tokens
from .changewords import CHANGE_WORDS

CJK_CHANGE_RE = re.compile(
    "|".join(re.escape(w) for w in sorted(CHANGE_WORDS, key=len, reverse=True) if any(is_cjk(c) for c in w)) or "$^"
)
"""CJK change words ("现在" now, "不再" no longer, "今は"): no owner, read past (breaker15 B15-20: "我现在住在巴黎")."""


def cjk_head_differs(old_text: str, new_text: str) -> bool:
    """CJK lines that differ in a short run of CJK characters at their head (after at most one shared character,
    我, or a shared possessive head ending on 的: 我们的) and are the same for at least two characters after it: 测试环境使用 / 生产环境不再使用, 我住在 / 我父母住在."""
    old, new = frame_tokens(old_text, False), frame_tokens(new_text, True)
    if not any(is_cjk(t) for t in old) or not any(is_cjk(t) for t in new):
        return False
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    if head > 1 and old[head - 1] != "的":
        return False  # a shared head but a possessive one ("我们的" our, "公司的": breaker15 B15-4)
    blocks = [b for b in SequenceMatcher(None, old, new, autojunk=False).get_matching_blocks() if b.size >= 2]
    if head > 1:
        blocks = [b for b in blocks if b.a >= head and b.b >= head]  # past the shared possessive head
    if not blocks:
        return False
    a, b = blocks[0].a, blocks[0].b
    if a < head or b < head:
        return False
    run_old, run_new = old[head:a], new[head:b]
    if not (run_old or run_new) or len(run_old) > SLOT_MAX or len(run_new) > SLOT_MAX:
        return False
    return all(is_cjk(t) for t in run_old + run_new)
