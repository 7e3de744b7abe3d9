"""``memrepo eval [DIR]``: run the shipped memory evals and any in DIR (docs/architecture.md §10).

Prints a table (each case, each query's expected and forbidden hits, each
control) or, with ``--json``, the whole report with its run id. Exits 1 when
a shipped case scores below 1.0. Progress goes to stderr, one line a case.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from .main import _errors_as_lines, _fail

if TYPE_CHECKING:
    from memrepo.evals.runner import EvalCaseResult


@click.command("eval")
@click.argument("folder", metavar="[DIR]", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the report (run id, cases, hits) as JSON.")
@click.option(
    "--out", "out", type=click.Path(dir_okay=False, path_type=Path), help="Also write the JSON report to this file."
)
@click.option("--only-dir", is_flag=True, help="Run only the cases in DIR, not the shipped ones.")
@_errors_as_lines
def eval_(folder: Path | None, as_json: bool, out: Path | None, only_dir: bool) -> None:
    """Run the memory evals: shipped cases, then the *.toml cases in DIR.

    Each case sets up a fresh temporary repo, then scores the context block,
    recall, the files and every byte under .git: expected substrings found,
    0 when a forbidden one appears. Exits 1 when a shipped case scores below 1.0.
    """
    from memrepo.evals.runner import format_table, load_cases, run_evals, shipped_cases

    if only_dir and folder is None:
        _fail("--only-dir needs DIR", 2)
    cases = [] if only_dir else shipped_cases()
    if folder is not None:
        cases += load_cases(folder)
    total = len(cases)
    seen: list[str] = []

    def progress(result: EvalCaseResult) -> None:
        seen.append(result.name)
        click.echo(f"[{len(seen)}/{total}] {result.name}: {result.score:.2f}", err=True)

    report = run_evals(cases, progress)
    data = report.model_dump_json(indent=2)
    if out is not None:
        out.write_text(data + "\n", encoding="utf-8")
    click.echo(data if as_json else format_table(report), nl=as_json)
    if not report.passed:
        _fail(f"eval run {report.run_id}: a shipped case scored below 1.0")


def register(main: click.Group) -> None:
    """Add ``eval`` to the ``memrepo`` command group."""
    main.add_command(eval_)
