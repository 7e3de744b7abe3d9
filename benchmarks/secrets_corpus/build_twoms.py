"""Build ``twoms-{tune,held}`` and ``twoms-neg-{tune,held}`` from 2ms's rule tests (round 23, issue 32).

2ms (github.com/Checkmarx/2ms, Apache-2.0) is Checkmarx's secrets scanner; every rule of
``engine/rules/ruledefine/`` has a Go test file (``<rule>_test.go``) listing ``truePositives`` (strings the rule
must find) and ``falsePositives`` (strings it must not). None of our parts had used it. This script reads those
files as text, never running Go or 2ms:

- each element of a ``truePositives: []string{...}`` list made only of Go string literals (interpreted or raw,
  joined by ``+``) is a secret sample, its text the string. The tests give no wanted value, so the secret is read
  from the list itself: most rules test one value in many wrappers (``key = "V"``, ``{"key": "V"}``, a Java
  ``setProperty``...), so a sample's secret is the token (a run of 8+ characters of ``[A-Za-z0-9+/=_.~:-]`` in
  any element, with a letter and a digit) it holds that the most elements of its list hold, when that is 3 or more and the token is not a
  name (letters, ``_``, ``.``, ``-`` only, holding a key word such as ``token`` or ``secret``). An element holding no such token (a value tested
  once) is left out, since nothing says which of its words is the secret, and so are the rules of
  ``PUBLIC_FAMILIES`` (ids and public keys);
- each element of a ``falsePositives`` list (the same literal rule) is a look-alike, unless it holds a secret of
  the file's ``truePositives``.

Samples are split by the SHA-256 of the test file's name (its last byte even: ``-tune``, odd: ``-held``), as
``build_credsweeper.py`` splits its sample files; the split was committed before any result of a half was read.
A text found in files of both halves goes to ``-held`` only. Built locally, beside the other parts::

    git --git-dir 2MS archive HEAD engine/rules/ruledefine | tar -x -C /tmp/2ms
    python benchmarks/secrets_corpus/build_twoms.py /tmp/2ms/engine/rules/ruledefine OUT
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

PUBLIC_FAMILIES = {
    "adobe_client_id",
    "asana_client_id",
    "bitbucket_client_id",
    "discord_client_id",
    "linkedin_client_id",
    "messagebird_client_id",
    "flutterwave_public_key",
    "lob_pub_api_token",
    "mailgun_pub_key",
    "mapbox",
    "new_relic_user_id",
    "new_relic_user_api_id",
    "plaid_access_id",
    "sendbird_access_id",
    "sumologic_access_id",
    "aws",
    "alibaba_access_key",
}
"""Rules (test file stems) whose values name something rather than unlock it: client, app and user ids, public
keys (a Mapbox ``pk.`` token, a Flutterwave ``FLWPUBK``), the key-id half of an AWS or Alibaba pair (as
``build_credsweeper.py`` leaves out ``AKIA``/``LTAI`` values)."""

SOURCE = "2ms's rule tests (github.com/Checkmarx/2ms, engine/rules/ruledefine/*_test.go, Apache-2.0)"

_ESCAPE = re.compile(r"\\(?:([abfnrtv\\'\"])|x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|([0-7]{3}))")
_SIMPLE = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"'}
_GO_TOKEN = re.compile(r'"((?:[^"\\\n]|\\.)*)"|`([^`]*)`|(\+)|(,)|(\{)|(\})|(//[^\n]*)|(\s+)|(.)', re.S)
_VALUE = re.compile(r"[A-Za-z0-9+/=_.~:-]{8,}")
_NAME = re.compile(r"[A-Za-z0-9_.:-]+")
_KEY_WORD = re.compile(r"(?i)token|key|secret|passw|pwd|auth|config|property|enabled|credential|client")
_LETTER_AND_DIGIT = re.compile(r"(?=.*[0-9])(?=.*[A-Za-z])")
MIN_REPEATS = 3
"""A list's token is its secret when found in at least this many of its elements (the wrappers of one value)."""


def half(name: str) -> str:
    """``"tune"`` or ``"held"``: the half of test file ``name`` (its SHA-256's last byte even: tune)."""
    return "tune" if hashlib.sha256(name.encode("utf-8")).digest()[-1] % 2 == 0 else "held"


def _unquote(body: str) -> str:
    """The value of a Go interpreted string literal's ``body`` (its escapes decoded)."""

    def one(m: re.Match[str]) -> str:
        if m.group(1):
            return _SIMPLE[m.group(1)]
        for group, base in ((2, 16), (3, 16), (4, 16), (5, 8)):
            if m.group(group):
                return chr(int(m.group(group), base))
        return m.group(0)

    return _ESCAPE.sub(one, body)


def string_lists(src: str, key: str) -> list[list[str]]:
    """Every ``key: []string{...}`` list of Go source ``src``, each as the values of its literal-only elements.

    An element holding anything but string literals and ``+`` (a call, a variable, a nested literal) is skipped.
    """
    out: list[list[str]] = []
    for m in re.finditer(re.escape(key) + r":\s*\[\]string\{", src):
        depth, elems, cur, bad = 1, [], [], False
        for t in _GO_TOKEN.finditer(src, m.end()):
            quoted, raw, _plus, comma, left, right, _comment, _space, other = t.groups()
            if quoted is not None:
                cur.append(_unquote(quoted))
            elif raw is not None:
                cur.append(raw.replace("\r", ""))
            elif left:
                depth, bad = depth + 1, True
            elif right or comma:
                depth -= 1 if right else 0
                if depth == 0 or (comma and depth == 1):
                    if cur and not bad:
                        elems.append("".join(cur))
                    cur, bad = [], False
                if depth == 0:
                    break
            elif other is not None:
                bad = True
        out.append(elems)
    return out


def _candidate(token: str) -> bool:
    """True when ``token`` may be a secret: it holds a letter and a digit, and is no key's name.

    A name holds a key word (``token``, ``secret``...) and only letters, digits, ``_``, ``.``, ``:``, ``-``
    (``bot_token1``, ``AWS_token:``); a token without a digit is a word, a host or a marker (``--header``,
    ``-----BEGIN``, ``example.com``).
    """
    if not _LETTER_AND_DIGIT.match(token):
        return False
    return not (_NAME.fullmatch(token) and _KEY_WORD.search(token))


def label(elems: list[str]) -> list[tuple[str, str]]:
    """``(text, secret)`` for every element of one ``truePositives`` list whose secret the list shows (see above).

    A candidate is any token of any element; it counts the elements holding it (as a substring, so a value inside
    ``KEY=value`` counts too). An element's secret is the candidate it holds found in the most elements, the
    longer first on a tie, when that count is ``MIN_REPEATS`` or more.
    """
    candidates = {t for e in elems for t in _VALUE.findall(e) if _candidate(t)}
    count = {c: sum(c in e for e in elems) for c in candidates}
    out: list[tuple[str, str]] = []
    for e in elems:
        held = sorted((c for c in candidates if c in e), key=lambda c: (-count[c], -len(c), c))
        if held and count[held[0]] >= MIN_REPEATS:
            out.append((e, held[0]))
    return out


def samples(root: Path) -> tuple[list[tuple[str, dict]], list[tuple[str, dict]]]:
    """``(secrets, look_alikes)``: ``(test file name, sample)`` pairs of every ``*_test.go`` under ``root``."""
    found: list[tuple[str, dict]] = []
    negatives: list[tuple[str, dict]] = []
    for path in sorted(root.glob("*_test.go")):
        src = path.read_text(encoding="utf-8")
        family = path.name.removesuffix("_test.go")
        values: set[str] = set()
        for elems in string_lists(src, "truePositives") if family not in PUBLIC_FAMILIES else []:
            for text, secret in label(elems):
                values.add(secret)
                found.append((path.name, {"family": family, "file": path.name, "text": text, "secrets": [secret]}))
        for elems in string_lists(src, "falsePositives"):
            for text in elems:
                if text.strip() and not any(v in text for v in values):
                    negatives.append((path.name, {"family": family, "file": path.name, "text": text}))
    return found, negatives


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="2ms's engine/rules/ruledefine folder")
    parser.add_argument("out", type=Path, help="folder receiving the four part files")
    args = parser.parse_args()
    found, negatives = samples(args.root)
    for kind, rows in (("", found), ("-neg", negatives)):
        halves: dict[str, set[str]] = {}
        for name, s in rows:
            halves.setdefault(s["text"], set()).add(half(name))
        parts: dict[str, list[dict]] = {"tune": [], "held": []}
        seen: dict[str, dict] = {}
        for _name, s in rows:
            if s["text"] in seen:
                if "secrets" in s:
                    seen[s["text"]]["secrets"] += [v for v in s["secrets"] if v not in seen[s["text"]]["secrets"]]
                continue
            seen[s["text"]] = s
            parts["held" if "held" in halves[s["text"]] else "tune"].append(s)
        for side, part in parts.items():
            path = args.out / f"twoms{kind}-{side}.json"
            source = f"{SOURCE}, the {side} half by the SHA-256 of the test file's name; build_twoms.py"
            path.write_text(json.dumps({"source": source, "samples": part}, indent=1), encoding="utf-8")
            files = len({s["file"] for s in part})
            print(f"{path}: {len(part)} samples from {files} files", file=sys.stderr)


if __name__ == "__main__":
    main()
