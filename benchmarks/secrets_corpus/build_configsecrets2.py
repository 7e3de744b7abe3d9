"""Build ``configsecrets2-tune`` and ``-held``: keys in deployment and code places (round 15, second batch).

A second batch after ``build_configsecrets.py``'s, written before any of its results were read,
with other places and other values:

- values: secrets-patterns-db's curated ``db/rules-stable.yml`` (github.com/mazen160/secrets-patterns-db,
  CC BY-SA 4.0: never committed), each high-confidence rule whose name is not a public
  identifier's nor a publishable key's and whose value is not public by design (``phc_``, ``pk_test_`` ...), one value generated from its regex (``build_patterns_db._gen``, seed 1515), the
  rule's first group (else the match), 16+ characters, no space;
- places: a GitHub Actions ``env:`` block, ``docker run -e``, ``kubectl create secret --from-literal``,
  ``helm install --set``, a Kubernetes container's ``env`` list (``- name:`` then ``value:`` on
  the next line), an ECS task definition's ``{"name": …, "value": …}``, Spring's
  ``application.yml``, .NET's ``appsettings.json``, a Dockerfile's ``ENV``/``ARG``, systemd's
  ``Environment=``, a Makefile's ``export X :=``, PowerShell's ``$env:X =``, Python's
  ``os.environ["X"] =``, JavaScript's ``const x = "…"``, Terraform's ``.tfvars``, an Ansible vars
  file, ``.npmrc``'s ``_authToken``, a ``curl -H "X-Api-Key: …"`` header, ``.netrc``.

Three places per rule; rules split by the SHA-256 of the rule's name (even first byte: tune).
Run::

    python benchmarks/secrets_corpus/build_configsecrets2.py SPDB/db/rules-stable.yml OUT
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).parent))
import build_patterns_db
from build_configsecrets import _names
from build_patterns_db import PUBLIC_RE, _gen, sre_p
from build_rule_examples import PUBLISHABLE_RE

TEMPLATES: dict[str, str] = {
    "gha-env": "jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      {ENV}: {v}",
    "docker-run": "docker run -d -e {ENV}={v} -p 8080:8080 example/app:1.4",
    "kubectl-literal": "kubectl create secret generic {kebab} --from-literal={kind}={v}",
    "helm-set": "helm upgrade --install app ./chart --set {vendor}.{kindcamel}={v}",
    "k8s-env-list": '        env:\n          - name: {ENV}\n            value: "{v}"',
    "ecs-env": '    "environment": [\n      {{"name": "{ENV}", "value": "{v}"}}\n    ],',
    "spring-yml": "spring:\n  {vendor}:\n    {kebab}: {v}",
    "appsettings": '{{\n  "{vendor}": {{\n    "{kindcamel}": "{v}"\n  }}\n}}',
    "dockerfile-env": "FROM python:3.12-slim\nENV {ENV}={v}",
    "dockerfile-arg": "ARG {ENV}={v}",
    "systemd": "[Service]\nEnvironment={ENV}={v}",
    "makefile": "export {ENV} := {v}",
    "powershell": '$env:{ENV} = "{v}"',
    "python-environ": 'os.environ["{ENV}"] = "{v}"',
    "js-const": 'const {camel} = "{v}";',
    "tfvars": '{snake} = "{v}"',
    "ansible-vars": '---\n{snake}: "{v}"\n{vendor}_enabled: true',
    "npmrc": "//registry.npmjs.org/:_authToken={v}",
    "curl-header": 'curl -H "X-Api-Key: {v}" https://api.example.com/v2/items',
    "netrc": "machine api.example.com login deploy password {v}",
}
_PUBLIC_PREFIXES = ("phc_", "pk_live_", "pk_test_", "sb_publishable_", "FLWPUBK")
KINDS = ("api_key", "token", "secret", "access_key", "auth_token", "private_token")


def rules(path: Path) -> list[tuple[str, str]]:
    """(rule name, one generated capture) per usable high-confidence rule."""
    build_patterns_db.RNG.seed(1515)
    out: list[tuple[str, str]] = []
    for item in yaml.safe_load(path.read_text(encoding="utf-8"))["patterns"]:
        p = item["pattern"]
        if p.get("confidence") != "high" or PUBLIC_RE.search(p["name"]) or PUBLISHABLE_RE.search(p["name"]):
            continue
        try:
            rx = re.compile(p["regex"])
            line = _gen(sre_p.parse(p["regex"]))
        except (re.error, ValueError, IndexError, TypeError):
            continue
        m = rx.search(line)
        secret = next((g for g in m.groups() if g), m.group(0)) if m else None
        if secret and secret.startswith(_PUBLIC_PREFIXES):
            continue  # public by design (issue 32 keeps them): PostHog's project key, Stripe's publishable keys
        if secret and len(secret) >= 16 and not re.search(r"\s", secret) and len(set(secret)) >= 6:
            out.append((p["name"], secret))
    return out


def main() -> None:
    path, out_dir = Path(sys.argv[1]), Path(sys.argv[2])
    rng = random.Random(1515)
    names = sorted(TEMPLATES)
    parts: dict[str, list[dict]] = {"tune": [], "held": []}
    for rule, secret in rules(path):
        side = "tune" if hashlib.sha256(rule.encode()).digest()[0] % 2 == 0 else "held"
        vendor = (
            re.sub(r"(?i)\b(?:api|key|token|secret|access|oauth|client|personal|auth)\b", " ", rule).strip() or rule
        )
        for template in rng.sample(names, 3):
            text = TEMPLATES[template].format(v=secret, **_names(vendor, rng.choice(KINDS)))
            parts[side].append({"family": template, "rule": rule, "text": text, "secrets": [secret]})
    for side, rows in parts.items():
        target = out_dir / f"configsecrets2-{side}.json"
        source = "secrets-patterns-db rules-stable (CC BY-SA 4.0) values in deployment places, build_configsecrets2.py"
        target.write_text(json.dumps({"source": source, "samples": rows}, indent=1), encoding="utf-8")
        print(f"{target}: {len(rows)} samples, {len({r['rule'] for r in rows})} rules", file=sys.stderr)


if __name__ == "__main__":
    main()
