"""The check cache: a file's diagnostics kept under a hash of everything that can change them.

The key covers hclgpu's version, the file's path and bytes, the working directory (messages
name files relative to it) and the inputs (``--var`` values, the bytes of ``--var-file``
files, ``NOMAD_VAR_*`` variables, ``--allow-fs``, the cluster profile of the file's settings,
the policies, and whether a folder's walk found the file). Files the job's file
functions read are recorded with their bytes and checked on every hit; a job that only
looked for files (``fileexists``, ``fileset``), or failed to read one, is not cached,
since a new file could change its result. A diagnostic located in another file (a
var-file) is stored with that file's name and text. Which findings are shown is not part
of the key: diagnostics are stored before ``select``/``ignore`` apply. Entries live in
``$XDG_CACHE_HOME/hclgpu/check`` (``~/.cache/hclgpu/check``), one small JSON file each,
written atomically; a damaged entry is a miss. Beside them, ``index.json`` records the
files whose check found nothing, by status, so that they need not even be read again
(:mod:`hclgpu.cli.clean_index`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hclgpu import __version__
from hclgpu.cli import clean_index
from hclgpu.cli.clean_index import CleanIndex
from hclgpu.codes import Severity
from hclgpu.diagnostics import Diagnostic, Edit, Related
from hclgpu.io.files import read_bytes, remove_quietly
from hclgpu.settings.profile import Profile
from hclgpu.source import SourceFile, Span

if TYPE_CHECKING:
    from hclgpu.rego.policies import PolicySet
    from hclgpu.settings import Settings

Touched = tuple[str, bytes | None]
"""A file the job's file functions read (with its bytes), or only looked for (None)."""


def cache_root() -> Path:
    return Path(clean_index.cache_root())


@dataclass(frozen=True, slots=True)
class Inputs:
    """What checking a file reads besides the file: part of every key."""

    variables: tuple[str, ...] = ()
    var_files: tuple[str, ...] = ()
    allow_fs: bool = False
    env: tuple[tuple[str, str], ...] = ()
    profile: Profile = field(default_factory=Profile)
    """The cluster the job is checked for (its folder's settings)."""
    policies: PolicySet | None = None
    """The team's Rego policies (``--policy``), run on every job."""
    walked: bool = False
    """Found by walking a folder: a file that is not a job file is only noted (HG023)."""
    file_base: str = "working-directory"
    """Where file functions resolve relative paths (the `file-base` setting)."""

    def fingerprint(self) -> str:
        """What the record of clean files is keyed by (a clean file is a job file, whose
        findings do not depend on :attr:`walked`); the cache's key adds :attr:`walked`."""
        return clean_index.fingerprint(
            self.variables, self.var_files, self.allow_fs, self.env, self.profile.key(),
            self.policies.fingerprint if self.policies is not None else "", self.file_base,
        )  # fmt: skip


def inputs_from(settings: Settings, policies: PolicySet | None = None, walked: bool = False) -> Inputs:
    """The inputs of checking a file with ``settings`` (and the environment's NOMAD_VAR_*)."""
    env = clean_index.nomad_var_env()
    return Inputs(
        settings.var, settings.var_file, settings.allow_fs, env, settings.profile, policies, walked,
        settings.file_base,
    )  # fmt: skip


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
        place = f"{os.getcwd()}\0{os.path.abspath(path)}"
        digest = hashlib.sha256(f"{__version__}\0{place}\0{inputs}\0".encode())
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
        except (OSError, ValueError, KeyError, TypeError, IndexError):  # missing or damaged
            self.misses += 1
            return None
        self.hits += 1
        return found, bool(entry["files"])

    def store(self, key: str, entries: Sequence[dict[str, Any]], touched: Sequence[Touched]) -> None:
        """Keep a file's diagnostics (as :func:`entry` data) and the files its check read."""
        if any(data is None for _, data in touched):
            return  # it looked for files: a file appearing could change the result
        files = [(path, hashlib.sha256(data or b"").hexdigest()) for path, data in touched]
        record = {"files": files, "diagnostics": list(entries)}
        folder = self.root / key[:2]
        temporary = folder / f".{key}.{os.getpid()}.tmp"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            temporary.write_text(json.dumps(record), encoding="utf-8")
            os.replace(temporary, folder / f"{key}.json")
        except OSError:
            pass  # a read-only or full cache directory only costs speed
        finally:  # interrupted or failed: no temporary file is left behind
            remove_quietly(str(temporary))


def _unchanged(path: str, digest: str) -> bool:
    try:
        return hashlib.sha256(read_bytes(path)[0]).hexdigest() == digest
    except OSError:
        return False


def _span(span: Span | None) -> list[int] | None:
    return None if span is None else [span.start, span.end]


def entry(d: Diagnostic, job: SourceFile) -> dict[str, Any]:
    """``d`` as plain JSON data; its file's name and text too when it is not ``job``'s."""
    item: dict[str, Any] = {
        "code": d.code,
        "severity": str(d.severity),
        "message": d.message,
        "span": _span(d.span),
        "help": d.help,
        "related": [[r.span.start, r.span.end, r.message] for r in d.related],
        "target": d.target,
        "fix": [[e.span.start, e.span.end, e.text] for e in d.fix],
        "fix_safe": d.fix_safe,
        "check": d.check,
    }
    if d.source.path != job.path or d.source.text != job.text:
        item["source"] = [d.source.path, d.source.text]
    return item


def diagnostic(item: dict[str, Any], job: SourceFile) -> Diagnostic:
    """The diagnostic :func:`entry` stored, located in ``job`` unless it names its own file.

    Stored data may be damaged: anything of the wrong shape raises ``ValueError`` (or
    ``TypeError``, ``KeyError``, ``IndexError``), which the cache takes for a miss."""
    source = SourceFile(*_strings(item["source"], 2)) if "source" in item else job
    span = item["span"]
    return Diagnostic(
        code=_string(item["code"]),
        severity=Severity(item["severity"]),
        message=_string(item["message"]),
        source=source,
        span=None if span is None else _checked_span(span[0], span[1], source),
        help=None if item["help"] is None else _string(item["help"]),
        related=tuple(Related(_checked_span(a, b, source), _string(m)) for a, b, m in item["related"]),
        target=None if item["target"] is None else _string(item["target"]),
        fix=tuple(Edit(_checked_span(a, b, source), _string(t)) for a, b, t in item["fix"]),
        check=None if item["check"] is None else _string(item["check"]),
        fix_safe=item["fix_safe"] is True,
    )


def _string(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"a string was expected, not {value!r}")
    return value


def _strings(values: list[object], count: int) -> list[str]:
    if len(values) != count:
        raise ValueError(f"{count} strings were expected")
    return [_string(v) for v in values]


def _checked_span(start: object, end: object, source: SourceFile) -> Span:
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(source.text)):
        raise ValueError(f"no span [{start!r}, {end!r}] in {source.path}")
    return Span(start, end)
