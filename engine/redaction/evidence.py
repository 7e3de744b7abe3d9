"""A bare random-looking run is redacted only with positive evidence that it is a secret (issue 32, round 15).

The high-entropy rule of :mod:`.rules` takes any long run mixing letters and digits for a token. On public files
that is most of what was altered (pubformats-tune: 45 of 64 altered lines, an armored public key, base64 and hashes
of formats no keep list has seen), while only 45 of 8,026 redacted tuned secrets had nothing else finding them.
So a span only that rule found (:func:`bare`; since round 17 also :mod:`.rules`' run after a name naming nothing,
:data:`.shapelabels.WEAK`) stays redacted when something says it is a secret
(:func:`has_evidence`), by class, never by sample:

- **words**: a word naming a secret (``key``, ``token``, ``secret``, ``password`` ..., in any case style, and the
  password words of the languages :mod:`.phrases` knows) or a vendor name the rule sets name, before the run on its
  line with no public label after it (:func:`.context.named_before`), or just after it (``<run> is the Acme one``,
  :func:`.context.named_after`);
- **the run's own head**: a short prefix and ``_``/``-`` (``acme_…``, ``key_test_…``), two letters and a dot
  (``pk.…``), a capital head before hex mixing case (``SK…``), a vendor prefix the rule sets list, or a secret word
  glued on (``API_KEY…``);
- **the block**: a key naming a secret on the line above, alone or opening the block the value is in (``token:`` /
  ``  value: <run>``), a sibling ``name``/``key`` naming a secret in a name/value pair's block (``- name:
  DB_PASSWORD`` / ``value: <run>``, :mod:`.siblings`, round 21), or a span another rule found on the line just above
  or below (a credential block);
- **structure**: a JSON Web Token (``eyJ….eyJ…``), an OpenSSH private key's body (``b3BlbnNzaC1rZXktdjE…``), a
  ``-----BEGIN … PRIVATE KEY-----`` before it with no END between, a URL's userinfo (``//user:<run>@``).

A run with none of these (an armored public key's line, a hash, a base64 blob in a spec) is kept verbatim.
"""

from __future__ import annotations

from . import lazyre

Span3 = tuple[int, int, str]

BARE = frozenset({"high-entropy"})
"""The types a rule gives a run it found by its shape alone, with nothing around it read."""

_PREFIX_RE = lazyre.compile(r"[a-z][a-z0-9]{1,11}(?:_[a-z0-9]{1,8})?[_-](?=[A-Za-z0-9_-]{16})")
"""A vendor-style head: a short lower-case prefix and ``_`` or ``-`` before a random body (``acme_``, ``brx_prod_``)."""
_WORD_HEAD_RE = lazyre.compile(r"(?i)(?:api[_-]?)?(?:key|token|secret|passw(?:or)?d|pwd|auth)[_-]?(?=[A-Za-z0-9])")
"""A secret word glued to the head of the run (``API_KEYPVXB…``, ``key_test_…``)."""
_JWT_RE = lazyre.compile(r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}")
_STRUCTURE_HEADS = ("b3BlbnNzaC1rZXktdjE",)
"""Base64 of ``openssh-key-v1``: an OpenSSH private key's body, wherever it stands."""
_PEM_BEGIN_RE = lazyre.compile(r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")
_PEM_END_RE = lazyre.compile(r"-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")
_USERINFO_RE = lazyre.compile(r"://[^\s/@]{0,64}:$")
_SAID_RE = lazyre.compile("|".join(("passw", "passwort", "kennwort", "senha", "contrase", "clave", "mot de passe")))
"""Password words of other languages (:mod:`.phrases`' list, its Latin-script stems) anywhere before on the line."""
_AZDO_RE = lazyre.compile(r"[A-Za-z0-9]{52}JQQJ99[A-Za-z0-9]{18}AZDO[A-Za-z0-9]{4}|[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}")
"""An Azure DevOps personal access token: 84 characters, ``AZDO`` at 76 (Microsoft's identifiable key format)."""
_SANCTUM_RE = lazyre.compile(r"(?<![\w|])\d{1,10}\|$")
"""``<id>|`` before a run: a Laravel Sanctum personal access token (``32|dab4…``)."""
_CLOSING_RE = lazyre.compile(r"[^<\n]{0,24}</(?P<name>[\w:.-]{1,40})>")
_TAG_WORDS = frozenset({"key", "token", "secret", "password", "passwd", "pwd", "credential", "credentials", "apikey"})
"""Words that name an element holding a secret (``<secret>{…}</secret>``, ``<apiKey>…</apiKey>``)."""
_SIGN_IN_WORDS = frozenset({"authorize", "authorise", "authenticate", "login", "signin", "connect", "client"})
_GAP_RE = lazyre.compile(r"(?:\s|\\[rnt]?)*")
_NAME_WORD_RE = lazyre.compile(r"[A-Za-z][A-Za-z0-9]*")
LINE_WINDOW = 120
"""How far before a run on its line a word naming a secret may stand (a value after another: ``--body '<a> <b>'``)."""
WINDOW_AFTER = 48
_PRIVATE_HEADS = ("xprv", "yprv", "zprv", "tprv", "uprv", "vprv", "Yprv", "Zprv", "Uprv", "Vprv")
"""BIP32 extended private keys' heads (an ``xpub`` is public and kept by :mod:`.idshapes`)."""
_SEGMENT_RE = lazyre.compile(r"[/._-]")
_MIXED_HEX_RE = lazyre.compile(r"(?=(?:[^A-F]*[A-F]){3})(?=(?:[^a-f]*[a-f]){3})[0-9a-fA-F]{32,128}")
"""Hex mixing letter case: digests and ids print in one case, a generated key may not (:func:`.structural.mixed_hex`)."""
_B64_RE = lazyre.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_DOT_HEAD_RE = lazyre.compile(
    r"(?:[a-z]{2}|[A-Z]{2,4}[0-9]?)(?:\.(?:live|test|prod|dev|sandbox))?\.(?=[A-Za-z0-9_-]{16,}(?:\.[A-Za-z0-9_-]{8,})?$)"
)
"""A key-kind head and a dot before a random body: two letters (``pk.<run>``, ``sk.<run>``: LocationIQ's, Mapbox's),
capitals and a version digit (``KB1.<run>``), an environment between (``pq.live.<run>.<run>``)."""
_HEADED_HEX_RE = lazyre.compile(r"[A-Z]{1,4}(?=(?:[^A-F]*[A-F]){3})(?=(?:[^a-f]*[a-f]){3})[0-9a-fA-F]{32,128}")
"""A capital head before hex mixing letter case (``SK<32 hex>``: a Twilio key's id): a generated key, no digest."""
_OPENER_RE = lazyre.compile(r"[ \t]*[\"']?[A-Za-z_][\w.-]{0,60}[\"']?[ \t]*[:=][ \t]*(?:[{(\[][ \t]*)?")
"""A key opening a block on its own line (``token:``, ``credentials = {``): what its children's values are."""
_SAID_OTHER = ("парол", "パスワード", "暗証番号", "口令", "비밀번호", "암호", "wachtwoord", "hasł", "hasl", "parola")


def bare(span: Span3, found: list[Span3]) -> bool:
    """Whether only a shape-alone rule (:data:`BARE`) found anything where ``span`` lies."""
    start, end, _slug = span
    return all(slug in BARE for s, e, slug in found if s < end and e > start)


def has_evidence(text: str, start: int, end: int) -> bool:
    """Whether anything around ``text[start:end]`` (or its own head) says the run is a secret (module doc)."""
    from .context import VENDORS, named_after, named_before, named_by_secret_word
    from .shapelabels import words_only
    from .siblings import named_by_sibling
    from .vendorprefix import _PREFIXES

    value = text[start:end]
    head = _PREFIX_RE.match(value)
    if head and not words_only(value[head.end() :]):
        return True  # a vendor-style head before a random body (``default-v1-s3-artifact-repository`` is words)
    if _WORD_HEAD_RE.match(value) or value.startswith(_PREFIXES + _PRIVATE_HEADS):
        return True
    if any(value.startswith(_PREFIXES, m.end()) for m in _SEGMENT_RE.finditer(value)):
        return True  # a vendor's token as a piece of a path or a name (``uploads/ghp_….png``)
    if _MIXED_HEX_RE.fullmatch(value) or _HEADED_HEX_RE.fullmatch(value) or _decodes_to_a_secret(value):
        return True
    dot = _DOT_HEAD_RE.match(value)
    if dot and not words_only(value[dot.end() :]):
        return True  # ``pk.<run>``
    line_start = text.rfind("\n", 0, start) + 1
    if _JWT_RE.match(value) or _AZDO_RE.fullmatch(value):
        return True
    if any(head in text[line_start:end] for head in _STRUCTURE_HEADS):
        return True  # the key's body, or a piece of it after its head on the line (escaped line breaks between)
    before = text[line_start:start]
    if _USERINFO_RE.search(before) or _SANCTUM_RE.search(before):
        return True
    begin = text.rfind("-----BEGIN", 0, start)
    pem = _PEM_BEGIN_RE.match(text, begin) if begin >= 0 else None
    if pem is not None and not _PEM_END_RE.search(text, pem.end(), start):
        return True
    low = before.lower()
    if _SAID_RE.search(low) or any(word in low for word in _SAID_OTHER):
        return True
    if _product_alone(before, value):
        return True
    if named_before(text, start) or named_by_secret_word(before[-LINE_WINDOW:]) or _signs_in(before[-LINE_WINDOW:]):
        return True
    if named_by_sibling(text, start):
        return True  # ``- name: DB_PASSWORD`` / ``value: <run>``
    if line_start > 0:
        above = text[text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1]
        if (not before.strip() or _OPENER_RE.fullmatch(above)) and named_by_secret_word(above[-LINE_WINDOW:]):
            return True  # a label on the line above (``shipday key (prod)`` / the value), or a block's key naming a
            # secret over its children (``token:`` / ``  value: <run>``)
    line_end = text.find("\n", end)
    after = text[end : len(text) if line_end < 0 else line_end]
    tag = _CLOSING_RE.match(after)
    if tag and any(word in _TAG_WORDS for word in _words(tag.group("name"))):
        return True
    return named_after(after) or _vendor_after(after[:WINDOW_AFTER], VENDORS)


_ONE_WORD_RE = lazyre.compile(r"(?:^[ \t]*(?:[-*+][ \t]+)?|: )(?P<name>[A-Za-z][A-Za-z0-9]{2,29}):?[ \t]+$")
"""A clause of one word before the value, as a note names the service a key opens (``unify <run>``, ``Ghost: <run>``)."""


def _product_alone(before: str, value: str) -> bool:
    """Whether the value reads random (:func:`.structural._random_value`: no word-like run, few vowels, a random
    string's entropy) and its clause is one word that reads as a product's name (:data:`_ONE_WORD_RE`): no word of
    prose, code or logs (``String``, ``line``, ``output``: :data:`.context._STOP`) and no public label (``customer``,
    ``commit``). A note names what a key opens this way; a tool names a field (``ksuid inspect``'s ``String: <id>``),
    and a setting's word names a host or a path (``prefix: 1234.dkr.ecr….amazonaws.com``)."""
    from .context import _STOP, PUBLIC_LABELS
    from .structural import _random_value

    m = _ONE_WORD_RE.search(before)
    if m is None or not _random_value(value):
        return False
    name = m.group("name").lower()
    return name not in _STOP and name not in PUBLIC_LABELS


def _decodes_to_a_secret(value: str) -> bool:
    """Whether ``value`` is base64 of a text in which redaction finds a secret (a token copied through OSC 52), or of
    a file of lines in which it finds one by more than its shape (a key file, a Kubernetes secret's file)."""
    import base64
    import binascii

    from . import find

    body = value.rstrip("=")
    if len(body) < 16 or not _B64_RE.fullmatch(value):
        return False
    try:
        raw = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_" if "-" in body or "_" in body else None)
        plain = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    if plain.isprintable():
        return bool(find(plain))
    if not plain.replace("\n", "").replace("\r", "").replace("\t", "").isprintable():
        return False  # control bytes: binary, not text
    # A file encoded whole (a PEM key, a YAML or JSON file: issue 32 round 22) counts by a secret a reader names in
    # it (a key block, a password, a vendor's token), not by a run read for its shape alone, bare or after whatever
    # name (:data:`.shapelabels.WEAK`): an age file's header decodes to ``-> X25519 <run>``, and is no secret.
    from .shapelabels import WEAK

    return any(slug not in WEAK for _s, _e, slug in find(plain))


def _words(text: str) -> list[str]:
    from .context import _words as words

    return words(text)


def _signs_in(window: str) -> bool:
    """Whether a call or command that signs in stands before the run (``RESTClient("``, ``connect(``, ``authorize``)."""
    return any(word in _SIGN_IN_WORDS or word.endswith("client") for word in _words(window))


def _vendor_after(after: str, vendors: frozenset[str]) -> bool:
    """Whether a vendor name follows the run among its next words, no public label before it (``<run> is the Acme
    one for prod``)."""
    from .context import PUBLIC_LABELS

    for word in [w.lower() for w in _NAME_WORD_RE.findall(after)][:5]:
        if word in PUBLIC_LABELS:
            return False
        if word in vendors:
            return True
    return False


def keep_bare(text: str, spans: list[Span3], found: list[Span3]) -> list[Span3]:
    """``spans`` less each run only the shape-alone rule found (:func:`.shapelabels.weak`) and nothing around says is
    a secret, each a key naming a public value stands right before (:func:`.shapelabels.countered`) and each setting's
    dotted name under ``key:`` (:func:`.shapelabels.setting_name`); a run that only escaped or plain line breaks part
    from a span kept before it (a key's body cut into lines) goes with that span."""
    from .shapelabels import countered, setting_name, weak

    kept: list[Span3] = []
    dropped: list[Span3] = []
    for span in spans:
        joined = bool(kept) and _GAP_RE.fullmatch(text, kept[-1][1], span[0]) is not None
        if countered(text, span, found) or setting_name(text, span, found):
            continue
        if joined or not weak(span, found) or has_evidence(text, span[0], span[1]):
            kept.append(span)
        else:
            dropped.append(span)
    strong = [span for span in kept if not weak(span, found)]
    beside = [span for span in dropped if strong and _beside(text, span, strong)]
    return sorted(kept + beside) if beside else kept


def _beside(text: str, span: Span3, strong: list[Span3]) -> bool:
    """Whether a span a rule other than the shape rules found lies on the line just above or below ``span``'s: one
    key of a credential block (``id:`` / ``secret:`` / ``session:``, ``webex_bot_token =`` then ``webexbot =``) says
    the others are secrets too. It never alters a look-alike text that was verbatim: the span beside is redacted."""
    line_start = text.rfind("\n", 0, span[0]) + 1
    line_end = text.find("\n", span[1])
    line_end = len(text) if line_end < 0 else line_end
    above = text.rfind("\n", 0, line_start - 1) + 1 if line_start > 0 else line_start
    below = text.find("\n", line_end + 1)
    below = len(text) if below < 0 else below
    return any(above <= s < line_start or line_end < s <= below for s, _e, _slug in strong)
