"""Build ``memnotes.json``: lines of project notes people and agents keep, with identifiers in them.

Issue 32 (round 11, false alarms). The benign sets before it hold identifiers
in the shapes their docs give (``identifiers.json``, ``formats.json``,
``families.json``), as fixtures and lockfiles print them (``public2``) or as
issue threads quote them (``prose-ids``). None is what a memory file most
resembles: the notes a project keeps about itself. This set takes them from
public repositories: changelogs and release notes (commit ids, PR numbers,
versions, digests), agent memory files (``CLAUDE.md``, ``AGENTS.md``,
``.cursorrules``), runbooks and postmortems, and docs that quote ``kubectl``
or Terraform output (the EKS workshop's troubleshooting, security, networking and observability pages).

How lines are chosen, the same for every file: a line is kept when it holds
an identifier-like word (7 or more letters and digits with at least 3 digits
and a letter, or 6 digits in a row), is at most 300 characters (a longer line
is left out: cut, it would end inside a value) and holds no credential word
beside a value (``password``, ``secret``, ``api key``, ``token=``, a URL's
``user:password@`` ...): every line is one memory may hold verbatim. At most ``--per-file`` lines a file, spread evenly over
it, de-duplicated across files. Nothing in it was read from any held-out set.

The sources are local git snapshots (``--mirrors DIR`` holding
``owner+name/repo`` bare repositories, the layout the snapshot tool makes).
The lines are not shipped (their text belongs to their authors); each keeps
the URL of its file at the commit read and its line number. Run::

    python benchmarks/secrets_corpus/build_memnotes.py --mirrors /work/.mirror > /tmp/memnotes.json
    python benchmarks/bench_secrets_sources.py --extra-benign /tmp/memnotes.json
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import subprocess
import sys
from pathlib import Path

MAX_LINE = 300
DENY = re.compile(
    r"passw|passwd|secret|private[ _-]?key|api[_-]?key|access[_-]?key|bearer |authorization:|BEGIN [A-Z ]*PRIVATE"
    r"|\b(?:sk|rk|whsec)_|\bxprv|mnemonic|seed phrase|token\s*[=:]|://[^/\s:@]+:[^/\s@]+@",
    re.I,
)
"""A line with a credential word is left out: whatever value stands beside it may be a real one."""

IDENT = re.compile(r"(?<![\w])(?=[\w.:/-]*\d)(?=[\w.:/-]*[A-Za-z])[\w.:/-]{7,}|\d{6,}")
"""An identifier-like word: letters and digits mixed, 7 or more characters, or 6 digits in a row."""

SOURCES: list[tuple[str, str, str]] = [
    # (family, owner/name, file pattern in the snapshot's newest commit)
    ("changelog", "anthropics/claude-code", "CHANGELOG.md"),
    ("changelog", "googleapis/release-please", "CHANGELOG.md"),
    ("changelog", "getsentry/sentry-python", "CHANGELOG.md"),
    ("changelog", "astral-sh/uv", "changelogs/0.[5-8].x.md"),
    ("changelog", "NOIR-Solution/NOIR", "CHANGELOG.md"),
    ("agent-memory", "getsentry/sentry-python", "CLAUDE.md"),
    ("agent-memory", "getsentry/sentry-python", "AGENTS.md"),
    ("agent-memory", "pnpm/pnpm", "*AGENTS.md"),
    ("agent-memory", "pnpm/pnpm", "*CLAUDE.md"),
    ("agent-memory", "NOIR-Solution/NOIR", "CLAUDE.md"),
    ("agent-memory", "NOIR-Solution/NOIR", "AGENTS.md"),
    ("agent-memory", "NNTmux/newznab-tmux", "AGENTS.md"),
    ("agent-memory", "NOAA-GSL/zyra", "AGENTS.md"),
    ("agent-memory", "fluxcd/flux2", "AGENTS.md"),
    ("changeset", "pnpm/pnpm", ".changeset/*.md"),
    ("postmortem", "danluu/post-mortems", "README.md"),
    ("runbook", "PagerDuty/incident-response-docs", "docs/*.md"),
    ("kubectl-output", "kelseyhightower/kubernetes-the-hard-way", "docs/*.md"),
    ("kubectl-output", "fluxcd/flux2", "docs/*.md"),
    ("design-notes", "fluxcd/flux2", "rfcs/*.md"),
    ("agent-memory", "Miness4/shadow-operator-model", "CLAUDE.md"),
    ("agent-memory", "Miness4/shadow-operator-model", "docs/brain/*.md"),
    ("agent-memory", "AojdevStudio/dental-dashboard", "CLAUDE.md"),
    ("agent-memory", "AojdevStudio/dental-dashboard", ".ai/memory/*.md"),
    ("deploy-notes", "app-gen-bot/gen-ecd88319-leo-v1", "infrastructure/docs/FINALIZED/*.md"),
    ("deploy-notes", "JBMD-Creations/Supabase", "[A-Z]*.md"),
    ("cloud-output", "aws-samples/eks-workshop-v2", "website/docs/troubleshooting/*.md"),
    ("cloud-output", "aws-samples/eks-workshop-v2", "website/docs/security/*.md"),
    ("cloud-output", "aws-samples/eks-workshop-v2", "website/docs/networking/*.md"),
    ("cloud-output", "aws-samples/eks-workshop-v2", "website/docs/observability/*.md"),
]


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def lines_of(text: str, per_file: int) -> list[tuple[int, str]]:
    """(line number, line) of ``text`` worth keeping, at most ``per_file`` spread evenly over the file."""
    picked = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if line and len(line) <= MAX_LINE and IDENT.search(line) and not DENY.search(line):
            picked.append((n, line))
    if len(picked) <= per_file:
        return picked
    step = len(picked) / per_file
    return [picked[int(i * step)] for i in range(per_file)]


def build(mirrors: Path, per_file: int, max_files: int) -> dict:
    """The ``{source, samples}`` set from the snapshots under ``mirrors``.

    Raises:
        FileNotFoundError: a source's snapshot is missing.
    """
    seen: set[str] = set()
    samples: list[dict] = []
    for family, repo_name, pattern in SOURCES:
        repo = mirrors / repo_name.replace("/", "+") / "repo"
        if not repo.exists():
            raise FileNotFoundError(f"no snapshot of {repo_name} at {repo}")
        commit = _git(repo, "rev-parse", "HEAD").strip()
        paths = [
            p for p in _git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines() if fnmatch.fnmatch(p, pattern)
        ]
        for path in sorted(paths)[:max_files]:
            text = _git(repo, "show", f"HEAD:{path}")
            for n, line in lines_of(text, per_file):
                if line in seen:
                    continue
                seen.add(line)
                url = f"https://github.com/{repo_name}/blob/{commit}/{path}#L{n}"
                samples.append({"family": family, "text": line, "url": url})
    print(f"{len(samples)} lines, {len({s['url'].split('/blob/')[0] for s in samples})} repositories", file=sys.stderr)
    return {"source": "build_memnotes.py: project notes (changelogs, agent memory files, runbooks)", "samples": samples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, required=True, help="folder of owner+name/repo git snapshots")
    parser.add_argument("--per-file", type=int, default=40, help="most lines kept from one file")
    parser.add_argument("--max-files", type=int, default=12, help="most files read for one source pattern")
    args = parser.parse_args()
    json.dump(build(args.mirrors, args.per_file, args.max_files), sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()
