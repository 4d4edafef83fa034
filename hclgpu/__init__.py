"""hclgpu: a compiler and validator for Nomad job files that request accelerators."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

__version__ = "0.1.0"

if TYPE_CHECKING:
    from hclgpu.ir.models import Job
    from hclgpu.pipeline import Result


def loads(text: str, path: str = "<string>") -> Result:
    """Compile HCL text: a Result with the syntax tree, the job (None on errors) and diagnostics."""
    from hclgpu.pipeline import loads as _loads

    return _loads(text, path)


def load(path: str, variables: dict[str, str] | None = None, allow_fs: bool = False) -> Result:
    """Compile the job file at ``path`` (UTF-8); file functions read relative to its directory.

    ``variables`` are given as `--var NAME=VALUE` would give them; ``NOMAD_VAR_*`` is not read.
    Raises OSError when the file cannot be read (it must be a regular file of at most 16 MiB)
    and ValueError when it is not UTF-8.
    """
    from pathlib import Path

    from hclgpu.eval.program import EvalOptions
    from hclgpu.eval.variables import VariableInputs
    from hclgpu.io.files import read_text
    from hclgpu.pipeline import compile_source
    from hclgpu.source import SourceFile

    file = Path(path)
    inputs = VariableInputs(args=[f"{k}={v}" for k, v in (variables or {}).items()])
    options = EvalOptions(inputs, base_dir=file.parent, allow_fs=allow_fs)
    return compile_source(SourceFile(path, read_text(file)), options)


def render(job: Job, target: str = "nomad", canonicalize: bool = False) -> str:
    """Translate a compiled job; ``target`` is "nomad" (API JSON, as `nomad job run -output`)."""
    if target != "nomad":
        raise ValueError(f"unknown target {target!r}; available: nomad")
    from hclgpu.backends import nomad

    if canonicalize:
        from hclgpu.ir.canonical import canonicalize as _canonicalize

        job = _canonicalize(job)
    return nomad.render(job)


__all__ = ["__version__", "load", "loads", "render"]
