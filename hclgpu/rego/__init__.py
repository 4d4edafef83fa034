"""Team policies as code: Rego rules run on the job's API JSON, findings at source lines.

:mod:`~hclgpu.rego.policies` reads the `.rego` files and the rules to ask for,
:mod:`~hclgpu.rego.engine` runs them in a worker process (:mod:`~hclgpu.rego.worker`) with a
time and a memory limit and no environment, :mod:`~hclgpu.rego.findings` turns their values
into HG4xx diagnostics and :mod:`~hclgpu.rego.locate` maps each finding's path back to the HCL
that produced it.
"""

DEFAULT_NAMESPACES = ("main",)
"""The package whose rules run unless ``--namespace`` names others (conftest's default)."""
DEFAULT_TIMEOUT = 10.0
"""Seconds the policies may take on one job file."""
