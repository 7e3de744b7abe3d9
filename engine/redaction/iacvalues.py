"""References infrastructure files write where a secret could stand (issue 32, round 17; docs/architecture.md §3).

:func:`spans` adds to :func:`.public.spans`. From KICS' negative tests (github.com/Checkmarx/kics, Apache-2.0: the
``kics-negative`` tuning part, ``benchmarks/secrets_corpus/build_kics.py``), each recognised by the syntax its
format documents, never by looking random or not:

- a kubectl JSONPath template, ``'{.credential.access_token}'`` (a kubeconfig's ``token-key``/``access-token``
  reads the token from a command's output by it);
- an AWS ARN, ``arn:<partition>:<service>:<region>:<account>:<resource>`` (templated parts such as
  ``{{ aws_region }}`` allowed), and the pieces of one a CloudFormation ``Fn::Join`` lists,
  ``:secretsmanager:eu-west-1:111111111111:secret:/db:SecretString:password::`` (a region or an account's digits in its
  place);
- a Terraform function called on references only, ``file(var.private_key_path)``;
- an element of a variable by index, ``userPass[2]``, ``creds["token"]``, where code sets a value from it;
- a CloudFormation intrinsic function (``Fn::Join``, ``!Ref Name``, ``!GetAtt A.B``) and a dynamic reference,
  ``{{resolve:secretsmanager:MySecret:SecretString:password}}``;
- Ansible's ``update_password: always|on_create`` (the user module's documented choices);
- an ARM template expression, ``"[parameters('adminPassword')]"``, and an Azure resource type's API version,
  ``Microsoft.Sql/servers@2015-05-01-preview``, ``"apiProfile": "2019-03-01-hybrid"`` (a date, then a channel);
- CloudFormation's ``SecretStringTemplate`` (the JSON a generated secret is added to: its other fields);
- a value naming a parameter or a variable that holds the secret, in camel or Pascal case and ending in what it
  holds (``"Password": "ParentMasterPassword"``, Bicep's ``administratorLoginPassword: secureParameter``).

A literal secret written in these places is in none of these shapes, so it is still redacted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int]

_JSONPATH_RE = lazyre.compile(r"(?<=[\"'])\{\.[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[\d{1,3}\]){0,8}\}(?=[\"'])")
_ARN_RE = lazyre.compile(
    r"(?<![\w-])arn:aws(?:-cn|-us-gov|-iso[a-z]?)?:[a-z][a-z0-9-]{1,40}:"
    r"(?:[a-z0-9-]{0,30}|\{\{[ \t]*\w+[ \t]*\}\}|[*?]):(?:\d{12}|\{\{[ \t]*\w+[ \t]*\}\}|[*?]|):[\w/:.*?+=,@{} -]{1,400}"
    r"(?<![ ])"
)
_ARN_PIECE_RE = lazyre.compile(
    r"(?<![\w-]):[a-z][a-z0-9-]{1,40}:(?:(?P<region>[a-z]{2}(?:-[a-z]+){1,2}-[0-9*?]{1,2})|[*?]|):"
    r"(?:(?P<acct>\d{10,14})|[*?]|):[\w/:.*?+=,@-]{1,400}"
)
_HCL_CALL_RE = lazyre.compile(
    r"(?<![\w.])[a-z][a-z0-9_]{1,30}\([ \t]*(?:(?:var|local|data|module|each|path|self|count)\.[\w.\[\]\"-]{1,120}"
    r"|\"[^\"\n]{0,120}\")(?:[ \t]*,[ \t]*(?:(?:var|local|data|module|each|path|self|count)\.[\w.\[\]\"-]{1,120}"
    r"|\"[^\"\n]{0,120}\"|\d{1,6}))*[ \t]*\)"
)
_INDEXED_RE = lazyre.compile(
    r"(?m)(?<![\w\"'.$-])[A-Za-z_][A-Za-z0-9_]{1,40}\[(?:\d{1,3}|\"[\w-]{1,40}\"|'[\w-]{1,40}')\](?=[ \t]*(?:[,;)}\]]|$))"
)
_CFN_RE = lazyre.compile(
    r"(?<![\w:])Fn::(?:Join|Sub|GetAtt|ImportValue|FindInMap|Select|Base64|If|Split|GetAZs|Cidr|Transform)\b"
    r"|(?<![\w!])!(?:Ref|Sub|GetAtt|Join|ImportValue|FindInMap|Select|Base64|If|Split|GetAZs|Cidr)"
    r"(?:[ \t]+[\w.:-]{1,120})?(?![\w!])"
    r"|\{\{resolve:(?:secretsmanager|ssm|ssm-secure):[\w/:.+=,@-]{1,400}\}\}"
)
_ARM_EXPR_RE = lazyre.compile(
    r"(?<=\")\[(?:parameters|variables|reference|concat|format|resourceId|listKeys|list\w*|subscription|"
    r"resourceGroup|uniqueString|guid)\([^\]\n]{0,300}\)\](?=\")"
)
_API_VERSION_RE = lazyre.compile(
    r"(?<![\w-])(?:(?<=@)|(?<=[\"']))\d{4}-\d{2}-\d{2}(?:-(?:preview|privatepreview|hybrid|beta|alpha))?(?![\w-])"
)
_SECRET_TEMPLATE_RE = lazyre.compile(
    r"(?<![\w-])[\"']?SecretStringTemplate[\"']?[ \t]*:[ \t]*(?P<v>'[^'\n]{0,300}'|\"(?:[^\"\\\n]|\\.){0,300}\")"
)
_HOLDER_NAME_RE = lazyre.compile(
    r"(?P<label>[A-Za-z][\w-]{0,60})[\"']?[ \t]*[:=][ \t]*(?P<q>[\"']?)(?P<v>[a-zA-Z][a-z]+(?:[A-Z][a-z]*){0,8}"
    r"(?:Password|Passwd|Pwd|Token|Secret|Key|Parameter|Param|Credential|Credentials))(?P=q)[ \t]*(?:[,}][ \t]*)?$",
    re.MULTILINE,
)
"""A value naming what holds the secret: letters only, two words at least, and either unquoted (Bicep's symbol) or
after a Pascal-case property (CloudFormation's ``"Password": "ParentMasterPassword"``): a quoted value after a
lower-case key (``password = "summerPassword"``) or an environment variable (``HEROKU_API_KEY='sampleHerokuKey'``)
is a secret still. Each word after the first opens on one capital (``DB`` is two): with ``[A-Z]+`` per word, a
long run of capitals after a ``=`` (``key=exampleABCDEFGHIJKLMNOPQRSTUVWXYZ...``) was split every possible way, 2.5
minutes of CPU for one 133-character line."""
_ANSIBLE_RE = lazyre.compile(r"(?<![\w-])update_password[ \t]*[:=][ \t]*[\"']?(?P<v>always|on_create)\b")


def _holds_token(value: str) -> bool:
    """Whether a piece of ``value`` between ``/``, ``:``, ``-`` reads as a token (16+ characters mixing upper and
    lower case and digits): an ARN's resource named by a key (``backups/k8FjW2pQz9XvB3nLtR7yUe4M``) is no ARN to
    keep."""
    for piece in re.split(r"[/:.@=,+-]", value):
        if len(piece) >= 16 and all(any(f(c) for c in piece) for f in (str.isupper, str.islower, str.isdigit)):
            return True
    return False


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every reference in ``text`` in one of the module's shapes."""
    if "{." in text:
        for m in _JSONPATH_RE.finditer(text):
            yield m.span()
    if "arn:" in text:
        for m in _ARN_RE.finditer(text):
            if not _holds_token(m.group(0)):
                yield m.span()
    if text.count(":") >= 4:
        for m in _ARN_PIECE_RE.finditer(text):
            if (m.group("region") or m.group("acct")) and not _holds_token(m.group(0)):
                yield m.span()
    if "(" in text and ("var." in text or "local." in text or "data." in text or "path." in text):
        for m in _HCL_CALL_RE.finditer(text):
            yield m.span()
    if "[" in text:
        for m in _INDEXED_RE.finditer(text):
            yield m.span()
    if "Fn::" in text or "!" in text or "{{resolve:" in text:
        for m in _CFN_RE.finditer(text):
            yield m.span()
    if "[" in text and "(" in text:
        for m in _ARM_EXPR_RE.finditer(text):
            yield m.span()
    if "-" in text:
        for m in _API_VERSION_RE.finditer(text):
            yield m.span()
    if "SecretStringTemplate" in text:
        for m in _SECRET_TEMPLATE_RE.finditer(text):
            yield m.span("v")
    for m in _HOLDER_NAME_RE.finditer(text):
        two_words = any(c.isupper() for c in m.group("v")[1:])  # ``adminPassword``, not ``Password``
        label = m.group("label")
        pascal = label[0].isupper() and any(c.islower() for c in label) and "_" not in label  # not HEROKU_API_KEY
        if two_words and (not m.group("q") or pascal):
            yield m.span("v")
    if "update_password" in text:
        for m in _ANSIBLE_RE.finditer(text):
            yield m.span("v")
