"""Build ``kics.json`` and ``kics-negative.json`` (tuning parts, round 17) from KICS' secrets query tests.

KICS (github.com/Checkmarx/kics, Apache-2.0; read from the DataDog/kics fork's snapshot d91e366, whose
``assets/queries/common/passwords_and_secrets`` matches upstream's as of its fork) keeps one query, "Passwords And
Secrets", with 36 regex rules (``regex_rules.json``) and its tests: infrastructure files (Terraform, Kubernetes and
CloudFormation YAML/JSON, Dockerfiles, Ansible, GitHub workflows) named ``positive*`` and ``negative*``, and
``positive_expected_result.json`` naming each finding's file, line and rule. None of our parts used it before.

A finding is a secret sample: the text is the finding's line with the two lines before it (the key or ``env``
entry a value sits under, as a memory would quote it), or, for a rule reading several lines (private keys, PuTTY
key files), the lines its regex spans (a PuTTY file's secret pieces are its private lines only: its public lines are
the public key). The secret piece is what the rule's own regex captures (its last group that
matched, with the run of letters and digits the match holds after it, quotes dropped; for "Password in URL" the userinfo's password), so a finding whose line the Python port
of the regex cannot read, or whose piece is under 4 characters, is left out. KICS' tests count some references as
findings (``{{resolve:secretsmanager:...}}``, ``SecretStringTemplate: '{"username":"admin"}'``): they are kept as
KICS labels them and show up as misses. Each non-blank, non-comment line of a ``negative*`` file, with the line
before it, is a look-alike that must come out unchanged. Built locally, not shipped::

    git -C KICS archive HEAD assets/queries/common/passwords_and_secrets | tar -x -C /tmp/kics
    python benchmarks/secrets_corpus/build_kics.py /tmp/kics/assets/queries/common/passwords_and_secrets OUT
    python benchmarks/bench_secrets_sources.py --tuned-only --tuned kics --tuned kics-negative \\
        --extra OUT/kics.json --extra-benign OUT/kics-negative.json --misses

``--more``: the platform queries of :data:`MORE` (a secret in a CloudFormation property or a parameter's
``Default``, an ARM ``securestring``'s ``defaultValue``, a Bicep ``param``), each finding's line with the four lines
before it (the parameter's name), the literal after its ``:``/``=`` the secret piece; a finding on a line with no
literal (``Variables:``, ``Properties:``) is left out. Their negative files' lines are look-alikes::

    git -C KICS archive HEAD assets/queries | tar -x -C /tmp/kics
    python benchmarks/secrets_corpus/build_kics.py --more /tmp/kics/assets/queries OUT
"""

from __future__ import annotations

import json
import re
import sys
import warnings
from pathlib import Path

SNAPSHOT = "DataDog/kics@d91e366"
_URL_PW_RE = re.compile(r"[a-zA-Z]{3,10}://[^/\s:@$]*?:([^/\s:@$]+)@")
_VALUE_RE = re.compile(r"value:\s*(.+)")
BLOCKS = ("Asymmetric private key", "Putty User Key File Content")
"""Rules whose finding is a key block, read from its first to its last line; the other multi-line rules (a
Kubernetes ``env`` entry, a YAML ``password:`` with its ``value:`` below) find the value on the finding's line.
(Their RE2 regexes backtrack without end in Python, so none of the multi-line regexes is run.)"""


def _compile(regex: str) -> re.Pattern[str] | None:
    """The RE2 ``regex`` in Python: an inline ``(?i)`` anywhere makes the whole pattern case-blind."""
    flags = re.IGNORECASE if "(?i)" in regex else 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # RE2's `[[` is a plain `[` in a set
            return re.compile(regex.replace("(?i)", ""), flags)
    except re.error:
        return None


def _piece(rule: str, regex: re.Pattern[str] | None, text: str) -> str | None:
    if rule == "Password in URL":
        m = _URL_PW_RE.search(text)
        return m.group(1) if m else None
    if regex is None and text:
        m = _VALUE_RE.search(text.splitlines()[-1])
        return m.group(1).strip().strip("'\"").strip() if m else None
    if regex is None:
        return None
    found = None
    for m in regex.finditer(text):
        idx = [i for i in range(1, (regex.groups or 0) + 1) if m.group(i) and m.group(i).strip()]
        if not idx:
            found = m.group(0)
            continue
        start, end = m.span(idx[-1])
        rest = re.match(r"[A-Za-z0-9]+", text[end : m.end()])
        found = text[start : end + (rest.end() if rest else 0)]  # a prefix group (`AKIA`) and the run after it
    if found is None:
        return None
    return found.strip().strip("'\"").strip()


def _block(lines: list[str], n: int) -> tuple[int, int] | None:
    """(first, last) line of the key block holding line ``n``: ``-----BEGIN`` .. ``-----END`` or a PuTTY file."""
    starts = [i for i in range(n, -1, -1) if "-----BEGIN" in lines[i] or "PuTTY-User-Key-File" in lines[i]]
    if not starts:
        return None
    for j in range(starts[0], len(lines)):
        if "-----END" in lines[j] or "Private-MAC" in lines[j]:
            return starts[0], j
    return None


def build(folder: Path) -> tuple[list[dict], list[dict]]:
    """(secret samples, look-alike samples) of the query folder ``folder``."""
    rules = json.loads((folder / "regex_rules.json").read_text(encoding="utf-8"))["rules"]
    by_name = {r["name"]: r for r in rules}
    tests = folder / "test"
    expected = json.loads((tests / "positive_expected_result.json").read_text(encoding="utf-8"))
    secret: list[dict] = []
    for finding in expected:
        rule = finding["queryName"].removeprefix("Passwords And Secrets - ")
        spec = by_name.get(rule)
        if spec is None:
            continue
        body = (tests / finding["fileName"]).read_text(encoding="utf-8", errors="replace")
        lines = body.splitlines()
        n = finding["line"] - 1
        regex = None if "multiline" in spec else _compile(spec["regex"])
        text = "\n".join(lines[max(0, n - 2) : n + 1])
        if rule in BLOCKS:
            block = _block(lines, n)
            if block is None:
                continue
            first, last = block
            text = "\n".join(lines[max(0, first - 1) : last + 1])
            body = lines[first + 1 : last]
            if any(x.startswith("Private-Lines:") for x in body):  # PuTTY: the private lines, not the public key
                body = body[next(i for i, x in enumerate(body) if x.startswith("Private-Lines:")) + 1 :]
            pieces = [x.strip().strip("'\"") for x in body if len(x.strip()) >= 16]
            pieces = [p for p in pieces if ":" not in p]
            source = f"{SNAPSHOT}:test/{finding['fileName']}#L{finding['line']}"
            secret.append({"family": rule, "text": text, "secrets": pieces, "source": source})
            continue
        piece = _piece(rule, regex, text)
        if not piece or len(piece) < 4:
            continue
        pieces = [piece]
        if "\n" in piece:  # a key block: every long line of it must go
            pieces = [p.strip() for p in piece.splitlines() if len(p.strip()) >= 16]
        source = f"{SNAPSHOT}:test/{finding['fileName']}#L{finding['line']}"
        secret.append({"family": rule, "text": text, "secrets": pieces, "source": source})
    benign: list[dict] = []
    for path in sorted(tests.glob("negative*")):
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        for i, line in enumerate(lines):
            if not line.strip() or line.lstrip().startswith(("#", "//")):
                continue
            text = "\n".join(lines[max(0, i - 1) : i + 1])
            benign.append({"family": path.suffix.lstrip("."), "text": text, "source": f"{SNAPSHOT}:test/{path.name}"})
    return secret, benign


MORE = [
    "alexa_skill_plaintext_client_secret_exposed",
    "amplify_app_access_token_exposed",
    "amplify_app_basic_auth_config_password_exposed",
    "amplify_app_oauth_token_exposed",
    "amplify_branch_basic_auth_config_password_exposed",
    "directory_service_microsoft_ad_password_set_to_plaintext_or_default_ref",
    "directory_service_simple_ad_password_exposed",
    "dms_endpoint_mongo_db_settings_password_exposed",
    "dms_endpoint_password_exposed",
    "docdb_cluster_master_password_in_plaintext",
    "hardcoded_aws_access_key_in_lambda",
    "iam_user_login_profile_password_is_in_plaintext",
    "refresh_token_is_exposed",
    "hardcoded_securestring_parameter_default_value",
]
"""KICS' platform queries whose finding is a literal secret in a resource's property or a parameter's default
(CloudFormation, ARM/Bicep, Terraform): the ``kics-more`` part, their negatives ``kics-more-negative``."""
_LITERAL_RE = re.compile(
    r"""(?:^|[\s{,])["']?[\w.-]+["']?\s*(?:[:=]|\bstring\s*=)\s*(?P<q>["']?)(?P<v>[^"'\s,{}][^"'\n]*?)(?P=q)\s*,?\s*$"""
)


def build_more(queries: Path) -> tuple[list[dict], list[dict]]:
    """(secret samples, look-alike samples) of :data:`MORE`'s queries under ``assets/queries`` (``queries``)."""
    secret: list[dict] = []
    benign: list[dict] = []
    for folder in sorted(p for p in queries.rglob("*") if p.is_dir() and p.name in MORE):
        tests = folder / "test"
        expected = tests / "positive_expected_result.json"
        if not expected.exists():
            continue
        for finding in json.loads(expected.read_text(encoding="utf-8")):
            if "fileName" not in finding:
                continue  # a query whose one positive file the result does not name
            lines = (tests / finding["fileName"]).read_text(encoding="utf-8", errors="replace").splitlines()
            n = finding["line"] - 1
            m = _LITERAL_RE.search(lines[n]) if n < len(lines) else None
            if m is None or len(m.group("v").strip()) < 4 or m.group("v").startswith(("!", "$", "{{", "[")):
                continue  # the finding names a block (``Variables:``) or a reference, no literal
            text = "\n".join(lines[max(0, n - 4) : n + 1])
            where = folder.relative_to(queries)
            source = f"{SNAPSHOT}:assets/queries/{where}/test/{finding['fileName']}#L{finding['line']}"
            secret.append({"family": folder.name, "text": text, "secrets": [m.group("v").strip()], "source": source})
        for path in sorted(tests.glob("negative*")):
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            for i, line in enumerate(lines):
                if line.strip() and not line.lstrip().startswith(("#", "//")):
                    text = "\n".join(lines[max(0, i - 1) : i + 1])
                    benign.append({"family": folder.name, "text": text, "source": f"{SNAPSHOT}:{path.name}"})
    return secret, benign


def main() -> None:
    if sys.argv[1] == "--more":
        queries, out = Path(sys.argv[2]), Path(sys.argv[3])
        secret, benign = build_more(queries)
        out.mkdir(parents=True, exist_ok=True)
        note = f"KICS platform queries' secret tests, {SNAPSHOT} (build_kics.py --more); Apache-2.0, built locally"
        for name, samples in (("kics-more", secret), ("kics-more-negative", benign)):
            (out / f"{name}.json").write_text(
                json.dumps({"source": note, "samples": samples}, indent=1), encoding="utf-8"
            )
        print(f"{len(secret)} secret samples, {len(benign)} look-alike lines", file=sys.stderr)
        return
    folder, out = Path(sys.argv[1]), Path(sys.argv[2])
    secret, benign = build(folder)
    out.mkdir(parents=True, exist_ok=True)
    note = f"KICS passwords_and_secrets tests, {SNAPSHOT} (build_kics.py); Apache-2.0, built locally"
    (out / "kics.json").write_text(json.dumps({"source": note, "samples": secret}, indent=1), encoding="utf-8")
    (out / "kics-negative.json").write_text(json.dumps({"source": note, "samples": benign}, indent=1), encoding="utf-8")
    print(f"{len(secret)} secret samples, {len(benign)} look-alike lines", file=sys.stderr)


if __name__ == "__main__":
    main()
