"""The redaction rules' regular expressions compile on first use (engine/redaction/lazyre.py, issue 30 point 4).

A new process that re-indexed one hand-edited file compiled all ~230 of them when the detectors loaded
(70-110 ms of a ``memrepo recall``); prose reaches about a third. What is redacted must not change: the
patterns and flags are the ones given, and every one of them still compiles (a test now, since an import no
longer compiles them).
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

from memrepo.engine.redaction import lazyre

REDACTION = Path(lazyre.__file__).parent

PROSE = [
    "Team keeps Postgres 16 with pgvector for search (item 88)",
    "https://example.com/sessions/85535?a=1%3Bb=2",
    "2025-07-30",
    "agent",
    "Prefers pnpm over npm for JavaScript projects; run `pnpm install --frozen-lockfile` in CI",
    "数据库迁移需要人工审核（logging-108）",
]
"""Lines as memory holds them: an entry, a source URL, a date, a ``by:``, a command, CJK."""


def _all_patterns() -> list[lazyre.LazyPattern]:
    for path in sorted(REDACTION.glob("*.py")):
        if path.stem != "__init__":
            importlib.import_module(f"memrepo.engine.redaction.{path.stem}")
    return lazyre.made()


def test_every_rule_compiles() -> None:
    """A pattern with a syntax error would fail only when a text first reached it: each one is compiled here."""
    patterns = _all_patterns()
    assert len(patterns) > 150  # the rules of every module, not a handful
    for pattern in patterns:
        assert isinstance(pattern.compiled(), re.Pattern), pattern


def test_a_lazy_pattern_answers_as_re_compile_does() -> None:
    source, flags = r"(?P<key>token|key)=(?P<value>\w+)", re.I
    lazy, eager = lazyre.compile(source, flags), re.compile(source, flags)
    text = "a TOKEN=abc123 and key=zz9; nothing else"
    assert not lazy.is_compiled
    assert lazy.pattern == source and not lazy.is_compiled  # other patterns are built from .pattern
    assert [m.span("value") for m in lazy.finditer(text)] == [m.span("value") for m in eager.finditer(text)]
    assert lazy.is_compiled
    assert lazy.search(text, 5).span() == eager.search(text, 5).span()  # type: ignore[union-attr]
    assert lazy.match(text) is None and eager.match(text) is None
    assert lazy.fullmatch("key=1").group("value") == "1"  # type: ignore[union-attr]
    assert lazy.sub("<{}>".format, text) == eager.sub("<{}>".format, text)
    assert lazy.subn("", text) == eager.subn("", text)
    assert lazy.split(text) == eager.split(text)
    assert lazy.findall(text) == eager.findall(text)
    assert (lazy.flags, lazy.groups, dict(lazy.groupindex)) == (eager.flags, eager.groups, dict(eager.groupindex))
    assert lazy.search == lazy.compiled().search  # once compiled, the pattern's own method: no call in between


def test_a_compiled_pattern_takes_its_name_in_the_module() -> None:
    """Once compiled, the module's name for the pattern is the compiled :class:`re.Pattern` (no call in between
    for the rule's own code); a list holding the lazy one keeps it, and it still answers."""
    home: dict = {}
    exec("from memrepo.engine.redaction import lazyre\nX = lazyre.compile('a+')\nLISTED = [X]", home)
    lazy = home["X"]
    assert isinstance(lazy, lazyre.LazyPattern)
    assert home["X"].search("caab").span() == (1, 3)
    assert isinstance(home["X"], re.Pattern) and home["X"] is lazy.compiled()
    assert home["LISTED"][0] is lazy and lazy.search("xa").span() == (1, 2)


CHILD = """
import json, sys
from memrepo.engine import redaction
from memrepo.engine.redaction import lazyre
redaction.use_detectors(tuple(d for d in redaction.DETECTORS if d != "betterleaks"))  # the Go library is not the point
for text in json.loads(sys.argv[1]):
    redaction.redact(text)
patterns = lazyre.made()
print(json.dumps([sum(p.is_compiled for p in patterns), len(patterns)]))
"""


def test_redacting_prose_compiles_a_minority_of_the_rules() -> None:
    """A new process redacting memory lines compiles only the rules those lines reach (a fresh process: this one
    compiled them all above)."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(PROSE)], capture_output=True, text=True, timeout=120, check=True
    )
    compiled, total = json.loads(done.stdout)
    assert total > 150
    assert compiled < total // 2, f"{compiled} of {total} patterns compiled for {len(PROSE)} prose lines"


def test_a_secret_still_reaches_its_rule() -> None:
    """Laziness changes when a rule compiles, never whether it runs: a labelled password and a vendor token are
    redacted in a new process whose rules were not compiled before."""
    code = (
        "from memrepo.engine.redaction import redact; "
        "print(redact('the prod db password is Hx9!vQ2#mZ7p and the key is ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8')[0])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert "Hx9!vQ2#mZ7p" not in done.stdout and "ghp_a1B2" not in done.stdout
    assert done.stdout.count("[REDACTED:") == 2
