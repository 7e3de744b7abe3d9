"""A tokenizer-free estimate of how many model tokens a text costs (docs/architecture.md §4 budgets).

memrepo ships no tokenizer (they are large and model-specific), so budgets
use an estimate cut from the text's pieces:

- a run of ASCII letters: one token per started 6 letters;
- a run of digits: one token per started 3 digits;
- a CJK, kana or full-width character: one token;
- any other non-space character: one token; spaces are free.

Measured against OpenAI's ``o200k_base`` encoding (gpt-tokenizer 4.0) on a
2,000-file corpus (``make_corpus.py``; English, Chinese and Japanese entries):

- 3,000 entry lines (``L<n> text``): 2.8% over in total, 7.0% off per line
  on average, under by more than 10% on 4.8% of lines (at most 17% under);
- 7,436 lines of 300 whole context blocks (headers, paths and ids included):
  9.8% over in total, 16% off per line on average, under by more than 10% on
  2.6% of lines.

Erring high keeps a block inside its budget.
``benchmarks/bench_recall.py --tokenizer-cmd`` measures it again.
"""

from __future__ import annotations

import re

_WIDE = "\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\uac00-\ud7af"
_PIECE_RE = re.compile(rf"(?P<alpha>[A-Za-z]+)|(?P<digit>[0-9]+)|[{_WIDE}]|\S")


def estimate_tokens(text: str) -> int:
    """Estimate the tokens ``text`` costs in a prompt.

    Args:
        text: any text.

    Returns:
        int: estimated tokens (tokens), 0 for empty or all-space text.
    """
    n = 0
    for m in _PIECE_RE.finditer(text):
        alpha = m.group("alpha")
        if alpha is not None:
            n += (len(alpha) + 5) // 6
            continue
        digit = m.group("digit")
        n += (len(digit) + 2) // 3 if digit is not None else 1
    return n
