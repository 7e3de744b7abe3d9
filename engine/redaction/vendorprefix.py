"""Vendor tokens by their documented prefix (``github_pat_``, ``hf_``, ``hvs.``, ``glsa_``, ``sntrys_`` ...), and the
exact shapes some vendors give without one; :mod:`.rules` runs them (docs/architecture.md §3, redaction).
"""

from __future__ import annotations

import re

from . import lazyre

_PREFIXES = (
    "github_pat_",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "glpat-",
    "glptt-",
    "gldt-",
    "glrt-",
    "glcbt-",
    "glft-",
    "glimt-",
    "glagent-",
    "glsoat-",
    "glsa_",
    "glc_",
    "hf_",
    "api_org_",
    "hvs.",
    "hvb.",
    "hvr.",
    "npm_",
    "pypi-",
    "dop_v1_",
    "doo_v1_",
    "dor_v1_",
    "dsk_v1_",
    "shpat_",
    "shpss_",
    "shpca_",
    "shppa_",
    "sntrys_",
    "sntryu_",
    "sk_live_",
    "sk_test_",
    "rk_live_",
    "rk_test_",
    "pk_live_",
    "pk_test_",
    "whsec_",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xoxr-",
    "xoxe-",
    "xoxs-",
    "xapp-",
    "sk-ant-",
    "sk-proj-",
    "sk-svcacct-",
    "sk-admin-",
    "xai-",
    "gsk_",
    "pscale_tkn_",
    "pscale_pw_",
    "pscale_oauth_",
    "tfp_",
    "CFPAT-",
    "dp.pt.",
    "dp.st.",
    "dp.ct.",
    "dp.sa.",
    "dp.scim.",
    "lin_api_",
    "figd_",
    "phc_",
    "phx_",
    "r8_",
    "SG.",
    "rubygems_",
    "ATATT",
    "ATCTT",
    "nvapi-",
    "pcsk_",
    "ntn_",
    "mdb_sa_sk_",
    "tskey-",
    "dckr_pat_",
    "sq0atp-",
    "sq0csp-",
    "AIza",
    "ya29.",
    "AKIA",
    "ASIA",
    "LTAI",
    "bkua_",
    "fo1_",
    "sgp_",
    "rnd_",
    "vcp_",
    "vck_",
    "AstraCS:",
    "atlasv1.",
    "PMAK-",
    "AGE-SECRET-KEY-1",
    "aio_",
    "sk-",
    "VF.DM.",
    "pat-na1-",
    "pat-eu1-",
    "slk_",
    "pub-c-",
    "sub-c-",
    "sec-c-",
    "NRAK-",
    "NRAA-",
    "NRII-",
    "NRIQ-",
)
"""Each a vendor's documented token prefix. New Relic's user (``NRAK-``), admin (``NRAA-``), insert (``NRII-``) and query (``NRIQ-``) keys, not its browser
and mobile keys (``NRJS-``, ``NRBR-``, ``AA…-NRMA``), which ship inside web pages and apps as publishable keys do."""

_EXACT_RE = lazyre.compile(
    r"(?<![A-Za-z0-9_])(?P<value>s\.[A-Za-z0-9]{24}|key-[0-9a-f]{32}|dapi[0-9a-f]{32}|oy2[a-z0-9]{43}"
    r"|sk_[A-Za-z0-9_]{30,512}|[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk|1000\.[a-f0-9]{32}\.[a-f0-9]{32}|AC[0-9a-f]{32}|SK[0-9a-f]{32}|EAA[A-Za-z0-9]{60,1024}"
    r"|PMAT-[0-9A-HJKMNP-TV-Z]{26}|(?:ABIA|ACCA)(?=[A-Z]{0,15}[0-9])[A-Z0-9]{16}"
    r"|akab-[a-z0-9]{16}-[a-z0-9]{16}(?!\.[a-z])|(?<![+/])S[ACNOPUX][A-Z2-7]{56}(?![+/=])"
    r"|(?<![+/])[A-Za-z0-9]{11}A{10}[A-Za-z0-9_=-]{43}(?![+/])"
    r"|HRKU-(?:[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}|[A-Za-z0-9_-]{60}))(?![A-Za-z0-9_])"
)
"""Vendor keys of one exact shape. Postman's collection access key ``PMAT-`` + 26 Crockford base32 (a ULID, as
Postman prints it in a collection's ``access_key=`` link; ``PMAT-802`` is a ticket). AWS key ids ``ABIA…``/``ACCA…``
(gitleaks' aws rule, MIT) only as the id is written, 20 upper-case letters and digits with a digit
(``ABIAS9L8MS5IPHTZPPUQ``, as key ids are quoted in tests and docs): a word starting so is a word (``ACCA-SBR-2024``
an exam, breaker25 B25-3), unlike ``AKIA``/``ASIA`` no prefix of ``_PREFIXES``. Akamai EdgeGrid's tokens
(``akab-`` + two runs of 16, the client and access tokens alike; not its API host, ``akab-….luna.akamaiapis.net``);
Heroku's API keys since 2024 (``HRKU-`` + a UUID or 60 characters, whole: a run going on is no key); a NATS NKey seed (``S`` + the key's type letter
+ 56 base32 characters: the seed, never the public key, which starts ``U``/``N``/``A``/``O``/``C``/``X``/``P``
without the ``S``); a Dropbox long-lived token (11 characters, ten ``A``, 43 more: gitleaks' dropbox rule, MIT). Neither
seed nor Dropbox token sits inside a run of standard base64 (a ``+`` or ``/`` beside it, as in a PEM, SSH or age
body, where zero bytes read ``AAAA…``): NKeys are base32, Dropbox's tokens base64url (issue 32 round 23)."""
_PREFIX_RE = lazyre.compile(
    r"(?<![A-Za-z0-9_./+-])(?P<value>(?:"
    + "|".join(re.escape(p) for p in sorted(set(_PREFIXES), key=len, reverse=True))
    + r")[A-Za-z0-9_.=+/:-]{14,4096})"
)

VENDOR_TYPES = (
    (("github_pat_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"), "github-token"),
    (("glpat", "glptt-", "gldt-", "glrt-", "glcbt-", "glft-", "glimt-", "glagent-", "glsoat-"), "gitlab-token"),
    (("xox", "xapp-"), "slack-token"),
    (("sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_", "whsec_"), "stripe-key"),
    (("sk-ant-",), "anthropic-key"),
    (("sk-proj-", "sk-svcacct-", "sk-admin-", "sk-"), "openai-key"),
    (("AKIA", "ASIA", "ABIA", "ACCA"), "aws-access-key"),  # ABIA/ACCA only in the key id's exact shape (placed.py)
    (("AIza", "ya29.", "1//0"), "google-token"),
    (("hf_", "api_org_"), "huggingface-token"),
    (("hvs.", "hvb.", "hvr."), "vault-token"),
    (("npm_",), "npm-token"),
    (("pypi-",), "pypi-token"),
    (("glsa_", "glc_"), "grafana-token"),
    (("dop_v1_", "doo_v1_", "dor_v1_", "dsk_v1_"), "digitalocean-token"),
    (("shpat_", "shpss_", "shpca_", "shppa_"), "shopify-token"),
    (("sntrys_", "sntryu_"), "sentry-token"),
)


def vendor_type(value: str) -> str:
    """The type named after a vendor token's prefix (``github-token``, ``vault-token`` ...)."""
    for prefixes, slug in VENDOR_TYPES:
        if value.startswith(prefixes):
            return slug
    return "vendor-token"
