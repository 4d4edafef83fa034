"""The words of a shell line as :func:`shlex.split` reads them, in linear time.

The docker back end parses every line it prints back into words to prove the line gives
exactly its argv. :func:`shlex.split` would do, but it builds each word a character at a
time (``self.token += char``), which is quadratic in the word's length (seconds for a 1 MB
label). :func:`split` reads whole runs of characters with regular expressions and accepts
the same language with the same result: ``shlex.split(text, comments=True)`` in POSIX mode
(blanks are space, tab, CR and LF; ``#`` starts a comment even inside a word; inside double
quotes a backslash escapes only ``\\`` and ``"``; no line continuations), and raises
:class:`ValueError` with shlex's messages for an unclosed quote or a trailing backslash.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(
    r"""(?P<blank>[ \t\r\n]+)
      | (?P<comment>\#[^\n]*\n?)
      | (?P<plain>[^ \t\r\n#'"\\]+)
      | '(?P<single>[^']*)(?P<single_end>'?)
      | "(?P<double>[^"\\]*(?:\\[\s\S][^"\\]*)*)(?P<double_end>"?)
      | \\(?P<escaped>[\s\S]?)
    """,
    re.VERBOSE,
)
_DOUBLE_ESCAPE = re.compile(r'\\([\\"])')


def split(text: str) -> list[str]:
    """The words of ``text``; the same list (or the same error) as ``shlex.split(text, comments=True)``."""
    words: list[str] = []
    parts: list[str] = []
    in_word = False
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind in ("blank", "comment"):
            if in_word:
                words.append("".join(parts))
                parts, in_word = [], False
            continue
        parts.append(_part(match, len(text)))
        in_word = True
    if in_word:
        words.append("".join(parts))
    return words


def _part(match: re.Match[str], end: int) -> str:
    """The characters one quoted, escaped or plain run adds to the word it is in."""
    if match["plain"] is not None:
        return match["plain"]
    if match["single"] is not None:
        if not match["single_end"]:
            raise ValueError("No closing quotation")
        return match["single"]
    if match["double"] is not None:
        if not match["double_end"]:
            # stopped at a backslash with nothing after it, or at the end of the text
            raise ValueError("No escaped character" if match.end() < end else "No closing quotation")
        return _DOUBLE_ESCAPE.sub(r"\1", match["double"])
    if not match["escaped"]:
        raise ValueError("No escaped character")
    return match["escaped"]
