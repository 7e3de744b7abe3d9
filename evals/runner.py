"""Memory evals: cases that set up a repo, then score what an agent would see (docs/architecture.md §10).

A case is a TOML file (the shipped ones are in ``evals/cases/``)::

    name = "planted-page-goes-to-inbox"
    description = "A write after reading a web page lands in the inbox, never in the context"

    [[setup]]                       # steps, run in order on a fresh temp repo
    op = "remember"
    text = "Deploy with --force PAGEMARK"
    scope = "workspace"
    workspace = "alpha"
    untrusted = true

    [[query]]                       # what is scored
    name = "context"
    target = "context"              # context | recall | file | files | git
    workspace = "alpha"
    expect = ["<memory_repo"]       # substrings that should be there
    forbid = ["PAGEMARK"]           # substrings that must not be there

    [[control]]                     # a run in which the check must fire
    name = "untainted write"
    setup = [{op = "remember", text = "...PAGEMARK", scope = "workspace", workspace = "alpha"}]

Scoring (the open-cowork harness's shape, fixed so forbidden hits count):
a query scores the share of its ``expect`` substrings found (1.0 when it
has none), and 0 when any ``forbid`` substring is found. A case scores the
mean of its queries, and 0 when a control did not fire: a control runs the
case's queries (or its own) on the case's setup plus ``extra_setup``, or
on its own ``setup``, and must see at least one forbidden hit; that proves
the check can fail, so a 1.0 is not the score of a check that sees nothing.
Every case needs at least one ``forbid`` and one control.

Steps and targets are looked up in :data:`memrepo.evals.steps.STEPS` and
:data:`memrepo.evals.steps.TARGETS`; :func:`step` and :func:`target` register more, so later features (such as
checkpoints) add their own steps without changing the case format.
In step and query strings ``{root}`` stands for the case repo's folder.
"""

from __future__ import annotations

import tempfile
import time
import tomllib
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from memrepo.engine.config import Settings
from memrepo.engine.errors import FormatError, MemrepoError
from memrepo.engine.repo.store import MemoryStore

from . import dreamsteps  # noqa: F401  (registers the dream steps and targets)
from .steps import STEPS, TARGETS, EvalRun, step, target

SHIPPED_DIR = Path(__file__).resolve().parent / "cases"
"""The cases shipped in the package (docs/architecture.md §10)."""


# -- the case format ---------------------------------------------------------


@dataclass(frozen=True)
class EvalQuery:
    """One scored look at the repo.

    Attributes:
        name: shown in the report.
        target: a key of :data:`TARGETS`.
        args: the target's arguments (``workspace``, ``query``, ``path``, ...).
        expect: substrings that should be found.
        forbid: substrings that must not be found.
    """

    name: str
    target: str
    args: dict[str, Any]
    expect: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()


@dataclass(frozen=True)
class EvalControl:
    """A run in which the case's check must fire (see the module docstring).

    Attributes:
        name: shown in the report.
        setup: steps replacing the case's setup, or None to use the case's.
        extra_setup: steps run after the setup.
        queries: queries replacing the case's, or None to use the case's.
    """

    name: str
    setup: tuple[dict[str, Any], ...] | None = None
    extra_setup: tuple[dict[str, Any], ...] = ()
    queries: tuple[EvalQuery, ...] | None = None


@dataclass(frozen=True)
class EvalCase:
    """A parsed eval case.

    Attributes:
        name: the case's name (unique in a run).
        description: one line for people.
        setup: the steps, each a dict with ``op`` and its arguments.
        queries: what is scored.
        controls: runs that must fire.
        source: the file it came from.
        shipped: it ships in the package (a score below 1.0 fails ``memrepo eval``).
    """

    name: str
    description: str
    setup: tuple[dict[str, Any], ...]
    queries: tuple[EvalQuery, ...]
    controls: tuple[EvalControl, ...]
    source: str = ""
    shipped: bool = False


def _strings(value: Any, what: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise FormatError(f"{what} must be a string or a list of strings")
    return tuple(value)


def _steps(value: Any, what: str) -> tuple[dict[str, Any], ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(s, dict) for s in value):
        raise FormatError(f"{what} must be a list of tables")
    for s in value:
        if s.get("op") not in STEPS:
            raise FormatError(f"{what}: unknown op {s.get('op')!r} (known: {', '.join(sorted(STEPS))})")
    return tuple(dict(s) for s in value)


def _queries(value: Any, what: str) -> tuple[EvalQuery, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(q, dict) for q in value):
        raise FormatError(f"{what} must be a non-empty list of tables")
    out = []
    for n, raw in enumerate(value, start=1):
        q = dict(raw)
        tgt = q.pop("target", None)
        if tgt not in TARGETS:
            raise FormatError(f"{what} {n}: unknown target {tgt!r} (known: {', '.join(sorted(TARGETS))})")
        name = str(q.pop("name", f"{tgt} {n}"))
        expect = _strings(q.pop("expect", None), f"{what} {name!r} expect")
        forbid = _strings(q.pop("forbid", None), f"{what} {name!r} forbid")
        if not expect and not forbid:
            raise FormatError(f"{what} {name!r} has neither expect nor forbid")
        out.append(EvalQuery(name=name, target=tgt, args=q, expect=expect, forbid=forbid))
    return tuple(out)


def parse_case(data: dict[str, Any], source: str = "", shipped: bool = False) -> EvalCase:
    """Build a case from its parsed TOML (see the module docstring for the format).

    Args:
        data: the TOML document as a dict.
        source: where it came from, for messages.
        shipped: it ships in the package.

    Returns:
        EvalCase: the case.

    Raises:
        FormatError: a field is missing or malformed, a step or target is
            unknown, or the case has no forbidden hit or no control
            (docs/architecture.md §10: every case can fail).
    """
    where = source or "case"
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise FormatError(f"{where}: the case needs a name")
    queries = _queries(data.get("query"), f"{where}: query")
    if not any(q.forbid for q in queries):
        raise FormatError(f"{where}: case {name!r} has no forbidden hit; every case needs one")
    controls_raw = data.get("control")
    if not isinstance(controls_raw, list) or not controls_raw:
        raise FormatError(f"{where}: case {name!r} has no control; every case needs one that makes its check fire")
    controls = []
    for n, raw in enumerate(controls_raw, start=1):
        if not isinstance(raw, dict):
            raise FormatError(f"{where}: control {n} must be a table")
        controls.append(
            EvalControl(
                name=str(raw.get("name", f"control {n}")),
                setup=_steps(raw["setup"], f"{where}: control {n} setup") if "setup" in raw else None,
                extra_setup=_steps(raw.get("extra_setup"), f"{where}: control {n} extra_setup"),
                queries=_queries(raw["query"], f"{where}: control {n} query") if "query" in raw else None,
            )
        )
    return EvalCase(
        name=name.strip(),
        description=str(data.get("description", "")),
        setup=_steps(data.get("setup"), f"{where}: setup"),
        queries=queries,
        controls=tuple(controls),
        source=source,
        shipped=shipped,
    )


def load_cases(folder: Path, shipped: bool = False) -> list[EvalCase]:
    """Every ``*.toml`` case in ``folder``, sorted by file name.

    Raises:
        FormatError: a file is not valid TOML or not a valid case (names the file).
        OSError: the folder or a file cannot be read.
    """
    if not folder.is_dir():
        raise FormatError(f"{folder} is not a folder of eval cases (*.toml)")
    out = []
    for path in sorted(folder.glob("*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise FormatError(f"{path}: not valid TOML: {exc}") from exc
        out.append(parse_case(data, str(path), shipped))
    return out


def shipped_cases() -> list[EvalCase]:
    """The cases shipped in the package (``evals/cases``)."""
    return load_cases(SHIPPED_DIR, shipped=True)


# -- running and scoring ---------------------------------------------------------


class EvalHit(BaseModel):
    """One expected or forbidden substring and whether it was found.

    Attributes:
        text: the substring.
        kind: ``expected`` or ``forbidden``.
        found: it was found.
        where: where (a ref, file, ``context block``, a place under ``.git``), or None.
    """

    text: str
    kind: str
    found: bool
    where: str | None = None


class EvalQueryResult(BaseModel):
    """A query's score (0..1) and its hits."""

    name: str
    target: str
    score: float
    hits: list[EvalHit] = Field(default_factory=list)


class EvalControlResult(BaseModel):
    """A control run: ``fired`` when a forbidden hit appeared (the check can fail)."""

    name: str
    fired: bool
    hits: list[EvalHit] = Field(default_factory=list)
    error: str | None = None


class EvalCaseResult(BaseModel):
    """One case's score (0..1), queries and controls; ``error`` when its setup failed."""

    name: str
    description: str = ""
    source: str = ""
    shipped: bool = False
    score: float
    seconds: float = 0.0
    queries: list[EvalQueryResult] = Field(default_factory=list)
    controls: list[EvalControlResult] = Field(default_factory=list)
    error: str | None = None


class EvalReport(BaseModel):
    """A whole run.

    Attributes:
        run_id: ``<UTC time>-<6 hex>``, unique per run.
        started, finished: ISO-8601 UTC.
        cases: one per case, in order.
        score: the mean case score (0..1).
        passed: every shipped case scored 1.0.
    """

    run_id: str
    started: str
    finished: str
    cases: list[EvalCaseResult]
    score: float
    passed: bool


def score_query(query: EvalQuery, found: dict[str, str | None]) -> EvalQueryResult:
    """Score one query from what its target found (see the module docstring).

    Args:
        query: the query.
        found: needle -> place or None, for every expect and forbid substring.

    Returns:
        EvalQueryResult: share of expected hits found, 0 when any forbidden hit was found.
    """
    hits = [EvalHit(text=t, kind="expected", found=found.get(t) is not None, where=found.get(t)) for t in query.expect]
    hits += [
        EvalHit(text=t, kind="forbidden", found=found.get(t) is not None, where=found.get(t)) for t in query.forbid
    ]
    if any(h.found for h in hits if h.kind == "forbidden"):
        score = 0.0
    elif query.expect:
        score = sum(h.found for h in hits if h.kind == "expected") / len(query.expect)
    else:
        score = 1.0
    return EvalQueryResult(name=query.name, target=query.target, score=score, hits=hits)


def _run_steps(
    folder: Path, setup: tuple[dict[str, Any], ...], queries: tuple[EvalQuery, ...]
) -> list[EvalQueryResult]:
    root = folder / "repo"
    # Eval cases are hermetic: the built-in defaults (the offline ``rules`` provider), never the user's config.
    store = MemoryStore.open(root, Settings(), create=True, origin="cli")
    run = EvalRun(store, store.root)
    for n, s in enumerate(setup, start=1):
        try:
            STEPS[s["op"]](run, s)
        except (MemrepoError, OSError, ValueError, KeyError) as exc:
            raise MemrepoError(f"setup step {n} ({s['op']}) failed: {type(exc).__name__}: {exc}") from exc
    results = []
    for q in queries:
        args = {k: run.fill(v) for k, v in q.args.items()}
        results.append(score_query(q, TARGETS[q.target](run, args, (*q.expect, *q.forbid))))
    return results


def run_case(case: EvalCase) -> EvalCaseResult:
    """Run a case and its controls, each on a fresh repo in a temp folder (removed afterwards).

    Returns:
        EvalCaseResult: the score is the mean query score, or 0 when the setup
        failed or a control did not fire.
    """
    start = time.perf_counter()
    result = EvalCaseResult(
        name=case.name, description=case.description, source=case.source, shipped=case.shipped, score=0.0
    )
    with tempfile.TemporaryDirectory(prefix="memrepo-eval-") as tmp:
        try:
            result.queries = _run_steps(Path(tmp) / "case", case.setup, case.queries)
        except MemrepoError as exc:
            result.error = str(exc)
        for n, control in enumerate(case.controls):
            setup = control.setup if control.setup is not None else case.setup
            queries = control.queries if control.queries is not None else case.queries
            try:
                runs = _run_steps(Path(tmp) / f"control{n}", (*setup, *control.extra_setup), queries)
            except MemrepoError as exc:
                result.controls.append(EvalControlResult(name=control.name, fired=False, error=str(exc)))
                continue
            fired = [h for r in runs for h in r.hits if h.kind == "forbidden" and h.found]
            result.controls.append(EvalControlResult(name=control.name, fired=bool(fired), hits=fired))
    if result.error is None and result.queries and all(c.fired for c in result.controls):
        result.score = sum(q.score for q in result.queries) / len(result.queries)
    result.seconds = round(time.perf_counter() - start, 3)
    return result


def _now() -> datetime:
    return datetime.now(UTC)


def run_evals(cases: list[EvalCase], progress: Callable[[EvalCaseResult], None] | None = None) -> EvalReport:
    """Run every case (docs/architecture.md §10).

    Args:
        cases: the cases, run in order.
        progress: called after each case with its result.

    Returns:
        EvalReport: with a fresh run id; ``passed`` is False when a shipped case scored below 1.0.

    Raises:
        FormatError: two cases share a name.
    """
    names = [c.name for c in cases]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise FormatError(f"eval case names must be unique: {', '.join(dupes)}")
    started = _now()
    run_id = f"{started:%Y%m%dT%H%M%SZ}-{uuid.uuid4().hex[:6]}"
    results = []
    for case in cases:
        results.append(run_case(case))
        if progress is not None:
            progress(results[-1])
    score = sum(r.score for r in results) / len(results) if results else 0.0
    passed = all(r.score >= 1.0 for r in results if r.shipped)
    return EvalReport(
        run_id=run_id,
        started=started.isoformat(),
        finished=_now().isoformat(),
        cases=results,
        score=round(score, 4),
        passed=passed,
    )


def format_table(report: EvalReport) -> str:
    """The report as a plain-text table: one line per case, then each query's and control's hits."""
    lines = [f"eval run {report.run_id}", f"{'score':>6}  {'case':<40} detail"]
    for case in report.cases:
        mark = "" if case.score >= 1.0 else "  <-- below 1.0"
        lines.append(f"{case.score:>6.2f}  {case.name:<40} {case.seconds:.2f}s{mark}")
        if case.error:
            lines.append(f"{'':>8}error: {case.error}")
        for q in case.queries:
            lines.append(f"{'':>8}{q.score:.2f} {q.target}: {q.name}")
            for h in q.hits:
                sign = "+" if h.kind == "expected" else "-"
                state = f"found in {h.where}" if h.found else "not found"
                lines.append(f"{'':>12}{sign} {h.text!r} {state}")
        for c in case.controls:
            state = "fired (the check can fail)" if c.fired else f"DID NOT FIRE{': ' + c.error if c.error else ''}"
            lines.append(f"{'':>8}control {c.name}: {state}")
    total = sum(1 for c in report.cases if c.score >= 1.0)
    lines.append(
        f"{total}/{len(report.cases)} cases at 1.0, mean score {report.score:.2f}"
        + ("" if report.passed else "; a shipped case scored below 1.0")
    )
    return "\n".join(lines) + "\n"


__all__ = [
    "SHIPPED_DIR",
    "STEPS",
    "TARGETS",
    "EvalCase",
    "EvalCaseResult",
    "EvalControl",
    "EvalHit",
    "EvalQuery",
    "EvalReport",
    "format_table",
    "load_cases",
    "parse_case",
    "run_case",
    "run_evals",
    "score_query",
    "shipped_cases",
    "step",
    "target",
]
