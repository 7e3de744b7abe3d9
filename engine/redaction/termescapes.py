"""Terminal escape sequences read around: their framing dropped, an OSC sequence's payload read as text.

Pasted terminal output carries escape sequences (docs/architecture.md §3, redaction). A colour code
(CSI: ``ESC[38;2;190;132;255m``, or that code with the ESC a writer already dropped) is removed outright, so its
last digits never read as a token's start and a secret a colour code splits is found whole. An OSC sequence
(``ESC ] Ps ; payload BEL`` or ``… ESC \\``) carries text a secret can stand in: a shell's window title holds the
command line (``ESC]0;deploy@ci: export GITHUB_TOKEN=… BEL``), an OSC 8 hyperlink its URL (a password in it),
OSC 52 the clipboard's base64, VS Code's shell integration every command line (``ESC]633;E;<command> BEL``).
Only its framing goes (the opener with its number and the parameters before the payload, and the terminator),
each replaced by one space so the payload stands apart from the text around it; the payload itself is scanned
(breaker25 B25-2: dropping the whole sequence hid every secret inside one).
"""

from __future__ import annotations

from .lazyre import lazy

_ESCAPES_RE = lazy(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\[\d{1,3}(?:;\d{1,3}){0,5}m"
    r"|(?P<frame>\x1b\](?:8;[^;\x07\x1b]{0,256};|52;[cpqs0-7]{0,8};|633;[A-Z];|\d{1,4};)?|\x07|\x1b\\)"
)
"""A CSI sequence or an ESC-less colour code (removed), or an OSC sequence's opener (with the parameters before
its payload: OSC 8's link parameters, OSC 52's clipboard selection, OSC 633's command letter) or terminator
(``frame``: each becomes one space)."""


def view(text: str) -> tuple[str, list[int]] | None:
    """``text`` with its escape sequences' framing read around, and each kept character's index in ``text``.

    Returns:
        tuple[str, list[int]] | None: the text to scan and, for each of its characters, where it stands in
        ``text`` (a space standing for an OSC frame maps to the frame's first character); None when ``text``
        holds no escape sequence.
    """
    if "\x1b" not in text and "\x07" not in text and ("m" not in text or "[" not in text):
        return None
    out: list[str] = []
    index: list[int] = []
    pos = 0
    for m in _ESCAPES_RE.finditer(text):
        out.append(text[pos : m.start()])
        index.extend(range(pos, m.start()))
        if m.group("frame") is not None:
            out.append(" ")
            index.append(m.start())
        pos = m.end()
    if pos == 0:
        return None
    out.append(text[pos:])
    index.extend(range(pos, len(text)))
    return "".join(out), index
