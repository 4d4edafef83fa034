"""HG29x: suppression comments themselves."""

from __future__ import annotations

from hclgpu.codes.base import Code, W

HG290 = Code(
    "HG290",
    "unused-suppression",
    W,
    summary="A suppression comment suppresses nothing",
    doc="""What: a `# hclgpu-ignore: CODE` (or `hclgpu-ignore-file`) comment names a code
that is not reported where the comment applies.

Why: stale suppressions hide the next real problem on that line and make readers
believe something is wrong when it is not.

Example:
    # hclgpu-ignore: HG210
    count = 1

Fix: remove the comment, or the code from its list.""",
)


HG291 = Code(
    "HG291",
    "invalid-suppression",
    W,
    summary="A suppression comment names a code that cannot be suppressed",
    doc="""What: the code in `# hclgpu-ignore: CODE` does not exist, or belongs to a range
that cannot be suppressed (syntax, evaluation and decoding errors: HG0xx, HG1xx,
HG9xx), since the job Nomad would read is not the job the file describes.

Why: the comment does nothing, and probably a different code was meant.

Example:
    # hclgpu-ignore: HG101

Fix: fix the problem the error reports, or name an HG2xx or HG3xx code.""",
)
