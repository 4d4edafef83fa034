"""``python -m hclgpu``."""

from hclgpu.cli import run

run()
