"""What the readers take for text (engine/files/regularfile.is_text; docs/architecture.md §3)."""

from __future__ import annotations

import pytest

from memrepo.engine.files.regularfile import is_text


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"- plain [by: user]\n", True),
        ("- Café 東京 [by: user]\n".encode(), True),
        ("- 東京".encode()[:-1], True),  # cut mid-character by a read limit
        (b"- Caf\xe9 [by: user]\n", False),  # a Latin-1 save
        (b"- x \xff", False),  # a byte no UTF-8 character starts with, even at the end
        (b"- a \0 byte\n", False),
    ],
)
def test_is_text(data: bytes, text: bool) -> None:
    assert is_text(data) is text
