"""Passwords where infrastructure files put them under a name (issue 32, round 17; docs/architecture.md §3).

From KICS' secrets query tests (github.com/Checkmarx/kics, Apache-2.0: the ``kics`` tuning part,
``benchmarks/secrets_corpus/build_kics.py``), places :mod:`.configs` does not read, each a documented shape:

- a name/value entry whose name holds a password word as one of its ``_``/``-``/``.`` pieces, not only at its end:
  ``- name: DB_PASS_BD`` / ``value: "…"`` (a Kubernetes container's ``env`` list, an ECS task's ``environment``,
  ``{"name": "MYSQL_PASSWORD_ROOT", "value": "…"}``); a name whose piece after the word says the value is no
  password (``_FILE``, ``_PATH``, ``_POLICY``, ``_LENGTH`` ...) is left;
- a YAML key naming a password whose value sits under it as ``value:`` (``proxy-password:`` / ``value: …``: Azure
  Pipelines' and Helm charts' variable maps, Spring Cloud Config's, KICS' "value in tuple" rule);
- a template parameter's default when the parameter's name holds a password or secret word: CloudFormation's
  ``Parameters`` (``ParentMasterPassword:`` / ``Type: String`` / ``Default: '…'``, YAML or JSON) and an ARM
  template's ``"adminPassword": {`` / ``"type": "securestring"`` / ``"defaultValue": "…"``;
- a PuTTY private key file (``.ppk``, pasted into a here-document or a variable): the ``n`` lines of base64 after
  ``Private-Lines: n``, as PuTTY's key file format lays them out (the ``Public-Lines`` are the public key, the
  ``Private-MAC`` a checksum: neither is taken here).

One key shape KICS' rules name that no other rule set of ours does is taken wherever it stands: Amazon MWS's auth
token, ``amzn.mws.`` and a UUID (KICS' "Amazon MWS Auth Token" rule).

A password's value is taken by :func:`.configs._pw_value_ok`'s test: a word will do; a reference, a template, a path or a word
about passwords (``required``, ``vault``) is left.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .configs import _PW, _pw_value_ok, _value_ok

Span = tuple[int, int, str]

_NOT_PW_PIECES = (
    r"file|path|dir|policy|length|len|min|max|minimum|maximum|expiry|expires|expire|age|hash|hashed|salt|algo|"
    r"algorithm|rotation|reset|change|changed|required|enabled|disabled|env|var|ref|name|user|username|id|prompt|"
    r"hint|label|field|param|parameter|version|mode|type|count|rounds|iterations|cost|url|uri|host|port|secret_name"
)
"""Pieces after a password word that say the value is about the password (``DB_PASSWORD_FILE``: a path,
``PASSWORD_MIN_LENGTH``: a number, ``PASSWORD_HASH_ALGO``: a name), not the password."""
_INNER_NAME = (
    r"(?P<name>[A-Za-z0-9]{0,30}(?:[_.-][A-Za-z0-9]{1,30}){0,4}[_.-]?(?i:" + _PW + r")"
    r"(?P<tail>(?:[_.-][A-Za-z0-9]{1,16}){1,2}))"
)
_PAIR_RES = (
    lazyre.compile(
        r"(?im)^[ \t]*(?:-[ \t]+)?(?:name|key)[ \t]*:[ \t]*[\"']?" + _INNER_NAME + r"[\"']?[ \t]*\r?\n"
        r"[ \t]*value[ \t]*:[ \t]*(?P<q>[\"']?)(?P<value>[^\s\"']{3,256})(?P=q)[ \t]*$"
    ),
    lazyre.compile(
        r"(?i)[\"']?(?:key|name)[\"']?\s*[:=]\s*[\"']" + _INNER_NAME + r"[\"']\s*,\s*[\"']?value[\"']?\s*[:=]\s*"
        r"[\"'](?P<value>[^\"'\n]{3,256})[\"']"
    ),
)
_NOT_PW_TAIL_RE = lazyre.compile(r"(?i)[_.-](?:" + _NOT_PW_PIECES + r")(?![A-Za-z0-9])")
_VALUE_CHILD_RE = lazyre.compile(
    r"(?im)^(?P<indent>[ \t]*)(?:-[ \t]+)?[\"']?(?P<key>[\w.-]{0,40}?(?:" + _PW + r"))[\"']?[ \t]*:[ \t]*\r?\n"
    r"(?P<inner>[ \t]+)value[ \t]*:[ \t]*(?P<q>[\"']?)(?P<value>[^\s\"']{3,256})(?P=q)[ \t]*$"
)

_PARAM_DEFAULT_RE = lazyre.compile(
    r"(?m)^(?P<indent>[ \t]*)[\"']?(?P<name>[A-Za-z][\w-]{0,60}?(?i:(?P<pw>" + _PW + r")|secret|token|api_?key))[\"']?"
    r"[ \t]*:[ \t]*(?:\{[ \t]*)?\r?\n(?:(?P=indent)[ \t]+(?![\"']?(?:Default|defaultValue)[\"']?[ \t]*:)[^\n]*\n){0,6}"
    r"(?P=indent)[ \t]+[\"']?(?:Default|defaultValue)[\"']?[ \t]*:[ \t]*(?P<q>[\"']?)(?P<value>[^\s\"',]{3,256})(?P=q)"
)
_MWS_RE = lazyre.compile(r"(?<![\w.-])amzn\.mws\.[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}(?![\w-])")
_PPK_RE = lazyre.compile(r"(?m)^[ \t\"']*Private-Lines:[ \t]*(?P<n>\d{1,3})[ \t]*\r?\n")
_B64_LINE_RE = lazyre.compile(r"[ \t]*[A-Za-z0-9+/]{4,128}={0,2}[ \t]*(?:\r?\n|$)")


def _ppk(text: str) -> Iterator[Span]:
    for m in _PPK_RE.finditer(text):
        pos, end = m.end(), m.end()
        for _ in range(int(m.group("n"))):
            line = _B64_LINE_RE.match(text, pos)
            if line is None:
                break
            pos = line.end()
            end = pos - (len(line.group(0)) - len(line.group(0).rstrip()))
        if end > m.end():
            yield m.end(), end, "private-key"


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of each password or private key in ``text`` held in one of the module's places.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the value's span, without its quotes (typed ``password``), a key file's private lines
        (``private-key``), an MWS token (``amazon-mws-token``).
    """
    if "amzn.mws." in text:
        for m in _MWS_RE.finditer(text):
            yield m.start(), m.end(), "amazon-mws-token"
    if "Default" in text or "defaultValue" in text:
        for m in _PARAM_DEFAULT_RE.finditer(text):
            if _value_ok(m.group("value"), pw=bool(m.group("pw"))):
                yield m.start("value"), m.end("value"), "password" if m.group("pw") else "secret"
    if "Private-Lines:" in text:
        yield from _ppk(text)
    low = text.lower()
    if "value" not in low or not any(w in low for w in ("pass", "pwd")):
        return
    for pair in _PAIR_RES:
        for m in pair.finditer(text):
            if _NOT_PW_TAIL_RE.search(m.group("tail")) or not _pw_value_ok(m.group("value")):
                continue
            yield m.start("value"), m.end("value"), "password"
    for m in _VALUE_CHILD_RE.finditer(text):
        if len(m.group("inner")) <= len(m.group("indent")) or m.group("key").lower().endswith(("bypass", "compass")):
            continue  # ``value:`` is a sibling, not the key's child
        if _pw_value_ok(m.group("value")):
            yield m.start("value"), m.end("value"), "password"
