"""hclgpu: a compiler and validator for Nomad job files that request accelerators."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

__version__ = "0.1.0"

if TYPE_CHECKING:
    from typing import Any

    from hclgpu.diagnostics import Diagnostic
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


def render(
    job: Job | Result,
    target: str = "nomad",
    canonicalize: bool = False,
    *,
    diagnostics: list[Diagnostic] | None = None,
    **options: Any,
) -> str:
    """Translate a compiled job for ``target``: the text `hclgpu render --target TARGET`
    prints (Nomad API JSON, Kubernetes YAML, OCI config.json files, docker run lines, a
    Compose file).

    ``options`` are render's flags by their Python names: ``templates``, ``unsupported``,
    ``cpu_mhz_per_core`` for every target, and the target's own (kubernetes:
    ``k8s_devices``, ``namespace``; oci: ``oci_devices``, ``cdi_spec``, ``rootfs``).
    Given the Result of :func:`load` or :func:`loads`, what the target cannot express
    (HG301/HG302) is located in its file; those diagnostics are appended to
    ``diagnostics`` when a list is given. Raises ValueError for an unknown target or
    option, and when the translation has errors (``unsupported="error"``).
    """
    from hclgpu.backends import registry
    from hclgpu.backends.target import Lowering
    from hclgpu.diagnostics import Sink
    from hclgpu.source import SourceFile

    if target not in registry.names():
        raise ValueError(f"unknown target {target!r}; available: {', '.join(registry.names())}")
    from hclgpu.pipeline import Result as _Result

    source, model = (job.source, job.job) if isinstance(job, _Result) else (SourceFile("<job>", ""), job)
    if model is None:
        raise ValueError("the file has errors: there is no job to render")
    if canonicalize:
        from hclgpu.ir.canonical import canonicalize as _canonicalize

        model = _canonicalize(model)
    sink = Sink()
    artifacts = registry.render(
        model, target, Lowering(target, source, sink, registry.render_options(target, **options))
    )
    found = sink.sorted()
    if diagnostics is not None:
        diagnostics.extend(found)
    errors = [d for d in found if d.severity == "error"]
    if errors:
        raise ValueError(f"{target}: {errors[0].code}: {errors[0].message}")
    return registry.get(target).join(artifacts)


__all__ = ["__version__", "load", "loads", "render"]
