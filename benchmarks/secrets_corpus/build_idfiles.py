"""Build ``idfiles.json``: public identifiers in other projects' own files, each line with its source URL.

Issue 32 (round 12, false alarms). The identifier sets before it were written
here from the formats' docs (``identifiers.json``, ``formats.json``,
``families.json``), harvested from fixtures (``public2``), issue threads
(``prose-ids``) and project notes (``memnotes``). This set takes the places
the identifiers themselves live in other projects, none of them read before:
lockfiles (Cargo.lock ``checksum``, go.sum ``h1:``, poetry.lock and uv.lock
``sha256:`` hashes, flake.lock ``narHash``/``rev``, Terraform's
``.terraform.lock.hcl`` ``h1:``/``zh:``, pnpm's ``integrity``), Kubernetes
manifests pinning images by digest, CI workflows pinning actions by commit,
changelogs quoting commit ids, and API and spec docs quoting the ids they
define (KSUIDs, ULIDs, CUIDs, Discord snowflakes, IPFS CIDs, W3C and
OpenTelemetry trace ids, Stripe object ids, Sentry DSNs, cosign's digests and
Rekor entries, Node.js's release key fingerprints).

How lines are chosen is ``build_memnotes.py``'s rule, the same for every file:
a line holding an identifier-like word (7 or more letters and digits with at
least 3 digits and a letter, or 6 digits in a row), at most 300 characters, no
credential word beside a value (``password``, ``secret``, ``api key``,
``token=``, a URL's ``user:password@`` ...); at most ``--per-file`` lines a
file, spread evenly over it, de-duplicated across files. A source may narrow
its lines to the family's own shape (a lockfile's hash lines, a manifest's
``image:`` lines). Nothing in it was read from any held-out set.

The sources are local git snapshots (``--mirrors DIR`` holding
``owner+name/repo`` bare repositories, the layout the snapshot tool makes).
The lines are not shipped (their text belongs to their authors); each keeps
the URL of its file at the commit read and its line number. Run::

    python benchmarks/secrets_corpus/build_idfiles.py --mirrors /work/.mirror > /tmp/idfiles.json
    python benchmarks/bench_secrets_sources.py --extra-benign /tmp/idfiles.json

A wider draw of the same sources, less the lines of the set (a check of the
rules on lines not read while they were written; round 12 then tuned on it)::

    python benchmarks/secrets_corpus/build_idfiles.py --mirrors /work/.mirror --per-file 200 --per-source 400 \
        --exclude /tmp/idfiles.json > /tmp/idfiles-check.json
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import subprocess
import sys
from pathlib import Path

from build_memnotes import DENY, IDENT, MAX_LINE

HASH_LINE = r"checksum = \"|h1:|sha256:|narHash|\"rev\"|zh:|integrity:|hash ="
IMAGE_LINE = r"image:|@sha256:|FROM |docker (?:pull|run)"
PIN_LINE = r"uses: [^ ]+@[0-9a-f]{40}"
COMMIT_LINE = r"\b[0-9a-f]{7,40}\b"

SOURCES: list[tuple[str, str, str, str | None]] = [
    # (family, owner/name, file pattern in the snapshot's newest commit, line filter or None)
    ("lockfile", "BurntSushi/ripgrep", "Cargo.lock", HASH_LINE),
    ("lockfile", "cli/cli", "go.sum", HASH_LINE),
    ("lockfile", "python-poetry/poetry", "poetry.lock", HASH_LINE),
    ("lockfile", "astral-sh/uv", "uv.lock", HASH_LINE),
    ("lockfile", "nix-community/home-manager", "*flake.lock", HASH_LINE),
    ("lockfile", "1nval1dctf/terraform-aws-ctfd", "*.terraform.lock.hcl", HASH_LINE),
    ("lockfile", "pnpm/pnpm", "pnpm-lock.yaml", HASH_LINE),
    ("image-digest", "kubernetes/ingress-nginx", "deploy/static/provider/*/deploy.yaml", IMAGE_LINE),
    ("image-digest", "kubernetes/ingress-nginx", "docs/*.md", IMAGE_LINE),
    ("image-digest", "tektoncd/pipeline", "docs/*.md", IMAGE_LINE),
    ("image-digest", "sigstore/cosign", "*.md", None),
    ("action-pin", "cli/cli", ".github/workflows/*.yml", PIN_LINE),
    ("action-pin", "vitejs/vite", ".github/workflows/*.yml", PIN_LINE),
    ("action-pin", "sigstore/cosign", ".github/workflows/*.yml", PIN_LINE),
    ("action-pin", "tektoncd/pipeline", ".github/workflows/*.y*ml", PIN_LINE),
    ("action-pin", "getsentry/sentry-javascript", ".github/workflows/*.yml", PIN_LINE),
    ("changelog", "vitejs/vite", "packages/*/CHANGELOG.md", COMMIT_LINE),
    ("changelog", "kubernetes/ingress-nginx", "changelog/*.md", None),
    ("changelog", "python-poetry/poetry", "CHANGELOG.md", None),
    ("changelog", "paralleldrive/cuid2", "CHANGELOG.md", None),
    ("changelog", "stripe/stripe-node", "CHANGELOG.md", None),
    ("changelog", "BurntSushi/ripgrep", "CHANGELOG.md", None),
    ("api-docs", "segmentio/ksuid", "README.md", None),
    ("api-docs", "ulid/spec", "README.md", None),
    ("api-docs", "paralleldrive/cuid2", "README.md", None),
    ("api-docs", "discord/discord-api-docs", "*.md*", None),
    ("api-docs", "multiformats/cid", "*.md", None),
    ("api-docs", "ipfs/ipfs-docs", "docs/*.md", None),
    ("api-docs", "w3c/trace-context", "spec/*.md", None),
    ("api-docs", "open-telemetry/opentelemetry-specification", "specification/*.md", None),
    ("api-docs", "stripe/stripe-node", "README.md", None),
    ("api-docs", "getsentry/sentry-javascript", "packages/*/README.md", None),
    ("api-docs", "nodejs/release-keys", "README.md", None),
    ("api-docs", "cli/cli", "docs/*.md", None),
    ("image-digest", "opencontainers/image-spec", "*.md", None),
    ("image-digest", "docker-library/official-images", "library/*", None),
    ("lockfile", "git-lfs/git-lfs", "docs/*.md", None),
    ("changelog", "git-lfs/git-lfs", "CHANGELOG.md", COMMIT_LINE),
    ("api-docs", "oklog/ulid", "README.md", None),
    ("api-docs", "sony/sonyflake", "*README.md", None),
    ("api-docs", "jedisct1/minisign", "*.md", None),
    ("api-docs", "FiloSottile/age", "*.md", None),
    ("api-docs", "slackapi/bolt-js", "docs/*.md", None),
    ("api-docs", "sigstore/rekor", "*.md", None),
    ("changelog", "sigstore/rekor", "CHANGELOG.md", COMMIT_LINE),
    ("lockfile", "pypa/pip", "docs/html/*.md", None),
    ("api-docs", "octokit/webhooks", "payload-examples/*.json", None),
    ("api-docs", "NixOS/nix", "doc/manual/source/*.md", None),
    # second batch (round 12), measured after the first batch's rules and before its own
    ("magnet", "webtorrent/webtorrent", "*.md", None),
    ("media-ids", "yt-dlp/yt-dlp", "README.md", None),
    ("media-ids", "yt-dlp/yt-dlp", "Changelog.md", None),
    ("media-ids", "spotipy-dev/spotipy", "*.md", None),
    ("media-ids", "spotipy-dev/spotipy", "examples/*.py", r"spotify:|open\.spotify|[A-Za-z0-9]{22}"),
    ("crypto-addresses", "bitcoinjs/bitcoinjs-lib", "README.md", None),
    ("crypto-addresses", "bitcoinjs/bitcoinjs-lib", "test/integration/*.ts", r"'[13mn2bt][A-Za-z0-9]{25,90}'"),
    ("scholarly-ids", "citation-file-format/citation-file-format", "examples/*CITATION.cff", None),
    ("scholarly-ids", "citation-file-format/citation-file-format", "*.md", None),
    ("versions", "pypa/setuptools-scm", "docs/*.md", None),
    ("versions", "cli/cli", "go.mod", None),
    ("model-names", "ollama/ollama", "docs/*.md*", None),
    ("model-names", "ollama/ollama", "README.md", None),
    ("shortcuts", "helix-editor/helix", "book/src/*.md", None),
    ("changelog", "helix-editor/helix", "CHANGELOG.md", COMMIT_LINE),
    # third batch (round 12), measured after the second batch's rules and before its own
    ("lockfile", "composer/composer", "composer.lock", r"\"reference\"|\"shasum\"|[0-9a-f]{40}"),
    ("lockfile", "babel/babel", "yarn.lock", r"checksum:|resolution:|integrity"),
    ("lockfile", "rubygems/rubygems.org", "Gemfile.lock", r"sha256=|[0-9a-f]{64}|\(\d"),
    ("cloud-ids", "Azure/login", "README.md", None),
    ("site-keys", "hCaptcha/react-hcaptcha", "README.md", None),
    ("site-keys", "marsidev/react-turnstile", "docs/*.md*", None),
    ("site-keys", "marsidev/react-turnstile", "README.md", None),
    ("site-keys", "codler/react-ga4", "README.md", None),
    ("site-keys", "algolia/docsearch", "packages/website/docs/*.md*", None),
    ("jose", "panva/jose", "docs/*.md", None),
    ("changelog", "composer/composer", "CHANGELOG.md", None),
]


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def lines_of(text: str, per_file: int, only: str | None) -> list[tuple[int, str]]:
    """(line number, line) of ``text`` worth keeping, at most ``per_file`` spread evenly over the file."""
    narrow = re.compile(only) if only else None
    picked = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or len(line) > MAX_LINE or not IDENT.search(line) or DENY.search(line):
            continue
        if narrow is None or narrow.search(line):
            picked.append((n, line))
    if len(picked) <= per_file:
        return picked
    step = len(picked) / per_file
    return [picked[int(i * step)] for i in range(per_file)]


def build(mirrors: Path, per_file: int, per_source: int) -> dict:
    """The ``{source, samples}`` set from the snapshots under ``mirrors``.

    Raises:
        FileNotFoundError: a source's snapshot is missing.
    """
    seen: set[str] = set()
    samples: list[dict] = []
    for family, repo_name, pattern, only in SOURCES:
        repo = mirrors / repo_name.replace("/", "+") / "repo"
        if not repo.exists():
            raise FileNotFoundError(f"no snapshot of {repo_name} at {repo}")
        commit = _git(repo, "rev-parse", "HEAD").strip()
        paths = [
            p for p in _git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines() if fnmatch.fnmatch(p, pattern)
        ]
        taken = 0
        cap = min(per_file, max(3, per_source // max(1, len(paths))))  # spread a source over its files
        for path in sorted(paths):
            if taken >= per_source:
                break
            try:
                text = _git(repo, "show", f"HEAD:{path}")
            except subprocess.CalledProcessError:
                continue  # a file the snapshot lists but does not hold (its largest files may be absent)
            for n, line in lines_of(text, cap, only)[: per_source - taken]:
                if line in seen:
                    continue
                seen.add(line)
                taken += 1
                url = f"https://github.com/{repo_name}/blob/{commit}/{path}#L{n}"
                samples.append({"family": family, "text": line, "url": url})
    return {
        "source": "build_idfiles.py: identifiers in other projects' lockfiles, manifests, workflows, changelogs and "
        "API docs, each line with its file's URL (not shipped: the text belongs to its authors)",
        "samples": samples,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, required=True, help="folder of owner+name/repo git snapshots")
    parser.add_argument("--per-file", type=int, default=30, help="at most this many lines a file")
    parser.add_argument("--per-source", type=int, default=80, help="at most this many lines a source row")
    parser.add_argument("--exclude", type=Path, help="a set built before: its lines are left out")
    args = parser.parse_args()
    out = build(args.mirrors, args.per_file, args.per_source)
    if args.exclude:
        seen = {s["text"] for s in json.loads(args.exclude.read_text(encoding="utf-8"))["samples"]}
        out["samples"] = [s for s in out["samples"] if s["text"] not in seen]
        out["source"] += "; a wider draw, less the lines of " + args.exclude.name
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    print(f"{len(out['samples'])} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
