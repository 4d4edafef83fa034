"""``python -m hclgpu``."""

from hclgpu.cli import main

raise SystemExit(main())
