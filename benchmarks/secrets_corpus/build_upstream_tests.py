"""Build a tuning set from four more maintained scanners' own examples (issue 32 round 11; built locally).

Each part is one sample per upstream example, built from a snapshot of the upstream repository
(``git archive``); nothing of theirs is committed here. Parts:

- ``noseyparker``: the ``examples`` of every rule of Nosey Parker
  (github.com/praetorian-inc/noseyparker, Apache-2.0, ``crates/noseyparker/data/default/builtin/rules``)
  and of Titus (github.com/praetorian-inc/titus, Apache-2.0, ``pkg/rule/rules``: Nosey Parker's rules and
  newer ones; its ``kingfisher.*`` rules are left out, Kingfisher is a part of its own). The secret is
  what the rule's regex captures (its ``token``/``secret``/``password`` group, else its last group, else the
  match; Titus first, its rules name their groups). Passwords count from 8 characters, keys from 16.
  Their ``negative_examples`` go to ``noseyparker-negative`` (look-alikes: must come out unchanged).
- ``secretlint``: every finding in secretlint's rule snapshots (github.com/secretlint/secretlint, MIT,
  ``packages/@secretlint/secretlint-rule-*/test/snapshots/ng.*``): the line holding it, the secret its
  ``range``. ``ok.*`` snapshots of rules tested without options go to ``secretlint-negative``.
- ``trivy``: Trivy's builtin secret rules' tests (github.com/aquasecurity/trivy, Apache-2.0,
  ``pkg/fanal/secret/scanner_test.go``): each expected ``Match`` (the line with the secret masked by
  ``*``) is found in ``testdata``; the masked part is the secret.
- ``msu``: Microsoft security-utilities (github.com/microsoft/security-utilities, MIT): one line generated
  from each ``Pattern`` of ``GeneratedRegexPatterns/HighConfidenceSecurityModels.json`` and
  ``PreciselyClassifiedSecurityKeys.json`` (``build_patterns_db.py``'s generator, seed 3233), its
  ``refine`` group (else the match) the secret.

Left out everywhere, as in ``build_rule_examples.py``: captures under 16 characters (8 for Trivy's
masked values) or holding spaces, rules whose name makes the capture a public identifier, keys public
by design (publishable), and examples already in ``corpus.json``.

Run::

    git -C NOSEYPARKER archive HEAD crates/noseyparker/data/default/builtin/rules | tar -x -C /tmp/np
    git -C TITUS archive HEAD pkg/rule/rules | tar -x -C /tmp/titus
    python benchmarks/secrets_corpus/build_upstream_tests.py noseyparker OUT \
        /tmp/titus/pkg/rule/rules /tmp/np/crates/noseyparker/data/default/builtin/rules
    python benchmarks/secrets_corpus/build_upstream_tests.py secretlint OUT SECRETLINT/packages/@secretlint
    python benchmarks/secrets_corpus/build_upstream_tests.py trivy OUT TRIVY/pkg/fanal/secret
    python benchmarks/secrets_corpus/build_upstream_tests.py msu OUT MSU/GeneratedRegexPatterns
    python benchmarks/bench_secrets_sources.py --extra OUT/noseyparker.json --extra-benign OUT/noseyparker-negative.json

Each writes ``OUT/<part>.json`` (and ``OUT/<part>-negative.json`` where the upstream has look-alikes).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).parent))
from build_patterns_db import _gen, sre_p
from build_rule_examples import PUBLIC_NAME_RE, PUBLISHABLE_RE

CORPUS = Path(__file__).parent / "corpus.json"
SECRET_GROUP_RE = re.compile(r"(?i)token|secret|key|pass|pwd|cred|refine|sig|auth")
PUBLIC_GROUP_RE = re.compile(r"(?i)id$|user|host|domain|url|server|name|email|account|region|org|tenant")
PLACEHOLDER_RE = re.compile(
    r"(.)\1{5}|(?i:x{4}|example|dummy|placeholder|^(?:secret|password|changeme)$|(?:my|your)password)|\$\{|#\{|\{\{"
    r"|^[\"']?[$%]|^[A-Z][A-Z0-9]*_[A-Z0-9_]+$|^rzp_(?:live|test)_[A-Za-z0-9]{14}$"
)
"""A value of a test or a template, not a key: a run of one character, ``xxxx``, ``EXAMPLE``, ``${...}``, a
variable (``$Password``, ``%PW%``, ``SOME_PASSWORD``), or a Razorpay key id (sent to the browser, razorpay.com docs)."""
PUBLIC_RULE_RE = re.compile(r"(?i)bucket|\barn\b|resource name|publishable|public")
"""Rules whose capture is a public name (an S3 or GCS bucket, an AWS ARN) or a key public by design."""


def _pyre(pattern: str) -> str:
    """A Rust/Go regex as Python's ``re`` reads it (possessive-free; ``\\z`` is ``\\Z``)."""
    return pattern.replace(r"\z", r"\Z")


def _capture(pattern: str, text: str) -> str | None:
    try:
        m = re.search(_pyre(pattern), text)
    except re.error:
        return None
    if not m:
        return None
    named = {k: v for k, v in m.groupdict().items() if v}
    for name, value in named.items():
        if SECRET_GROUP_RE.search(name) and not PUBLIC_GROUP_RE.search(name):
            return value
    if named:
        rest = [v for k, v in named.items() if not PUBLIC_GROUP_RE.search(k)]
        return rest[0] if rest else None
    groups = [g for g in m.groups() if g]
    return groups[-1] if groups else m.group(0)  # unnamed groups: a name or user first, the value last


def _keyish(secret: str | None, least: int = 16) -> bool:
    """Whether ``secret`` is a value the corpus should hold: long enough, one word, not a placeholder."""
    return bool(secret) and len(secret) >= least and not re.search(r"\s", secret) and not PLACEHOLDER_RE.search(secret)


def _seen() -> set[str]:
    old = json.loads(CORPUS.read_text(encoding="utf-8"))["vendor"]
    return {re.sub(r"^For [^,]*, remember:\s*", "", s["text"]).strip() for s in old}


def noseyparker(dirs: list[Path]) -> tuple[list[dict], list[dict]]:
    """(positive samples, look-alikes) of Nosey Parker's and Titus's own rules."""
    seen = _seen()
    samples: list[dict] = []
    negatives: list[dict] = []
    for folder in dirs:
        for path in sorted(folder.glob("*.yml")):
            doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            for rule in doc.get("rules") or []:
                rid = str(rule.get("id", ""))
                if rid.startswith("kingfisher."):
                    continue
                name = str(rule.get("name", ""))
                for example in rule.get("negative_examples") or []:
                    example = str(example).strip()
                    if example and example not in seen:
                        seen.add(example)
                        negatives.append({"family": path.stem, "rule": rid, "text": example})
                if PUBLIC_NAME_RE.search(name) or PUBLISHABLE_RE.search(name) or PUBLIC_RULE_RE.search(name):
                    continue
                for example in rule.get("examples") or []:
                    example = str(example).strip()
                    if not example or example in seen:
                        continue
                    secret = _capture(rule["pattern"], example)
                    if not _keyish(secret, 8 if re.search(r"(?i)password|credential", name) else 16):
                        continue
                    seen.add(example)
                    samples.append({"family": path.stem, "rule": rid, "text": example, "secrets": [secret]})
    return samples, negatives


def line_of(text: str, start: int, end: int) -> str:
    """The whole lines of ``text`` that hold ``text[start:end]``."""
    a = text.rfind("\n", 0, start) + 1
    b = text.find("\n", end)
    return text[a : b if b >= 0 else len(text)]


def secretlint(packages: Path) -> tuple[list[dict], list[dict]]:
    """(each finding of the ``ng.*`` snapshots, lines of ``ok.*`` snapshots of rules tested without options)."""
    samples: list[dict] = []
    negatives: list[dict] = []
    for snap in sorted(packages.glob("secretlint-rule-*/test/snapshots/*")):
        out = snap / "output.json"
        if not out.exists():
            continue
        rule = snap.parents[2].name.removeprefix("secretlint-rule-")
        if rule in ("pattern", "no-dotenv", "no-homedir", "no-k8s-kind-secret", "filter-comments", "example"):
            continue  # a file name or a user's own pattern, not a key
        doc = json.loads(out.read_text(encoding="utf-8"))
        text = doc.get("sourceContent") or ""
        if snap.name.startswith("ok."):
            options = snap / "options.json"
            if not doc.get("messages") and not options.exists():
                for line in text.splitlines():
                    if len(line.strip()) >= 8:
                        negatives.append({"family": rule, "rule": snap.name, "text": line.strip()})
            continue
        for msg in doc.get("messages") or []:
            start, end = msg["range"]
            secret = text[start:end].strip()
            userinfo = re.match(r"^[a-z+.-]+://[^:/@\s]*:([^@/\s]+)@", secret)
            if userinfo:
                secret = userinfo.group(1)  # a URL's userinfo: the password is the secret
            if not _keyish(secret, 6 if userinfo else 16):
                continue
            line = line_of(text, start, end)
            if PUBLIC_RULE_RE.search(msg.get("messageId", "")) or re.search(r"(?i)account_id|client_id", line):
                continue  # an account or client id is public
            if len(line) > 2000:
                continue
            samples.append({"family": rule, "rule": snap.name, "text": line, "secrets": [secret]})
    return samples, negatives


_GO_STRING = re.compile(r'Match:\s*(?:"((?:[^"\\]|\\.)*)"|`([^`]*)`)')


def trivy(folder: Path) -> list[dict]:
    """Each masked ``Match`` of Trivy's scanner tests, found in its ``testdata`` (the masked part the secret)."""
    test = (folder / "scanner_test.go").read_text(encoding="utf-8")
    lines: list[tuple[str, str]] = []
    for f in sorted((folder / "testdata").iterdir()):
        if f.suffix in (".yaml",) or not f.is_file():
            continue
        try:
            body = f.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        lines.extend((f.stem, ln) for ln in body.splitlines())
    samples: list[dict] = []
    done: set[str] = set()
    for m in _GO_STRING.finditer(test):
        match = m.group(1) if m.group(1) is not None else m.group(2)
        if m.group(1) is not None:
            match = match.encode().decode("unicode_escape")
        if "*" not in match or match in done:
            continue
        done.add(match)
        parts = re.split(r"(\*+)", match)
        rx = "".join(f"(.{{{len(p)}}})" if p.startswith("*") else re.escape(p) for p in parts)
        for family, line in lines:
            hit = re.search(rx, line)
            if not hit:
                continue
            secrets = [
                g
                for g, before in zip(hit.groups(), parts[0::2], strict=False)
                if _keyish(g, 8)
                and not g.startswith(("pk_live_", "pk_test_"))
                and not re.search(r"(?i)user\W*$", before)
            ]
            if family in ("obfuscated", "asymmetric-private-key"):
                continue  # a minified bundle's line, a PEM body line without its header
            if secrets:
                samples.append({"family": family, "rule": family, "text": line.strip(), "secrets": secrets})
            break
    return samples


def msu(folder: Path) -> list[dict]:
    """One generated line per high-confidence or precisely classified pattern of security-utilities."""
    samples: list[dict] = []
    for name in ("HighConfidenceSecurityModels", "PreciselyClassifiedSecurityKeys"):
        for item in json.loads((folder / f"{name}.json").read_text(encoding="utf-8")):
            pattern = item["Pattern"]
            try:
                line = _gen(sre_p.parse(pattern))
            except (re.error, ValueError, IndexError):
                continue
            line = line.strip()
            secret = _capture(pattern, " " + line + " ")
            if not _keyish(secret):
                continue
            samples.append(
                {
                    "family": item["Name"],
                    "rule": item["Id"],
                    "text": f"For {item['Label']}, remember: {line}",
                    "secrets": [secret],
                }
            )
    return samples


SOURCES = {
    "noseyparker": "Nosey Parker and Titus rule examples (Apache-2.0), Kingfisher's rules in Titus left out.",
    "secretlint": "secretlint rule snapshots ng.* (MIT), the line of each finding.",
    "trivy": "Trivy pkg/fanal/secret scanner_test.go masked matches found in testdata (Apache-2.0).",
    "msu": "Microsoft security-utilities GeneratedRegexPatterns high-confidence and precisely classified "
    "patterns (MIT), one generated line each (seed 3233).",
}


def main() -> None:
    part, out = sys.argv[1], Path(sys.argv[2])
    args = [Path(a) for a in sys.argv[3:]]
    negatives: list[dict] = []
    if part == "noseyparker":
        samples, negatives = noseyparker(args)
    elif part == "secretlint":
        samples, negatives = secretlint(args[0])
    elif part == "trivy":
        samples = trivy(args[0])
    else:
        samples = msu(args[0])
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{part}.json").write_text(
        json.dumps({"source": SOURCES[part], "samples": samples}, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    if negatives:
        (out / f"{part}-negative.json").write_text(
            json.dumps({"source": SOURCES[part] + " Look-alikes.", "samples": negatives}, indent=1, ensure_ascii=False),
            encoding="utf-8",
        )
    fams = len({s["family"] for s in samples})
    print(f"{part}: {len(samples)} samples from {fams} families, {len(negatives)} look-alikes", file=sys.stderr)


if __name__ == "__main__":
    main()
