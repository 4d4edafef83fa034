"""From a prepared job file to the IR job: decode the `job` block, then normalise it."""

from __future__ import annotations

from hclgpu.diagnostics import Sink
from hclgpu.eval.program import Prepared
from hclgpu.ir import models as m


def build_job(prepared: Prepared, sink: Sink) -> m.Job | None:
    """Decode and normalise the job; None when there is no usable job block."""
    from hclgpu.ir.custom import CUSTOM_DECODERS, decode_job
    from hclgpu.ir.decode import Decoder
    from hclgpu.ir.normalize import normalize

    block = prepared.job
    if block is None:
        return None
    decoder = Decoder(prepared.evaluator, sink, CUSTOM_DECODERS)
    job, vault, tasks = decode_job(decoder, block, prepared.scope)
    normalize(job, block.labels[0].value, vault, tasks)
    return job
