"""Public values in config files, CI files and lockfiles (issue 32, round 15; docs/architecture.md §3).

:func:`spans` adds to :func:`.public.spans`. The values are what
``build_configfiles.py``'s two tuning halves (Kubernetes manifests, compose files,
Dockerfiles, lockfiles, CI workflows, Grafana dashboards, nginx configs, Actions workflows,
Ansible playbooks of nine public repositories) found redacted. Each is recognised by the structure its
format documents, never by looking random or not:

- an image reference ``name:tag`` or ``name@sha256:<64 hex>`` where one is written: after ``FROM [--platform=…]``,
  a YAML ``image:`` key at the start of its line (never "the image: user:pw" in prose), the image argument of
  ``docker|podman|nerdctl pull|run|push|create|tag`` (past its flags and their values: ``--creds user:pw`` is
  no image, B22-1); and only a tag that reads as one (:func:`_tag_ok`: a version, ``latest``, short words; never a
  random run such as ``k7m2p9x4q8w3z6v1`` nor a vendor key's prefix, B22-2);
- a gem's platform-specific version in a ``Gemfile.lock``, ``name (1.2.3-x86_64-linux)``,
  the platform one RubyGems names (``x86_64``, ``arm64``, ``aarch64``, ``java`` ...);
- a GitHub Actions step's action, ``uses: owner/repo[/path]@ref`` (the workflow syntax), the whole line being that;
- a Kubernetes ``apiVersion`` of an API group, ``argoproj.io/v1alpha1`` (a DNS name, then ``v<n>[alpha|beta<n>]``);
- an RPM signing key's file name, ``RPM-GPG-KEY-<name>`` (the file holds a public key; Fedora's and EPEL's naming),
  when the name reads as one (``EPEL-9``, ``fedora-39-x86_64``), never a random run (breaker22);
- a Google Cloud resource name, ``projects/<id>/<collection>/<id>/…`` (cloud.google.com's
  "Resource names": collections are lowerCamel words), as a workload identity provider is written;
- a command-line flag's name up to its ``=`` (``--acme-http01-solver-runtime-class-name=``):
  lower-case words joined by ``-``; the value after it is read as before;
- a Prometheus metric name before its label matchers, ``name{label=~"…"}`` (PromQL);
- a Grafana dashboard's URL, ``http://host:3000/grafana/d/<uid>/<slug>`` (Grafana's URL scheme; no userinfo);
- an OpenSSL or IANA cipher suite name, every piece between ``-``/``_`` a piece of one
  (``ECDHE-RSA-AES256-GCM-SHA384``, ``TLS_AES_128_GCM_SHA256``);
- a GCC/Rust target triple and a tool named by it (``aarch64-linux-gnu-gcc``,
  ``x86_64-unknown-linux-musl``);
- a Nix flake reference, ``github:<owner>/<repo>[/<ref>]`` (also ``gitlab:``, ``sourcehut:``; the flake URL
  syntax) after ``url = "`` or a ``nix`` command, its ref a branch or tag name that reads as one (:func:`_tag_ok`)
  or a 40-hex commit (round 16, pubfiles' tune half), its owner and repository names (no run of 16+ letters and
  digits: a token there is read as one, breaker25 B25-5).

A secret written in these places is not in any of these shapes, so it is still redacted.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int]

_VALUE_FLAGS = (
    r"creds|src-creds|dest-creds|u|user|p|password|password-stdin|e|env|v|volume|name|network|w|workdir|entrypoint"
    r"|l|label|mount|authfile|cert-dir|h|hostname|platform|env-file|a|attach|m|memory|cpus"
)
"""The docker/podman/nerdctl flags whose value is the next argument: never read as the image (B22-1)."""
_IMAGE_REF_RE = lazyre.compile(
    r"(?m)(?:(?<![\w-])FROM[ \t]+(?:--[a-z-]+=\S+[ \t]+)*|^[ \t]*(?:-[ \t]+)?image:[ \t]*[\"']?"
    r"|\b(?:docker|podman|nerdctl)[ \t]+(?:pull|run|push|create|tag)"
    r"(?:[ \t]+(?:--?(?:"
    + _VALUE_FLAGS
    + r")[ \t]+\S+|-{1,2}(?!(?:"
    + _VALUE_FLAGS
    + r")(?![\w-]))[a-z][\w-]*(?:=\S+)?))*[ \t]+)"
    r"(?P<ref>(?:[a-z0-9][a-z0-9._-]*(?::\d+)?/)*[a-z0-9][a-z0-9._-]*"
    r"(?::(?P<tag>[a-z0-9_][a-z0-9_.-]{0,127})|@sha256:[0-9a-f]{64}))(?![\w.:/@-])"
)
"""An image reference where one is written: a Dockerfile ``FROM``, a YAML ``image:`` key at the start of its line,
the image argument of ``docker|podman|nerdctl pull|run|push|create|tag`` (past its flags and their values)."""
_TAG_PIECE_RE = lazyre.compile(
    r"\d+|v\d+|[a-z]{1,16}|[a-z]+\d{1,3}|\d{1,3}[a-z]{1,3}|(?=[a-z0-9]{1,8}$)[a-z]*\d[a-z0-9]*"
)


def _tag_ok(tag: str) -> bool:
    """Whether an image tag reads as a tag: a version (``1.27``, ``3.11-slim``, ``v2.4.1``), ``latest``, a few short
    words (``bookworm``, ``lts-alpine3``); never a random run (``k7m2p9x4q8w3z6v1``) nor a vendor key (``hf_…``)."""
    from .vendorprefix import _PREFIXES

    if len(tag) > 48 or tag.startswith(_PREFIXES) or tag.startswith(("sk-", "pypi-")):
        return False
    return all(_TAG_PIECE_RE.fullmatch(p) for p in tag.replace("_", ".").replace("-", ".").split(".") if p)


_USES_RE = lazyre.compile(
    r"(?m)^[ \t]*(?:-[ \t]+)?uses:[ \t]*['\"]?(?P<ref>[A-Za-z0-9][\w.-]*/[\w.-]+(?:/[\w.-]+)*)@[\w.-]+['\"]?[ \t]*(?:#.*)?$"
)
_API_VERSION_RE = lazyre.compile(
    r"(?<![\w./-])[a-z0-9]+(?:[.-][a-z0-9]+)*\.(?:io|com|dev|org|net|sh|k8s\.io)/v\d+(?:(?:alpha|beta)\d+)?(?![\w./-])"
)
_RPM_KEY_RE = lazyre.compile(r"(?<![\w./-])RPM-GPG-KEY-[A-Za-z0-9]+(?:[-.][A-Za-z0-9]+)*(?![\w-])")
_GEM_PLATFORM_RE = lazyre.compile(
    r"(?m)^[ \t]+[\w.-]+ \((?P<v>\d+(?:\.\w+)+-(?:x86_64|x86|x64|arm64|aarch64|arm|universal|java)"
    r"(?:-(?:linux|darwin|mingw|mswin64|musl|gnu|ucrt|\d+))*)\)"
)
_GCP_NAME_RE = lazyre.compile(r"(?<![\w/])projects/[a-z0-9][\w.-]*(?:/[a-z][a-zA-Z]*/[\w.-]+)+(?![\w/])")
_FLAG_NAME_RE = lazyre.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)+=")
_PROMQL_RE = lazyre.compile(r"(?<![\w:])[a-zA-Z_:][a-zA-Z0-9_:]*(?=\{[a-zA-Z_]\w*(?:=~|!~|!=|=)[\\]?[\"'])")
_GRAFANA_RE = lazyre.compile(
    r"(?:https?://[\w.-]+(?::\d+)?)?(?:/[\w.-]+)*?/d/[A-Za-z0-9_-]{6,40}/[a-z0-9]+(?:-[a-z0-9]+)*(?![\w/-])"
)
_CIPHER_PIECES = frozenset(
    (
        *("TLS", "SSL", "WITH", "ECDHE", "ECDH", "ECDSA", "RSA", "DHE", "DH", "EDH", "DSS", "PSK", "SRP", "ANON"),
        *("AES", "AES128", "AES256", "GCM", "CBC", "CCM", "CCM8", "CHACHA20", "POLY1305", "CAMELLIA128"),
        *("CAMELLIA256", "ARIA128", "ARIA256", "3DES", "EDE", "DES", "RC4", "MD5", "SHA", "SHA1", "SHA256"),
        *("SHA384", "SHA512", "NULL", "EXPORT", "IDEA", "SEED", "128", "256", "EDE3", "CBC3", "KRB5", "ADH", "AECDH"),
    )
)
_CIPHER_RE = lazyre.compile(r"(?<![\w-])[A-Z0-9]+(?:[-_][A-Z0-9]+){2,}(?![\w-])")
_TRIPLE_RE = lazyre.compile(
    r"(?<![\w-])(?:x86_64|aarch64|arm64|armv7|arm|i686|i386|riscv64|powerpc64le|ppc64le|s390x|mips64el|wasm32)"
    r"-(?:(?:unknown|pc|apple|w64|none)-)?(?:linux|darwin|windows|freebsd|none|wasi|mingw32)"
    r"(?:-(?:gnu|musl|gnueabihf|gnueabi|eabihf|eabi|msvc|android|gnux32))?"
    r"(?:-(?:gcc|g\+\+|cc|c\+\+|ld|ar|as|strip|objcopy|clang|clang\+\+|nm|ranlib))?(?![\w-])"
)

_FLAKE_RE = lazyre.compile(
    r"(?:\burl[ \t]*=[ \t]*\"|\bnix[ \t]+[a-z-]+(?:[ \t]+[a-z-]+)?[ \t]+)"
    r"(?P<ref>(?:github|gitlab|sourcehut):~?(?P<owner>[A-Za-z0-9][\w.-]*)/(?P<repo>[\w.-]+)(?:/(?P<rev>[\w.-]+))?)"
    r"(?=[\"?#\s]|$)"
)
_RANDOM_PIECE_RE = lazyre.compile(r"(?:^|[-_.])(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{16,}(?:[-_.]|$)")
"""A run of 16+ letters and digits between separators: no owner's or repository's name but a token (B25-5)."""


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of each config value in ``text`` whose structure checks out (see the module docstring)."""
    if "FROM" in text or "image:" in text or "docker" in text or "podman" in text or "nerdctl" in text:
        for m in _IMAGE_REF_RE.finditer(text):
            if m.group("tag") is None or _tag_ok(m.group("tag")):
                yield m.start("ref"), m.end("ref")
    if " (" in text:
        for m in _GEM_PLATFORM_RE.finditer(text):
            yield m.start("v"), m.end("v")
    if "uses:" in text:
        for m in _USES_RE.finditer(text):
            yield m.start("ref"), m.end("ref")
    if "/v" in text:
        for m in _API_VERSION_RE.finditer(text):
            yield m.span()
    if "RPM-GPG-KEY-" in text:
        for m in _RPM_KEY_RE.finditer(text):
            if _tag_ok(m.group(0)[len("RPM-GPG-KEY-") :].lower()):  # a name ("EPEL-9"), never a random run
                yield m.span()
    if "projects/" in text:
        for m in _GCP_NAME_RE.finditer(text):
            yield m.span()
    if "--" in text:
        for m in _FLAG_NAME_RE.finditer(text):
            yield m.span()
    if "{" in text:
        for m in _PROMQL_RE.finditer(text):
            yield m.span()
    if "/d/" in text:
        for m in _GRAFANA_RE.finditer(text):
            yield m.span()
    for m in _CIPHER_RE.finditer(text):
        pieces = m.group(0).replace("_", "-").split("-")
        if all(p in _CIPHER_PIECES for p in pieces) and any(
            p.startswith(("TLS", "SHA", "ECDHE", "DHE", "AES")) for p in pieces
        ):
            yield m.span()
    if "-" in text:
        for m in _TRIPLE_RE.finditer(text):
            yield m.span()
    if "hub:" in text or "lab:" in text or "hut:" in text:
        for m in _FLAKE_RE.finditer(text):
            rev = m.group("rev")
            if _RANDOM_PIECE_RE.search(m.group("owner")) or _RANDOM_PIECE_RE.search(m.group("repo")):
                continue  # github:acme/<random run>: a token in a name's place is read as one (breaker25 B25-5)
            if rev is None or _tag_ok(rev.lower()) or (len(rev) == 40 and all(c in "0123456789abcdef" for c in rev)):
                yield m.start("ref"), m.end("ref")
