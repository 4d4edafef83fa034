"""What `select`, `ignore`, `per-file-ignores` and suppression comments name: a code
(``HG264``), a code prefix (``HG2``, ``HG26``), a code's name (``server-warning``) or one
check of a code (``memory-oversubscription-disabled``, one of Nomad's server warnings that
HG264 reports).

An entry that names nothing is a usage error, with the nearest real name: `--ignore HG999`
or a misspelt check must not pass for a working configuration.
"""

from __future__ import annotations

import re

from hclgpu.codes import BY_NAME, CHECKS, CODES

_PREFIX = re.compile(r"HG[0-9]{0,3}\Z", re.IGNORECASE)


class UnknownSelector(ValueError):
    """An entry that is neither a code, a code prefix nor the name of a code or check."""


def selector(text: str) -> str:
    """``text`` as a selector: a code prefix in capitals, a name in lower case;
    UnknownSelector, with the closest names, when it names nothing."""
    word = text.strip()
    if _PREFIX.match(word):
        prefix = word.upper()
        if any(code.startswith(prefix) for code in CODES):
            return prefix
        raise UnknownSelector(f"`{word}` is not a code hclgpu has{_closest(prefix, list(CODES))}")
    name = word.lower()
    if name in BY_NAME or name in CHECKS:
        return name
    raise UnknownSelector(
        f"`{word}` is not a code, code prefix or check name{_closest(name, [*BY_NAME, *CHECKS])}"
    )


def selectors(texts: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Each entry as a :func:`selector`, empty entries dropped."""
    return tuple(selector(text) for text in texts if text.strip())


def _closest(word: str, candidates: list[str]) -> str:
    from difflib import get_close_matches

    close = get_close_matches(word, candidates, n=3, cutoff=0.6)
    return (
        f"; did you mean {', '.join(f'`{c}`' for c in close)}?" if close else " (`hclgpu rules` lists them)"
    )


def matches(code: str, check: str, chosen: str) -> bool:
    """Whether a finding of ``code`` by ``check`` is one the selector ``chosen`` names."""
    if chosen[:1] == "H":
        return code.startswith(chosen)
    if chosen == check:
        return True
    named = BY_NAME.get(chosen)
    return named is not None and named.id == code


NEVER_HIDDEN = ("HG0", "HG1", "HG9")
"""Syntax, evaluation/input and internal errors: when one is present the job Nomad would read
is not the one the file shows, so no ``select``/``ignore`` may hide it."""


def can_hide(code: str, severity: str | None = None) -> bool:
    """Whether ``select``/``ignore`` may hide a finding of ``code`` (with ``severity``, else
    the code's own): not an error of the syntax, evaluation, input or hclgpu itself, and not
    a run that could not be made (a policy that does not compile, an unreadable file)."""
    known = CODES.get(code)
    if known is None or known.fatal:
        return False
    return not (code.startswith(NEVER_HIDDEN) and (severity or known.severity) == "error")


def ignorable(text: str) -> str:
    """``text`` as a selector of `ignore` or `per-file-ignores`: one that names a finding it
    can hide (`--ignore HG108` would hide nothing: a job with that error is not checked)."""
    chosen = selector(text)
    if not any(can_hide(code) for code in codes_of(chosen)):
        raise UnknownSelector(
            f"`{text.strip()}` cannot be ignored: an error in the file's syntax, evaluation or input, or"
            " a run that could not be made, is always reported"
        )
    return chosen


def any_matches(code: str, check: str, chosen: tuple[str, ...]) -> bool:
    return any(matches(code, check, one) for one in chosen)


def codes_of(chosen: str) -> list[str]:
    """The codes a selector can match (all of a prefix's, the one of a name)."""
    if chosen[:1] == "H":
        return [code for code in CODES if code.startswith(chosen)]
    named = BY_NAME.get(chosen)
    return [named.id] if named is not None else [CHECKS[chosen]]
