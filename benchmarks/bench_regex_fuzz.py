"""Pathological input for every regular expression that reads a user's text (issue 32, round 21).

A regex whose cost grows faster than the text hangs a user's ``memrepo remember`` on one pasted line (round 17:
a run of capitals after ``=`` took 150 s of CPU in one redaction rule, on every write, read and context build of
that line). This pass finds such patterns before a user does:

1. **Every pattern, found by introspection** (no hand list, so a new rule is covered when it lands): every
   module-level compiled pattern of ``memrepo.engine`` (a :class:`re.Pattern` or a
   :class:`~memrepo.engine.redaction.lazyre.LazyPattern`, also inside a module-level tuple, list, set or dict),
   every lazy pattern made (:func:`.lazyre.made`), every rule of the JSON rule files (:data:`.kingfisher.FILES`),
   and every pattern the entry points compile while they read the shapes below (``re``'s own cache, so a
   ``re.search(r"...", text)`` inside a function is covered too).
2. **Adversarial shapes**: a label (generic ones, and the longest literal words of the pattern itself, so a
   rule behind a keyword is reached), then a long run of one class (capitals, digits, hex, base64 characters,
   ``=``/``:``/``-`` repeated, nested quotes and brackets, words of 1-3 letters, whitespace, CJK ...), with and
   without a ``=`` after it.
3. **Growth**: each pattern's ``finditer`` over each shape at a length and at 4 times it, in CPU time
   (:func:`time.process_time`); a linear pattern costs about 4 times more, a quadratic one 16 times. A pattern
   whose ratio passes ``--ratio`` (default 8) is timed again, best of three, at 1,250 and 5,000 characters and
   listed with its cost against a plain line of prose as long. A call is stopped after ``--limit`` seconds
   (a hang is listed with that time).
4. **The entry points as a whole**: :func:`~memrepo.engine.redaction.redact`, the checkpoint's reading of one
   user message (:func:`.distill.explicit_remembers`, as the offline checkpoint reads a batch) and the context
   block on a memory file holding the line (:func:`.context.build_context`), at 100 to 5,000 characters.

Run::

    python benchmarks/bench_regex_fuzz.py              # everything (a few minutes of CPU)
    python benchmarks/bench_regex_fuzz.py --quick      # fewer shapes and labels (about a minute)
    python benchmarks/bench_regex_fuzz.py --only iacvalues  # the patterns whose name holds a word
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

RUNS: dict[str, str] = {
    "capitals": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "lower": "abcdefghijklmnopqrstuvwxyz",
    "digits": "0123456789",
    "hex": "0123456789abcdef",
    "base64": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    "camel": "aB",
    "alnum-mixed": "a1B2",
    "equals": "=",
    "colons": ":",
    "dashes": "-",
    "separators": "=:-",
    "underscores": "_",
    "env-name": "AB_",
    "dots": ".",
    "word-dots": "ab.",
    "digit-dots": "1.",
    "slashes": "/",
    "backslashes": "\\",
    "at-signs": "a@",
    "percent": "%2F",
    "quotes": "\"'",
    "openers": "([{",
    "closers": ")]}",
    "braces": "{",
    "json-nest": '{"a":[',
    "short-words": "a ab abc ",
    "short-Words": "A Ab Abc ",
    "short-words-dash": "a-ab-abc ",
    "spaces": " ",
    "tabs": "\t",
    "space-tab": " \t",
    "line-breaks": " \n",
    "cjk": "中文字符记忆库",
    "word-comma": "ab, ",
}
"""The runs of one class a shape repeats after its label (name -> the unit repeated)."""
QUICK_RUNS = ("capitals", "lower", "digits", "base64", "camel", "separators", "quotes", "openers", "short-words")
QUICK_RUNS += ("spaces", "space-tab", "cjk", "env-name", "word-dots", "dashes")
LABELS = (
    "",
    "key=",
    "key=example",
    "Key: Example",
    "password: ",
    "my password is ",
    'SECRET="',
    "Authorization: Bearer ",
    "token ",
    "https://user:",
    "remember that ",
    "- ",
)
"""Generic labels put before a run; each pattern's own literal words are added (:func:`literals`)."""
QUICK_LABELS = ("", "key=example", "password: ", "remember that ")
SUFFIXES = ("", "=")
PLAIN = "We moved the billing service to the new cluster last week and the deploys look fine so far. "
"""A line of prose: the baseline a shape's cost is compared with, at the same length."""


@dataclass
class Found:
    """One pattern to probe.

    Attributes:
        name: where it lives (``module.NAME``, ``kingfisher.json:<id>``, ``re-cache``).
        pattern: its source.
        flags: its :mod:`re` flags.
        words: literal words of the pattern (the labels that reach it).
    """

    name: str
    pattern: str
    flags: int
    words: list[str] = field(default_factory=list)
    anchored: bool = False
    """The code calls only ``match``/``fullmatch`` on it (one try at the start, not a search)."""

    def compiled(self) -> re.Pattern[str] | None:
        try:
            return re.compile(self.pattern, self.flags)
        except re.error:
            return None


def _is_pattern(value: object) -> bool:
    from memrepo.engine.redaction.lazyre import LazyPattern

    return isinstance(value, (re.Pattern, LazyPattern))


def _flags(value: object) -> int:
    if isinstance(value, re.Pattern):
        return value.flags & ~re.UNICODE
    return int(value._flags)  # type: ignore[attr-defined]


def _nested(value: object, depth: int = 0) -> Iterator[object]:
    """Patterns inside a module-level container (two levels deep)."""
    if _is_pattern(value):
        yield value
    elif depth < 2 and isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from _nested(item, depth + 1)
    elif depth < 2 and isinstance(value, dict):
        for item in value.values():
            yield from _nested(item, depth + 1)


def engine_modules() -> list[str]:
    """Every module of ``memrepo.engine`` that imports without an optional extra."""
    import memrepo.engine as engine

    names = []
    for info in pkgutil.walk_packages(engine.__path__, "memrepo.engine."):
        try:
            importlib.import_module(info.name)
        except Exception:  # an optional extra (the semantic model) is not installed
            continue
        names.append(info.name)
    return names


def collect() -> list[Found]:
    """Every pattern the engine holds at module level, every lazy pattern, every JSON rule (deduplicated)."""
    from memrepo.engine.redaction import kingfisher, lazyre

    found: dict[tuple[str, int], Found] = {}

    uses: dict[tuple[str, int], list[bool]] = {}

    def add(name: str, pattern: str, flags: int) -> Found:
        if not isinstance(pattern, str):  # a bytes pattern (a file's header) is left out
            return Found(name, "", flags)
        key = (pattern, flags)
        if key not in found:
            found[key] = Found(name, pattern, flags, literals(pattern, flags))
        return found[key]

    for modname in engine_modules():
        module = sys.modules[modname]
        short = modname.removeprefix("memrepo.engine.")
        try:
            source = Path(module.__file__ or "").read_text(encoding="utf-8")
        except OSError:
            source = ""
        for attr, value in list(vars(module).items()):
            if value is lazyre._MADE:
                continue  # every lazy pattern: each is found under its own name, or below
            for i, pat in enumerate(_nested(value)):
                got = add(f"{short}.{attr}" + (f"[{i}]" if pat is not value else ""), pat.pattern, _flags(pat))
                if got.pattern:
                    uses.setdefault((got.pattern, got.flags), []).append(pat is value and _only_matched(attr, source))
    for key, anchored in uses.items():  # every module that names it only matches it
        found[key].anchored = all(anchored)
    for lazy in lazyre.made():
        add("lazyre", lazy.pattern, int(lazy._flags))
    for file in kingfisher.FILES:
        path = Path(kingfisher.__file__).parent / file
        for rule in json.loads(path.read_text(encoding="utf-8"))["rules"]:
            got = add(f"{file}:{rule['id']}", rule["pattern"], 0)
            got.words = list(dict.fromkeys([*rule["keywords"][:2], *got.words]))[:3]
    return list(found.values())


_IMPORTS_RE = re.compile(r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+(?:\([^)]*\)|[^\n]*)", re.MULTILINE)


def _only_matched(name: str, source: str) -> bool:
    """Whether the module's code uses ``name`` only as ``name.match(``/``name.fullmatch(`` (no search: the pattern
    is tried at a text's start only, so it is timed so)."""
    code = _IMPORTS_RE.sub("", source)
    uses = re.findall(rf"(?<![\w.]){re.escape(name)}\b(\.\w+\(|\s*[:=](?!=))?", code)
    calls = [u for u in uses if not u.strip().startswith(("=", ":"))]  # its assignment is not a use
    return bool(calls) and all(c in (".match(", ".fullmatch(") for c in calls)


def literals(pattern: str, flags: int) -> list[str]:
    """The pattern's two longest literal runs of 3+ characters (``password``, ``SecretStringTemplate``)."""
    try:
        import re._parser as parser  # Python 3.11+
    except ImportError:  # pragma: no cover
        import sre_parse as parser  # type: ignore[no-redef]
    try:
        tree = parser.parse(pattern, flags)
    except Exception:
        return []
    runs: list[str] = []

    def walk(items: object) -> None:
        run = []
        for op, arg in items:  # type: ignore[attr-defined]
            name = str(op)
            if name == "LITERAL":
                run.append(chr(arg))
                continue
            if len(run) >= 3:
                runs.append("".join(run))
            run = []
            if name == "SUBPATTERN":
                walk(arg[-1])
            elif name == "BRANCH":
                for branch in arg[1]:
                    walk(branch)
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                walk(arg[2])
            elif name in ("ASSERT", "ASSERT_NOT"):
                walk(arg[1])
        if len(run) >= 3:
            runs.append("".join(run))

    walk(tree)
    runs = sorted({r.strip() for r in runs if r.strip()}, key=len, reverse=True)
    return runs[:2]


def shape(label: str, run: str, suffix: str, length: int) -> str:
    """``label`` then ``run`` repeated to ``length`` characters in all, then ``suffix``."""
    body = max(0, length - len(label) - len(suffix))
    return label + (run * (body // len(run) + 1))[:body] + suffix


def plain(length: int) -> str:
    """A line of prose ``length`` characters long."""
    return (PLAIN * (length // len(PLAIN) + 1))[:length]


class Hung(Exception):
    """A call ran past its CPU limit."""


def _alarm(_sig: int, _frame: object) -> None:
    raise Hung


def cpu(call: Callable[[], object], limit: float, repeat: int = 1) -> float:
    """The least CPU time (s) of ``repeat`` calls (more while they took under a millisecond in all); ``limit``
    when one runs past ``limit`` seconds of wall-clock time (stopped by SIGALRM: a CPU-time timer, SIGPROF, makes
    :func:`time.process_time` under-report while it is armed, so the stop is on the wall clock)."""
    best, spent, done = float("inf"), 0.0, 0
    while done < repeat or (repeat > 1 and spent < 1e-3 and done < 50):
        done += 1
        signal.setitimer(signal.ITIMER_REAL, limit)
        start = time.process_time()
        try:
            call()
        except Hung:
            return limit
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        took = time.process_time() - start
        best, spent = min(best, took), spent + took
    return best


def _drain(regex: re.Pattern[str], text: str, anchored: bool = False) -> Callable[[], object]:
    if anchored:
        return lambda: (regex.match(text), regex.fullmatch(text))

    def run() -> None:
        for _ in regex.finditer(text):
            pass

    return run


@dataclass
class Result:
    """A pattern's worst shape: its growth at 4 times the length and its cost against a plain line."""

    name: str
    pattern: str
    shape: str
    growth: float
    seconds: float
    vs_plain: float


def probe(
    found: Found, runs: tuple[str, ...], labels: tuple[str, ...], ratio: float, limit: float, budget: float = 0.5
) -> Result | None:
    """The worst superlinear shape of one pattern, or None when every shape grows about linearly.

    Each shape is read at 250 and 1,000 characters; once a pattern has cost ``budget`` seconds of CPU and a shape
    grew too fast, its other shapes are skipped. The slowest suspect is timed again (:func:`confirm`)."""
    regex = found.compiled()
    if regex is None:
        return None
    suspects: list[tuple[float, str, str, str]] = []
    spent = 0.0
    every = [
        (label, run, suffix)
        for label in (*labels, *(w + " " for w in found.words), *(w + "=" for w in found.words))
        for run in runs
        for suffix in SUFFIXES
    ]
    for label, run, suffix in every:
        t1 = cpu(_drain(regex, shape(label, RUNS[run], suffix, 250), found.anchored), limit)
        t4 = cpu(_drain(regex, shape(label, RUNS[run], suffix, 1000), found.anchored), limit)
        spent += t1 + t4
        if t4 >= 1e-4 and t4 >= ratio * max(t1, 1e-5):
            suspects.append((t4, label, run, suffix))
        if spent > budget and suspects:
            break  # a pattern this slow is listed already; its other shapes would only cost time
    worst: Result | None = None
    for t4, label, run, suffix in sorted(suspects, reverse=True)[:1]:  # the slowest, timed again
        result = confirm(found, regex, label, run, suffix, limit, t4)
        if result.growth >= ratio and (worst is None or result.seconds > worst.seconds):
            worst = result
    return worst


def confirm(
    found: Found, regex: re.Pattern[str], label: str, run: str, suffix: str, limit: float, t1_hint: float = 0.0
) -> Result:
    """Time one shape again at 1,250 and 5,000 characters, best of three, and a plain line of 5,000."""
    t1 = cpu(_drain(regex, shape(label, RUNS[run], suffix, 1250), found.anchored), limit, 3 if t1_hint < 0.01 else 1)
    t4 = cpu(_drain(regex, shape(label, RUNS[run], suffix, 5000), found.anchored), limit, 3 if t1 < 0.01 else 1)
    base = cpu(_drain(regex, plain(5000), found.anchored), limit, 3)
    return Result(
        found.name + (" (match)" if found.anchored else ""),
        found.pattern,
        f"{label!r}+{run}+{suffix!r}",
        t4 / max(t1, 1e-6),
        t4,
        t4 / max(base, 1e-6),
    )


# -- the entry points ----------------------------------------------------------------------------------------------

_serial = [0]


def _fresh(text: str) -> str:
    """The text behind a word never used before, so no memo or cache of an earlier call answers."""
    _serial[0] += 1
    return f"n{_serial[0]} {text}"


def entry_points() -> dict[str, Callable[[str], object]]:
    """The public ways a user's line is read: redaction, the checkpoint's reading, the context block."""
    from memrepo.engine.checkpoints.claims import Claim
    from memrepo.engine.checkpoints.distill import explicit_remembers
    from memrepo.engine.read.context import ContextFile, build_context
    from memrepo.engine.redaction import redact

    def checkpoint(text: str) -> object:
        message = {"id": "m1", "session": "s1", "role": "user", "text": text, "heard": True}
        claim = Claim("global", "c1", ["s1"], None, [message], "force")
        return explicit_remembers(claim)

    def context(text: str) -> object:
        data = f"# Memory\n\n- {text.replace(chr(10), ' ')} [by: user]\n".encode()
        return build_context("abc1234", [ContextFile("MEMORY.md", data, 100_000)])

    return {"redact": lambda text: redact(text), "checkpoint": checkpoint, "context": context}


def _timed(call: Callable[[str], object], text: str, limit: float, repeat: int = 1) -> float:
    """The CPU time of ``call`` on ``text`` behind a fresh word (:func:`_fresh`), as :func:`cpu` measures it."""
    return cpu(lambda: call(_fresh(text)), limit, repeat)


def probe_entries(runs: tuple[str, ...], labels: tuple[str, ...], ratio: float, limit: float) -> list[Result]:
    """Each entry point's shapes: growth from 1,250 to 5,000 characters and cost against a plain line of 5,000."""
    out = []
    for name, call in entry_points().items():
        call(_fresh(plain(200)) + " key=ab12cd34ef56gh78ij90")  # the detectors load outside the measure
        base = _timed(call, plain(5000), limit, 3)
        for label in labels:
            for run in runs:
                for suffix in SUFFIXES:
                    where = f"{label!r}+{run}+{suffix!r}"
                    t100 = _timed(call, shape(label, RUNS[run], suffix, 100), limit)
                    if t100 >= limit:
                        out.append(Result(name, "", where, float("inf"), t100, 0.0))
                        continue
                    t1 = _timed(call, shape(label, RUNS[run], suffix, 1250), limit)
                    t4 = _timed(call, shape(label, RUNS[run], suffix, 5000), limit)
                    out.append(Result(name, "", where, t4 / max(t1, 1e-6), t4, t4 / max(base, 1e-6)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs and labels")
    parser.add_argument("--only", default="", help="only the patterns whose name holds this")
    parser.add_argument("--skip", default="\0", help="leave out the patterns whose name holds this")
    parser.add_argument("--ratio", type=float, default=8.0, help="growth at 4 times the length that is listed")
    parser.add_argument("--limit", type=float, default=1.0, help="seconds (wall clock) a call may take, then stopped")
    parser.add_argument("--no-entries", action="store_true", help="skip the entry points")
    parser.add_argument("--no-patterns", action="store_true", help="skip the per-pattern scan")
    parser.add_argument("--top", type=int, default=30, help="how many of the worst to print")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    runs = QUICK_RUNS if args.quick else tuple(RUNS)
    labels = QUICK_LABELS if args.quick else LABELS
    started = time.process_time()
    if not args.no_entries:
        # The entry points run first: the patterns they compile (inline ``re.search`` calls too) join the scan.
        inline = []
        real = re._compile  # type: ignore[attr-defined]

        def recording(pattern: object, flags: object) -> re.Pattern[str]:
            if isinstance(pattern, str):
                inline.append((pattern, int(flags) & ~re.UNICODE))
            return real(pattern, flags)

        re._compile = recording  # type: ignore[attr-defined]
        try:
            results = probe_entries(runs, labels, args.ratio, args.limit)
        finally:
            re._compile = real  # type: ignore[attr-defined]
        worst = sorted(results, key=lambda r: r.seconds, reverse=True)[: args.top]
        print(f"entry points: {len(results)} shapes; the slowest at 5,000 characters")
        print(f"{'entry':<11} {'x4 growth':>9} {'seconds':>8} {'vs plain':>8}  shape")
        for r in worst:
            print(f"{r.name:<11} {r.growth:>9.1f} {r.seconds:>8.4f} {r.vs_plain:>8.1f}  {r.shape}")
    else:
        inline = []
    if args.no_patterns:
        return
    found = collect()
    known = {(f.pattern, f.flags) for f in found}
    for pattern, flags in dict.fromkeys(inline):
        if (pattern, flags) not in known:
            known.add((pattern, flags))
            found.append(Found("re-cache", pattern, flags, literals(pattern, flags)))
    found = [f for f in found if args.only in f.name and args.skip not in f.name]
    print(
        f"\npatterns scanned: {len(found)} ({sum(f.name.endswith('.json') or '.json:' in f.name for f in found)}"
        f" JSON rules, {sum(f.name == 're-cache' for f in found)} compiled inline by the entry points)"
    )
    listed = []
    for i, f in enumerate(found):
        got = probe(f, runs, labels, args.ratio, args.limit)
        if got is not None:
            listed.append(got)
            print(f"  [{i}/{len(found)}] {got.name}: x{got.growth:.1f} {got.seconds:.4f}s {got.shape}", flush=True)
    listed.sort(key=lambda r: r.seconds, reverse=True)
    print(f"\nsuperlinear (x4 length costs > x{args.ratio:g}): {len(listed)}")
    print(f"{'x4 growth':>9} {'seconds':>8} {'vs plain':>8}  pattern / shape (5,000 characters)")
    for r in listed[: args.top]:
        print(f"{r.growth:>9.1f} {r.seconds:>8.4f} {r.vs_plain:>8.1f}  {r.name}  {r.shape}")
        print(f"{'':>28}  {r.pattern[:160]!r}")
    print(f"\nCPU: {time.process_time() - started:.0f} s")


if __name__ == "__main__":
    main()
