"""Nomad's own parser and validator as programs (``../shared/oracle``), and what they say.

``jobspec2-oracle`` prints what ``nomad job run -output`` prints; ``validate-oracle -json``
what ``nomad job validate`` decides without an agent, plus the self-contained checks of the
server's admission validator (``ServerHookErrors``). Both run in the job file's folder with
its base name, as Nomad's CLI gives its parser ``Path`` (file functions read from there).

A :class:`NomadVerdict` is what the differential compares and what tests/data/oracle keeps:
the parse error (its ``file:line,col`` places), Nomad's validation errors and warnings as
their innermost messages (a ``multierror`` nests "Task group g validation failed: 1 error
occurred:" around each), and a digest of the API JSON.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("HCLGPU_ORACLE", ROOT.parent / "shared" / "oracle"))
"""Where the two programs are (``HCLGPU_ORACLE`` overrides)."""
TIMEOUT = 60


def available() -> bool:
    return all((ORACLE / name).is_file() for name in ("jobspec2-oracle", "validate-oracle"))


@dataclass(frozen=True)
class NomadVerdict:
    """What Nomad said of one job file."""

    parse_error: str = ""
    """jobspec2's error text; empty when the file parsed."""
    places: tuple[tuple[int, int], ...] = ()
    """The ``(line, column)`` of each diagnostic of the parse error, in this file."""
    errors: tuple[str, ...] = ()
    """``Job.Validate``'s errors, innermost messages, in Nomad's order."""
    server_errors: tuple[str, ...] = ()
    """The server admission validator's self-contained checks (``nomad job run`` only)."""
    warnings: tuple[str, ...] = ()
    api: str = ""
    """The SHA-256 of the API JSON (compact, keys in Nomad's order); empty when not parsed."""
    api_json: dict[str, object] | None = field(default=None, compare=False, repr=False)
    """The API JSON itself, when just run (never stored)."""

    @property
    def accepted(self) -> bool:
        return not (self.parse_error or self.errors or self.server_errors)

    def record(self) -> dict[str, object]:
        """The verdict as tests/data/oracle stores it."""
        kept = asdict(self)
        del kept["api_json"]
        kept["places"] = [list(place) for place in self.places]
        return {key: value for key, value in kept.items() if value not in ("", (), [])}

    @classmethod
    def from_record(cls, data: dict[str, object]) -> NomadVerdict:
        places = tuple((int(p[0]), int(p[1])) for p in data.get("places", ()))  # type: ignore[union-attr]
        texts = {key: tuple(data.get(key, ())) for key in ("errors", "server_errors", "warnings")}  # type: ignore[arg-type]
        return cls(str(data.get("parse_error", "")), places, **texts, api=str(data.get("api", "")))


def digest(api_json: object) -> str:
    """The digest two API JSON documents share exactly when they are the same JSON, keys in
    the same order, numbers of the same type."""
    text = json.dumps(api_json, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def run_nomad(path: Path, args: Sequence[str] = ()) -> NomadVerdict:
    """Both programs on the job file at ``path``, run from its folder."""
    parsed = _run("jobspec2-oracle", path, args)
    if parsed.returncode != 0:
        text = parsed.stdout.strip() or parsed.stderr.strip()
        return NomadVerdict(parse_error=text, places=parse_places(text, path.name))
    api_json = json.loads(parsed.stdout)
    checked = _run("validate-oracle", path, ["-json", *args])
    answer = json.loads(checked.stdout)
    return NomadVerdict(
        errors=tuple(m for text in answer.get("ValidationErrors") or () for m in leaves(text)),
        server_errors=tuple(answer.get("ServerHookErrors") or ()),
        warnings=tuple(leaves(answer.get("Warnings") or "")),
        api=digest(api_json),
        api_json=api_json,
    )


def _run(program: str, path: Path, args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ORACLE / program), *args, path.name],
        cwd=path.parent,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/")},
    )


_WRAPPER = re.compile(r'(^|: )"?\d+ (errors|error|warnings|warning) occurred:$|^\d+ warnings?:$|^"$')
"""A line of ``hashicorp/go-multierror``'s text that only announces the messages below it
(``Volume Mount (0) is invalid: "1 error occurred:`` quotes the list it wraps)."""


def leaves(text: str) -> list[str]:
    """The innermost messages of a ``multierror`` text, in order (each appears once)."""
    found: list[str] = []
    for line in text.splitlines():
        message = line.strip().removeprefix("* ").strip()
        if message and not _WRAPPER.search(message) and message not in found:
            found.append(message)
    return found


def parse_places(text: str, name: str) -> tuple[tuple[int, int], ...]:
    """Where a parse error's diagnostics are, in the file called ``name``."""
    pattern = re.compile(rf"^{re.escape(name)}:(\d+),(\d+)-", re.MULTILINE)
    return tuple(dict.fromkeys((int(m[1]), int(m[2])) for m in pattern.finditer(text)))
