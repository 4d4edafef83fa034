"""Back ends: one package per target, each lowering the IR job to that target's documents.

:mod:`~hclgpu.backends.registry` names the targets and loads each when it is first used;
:mod:`~hclgpu.backends.target` holds what every back end shares (options, the lowering
context that reports HG301/HG302, artifacts); :mod:`~hclgpu.backends.containers` what the
container targets read from a group alike. Importing this package loads nothing.
"""
