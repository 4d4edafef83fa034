"""The check cache: a file's diagnostics kept under a hash of everything that can change them.

The key covers hclgpu's version, the file's path and bytes, and the evaluation inputs
(``--var`` values, the bytes of ``--var-file`` files, ``NOMAD_VAR_*`` variables,
``--allow-fs``). Files the job's file functions read are recorded with their bytes and
checked on every hit; a job that only looked for files (``fileexists``, ``fileset``) is
not cached, since a new file could change its result. The configuration is not part of the
key: diagnostics are stored before ``select``/``ignore`` apply. Entries live in
``$XDG_CACHE_HOME/hclgpu/check`` (``~/.cache/hclgpu/check``), one small JSON file each,
written atomically; a damaged entry is a miss. Beside them, ``index.json`` records the
files whose check found nothing, by status, so that they need not even be read again
(:mod:`hclgpu.clean_index`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hclgpu import __version__, clean_index
from hclgpu.clean_index import CleanIndex
from hclgpu.diagnostics import Diagnostic, Edit, Related, Severity
from hclgpu.source import SourceFile, Span

Touched = tuple[str, bytes | None]
"""A file the job's file functions read (with its bytes), or only looked for (None)."""


def cache_root() -> Path:
    return Path(clean_index.cache_root())


@dataclass(frozen=True, slots=True)
class Inputs:
    """What evaluation reads besides the file: part of every key."""

    variables: tuple[str, ...] = ()
    var_files: tuple[str, ...] = ()
    allow_fs: bool = False
    env: tuple[tuple[str, str], ...] = ()

    def fingerprint(self) -> str:
        return clean_index.fingerprint(self.variables, self.var_files, self.allow_fs, self.env)


def inputs_from(variables: Sequence[str], var_files: Sequence[str], allow_fs: bool) -> Inputs:
    return Inputs(tuple(variables), tuple(var_files), allow_fs, clean_index.nomad_var_env())


@dataclass(slots=True)
class Cache:
    root: Path = field(default_factory=cache_root)
    hits: int = 0
    misses: int = 0
    index: CleanIndex = field(init=False)
    """Files unchanged since a clean check: not even read again."""

    def __post_init__(self) -> None:
        self.index = CleanIndex(str(self.root), __version__)

    def key(self, path: str, data: bytes, inputs: str) -> str:
        digest = hashlib.sha256(f"{__version__}\0{os.path.abspath(path)}\0{inputs}\0".encode())
        digest.update(data)
        return digest.hexdigest()

    def load(self, key: str, source: SourceFile) -> tuple[list[Diagnostic], bool] | None:
        """The stored diagnostics, and whether the check read other files; None on a miss."""
        try:
            entry = json.loads((self.root / key[:2] / f"{key}.json").read_text(encoding="utf-8"))
            if not all(_unchanged(path, digest) for path, digest in entry["files"]):
                self.misses += 1
                return None
            found = [diagnostic(item, source) for item in entry["diagnostics"]]
        except (OSError, ValueError, KeyError, TypeError):
            self.misses += 1
            return None
        self.hits += 1
        return found, bool(entry["files"])

    def store(self, key: str, diagnostics: Sequence[Diagnostic], touched: Sequence[Touched]) -> None:
        if any(data is None for _, data in touched):
            return  # it looked for files: a file appearing could change the result
        files = [(path, hashlib.sha256(data or b"").hexdigest()) for path, data in touched]
        record = {"files": files, "diagnostics": [entry(d) for d in diagnostics]}
        folder = self.root / key[:2]
        try:
            folder.mkdir(parents=True, exist_ok=True)
            temporary = folder / f".{key}.{os.getpid()}.tmp"
            temporary.write_text(json.dumps(record), encoding="utf-8")
            os.replace(temporary, folder / f"{key}.json")
        except OSError:
            pass  # a read-only or full cache directory only costs speed


def _unchanged(path: str, digest: str) -> bool:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest() == digest
    except OSError:
        return False


def _span(span: Span | None) -> list[int] | None:
    return None if span is None else [span.start, span.end]


def entry(d: Diagnostic) -> dict[str, Any]:
    return {
        "code": d.code,
        "severity": str(d.severity),
        "message": d.message,
        "span": _span(d.span),
        "help": d.help,
        "related": [[r.span.start, r.span.end, r.message] for r in d.related],
        "target": d.target,
        "fix": [[e.span.start, e.span.end, e.text] for e in d.fix],
    }


def diagnostic(item: dict[str, Any], source: SourceFile) -> Diagnostic:
    span = item["span"]
    return Diagnostic(
        code=item["code"],
        severity=Severity(item["severity"]),
        message=item["message"],
        source=source,
        span=None if span is None else Span(span[0], span[1]),
        help=item["help"],
        related=tuple(Related(Span(a, b), m) for a, b, m in item["related"]),
        target=item["target"],
        fix=tuple(Edit(Span(a, b), t) for a, b, t in item["fix"]),
    )
