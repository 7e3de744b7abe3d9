"""Accepting part of a dream's review: the review branch's changes cut down to the chosen operations.

The Dreams pane lets a person choose review operations one by one; accept merges
only their lines as one merge (docs/architecture.md §6). :func:`partial_review`
works on file bytes alone (no repo, no git), so the dreamer hands it the diff.
"""

from __future__ import annotations

from memrepo.engine.format import entries as fmt

from .record import OpRecord


def _texts(joined: str) -> list[str]:
    return [fmt.normalize_text(t) for t in joined.split("\n") if t.strip()]


def partial_review(
    changed: dict[str, tuple[bytes | None, bytes | None]], chosen: list[OpRecord]
) -> dict[str, bytes | None]:
    """The review branch's changes, cut down to the lines the chosen operations wrote.

    Each changed line of the review diff is told to an operation by its text:
    a removed line by the operation's ``before`` lines, an added one by its
    ``after`` text (an index link by the new file the operation writes). The
    chosen operations' lines are applied to the base text; every other change
    (another operation's, or one no operation claims) is left out.

    Args:
        changed: path -> (base bytes or None, review bytes or None), from
            :meth:`DreamGit.changed_files`.
        chosen: the review operations to keep.

    Returns:
        dict[str, bytes | None]: path -> new bytes, for the files that change.
    """
    import difflib

    removes = [_texts(op.before) if op.op != "add" else [] for op in chosen]
    adds = [_texts(op.after) for op in chosen]
    targets = {op.path for op in chosen if op.path}

    def claim(pool: list[list[str]], text: str) -> bool:
        for texts in pool:
            if text in texts:
                texts.remove(text)  # each line once: two equal lines are two claims
                return True
        return False

    def entry_text(line: bytes) -> str | None:
        entry = fmt.parse_entry(line.decode("utf-8", "replace").rstrip("\r\n"))
        return None if entry is None else fmt.normalize_text(entry.text)

    out: dict[str, bytes | None] = {}
    for path, (old, new) in sorted(changed.items()):
        if new is None:
            continue  # operations never delete a file
        if old is None and path not in targets:
            continue  # a new file only the others write
        old_lines = (old or b"").splitlines(keepends=True)
        new_lines = new.splitlines(keepends=True)
        result: list[bytes] = []
        matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                result += old_lines[i1:i2]
                continue
            for line in old_lines[i1:i2]:
                text = entry_text(line)
                if text is None or not claim(removes, text):
                    result.append(line)  # another operation's removal, or none's: kept
            for line in new_lines[j1:j2]:
                text = entry_text(line)
                if text is None:
                    if old is None:
                        result.append(line)  # a new file's heading and blank lines
                    continue
                links = [f"{link}.md" for link in fmt.extract_links(line.decode("utf-8", "replace"))]
                if claim(adds, text) or (links and set(links) <= targets and fmt.is_link_line(text)):
                    result.append(line)
        data = b"".join(result)
        if data != (old or b""):
            out[path] = data
    return out


__all__ = ["partial_review"]
