"""Build ``pubformats-tune`` and ``pubformats-held``: public formats' own lines (round 17, issue 32).

The look-alike parts tuned before (``pubfiles``, ``configfiles``) went to ~0% altered on
their tune halves while their held halves stayed at 3-6%: the keeps learned those
repositories' files, not the formats. This part takes the formats themselves from
repositories no other part uses: lock files (``package-lock.json``, ``yarn.lock``,
``pnpm-lock.yaml``, ``Cargo.lock``, ``go.sum``, ``poetry.lock``), Dockerfiles with their
checksums and release-key fingerprints, compose files, Kubernetes manifests and Helm values,
GitHub Actions workflows pinned by commit, Terraform, nginx and systemd configs, ssh and gpg
configs and public keys, OpenAPI specs, Jupyter notebooks, changelogs and docs.

A line is a candidate as in ``build_pubfiles`` (a run of 20+ token characters mixing
letters and digits, 24+ hex, or a UUID; a line naming a password, key or token is left
out), at most 25 lines a file and 150 a repository and file kind, lines of at most 300
characters, each with its file's URL. Nothing in them is a secret: they are committed files
of public repositories (encrypted files, ``.age`` and the like, are not read).

Repositories are split before any result is looked at: sorted by the SHA-256 of the
mirror's folder name (``owner+name``), alternately to ``-tune`` and ``-held``. Built locally
(the lines are other projects' text), never shipped::

    python benchmarks/secrets_corpus/build_pubformats.py OUT GITDIR...   # /work/.mirror/owner+name/repo
    python benchmarks/secrets_corpus/build_pubformats.py --name=pubformats2 OUT GITDIR...   # a second batch
    python benchmarks/secrets_corpus/build_pubformats.py --name=pubformats3 --ecosystems OUT GITDIR...   # round 22

``--ecosystems`` (the third batch, round 22) also reads the formats of ecosystems the first two did not
cover: Gradle's ``verification-metadata.xml``, Maven's ``.sha1``/``.sha512`` files beside artifacts, Bazel's
``MODULE.bazel.lock``, Swift's ``Package.resolved``, ``Pipfile.lock``, conda lock files, Homebrew formulas
(``.rb``), Helm's ``Chart.lock``, ``.terraform.lock.hcl``, CycloneDX and SPDX SBOMs (``.cdx``, ``.spdx``,
``.xml``) and sigstore bundles (``.sigstore``); without it a rebuild of the first two batches is unchanged.
``--formats4`` (the fourth batch, round 23) adds SARIF logs (``.sarif``) and DNS zone files (``.zone``) to
``--ecosystems``, and leaves out a line holding a JSON Web Key's private member (``"d"``, ``"p"``, ``"q"``,
``"dp"``, ``"dq"``, ``"qi"``, ``"k"``: RFC 7517/7518 private parameters are secrets, not public formats)::

    python benchmarks/secrets_corpus/build_pubformats.py --name=pubformats4 --formats4 OUT GITDIR...   # round 23
    python benchmarks/bench_secrets_sources.py --tuned-only --tuned pubformats-tune \
        --extra-benign OUT/pubformats-tune.json
"""

from __future__ import annotations

import collections
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from build_pubfiles import _CANDIDATE, _SECRET_WORD

_EXT = {
    ".md",
    ".rst",
    ".txt",
    ".yml",
    ".yaml",
    ".json",
    ".toml",
    ".lock",
    ".tf",
    ".tfvars",
    ".hcl",
    ".nix",
    ".conf",
    ".service",
    ".timer",
    ".socket",
    ".ini",
    ".cfg",
    ".sh",
    ".ipynb",
    ".pub",
    ".asc",
    ".go",
    ".rs",
    ".py",
    ".ts",
    ".js",
    ".tpl",
    ".env",
    ".template",
}
_NAMES = {
    "go.sum",
    "Cargo.lock",
    "yarn.lock",
    "Gemfile.lock",
    "Dockerfile",
    "SHA256SUMS",
    "known_hosts",
    "ssh_config",
    "sshd_config",
    "gpg.conf",
    "nginx.conf",
    "CODEOWNERS",
}


_EXT_ECOSYSTEMS = {".xml", ".sha1", ".sha256", ".sha512", ".md5", ".rb", ".resolved", ".spdx", ".cdx", ".sigstore"}
_NAMES_ECOSYSTEMS = {
    "verification-metadata.xml",
    "MODULE.bazel.lock",
    "Package.resolved",
    "Pipfile.lock",
    "conda-lock.yml",
    "Chart.lock",
    ".terraform.lock.hcl",
}
_ecosystems = False
_EXT_FORMATS4 = {".sarif", ".zone"}
_JWK_PRIVATE = re.compile(r'"(?:d|p|q|dp|dq|qi|k)"\s*:\s*"')
"""A JSON Web Key's private member (RFC 7517 section 4, RFC 7518 sections 6.2.2, 6.3.2, 6.4.1)."""
_formats4 = False
"""Whether ``--formats4`` was given: the fourth batch's formats are read and private JWK lines left out."""
"""Whether ``--ecosystems`` was given: the third batch's formats are read too."""


def family(path: str) -> str:
    """A file kind: its name when the name is the format (``go.sum``), else its extension."""
    name = Path(path).name
    if _ecosystems and (name in _NAMES_ECOSYSTEMS or name.endswith((".spdx.json", ".cdx.json", ".sigstore.json"))):
        return next(e for e in (".spdx.json", ".cdx.json", ".sigstore.json", name) if name.endswith(e))
    if name in _NAMES or name.startswith("Dockerfile"):
        return "Dockerfile" if name.startswith("Dockerfile") else name
    return Path(path).suffix.lower().lstrip(".") or name


def wanted(path: str) -> bool:
    """Whether a committed file is one of the formats read."""
    name = Path(path).name
    if _formats4 and Path(path).suffix.lower() in _EXT_FORMATS4:
        return True
    if _ecosystems and (Path(path).suffix.lower() in _EXT_ECOSYSTEMS or name in _NAMES_ECOSYSTEMS):
        return True
    return Path(path).suffix.lower() in _EXT or name in _NAMES or name.startswith("Dockerfile")


def lines_of(gitdir: Path) -> tuple[str, list[dict]]:
    """(owner/name, candidate samples) of one mirrored repository."""
    repo = gitdir.parent.name.replace("+", "/", 1)
    commit = subprocess.run(["git", "-C", str(gitdir), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    commit = commit.strip()
    listing = subprocess.run(
        ["git", "-C", str(gitdir), "ls-tree", "-r", "--name-only", "HEAD"], capture_output=True, text=True
    ).stdout.splitlines()
    per_kind: collections.Counter[str] = collections.Counter()
    seen: set[str] = set()
    out: list[dict] = []
    for path in listing:
        if not wanted(path):
            continue
        kind = family(path)
        if per_kind[kind] >= 150:
            continue
        blob = subprocess.run(["git", "-C", str(gitdir), "show", f"HEAD:{path}"], capture_output=True)
        if blob.returncode or b"\0" in blob.stdout[:8000]:
            continue
        text = blob.stdout.decode("utf-8", "replace")
        taken = 0
        for n, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if taken >= 25 or per_kind[kind] >= 150:
                break
            if not line or len(line) > 300 or line in seen or not _CANDIDATE.search(line):
                continue
            if _SECRET_WORD.search(line) or (_formats4 and _JWK_PRIVATE.search(line)):
                continue
            seen.add(line)
            taken += 1
            per_kind[kind] += 1
            out.append({"family": kind, "text": line, "url": f"https://github.com/{repo}/blob/{commit}/{path}#L{n}"})
    return repo, out


def main() -> None:
    """Write OUT/<name>-tune.json and OUT/<name>-held.json (``--name``, default ``pubformats``) from the GITDIRs."""
    global _ecosystems, _formats4
    args = sys.argv[1:]
    name = "pubformats"
    if args and args[0].startswith("--name="):
        name = args.pop(0).split("=", 1)[1]
    if args and args[0] == "--formats4":
        _formats4 = _ecosystems = bool(args.pop(0))
    if args and args[0] == "--ecosystems":
        _ecosystems = bool(args.pop(0))
    out_dir = Path(args[0])
    repos = sorted((Path(p) for p in args[1:]), key=lambda p: hashlib.sha256(p.parent.name.encode()).digest())
    parts: dict[str, list[dict]] = {"tune": [], "held": []}
    names: dict[str, list[str]] = {"tune": [], "held": []}
    for i, gitdir in enumerate(repos):
        side = "tune" if i % 2 == 0 else "held"
        repo, rows = lines_of(gitdir)
        parts[side].extend(rows)
        names[side].append(repo)
    for side, rows in parts.items():
        source = (
            "Lines of public formats (lock files, manifests, workflows, configs, keys, notebooks"
            + (", SBOMs, signature bundles, formulas" if _ecosystems else "")
            + ") from these "
            "repositories' committed files (each with its URL): " + ", ".join(names[side])
        )
        path = out_dir / f"{name}-{side}.json"
        path.write_text(json.dumps({"source": source, "samples": rows}, indent=1, ensure_ascii=False), encoding="utf-8")
        print(f"{path}: {len(rows)} lines from {', '.join(names[side])}", file=sys.stderr)


if __name__ == "__main__":
    main()
