"""hclgpu: a compiler and validator for Nomad job files that request accelerators."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

__version__ = "0.1.0"

if TYPE_CHECKING:
    from typing import Any

    from hclgpu.diagnostics import Diagnostic
    from hclgpu.ir.models import Job
    from hclgpu.pipeline import Result
    from hclgpu.settings import Settings
    from hclgpu.settings.resolve import Resolver


def loads(text: str, path: str = "<string>", **settings: Any) -> Result:
    """Compile HCL text: a Result with the syntax tree, the job (None on errors) and diagnostics.

    ``settings`` are any of the settings by their Python names (``nomad_version="2.0.5"``,
    ``memory_oversubscription=False``, ``targets=["kubernetes"]``), as the configuration file
    writes their values; no configuration file is read."""
    return _compile(text, path, settings, read_configuration=False)


def load(
    path: str, variables: dict[str, str] | None = None, allow_fs: bool = False, **settings: Any
) -> Result:
    """Compile the job file at ``path`` (UTF-8); file functions read relative to the working
    directory, as `nomad job run` does (``file_base="job-folder"``: to the file's folder).

    The nearest configuration above the file applies, as for `hclgpu check`, and ``settings``
    (any setting by its Python name, as in :func:`loads`) over it, as command-line flags are;
    the diagnostics are those `check` reports with them (`select`, `ignore` and
    `per-file-ignores` applied, the policies run).
    ``variables`` are given as `--var NAME=VALUE` would give them; ``NOMAD_VAR_*`` is not read.
    Raises OSError when the file cannot be read (it must be a regular file of at most 16 MiB),
    ValueError when it is not UTF-8 or a setting cannot be used (an unknown name, a value of
    the wrong kind, a configuration file that cannot be used).
    """
    from hclgpu.io.files import read_text

    given = dict(settings)
    if variables:
        given["var"] = [f"{k}={v}" for k, v in variables.items()]
    if allow_fs:
        given["allow_fs"] = True
    return _compile(read_text(path), path, given, read_configuration=True)


def settings_for(path: str = ".", **settings: Any) -> Settings:
    """The settings that apply to the file (or in the folder) ``path``: ``settings`` over the
    nearest configuration, as :func:`load` compiles it with. ValueError when they cannot be used."""
    import os

    from hclgpu.settings.files import ConfigError

    resolver = _resolver(settings, read_configuration=True)
    try:
        return resolver.for_folder(path) if os.path.isdir(path) else resolver.for_file(path)
    except ConfigError as error:
        raise ValueError(str(error)) from None


def _resolver(settings: dict[str, Any], read_configuration: bool) -> Resolver:
    """The API's keywords as a run's given settings (relative paths from the working
    directory); ValueError for the first that cannot be used."""
    import os

    from hclgpu.settings import Settings as _Settings
    from hclgpu.settings.files import read_values
    from hclgpu.settings.resolve import Resolver as _Resolver

    keys = {o.attr: o for o in _Settings.options()}
    given, problems = read_values(settings, os.getcwd(), keys, "setting")
    if problems:
        raise ValueError(problems[0])
    return _Resolver(given, origin="api", isolated=not read_configuration)


def _compile(text: str, path: str, settings: dict[str, Any], read_configuration: bool) -> Result:
    """Compile as `hclgpu check` does, with the file's settings: its policies run, and only
    the findings its `select`, `ignore` and `per-file-ignores` report are kept."""
    from hclgpu.cli.policy import policy_set
    from hclgpu.diagnostics import Sink, wanted
    from hclgpu.pipeline import compile_source, eval_options
    from hclgpu.settings.files import ConfigError
    from hclgpu.source import SourceFile

    try:
        chosen = _resolver(settings, read_configuration).for_file(path)
    except ConfigError as error:
        raise ValueError(str(error)) from None
    problems = Sink()
    policies = policy_set(chosen, problems)
    if problems.items:
        first = problems.sorted()[0]
        raise ValueError(f"the policies cannot be used: {first.path}: {first.message}")
    options = eval_options(chosen, path, environment=False)
    result = compile_source(SourceFile(path, text), options, policies=policies)
    selected, ignored = chosen.selected, chosen.ignored_for(path)
    result.diagnostics = [d for d in result.diagnostics if wanted(d, selected, ignored)]
    return result


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


__all__ = ["__version__", "load", "loads", "render", "settings_for"]
