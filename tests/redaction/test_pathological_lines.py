"""No line a user pastes makes a regex hang (issue 32 round 21; docs/architecture.md §3).

Round 17 found one redaction rule taking 150 s of CPU on a 133-character line (a run of capitals after ``=``):
every write, read and context build of that line hung. ``benchmarks/bench_regex_fuzz.py`` feeds every pattern
adversarial shapes and lists those whose cost grows faster than the text; these are the worst shapes it found,
through the two ways a user's line is read: :func:`redact` and the checkpoint's reading of one user message. Each
is compared in CPU time with a plain line of prose as long, measured side by side (never an absolute time): within
50 times, where a pattern that splits a run every possible way costs hundreds to thousands of times more.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from memrepo.engine import redaction
from memrepo.engine.checkpoints.claims import Claim
from memrepo.engine.checkpoints.distill import explicit_remembers

_PLAIN = "We moved the billing service to the new cluster last week and the deploys look fine so far. "
_CAPITALS = "ABCDEFGHIJKLMNOPQRSTUVWXYYZ" * 2

SHAPES = {
    # 32 capitals: the old pattern took about 1.5 s here (150 s at 81), a new one costs what a plain line costs.
    "capitals after a label (round 17)": f"For appointedd, remember: appointedd_SECRET=examplevalidkey{_CAPITALS[:32]}=",
    "spaces after a forget verb": "dimentica" + " " * 1500 + "=",
    "spaces and tabs after a label": "password: " + " \t" * 700 + "=",
    "spaces after an aside": "übrigens" + " " * 1500 + "x",
    "dashes after a value": "key=ab12cd34ef56 " + "-" * 1500 + "=",
    "spaces before a comma": "from now on" + " " * 1500 + ",x",
    "a long name compared with a literal": 'if ("pw".equals(' + "a" * 40 + "=)",  # 1.8 s before, minutes at 50
    # an OpenSSH keyword before blanks and a finding: pubformats' algorithm list took 60 times a plain line (round 22)
    "blanks after an ssh keyword": "PubkeyAcceptedAlgorithms" + " \t" * 2500 + "api_key=Zx9Qk2Lm8Rt4Vb7Nc1Wd5Fh3Jg6Yp0",
}


def _plain(length: int) -> str:
    return (_PLAIN * (length // len(_PLAIN) + 1))[:length]


def _redact(text: str) -> object:
    return redaction.redact(text)


def _checkpoint(text: str) -> object:
    message = {"id": "m1", "session": "s1", "role": "user", "text": text, "heard": True}
    return explicit_remembers(Claim("global", "c1", ["s1"], None, [message], "force"))


def _cpu(read: Callable[[str], object], text: str) -> float:
    start = time.process_time()
    read(text)
    return time.process_time() - start


@pytest.mark.parametrize("read", [_redact, _checkpoint], ids=["redact", "checkpoint"])
@pytest.mark.parametrize("line", list(SHAPES.values()), ids=list(SHAPES))
def test_a_pathological_line_costs_about_what_a_plain_line_costs(read: Callable[[str], object], line: str) -> None:
    read("warm up: the detectors load outside the measure, key=ab12cd34ef56gh78")
    base = max(_cpu(read, _plain(len(line))), 0.005)
    assert _cpu(read, line) < 50 * base
