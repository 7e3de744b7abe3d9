"""Which redaction a kept text was made under: the allow-list's stamp and the detectors' sources (docs/architecture.md §4).

Recall's ``shown`` rows (:mod:`.coldrecall`) and the kept context blocks
(:mod:`.contextcache`) hold text as redaction made it; :func:`redaction_epoch`
names that redaction, so allowing or un-allowing a value, or another memrepo
or Betterleaks version, makes them again. Its own module, so a context block
kept for a new process is checked without importing the recall index.
"""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.files.regularfile import stat_key

ALLOW_FILE = "secrets-allow.json"
"""The allow-list's file in ``.git/memrepo/`` (:data:`memrepo.engine.redaction.allow.FILE_NAME`)."""

_ENGINE = Path(__file__).resolve().parent.parent
_DETECTOR_SOURCES = (
    _ENGINE / "redaction" / "__init__.py",
    _ENGINE / "redaction" / "rules.py",
    _ENGINE / "redaction" / "vendors.py",
    _ENGINE / "redaction" / "speech.py",
    _ENGINE / "redaction" / "said.py",
    _ENGINE / "redaction" / "kingfisher.py",
    _ENGINE / "redaction" / "kingfisher.json",
    _ENGINE / "redaction" / "noseyparker.json",
    _ENGINE / "redaction" / "context.py",
    _ENGINE / "redaction" / "vendorwords.py",
    _ENGINE / "redaction" / "public.py",
    *(
        _ENGINE / "redaction" / f"{name}.py"
        for name in (
            "structure",
            "prefixed",
            "layout",
            "phrases",
            "configs",
            "assignments",
            "authsaid",
            "slots",
            "families",
            "docformats",
            "structural",
            "toolcreds",
            "placed",
            "credsaid",
            "derkeys",
            "wrapjoin",
            "termescapes",
            "views",
            "spanends",
            "repeats",
            "vendorprefix",
            "cmdslots",
            "sqlslots",
            "comparisons",
            "codedefaults",
            "vapidkeys",
            "sigilpasswords",
            "prefixpairs",
            "bytekeys",
            "keypairs",
            "codesaid",
            "pubkeyshapes",
            "valueparts",
            "urltokens",
            "saidaround",
            "publicids",
            "saidplain",
            "publicnumbers",
            "saidlists",
            "keyformats",
            "credfiles",
            "labelnames",
            "accountsaid",
            "iacsecrets",
            "vendorclass",
            "publiclabelled",
            "operands",
            "casualsaid",
            "vendorpublic",
            "placeholders",
            "signatures",
            "uitext",
            "codeforms",
            "attestations",
            "fileforms",
            "vendornames",
            "base64text",
        )
    ),
    _ENGINE / "redaction" / "identifiers.py",
    _ENGINE / "redaction" / "formats.py",
    _ENGINE / "redaction" / "idshapes.py",
    _ENGINE / "redaction" / "idwords.py",
    _ENGINE / "redaction" / "notevalues.py",
    _ENGINE / "redaction" / "configvalues.py",
    _ENGINE / "redaction" / "pubformats.py",
    _ENGINE / "redaction" / "evidence.py",
    _ENGINE / "redaction" / "shapelabels.py",
    _ENGINE / "redaction" / "keynames.py",
    _ENGINE / "redaction" / "slotsyntax.py",
    _ENGINE / "redaction" / "siblings.py",
    _ENGINE / "redaction" / "iacvalues.py",
    _ENGINE / "redaction" / "codenames.py",
    _ENGINE / "redaction" / "publishable.py",
    _ENGINE / "redaction" / "lazyre.py",
    _ENGINE / "redaction" / "checksums.py",
    _ENGINE / "format" / "cleantext.py",
    _ENGINE / "read" / "recallkeys.py",
)
"""What decides how a text is redacted and cleaned: a change to any of them starts a new epoch."""


def _stamp(path: Path) -> str:
    """:func:`.regularfile.stat_key` as text (``-`` when missing)."""
    key = stat_key(path)
    return "-" if key is None else ":".join(map(str, key))


def allow_stamp(state: Path) -> str:
    """The allow-list's stamp alone (``-`` when there is none): what the recall index's stored text was redacted under."""
    return _stamp(state / ALLOW_FILE)


def redaction_epoch(state: Path) -> str:
    """Which redaction a kept ``shown`` row was made under: the allow-list's stamp and the detectors' sources.

    Allowing or un-allowing a value, or another memrepo or Betterleaks
    version, gives another epoch, so every row is made again.

    Args:
        state: the repo's ``.git/memrepo/`` folder.

    Returns:
        str: each file's :func:`.regularfile.stat_key`, ``|``-separated (``-`` for a file that is missing).
    """
    import importlib.util

    parts = [_stamp(state / ALLOW_FILE), *(_stamp(p) for p in _DETECTOR_SOURCES)]
    try:
        spec = importlib.util.find_spec("betterleaks")
    except (ImportError, ValueError):
        spec = None
    parts.append(_stamp(Path(spec.origin)) if spec is not None and spec.origin else "-")
    return "|".join(parts)
