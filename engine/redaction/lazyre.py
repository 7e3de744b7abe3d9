"""Regular expressions compiled on their first use, not at import (docs/architecture.md §3).

The redaction modules hold about 230 regular expressions. Compiling them all
when the detectors load cost a new process 70-110 ms (``re`` parses and
compiles each one in Python), and a process that redacts one hand-edited
file runs only a third of them: most sit behind a keyword check (a rule for
speech runs when a line says "password", a vendor's rule when it names the
vendor). :func:`compile` gives a :class:`LazyPattern` that compiles when a
text first reaches it, so a process pays only for the rules its texts
reach. The pattern and flags are those given: what a rule matches is
unchanged. A rule never tells its patterns apart by identity (``regex is
_X_RE``): the module's name is rebound to the compiled pattern on first use,
so such a test is false once per process (tests/packaging/test_lazy_patterns_by_identity.py).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")
_MADE: list[LazyPattern] = []
"""Every lazy pattern this process made (about 270 small objects), for :func:`made`."""


def made() -> list[LazyPattern]:
    """Every lazy pattern made so far, compiled or not (the tests compile each; the benchmarks count)."""
    return list(_MADE)


class LazyPattern:
    """A :class:`re.Pattern` compiled on first use; its methods are then the compiled pattern's own.

    Attributes:
        pattern: the source, as given (read without compiling, so other patterns can be built from it).
    """

    def __init__(self, pattern: str, flags: int | re.RegexFlag = 0, home: dict[str, Any] | None = None) -> None:
        self.pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None
        self._home = home
        _MADE.append(self)

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern, compiled now if it was not yet.

        Its bound methods go into this object's ``__dict__``, so from then on
        ``lazy.search`` is the compiled pattern's ``search`` with no call in between
        (an instance attribute hides a method of the class). And every name of the module
        that made it (``home``) bound to this object is bound to the compiled pattern
        instead, so the rule's own code calls :class:`re.Pattern` methods directly, as
        fast as before (a call through the instance's ``__dict__`` cost about 5% of
        a redaction); a pattern held in a list or a tuple keeps this object.
        """
        got = self._compiled
        if got is None:
            got = re.compile(self.pattern, self._flags)
            for name in _METHODS:
                self.__dict__[name] = getattr(got, name)
            self._compiled = got
            home, self._home = self._home, None
            if home is not None:
                for key, value in list(home.items()):
                    if value is self:
                        home[key] = got
        return got

    @property
    def is_compiled(self) -> bool:
        """Whether a text has reached this pattern in this process (the tests and benchmarks ask)."""
        return self._compiled is not None

    @property
    def flags(self) -> int:
        """The compiled pattern's flags (``re.UNICODE`` included, as :attr:`re.Pattern.flags`)."""
        return self.compiled().flags

    @property
    def groups(self) -> int:
        """How many capturing groups the pattern has."""
        return self.compiled().groups

    @property
    def groupindex(self) -> Any:
        """Named groups to their numbers."""
        return self.compiled().groupindex

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        """:meth:`re.Pattern.search`."""
        return self.compiled().search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        """:meth:`re.Pattern.match`."""
        return self.compiled().match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        """:meth:`re.Pattern.fullmatch`."""
        return self.compiled().fullmatch(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        """:meth:`re.Pattern.finditer`."""
        return self.compiled().finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        """:meth:`re.Pattern.findall`."""
        return self.compiled().findall(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        """:meth:`re.Pattern.sub`."""
        return self.compiled().sub(repl, string, count)

    def subn(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> tuple[str, int]:
        """:meth:`re.Pattern.subn`."""
        return self.compiled().subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        """:meth:`re.Pattern.split`."""
        return self.compiled().split(string, maxsplit)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r}, {self._flags!r})"


def compile(pattern: str, flags: int | re.RegexFlag = 0) -> LazyPattern:
    """A :class:`LazyPattern` of ``pattern`` and ``flags``: :func:`re.compile`'s arguments, compiled on first use.

    The calling module's names bound to it are bound to the compiled pattern once it compiles.

    Args:
        pattern: the regular expression's source.
        flags: :mod:`re` flags.

    Returns:
        LazyPattern: compiled the first time a method is called; a bad pattern raises
        :class:`re.error` then, and the redaction tests import and run every rule, so they see it.
    """
    return LazyPattern(pattern, flags, sys._getframe(1).f_globals)


lazy = compile
"""The same function, for a module that keeps :func:`re.compile`'s name for ``re``'s."""
