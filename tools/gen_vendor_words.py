"""Generate engine/redaction/vendorwords.py: the vendor names of maintained secret rule sets.

The names come from two rule sets whose licences allow it:

- Kingfisher (github.com/mongodb/kingfisher, Apache-2.0): the name of each rule
  file in ``data/rules/*.yml`` (one file per vendor) and the first word of each
  rule's ``name``;
- gitleaks (github.com/gitleaks/gitleaks, MIT): the ``keywords`` of each rule in
  ``config/gitleaks.toml``, the alphabetic ones;
- Betterleaks (github.com/betterleaks/betterleaks, MIT): the name of each rule
  file in ``cmd/generate/config/rules/*.go`` (one file per vendor);
- with ``--rules DIR`` (repeatable): Nosey Parker (github.com/praetorian-inc/noseyparker,
  Apache-2.0, ``crates/noseyparker/data/default/builtin/rules``) and Titus
  (github.com/praetorian-inc/titus, Apache-2.0, ``pkg/rule/rules``), read as Kingfisher's files;
- with ``--secretlint DIR``: the vendor of each secretlint rule package
  (github.com/secretlint/secretlint, MIT, ``packages/@secretlint/secretlint-rule-<vendor>``);
- with ``--trivy FILE``: the ``Category*`` names of Trivy's builtin secret rules
  (github.com/aquasecurity/trivy, Apache-2.0, ``pkg/fanal/secret/builtin-rules.go``).

A name is kept when it is 4+ letters (or one of the 3-letter vendors in
``SHORT``) and not a word that says what a secret is rather than whose
(``STOP``) or an everyday word (``COMMON``). Run::

    python tools/gen_vendor_words.py KINGFISHER/data/rules GITLEAKS/config/gitleaks.toml \
        BETTERLEAKS/cmd/generate/config/rules --rules TITUS/pkg/rule/rules \
        --rules NOSEYPARKER/crates/noseyparker/data/default/builtin/rules \
        --secretlint SECRETLINT/packages/@secretlint --trivy TRIVY/pkg/fanal/secret/builtin-rules.go \
        > engine/redaction/vendorwords.py
"""

from __future__ import annotations

import argparse
import re
import textwrap
import tomllib
from pathlib import Path

import yaml

SHORT = {"aws", "gcp", "npm", "ibm", "sap", "mux", "fly"}
STOP = set(
    """generic private public secret secrets token tokens api apis access auth oauth password passwords pass key keys
    client app application user users bot cloud data service services web webhook webhooks jwt ssh pem basic bearer
    credential credentials config account admin dev test live prod platform base hook mail email storage database
    server code hash http https url uri host the and for with from personal management manager connection string
    sandbox production staging secret_key access_key refresh session signing encryption master license live_key
    network system systems software labs tech technologies online digital global group inc io com net org co ai
    open free simple smart team teams project projects workspace workspaces org organization organizations
    private_key public_key value values type types file files docs doc document documents message messages
    image images text content model models agent agents tool tools node nodes cluster clusters""".split()  # noqa: SIM905
)
COMMON = set(
    """line front linear notion segment square track ticket close column cursor filter float frame render route react
    readme monday polar persona proof privacy weights weak visual holiday humanity financial dependency collect
    contains hashes hardcoded html json curl location moderation odbc postgres kubernetes docker django psexec netrc
    passwd privatekey privkey creds asia intra eyjrijoi magnetic mercury temporal brave guardian raven hunter nimble
    ditto semaphore prefect streak refiner eagle enigma impala particle envoy harness elastic sonar sumo lark polygon
    replicate courier debounce delighted ramp clerk beamer apollo checkout ionic neon float tines highnote
    xoxo asymmetric canary corp defined delivery face grid help here linked notification pattern preset recommend
    ruby python scale send sensitive spot runway gems instantly clay bird mongo mysql redis jdbc maven endor hugging
    hashi relic sauce stability riot iterable voyage retell resend cypress""".split()  # noqa: SIM905
)
"""English or tooling words a rule set names a vendor by that, alone before a value, name no key."""


SECRETLINT_SKIP = {"basicauth", "example", "filter", "comments", "internal", "cjs", "esm", "homedir", "dotenv", "kind"}
"""secretlint packages that name a format or a test, not a vendor."""


def words(
    kingfisher: Path,
    gitleaks: Path,
    betterleaks: Path,
    rules: list[Path] = (),  # type: ignore[assignment]
    secretlint: Path | None = None,
    trivy: Path | None = None,
) -> list[str]:
    found: set[str] = set()
    for path in [p for folder in (kingfisher, *rules) for p in folder.glob("*.yml")]:
        found.update(re.findall(r"[a-z]+", path.stem.lower()))
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for rule in doc.get("rules") or []:
            first = str(rule.get("name", "")).split(" ")[0].lower()
            if first.isalpha():
                found.add(first)
    for rule in tomllib.loads(gitleaks.read_text(encoding="utf-8")).get("rules", []):
        for kw in rule.get("keywords", []):
            if kw.isalpha():
                found.add(kw.lower())
    for path in betterleaks.glob("*.go"):
        if not path.stem.endswith("_test"):
            found.update(re.findall(r"[a-z]+", path.stem.lower()))
    if secretlint is not None:
        for path in secretlint.glob("secretlint-rule-*"):
            parts = path.name.removeprefix("secretlint-rule-").split("-")
            found.update(p for p in parts if p.isalpha() and p not in SECRETLINT_SKIP and not p.startswith("no"))
    if trivy is not None:
        for name in re.findall(r"\bCategory([A-Z][A-Za-z]+)\b", trivy.read_text(encoding="utf-8")):
            found.update(w.lower() for w in re.findall(r"[A-Z][a-z]+|[A-Z]+(?![a-z])", name))
    return sorted(w for w in found if (len(w) >= 4 or w in SHORT) and w not in STOP and w not in COMMON)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kingfisher", type=Path)
    parser.add_argument("gitleaks", type=Path)
    parser.add_argument("betterleaks", type=Path)
    parser.add_argument("--rules", type=Path, action="append", default=[], help="Nosey Parker or Titus rules")
    parser.add_argument("--secretlint", type=Path, help="secretlint's packages/@secretlint")
    parser.add_argument("--trivy", type=Path, help="Trivy's pkg/fanal/secret/builtin-rules.go")
    args = parser.parse_args()
    names = words(args.kingfisher, args.gitleaks, args.betterleaks, args.rules, args.secretlint, args.trivy)
    body = textwrap.fill(" ".join(names), width=112, break_long_words=False)
    print('"""Vendor names of maintained secret rule sets (generated by tools/gen_vendor_words.py: do not edit).')
    print()
    print("From Kingfisher's rule files (github.com/mongodb/kingfisher, Apache-2.0), gitleaks' rule keywords")
    more = bool(args.rules or args.secretlint or args.trivy)
    print("(github.com/gitleaks/gitleaks, MIT)" + ("," if more else " and"), end="")
    print(" Betterleaks' rule files (github.com/betterleaks/betterleaks, MIT)", end="")
    if more:
        print(
            ",\nNosey Parker's and Titus's rule files (github.com/praetorian-inc, Apache-2.0), secretlint's rule packages"
        )
        print(
            "(github.com/secretlint/secretlint, MIT) and Trivy's secret rule categories (github.com/aquasecurity/trivy,"
        )
        print("Apache-2.0)", end="")
    print(";\n:mod:`.context` reads them (docs/architecture.md §3).")
    print('"""')
    print()
    print("VENDORS = frozenset(")
    print('    """')
    print(body)
    print('""".split()  # noqa: SIM905')
    print(")")


if __name__ == "__main__":
    main()
