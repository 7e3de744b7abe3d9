"""No engine module compares a :mod:`.lazyre` pattern by identity (docs/architecture.md §3).

``lazyre`` rebinds a module's name to the compiled pattern on its first use, so ``regex is _X_RE`` is false on a
process's first call: a ``_defconfig`` keep skipped its word check and a glued secret got another rule's slug that
way (round 17). Every hook is a new process, so a first call is the common case.
"""

from __future__ import annotations

import re
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
_LAZY = re.compile(r"^(\w+)\s*(?::[^=]+)?=\s*lazyre\.compile\(", re.M)


def identity_tests(source: str) -> list[str]:
    """The ``is``/``is not`` comparisons against a name the module binds to ``lazyre.compile``."""
    names = _LAZY.findall(source)
    if not names:
        return []
    pattern = re.compile(rf"\bis\s+(?:not\s+)?(?:{'|'.join(map(re.escape, names))})\b")
    return [line.strip() for line in source.splitlines() if pattern.search(line)]


def test_no_module_tells_lazy_patterns_apart_by_identity() -> None:
    found = {
        str(path.relative_to(ENGINE)): hits
        for path in sorted(ENGINE.rglob("*.py"))
        if (hits := identity_tests(path.read_text(encoding="utf-8")))
    }
    assert not found, found


def test_the_check_sees_an_identity_test() -> None:
    source = '_A_RE = lazyre.compile(r"a")\nfor regex in (_A_RE,):\n    if regex is _A_RE:\n        pass\n'
    assert identity_tests(source) == ["if regex is _A_RE:"]
