"""Build ``configfiles-tune`` and ``configfiles-held``: look-alikes in public config files (round 15).

Config files are where keys sit, so a rule that reads a label on the line above a
value, a YAML block scalar or a CSV header is tried here on the files people commit
without a secret: Kubernetes manifests and kustomizations, Helm charts, compose files,
``.env`` samples, Terraform and its lock file, CI workflows, Maven/Gradle and Spring
``.properties``, lockfiles (``go.sum``, ``package-lock.json``, ``yarn.lock``, ``poetry.lock``),
JSON and TOML configs. A sample is a line holding a token-like run (``build_pubfiles``'s
candidate: 20+ token characters mixing letters and digits, 24+ hex, a UUID) together with
the line above it (two lines, so a label above is in view); at most 20 a file and 120 a
repository and file kind, each with its file's URL. A window naming a password, key or
token is left out unless the word is a reference's name (``secretKeyRef``, ``secretName``,
``existingSecret``, ``${...}``): demo repositories' passwords are fine to redact.

Repositories are split before any result is looked at: sorted by the SHA-256 of the
mirror's folder name (``owner+name``), alternately to ``-tune`` and ``-held``::

    python benchmarks/secrets_corpus/build_configfiles.py OUT GITDIR...   # /work/.mirror/owner+name/repo
    python benchmarks/secrets_corpus/build_configfiles.py --name=configfiles2 OUT GITDIR...   # a second batch
    python benchmarks/bench_secrets_sources.py --tuned-only --tuned configfiles-tune \
        --extra-benign OUT/configfiles-tune.json
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

_REFERENCE = re.compile(r"(?i)secretKeyRef|secretName|secretRef|existingSecret|secrets\.\w+|\$\{[^}]*\}|\{\{[^}]*\}\}")
_CONFIG_EXT = {".yml", ".yaml", ".json", ".toml", ".lock", ".properties", ".tf", ".hcl", ".env", ".ini", ".conf"}
_CONFIG_NAMES = {"go.sum", "yarn.lock", "Dockerfile", ".env", ".env.example", "Chart.lock", ".terraform.lock.hcl"}


def family(path: str) -> str:
    """A file kind: its extension, or its name when it has none."""
    suffix = Path(path).suffix.lower()
    return suffix.lstrip(".") or Path(path).name


def _names_secret(window: str) -> bool:
    return bool(_SECRET_WORD.search(_REFERENCE.sub("", window)))


def lines_of(gitdir: Path) -> tuple[str, list[dict]]:
    """(owner/name, two-line samples) of one mirrored repository."""
    repo = gitdir.parent.name.replace("+", "/", 1)
    git = ["git", "-C", str(gitdir)]
    commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    listing = subprocess.run([*git, "ls-tree", "-r", "--name-only", "HEAD"], capture_output=True, text=True).stdout
    per_kind: collections.Counter[str] = collections.Counter()
    seen: set[str] = set()
    out: list[dict] = []
    for path in listing.splitlines():
        name = Path(path).name
        if Path(path).suffix.lower() not in _CONFIG_EXT and name not in _CONFIG_NAMES and not name.startswith(".env"):
            continue
        blob = subprocess.run([*git, "show", f"HEAD:{path}"], capture_output=True)
        if blob.returncode or b"\0" in blob.stdout[:8000]:
            continue
        lines = blob.stdout.decode("utf-8", "replace").splitlines()
        kind = family(path)
        taken = 0
        for n, line in enumerate(lines):
            if taken >= 20 or per_kind[kind] >= 120:
                break
            if not line.strip() or len(line) > 300 or not _CANDIDATE.search(line):
                continue
            above = lines[n - 1] if n and len(lines[n - 1]) <= 300 else ""
            window = f"{above}\n{line}" if above.strip() else line
            if window in seen or _names_secret(window):
                continue
            seen.add(window)
            taken += 1
            per_kind[kind] += 1
            out.append(
                {"family": kind, "text": window, "url": f"https://github.com/{repo}/blob/{commit}/{path}#L{n + 1}"}
            )
    return repo, out


def main() -> None:
    args = sys.argv[1:]
    name = "configfiles"
    if args[0].startswith("--name="):
        name = args.pop(0).split("=", 1)[1]
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
        source = "Two-line windows of these repositories' committed config files (each with its URL): " + ", ".join(
            names[side]
        )
        path = out_dir / f"{name}-{side}.json"
        path.write_text(json.dumps({"source": source, "samples": rows}, indent=1, ensure_ascii=False), encoding="utf-8")
        print(f"{path}: {len(rows)} samples from {', '.join(names[side])}", file=sys.stderr)


if __name__ == "__main__":
    main()
