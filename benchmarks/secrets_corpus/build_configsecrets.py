"""Build ``configsecrets-tune`` and ``configsecrets-held``: vendors' keys in every config syntax (round 15).

The parts before this one hold each vendor's key mostly in the one line its rule set
printed. Here each key sits where configs put it, built from a public rule set:

- vendors and their keys' shapes: Kingfisher's rules (github.com/mongodb/kingfisher,
  Apache-2.0), each visible rule with a positive example whose capture (the rule's
  own regex's first group, else the match) has 16+ characters and no space, rules
  whose capture is a public identifier left out (``build_rule_examples.PUBLIC_NAME_RE``);
- places (one template per sample, drawn with a seeded generator): ``.env``, shell
  ``export``, YAML (flat, nested, a block scalar ``|``/``>-`` with the key on the next
  line, a Kubernetes ``Secret``'s ``stringData``, a compose ``environment`` list),
  TOML tables, JSON (one line and pretty-printed over lines), XML elements and .NET
  ``<add key= value=>``, Java ``.properties``, HCL/Terraform, INI, a URL's userinfo,
  a label on the line above the value, a CLI flag;
- names as configs spell them: ``VENDOR_API_KEY``, ``vendor.apiKey``, ``vendor_secret``,
  ``vendorToken`` (the vendor from the rule file's name).

Each vendor gives four samples (its first usable example's capture, in four places).
Vendors are split before any result is read, by the SHA-256 of the rule file's name
(even first byte: ``-tune``, odd: ``-held``). Built locally (Kingfisher's text is not
ours to ship)::

    git -C KINGFISHER archive HEAD data/rules | tar -x -C /tmp/kf
    python benchmarks/secrets_corpus/build_configsecrets.py /tmp/kf/data/rules OUT
    python benchmarks/bench_secrets_sources.py --tuned-only --tuned configsecrets-tune \
        --extra OUT/configsecrets-tune.json
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
from build_rule_examples import PUBLIC_NAME_RE, PUBLISHABLE_RE, _capture


def _camel(words: list[str]) -> str:
    return words[0] + "".join(w.capitalize() for w in words[1:])


def _names(vendor: str, kind: str) -> dict[str, str]:
    words = [w for w in re.split(r"[^a-z0-9]+", vendor.lower()) if w] or ["app"]
    kw = kind.split("_")
    return {
        "ENV": "_".join(w.upper() for w in words + kw),
        "snake": "_".join(words + kw),
        "camel": _camel(words + kw),
        "vendor": "_".join(words),
        "kind": "_".join(kw),
        "kindcamel": _camel(kw),
        "dotted": ".".join(words + kw),
        "kebab": "-".join(words + kw),
    }


TEMPLATES: dict[str, str] = {
    "env": "{ENV}={v}",
    "env-quoted": '{ENV}="{v}"',
    "export": "export {ENV}='{v}'",
    "yaml-flat": "{snake}: {v}",
    "yaml-nested": "{vendor}:\n  {kind}: {v}",
    "yaml-deep": 'services:\n  {vendor}:\n    enabled: true\n    {kindcamel}: "{v}"',
    "yaml-block": "{vendor}:\n  {kind}: |\n    {v}",
    "yaml-folded": "{vendor}:\n  {kind}: >-\n    {v}\n  timeout: 30",
    "k8s-secret": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {kebab}\ntype: Opaque\nstringData:\n  {kind}: {v}",
    "compose": "services:\n  app:\n    environment:\n      - {ENV}={v}",
    "toml": '[{vendor}]\n{kind} = "{v}"',
    "json-line": '{{"{camel}": "{v}"}}',
    "json-pretty": '{{\n  "{vendor}": {{\n    "{kindcamel}": "{v}",\n    "retries": 3\n  }}\n}}',
    "xml-element": "<{camel}>{v}</{camel}>",
    "xml-add": '<add key="{camel}" value="{v}" />',
    "properties": "{dotted}={v}",
    "properties-colon": "{dotted}: {v}",
    "hcl": 'variable "{snake}" {{\n  default = "{v}"\n}}',
    "hcl-attr": '  {snake} = "{v}"',
    "ini": "[{vendor}]\n{kind} = {v}",
    "url": "https://{vendor}:{v}@api.example.com/v1",
    "label-above": "{ENV}:\n{v}",
    "label-above-prose": "{vendor} {kind} (prod)\n{v}",
    "cli": "deploy --{kebab} {v}",
    "cli-eq": "deploy --{kebab}={v}",
}
KINDS = ("api_key", "token", "secret", "secret_key", "access_token", "auth_token", "client_secret", "key")


def vendors(rules_dir: Path) -> list[tuple[str, str]]:
    """(vendor, one capture) per rule file: the first visible rule's first usable example."""
    out: list[tuple[str, str]] = []
    for path in sorted(rules_dir.glob("*.yml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for rule in doc.get("rules") or []:
            name = str(rule.get("name", ""))
            if rule.get("visible") is False or PUBLIC_NAME_RE.search(name) or PUBLISHABLE_RE.search(name):
                continue
            found = None
            for example in rule.get("examples") or []:
                secret = _capture(rule["pattern"], str(example))
                if secret and len(secret) >= 16 and not re.search(r"\s", secret) and "://" not in secret:
                    found = secret
                    break
            if found:
                out.append((path.stem, found))
                break
    return out


def main() -> None:
    rules_dir, out_dir = Path(sys.argv[1]), Path(sys.argv[2])
    rng = random.Random(1512)
    names = sorted(TEMPLATES)
    parts: dict[str, list[dict]] = {"tune": [], "held": []}
    for vendor, secret in vendors(rules_dir):
        side = "tune" if hashlib.sha256(vendor.encode()).digest()[0] % 2 == 0 else "held"
        for template in rng.sample(names, 4):
            kind = rng.choice(KINDS)
            text = TEMPLATES[template].format(v=secret, **_names(vendor, kind))
            parts[side].append({"family": template, "vendor": vendor, "text": text, "secrets": [secret]})
    for side, rows in parts.items():
        path = out_dir / f"configsecrets-{side}.json"
        source = "Kingfisher rules' example keys (Apache-2.0) placed in config syntaxes by build_configsecrets.py"
        path.write_text(json.dumps({"source": source, "samples": rows}, indent=1), encoding="utf-8")
        print(f"{path}: {len(rows)} samples, {len({r['vendor'] for r in rows})} vendors", file=sys.stderr)


if __name__ == "__main__":
    main()
