"""The generator of the differential test (tests/differential/jobs.py) draws well-formed cases.

Only the shape of what it draws is checked here, with neither hclgpu nor Nomad: whether
Nomad accepts a job is the differential's business (``python -m tests.differential.run``).
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.differential.jobs import (
    MAX_LINES,
    Attr,
    Block,
    JobFile,
    Layout,
    constraints,
    devices,
    job_files,
    render,
)

SIMPLE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(job_files())
def test_job_files_are_well_formed(job: JobFile) -> None:
    assert isinstance(job, JobFile)
    assert isinstance(job.text, str) and job.text.strip()
    assert job.text.endswith("\n")
    assert 'job "' in job.text
    assert job.text.count("\n") <= MAX_LINES + 10
    assert len(job.args) % 2 == 0
    for flag, value in zip(job.args[::2], job.args[1::2], strict=True):
        assert flag == "-var"
        assert re.match(r"^[a-z_]+=", value), value
    for name, text in job.files:
        assert SIMPLE_NAME.match(name) and name not in (".", ".."), name
        assert "/" not in name and "\\" not in name
        assert isinstance(text, str)
        assert f'"{name}"' in job.text


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_blocks_render_balanced(data: st.DataObject) -> None:
    device = data.draw(devices())
    assert device.type == "device" and len(device.labels) == 1
    rendered = data.draw(st.composite(lambda draw: render(draw, [device], Layout()))())
    assert rendered.startswith('device "') and rendered.endswith("}\n")
    assert rendered.count("{") == rendered.count("}")


@settings(max_examples=20, deadline=None)
@given(constraints(device=True))
def test_device_constraints_target_attributes(block: Block) -> None:
    assert block.type == "constraint"
    attributes = [item for item in block.body if isinstance(item, Attr)]
    assert attributes and attributes[0].name in ("attribute", "distinct_hosts", "distinct_property")


def _rendered(data: st.DataObject, block: Block) -> str:
    return data.draw(st.composite(lambda draw: render(draw, [block], Layout()))())


@settings(max_examples=1, deadline=None)
@given(st.data())
def test_fixed_layouts(data: st.DataObject) -> None:
    one = Block("resources", (), (Attr("cpu", "100"),), style="single")
    task = Block("task", ("t",), (one,), style="multi")
    assert _rendered(data, task) == 'task "t" {\n  resources { cpu = 100 }\n}\n'
    nested = Block(
        "resources", (), (Block("device", ("nvidia/gpu",), (Attr("count", "1"),)),), style="crammed"
    )
    assert _rendered(data, nested) == 'resources { device "nvidia/gpu" { count = 1 } }\n'
    closing = Block("config", (), (Attr("image", '"x"'),), style="close_inline")
    assert _rendered(data, closing) == 'config {\n  image = "x" }\n'
    opening = Block("config", (), (Attr("image", '"x"'), Attr("args", "[]")), style="open_inline")
    assert _rendered(data, opening) == 'config { image = "x"\n  args = []\n}\n'
