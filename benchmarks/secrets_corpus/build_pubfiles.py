"""Build ``pubfiles-tune`` and ``pubfiles-held``: look-alike lines from public repositories' own files (round 14).

Public formats people paste into notes, taken from real files of repositories no
other part uses: image digests in kind's docs and tests, GitHub Actions pinned by
commit and Renovate's digests, Cargo.lock checksums, Xcode project object ids,
Unity ``.meta`` guids, Visual Studio solution and project GUIDs, .NET ``.resx``
files, Nix flake locks. A line is a candidate when it holds a run of 20 or more
token characters mixing letters and digits, 24 or more hex digits, or a UUID;
at most 25 lines a file and 150 a repository and file kind, lines of at most 300
characters, each with its file's URL. Nothing in them is a secret: they are the
repositories' committed files (a line naming a password, key or token is left out).

Repositories are split before any result is looked at: sorted by the SHA-256 of
``owner/name``, alternately to ``-tune`` and ``-held``. Built locally (the lines
are other projects' text), never shipped::

    python benchmarks/secrets_corpus/build_pubfiles.py OUT GITDIR...   # e.g. /work/.mirror/owner+name/repo
    python benchmarks/bench_secrets_sources.py --tuned-only --tuned pubfiles-tune --extra-benign OUT/pubfiles-tune.json
"""

from __future__ import annotations

import collections
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

_CANDIDATE = re.compile(
    r"(?=[A-Za-z0-9+/=_.-]{0,200}[0-9])(?=[A-Za-z0-9+/=_.-]{0,200}[A-Za-z])[A-Za-z0-9+/=_.-]{20,}"
    r"|[0-9a-fA-F]{24,}|[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}"
)
_SECRET_WORD = re.compile(r"(?i)passw|secret|token|api[_-]?key|private|credential|auth")
_TEXT_EXT = {
    ".md",
    ".txt",
    ".yml",
    ".yaml",
    ".json",
    ".toml",
    ".lock",
    ".go",
    ".rs",
    ".swift",
    ".pbxproj",
    ".meta",
    ".sln",
    ".csproj",
    ".resx",
    ".nix",
    ".cs",
    ".xml",
    ".props",
    ".asset",
    ".unity",
    ".prefab",
    ".sh",
    ".cfg",
}


def family(path: str) -> str:
    """A file kind: its extension, or its name when it has none."""
    suffix = Path(path).suffix.lower()
    return suffix.lstrip(".") or Path(path).name


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
        if Path(path).suffix.lower() not in _TEXT_EXT and Path(path).name not in ("go.sum", "Cargo.lock"):
            continue
        blob = subprocess.run(["git", "-C", str(gitdir), "show", f"HEAD:{path}"], capture_output=True)
        if blob.returncode or b"\0" in blob.stdout[:8000]:
            continue
        text = blob.stdout.decode("utf-8", "replace")
        kind = family(path)
        taken = 0
        for n, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if taken >= 25 or per_kind[kind] >= 150:
                break
            if not line or len(line) > 300 or line in seen or not _CANDIDATE.search(line):
                continue
            if _SECRET_WORD.search(line):
                continue
            seen.add(line)
            taken += 1
            per_kind[kind] += 1
            out.append({"family": kind, "text": line, "url": f"https://github.com/{repo}/blob/{commit}/{path}#L{n}"})
    return repo, out


def main() -> None:
    out_dir = Path(sys.argv[1])
    repos = sorted((Path(p) for p in sys.argv[2:]), key=lambda p: hashlib.sha256(p.parent.name.encode()).digest())
    parts: dict[str, list[dict]] = {"tune": [], "held": []}
    names: dict[str, list[str]] = {"tune": [], "held": []}
    for i, gitdir in enumerate(repos):
        side = "tune" if i % 2 == 0 else "held"
        repo, rows = lines_of(gitdir)
        parts[side].extend(rows)
        names[side].append(repo)
    for side, rows in parts.items():
        source = (
            "Lines holding public look-alikes from these repositories' committed files (each with its URL): "
            + ", ".join(names[side])
        )
        path = out_dir / f"pubfiles-{side}.json"
        path.write_text(json.dumps({"source": source, "samples": rows}, indent=1, ensure_ascii=False), encoding="utf-8")
        print(f"{path}: {len(rows)} lines from {', '.join(names[side])}", file=sys.stderr)


if __name__ == "__main__":
    main()
