"""Build ``gitleaks.json``: every true-positive sample of gitleaks' rules, with the secret its rule captures.

gitleaks (github.com/gitleaks/gitleaks, MIT) defines each rule in
``cmd/generate/config/rules/*.go`` together with the lines it must match
(``tps``): literal lines, and lines made by ``utils.GenerateSampleSecret(s)``
around a value from ``secrets.NewSecret(<regex>)``. This script reads those Go
files (no Go toolchain needed: a small evaluator for the string expressions they
use), makes the random values from the same regexes with a fixed seed, and takes
as the secret what the rule's regex in ``config/gitleaks.toml`` captures from the
line (its ``secretGroup``, else the first non-empty group, else the match).

The values are gitleaks' own fake samples or random strings in the vendors'
shapes: none is a live credential. Run once against a checkout of gitleaks::

    python benchmarks/secrets_corpus/build_gitleaks.py PATH/TO/gitleaks > benchmarks/secrets_corpus/gitleaks.json
"""

from __future__ import annotations

import json
import random
import re
import sys
import tomllib
from pathlib import Path

try:  # Python 3.11+
    import re._constants as sre_c
    import re._parser as sre_p
except ImportError:  # pragma: no cover
    import sre_constants as sre_c  # type: ignore[no-redef]
    import sre_parse as sre_p  # type: ignore[no-redef]

RNG = random.Random(32)

# --- random strings from a regex ---------------------------------------------------------------------------------

_PRINTABLE = [chr(c) for c in range(0x21, 0x7F)]


def _gen(tree: object) -> str:
    out: list[str] = []
    for op, av in tree:  # type: ignore[attr-defined]
        if op is sre_c.LITERAL:
            out.append(chr(av))
        elif op is sre_c.IN:
            chars: list[str] = []
            negate = False
            for kind, val in av:
                if kind is sre_c.LITERAL:
                    chars.append(chr(val))
                elif kind is sre_c.RANGE:
                    chars.extend(chr(c) for c in range(val[0], val[1] + 1))
                elif kind is sre_c.NEGATE:
                    negate = True
                elif kind is sre_c.CATEGORY:
                    if val is sre_c.CATEGORY_DIGIT:
                        chars.extend("0123456789")
                    elif val is sre_c.CATEGORY_WORD:
                        chars.extend("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
            if negate:
                chars = [c for c in _PRINTABLE if c not in chars and c.isalnum()]
            out.append(RNG.choice(chars))
        elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT):
            lo, hi, sub = av
            hi = lo + 4 if hi is sre_c.MAXREPEAT else hi
            for _ in range(RNG.randint(lo, hi)):
                out.append(_gen(sub))
        elif op is sre_c.SUBPATTERN:
            out.append(_gen(av[-1]))
        elif op is sre_c.BRANCH:
            out.append(_gen(RNG.choice(av[1])))
        elif op is sre_c.ANY:
            out.append(RNG.choice("abcdefghijklmnopqrstuvwxyz0123456789"))
        elif op is sre_c.AT:
            pass
        else:
            raise ValueError(f"cannot generate {op}")
    return "".join(out)


def new_secret(regex: str) -> str:
    return _gen(sre_p.parse(regex))


# --- a small evaluator for the Go string expressions the rule files use ------------------------------------------

_TOKEN_RE = re.compile(
    r"""\s+|//[^\n]*|/\*.*?\*/|(?P<raw>`[^`]*`)|(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<num>\d+)|(?P<id>[A-Za-z_][\w.]*)|(?P<op>\.\.\.|:=|[-+(){}\[\],=])""",
    re.S,
)


def _go_string(lit: str) -> str:
    if lit.startswith("`"):
        return lit[1:-1]
    return json.loads(lit) if "\\x" not in lit else bytes(lit[1:-1], "utf-8").decode("unicode_escape")


def _tokens(src: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(src):
        m = _TOKEN_RE.match(src, pos)
        if not m:
            out.append(("other", src[pos]))
            pos += 1
            continue
        pos = m.end()
        kind = m.lastgroup
        if kind is None:
            continue
        out.append((kind, m.group(0)))
    return out


_SAMPLE_TEMPLATES = [
    '{i}Token="{s}"',
    '{i}Token = "{s}"',
    "{i}Token={s}",
    "{i}Token = {s}",
    '{\n    "{i}_token": "{s}"\n}',
    '{"config.ini": "{I}_TOKEN={s}\\nBACKUP_ENABLED=true"}',
    "<{i}Token>\n    {s}\n</{i}Token>",
    "{i}_token: {s}",
    "{i}_token: '{s}'",
    '{i}_token: "{s}"',
    'string {i}Token = "{s}";',
    'var {i}Token string = "{s}"',
    '{i}Token := "{s}"',
    "{i}Token := `{s}`",
    'String {i}Token = "{s}";',
    'var {i}Token = "{s}"',
    '${i}Token .= "{s}"',
    "{i}Token = '{s}'",
    '{i}Token = "{s}"',
    'System.setProperty("{I}_TOKEN", "{s}")',
    '  "{i}Token" => "{s}"',
    '{i}_TOKEN = "{s}"',
    '{i}_TOKEN := "{s}"',
    '{i}_TOKEN ::= "{s}"',
    '{i}_TOKEN :::= "{s}"',
    '{i}_TOKEN ?= "{s}"',
]
"""``utils.GenerateSampleSecrets``' templates, as in gitleaks' ``cmd/generate/config/utils/generate.go``."""


def _fill(template: str, ident: str, secret: str) -> str:
    return template.replace("{i}", ident).replace("{I}", ident.upper()).replace("{s}", secret)


_HELPERS = {
    "utils.Numeric": lambda n: f"[0-9]{{{n}}}",
    "utils.Hex": lambda n: f"[a-f0-9]{{{n}}}",
    "utils.AlphaNumeric": lambda n: f"[a-z0-9]{{{n}}}",
    "utils.AlphaNumericExtendedShort": lambda n: f"[a-z0-9_-]{{{n}}}",
    "utils.AlphaNumericExtended": lambda n: f"[a-z0-9=_\\-]{{{n}}}",
    "utils.AlphaNumericExtendedLong": lambda n: f"[a-z0-9\\/=_\\+\\-]{{{n}}}",
    "utils.Hex8_4_4_4_12": lambda: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    "secrets.NewSecret": new_secret,
    "utils.GenerateSampleSecret": lambda i, s: f'{i}_api_token = "{s}"',
    "utils.GenerateSampleSecrets": lambda i, s: [_fill(t, i, s) for t in RNG.sample(_SAMPLE_TEMPLATES, PER_CALL)],
    "fmt.Sprintf": lambda f, *a: f.replace("%s", "{}").format(*a),
    "strings.Repeat": lambda s, n: s * int(n),
}


PER_CALL = 3
"""Templates kept per ``GenerateSampleSecrets`` call (of 26), chosen at random: each rule weighs about the same."""


PUBLIC_ID_RE = re.compile(r"-(?:client|access|api|app)-id$|-public-key$")
"""Rules whose capture is a public identifier (a client id, a publishable key): left out, as in corpus.json."""


class Unsupported(Exception):
    pass


class _Parser:
    def __init__(self, toks: list[tuple[str, str]], env: dict[str, object]) -> None:
        self.t, self.i, self.env = toks, 0, env

    def peek(self) -> tuple[str, str]:
        return self.t[self.i] if self.i < len(self.t) else ("eof", "")

    def take(self, value: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if value is not None and tok[1] != value:
            raise Unsupported(f"expected {value!r}, got {tok[1]!r}")
        self.i += 1
        return tok

    def expr(self) -> object:
        value = self.atom()
        while self.peek()[1] == "+":
            self.take()
            right = self.atom()
            value = str(value) + str(right)
        return value

    def atom(self) -> object:
        kind, text = self.take()
        if kind in ("str", "raw"):
            return _go_string(text)
        if kind == "num":
            return text
        if kind == "op" and text == "[":
            self.take("]")
            self.take()  # string
            return self.composite()
        if kind == "id" and text == "map" and self.peek()[1] == "[":
            self.i += 4  # [string]string
            return self.composite(keyed=True)
        if kind == "id":
            if self.peek()[1] == "(":
                self.take("(")
                args = []
                while self.peek()[1] != ")":
                    args.append(self.expr())
                    if self.peek()[1] == "...":
                        self.take()
                    if self.peek()[1] == ",":
                        self.take()
                self.take(")")
                if text == "append":
                    out = list(args[0]) if isinstance(args[0], list) else [args[0]]
                    for a in args[1:]:
                        out.extend(a if isinstance(a, list) else [a])
                    return out
                fn = _HELPERS.get(text)
                if fn is None:
                    raise Unsupported(text)
                return fn(*args)
            if text in self.env:
                return self.env[text]
            raise Unsupported(text)
        raise Unsupported(text)

    def composite(self, keyed: bool = False) -> list[object]:
        self.take("{")
        items: list[object] = []
        while self.peek()[1] != "}":
            item = self.expr()
            if keyed:
                if self.peek()[1] == ":":
                    self.take()
                item = self.expr()
            items.extend(item if isinstance(item, list) else [item])
            if self.peek()[1] == ",":
                self.take()
        self.take("}")
        return items


def _funcs(src: str) -> list[str]:
    return re.split(r"\nfunc ", src)[1:]


def samples_of(body: str) -> tuple[str | None, list[str], int]:
    """(rule id, true-positive lines, statements skipped) of one rule function."""
    m = re.search(r'RuleID:\s*"([^"]+)"', body)
    rule_id = m.group(1) if m else None
    env: dict[str, object] = {}
    skipped = 0
    for stmt in re.finditer(r"(?m)^\t+(?P<name>[A-Za-z_]\w*)\s*(?P<op>:?=)\s*", body):
        name = stmt.group("name")
        if name in ("r", "fps") or name.startswith("fp"):
            continue
        toks = _tokens(body[stmt.end() :])
        try:
            env[name] = _Parser(toks, env).expr()
        except (Unsupported, ValueError, IndexError, KeyError, TypeError):
            skipped += 1
    tps = env.get("tps")
    lines = [str(x) for x in tps] if isinstance(tps, list) else []
    return rule_id, lines, skipped


def _capture(rule: dict, line: str) -> str | None:
    pattern = rule["regex"]
    if "(?i)" in pattern[1:]:  # Go allows a flag group mid-pattern, Python only at the start
        pattern = "(?i)" + pattern.replace("(?i)", "")
    pattern = pattern.replace(r"\z", r"\Z")
    try:
        rx = re.compile(pattern)
    except re.error:
        return None
    m = rx.search(line)
    if not m:
        return None
    group = rule.get("secretGroup")
    if group and m.group(group):
        return m.group(group)
    for g in m.groups():
        if g:
            return g
    return m.group(0)


def main() -> None:
    root = Path(sys.argv[1])
    config = tomllib.loads((root / "config" / "gitleaks.toml").read_text(encoding="utf-8"))
    rules = {r["id"]: r for r in config["rules"] if "regex" in r}
    out, no_capture, skipped = [], [], 0
    for path in sorted((root / "cmd/generate/config/rules").glob("*.go")):
        for body in _funcs(path.read_text(encoding="utf-8")):
            rule_id, lines, skip = samples_of(body)
            skipped += skip
            if rule_id is None or rule_id not in rules or PUBLIC_ID_RE.search(rule_id):
                continue
            for line in lines:
                secret = _capture(rules[rule_id], line)
                if not secret or len(secret.strip("'\" ")) < 4:
                    no_capture.append(rule_id)
                    continue
                secrets = [secret]
                if rule_id == "curl-auth-user":  # the password after ':' is the secret (the user name when empty)
                    user, _, pw = secret.strip("'\"").partition(":")
                    secrets = [pw.strip("'\"{}") or user.strip("'\"{}")]
                out.append({"family": rule_id, "rule": f"gitleaks.{rule_id}", "text": line, "secrets": secrets})
    print(
        json.dumps(
            {
                "source": "gitleaks (github.com/gitleaks/gitleaks, MIT): the true-positive lines of each rule in "
                "cmd/generate/config/rules/*.go, random parts made from the same regexes (seed 32); the secret is "
                "what the rule's regex in config/gitleaks.toml captures (for curl -u, the password part). Rules whose "
                "capture is a public identifier (*-client-id, *-access-id, *-api-id, *-public-key) are left out. "
                f"Lines whose capture Python's re could not reproduce were left out ({len(no_capture)}).",
                "samples": out,
            },
            indent=1,
            ensure_ascii=False,
        )
    )
    print(
        f"{len(out)} samples, {len(set(s['family'] for s in out))} rules, {skipped} statements skipped, "
        f"{len(no_capture)} without capture",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
