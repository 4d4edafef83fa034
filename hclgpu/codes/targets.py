"""HG3xx: what a target cannot express, or expresses only approximately."""

from __future__ import annotations

from hclgpu.codes.base import Code, W

HG301 = Code(
    "HG301",
    "unsupported-by-target",
    W,
    summary="A construct the target cannot express; it is left out of the output",
    doc="""What: the job uses something the chosen target has no equivalent for, for
example a Nomad `artifact`, `vault` or a `regexp` device constraint rendered as
Kubernetes node affinity (labels have no regular expressions).

Why: the rendered workload does not do everything the Nomad job does; nothing is
dropped silently, this diagnostic is located at the construct left out.

Example:
    artifact { source = "https://example.com/model.tar.gz" }

Fix: provide the equivalent by other means on the target, choose a mode that can
express it (`--k8s-devices dra` for device regexps), or make it an error with
`--unsupported error`.""",
)


HG302 = Code(
    "HG302",
    "approximated-by-target",
    W,
    summary="A construct the target expresses only approximately",
    doc="""What: the value is translated, but not exactly: a name rewritten to be a valid
DNS label, CPU MHz converted to cores with a configurable factor, a template copied
without being rendered.

Why: the result behaves differently in ways worth knowing; the message names the
target field used.

Example:
    task "Web_Server" { ... }      # becomes the container `web-server`

Fix: nothing if the approximation is fine; otherwise change the job so it maps
exactly.""",
)
