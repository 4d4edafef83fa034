"""`# hclgpu-ignore` comments: next line, same line, whole file, unused and invalid ones."""

from __future__ import annotations

from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile


def codes(text: str) -> list[tuple[str, int]]:
    result = compile_source(SourceFile("j.hcl", text))
    return [(d.code, result.source.position(d.span.start).line if d.span else 0) for d in result.diagnostics]


def job(device_body: str, prefix: str = "") -> str:
    return (
        f'{prefix}job "j" {{\n  group "g" {{\n    task "t" {{\n      driver = "docker"\n      resources {{\n'
        f'        device "gpu" {{\n{device_body}\n        }}\n      }}\n    }}\n  }}\n}}\n'
    )


def test_the_rule_fires_without_a_comment() -> None:
    assert codes(job("          count = 0")) == [("HG203", 7)]


def test_a_comment_on_the_line_before_suppresses_by_id_or_name() -> None:
    assert codes(job("          # hclgpu-ignore: HG203\n          count = 0")) == []
    assert codes(job("          // hclgpu-ignore: zero-device-count\n          count = 0")) == []


def test_a_trailing_comment_suppresses_its_own_line() -> None:
    assert codes(job("          count = 0 # hclgpu-ignore: HG203")) == []


def test_a_file_comment_suppresses_everywhere() -> None:
    assert codes(job("          count = 0", prefix="# hclgpu-ignore-file: HG203, HG212\n")) == [("HG290", 1)]


def test_a_comment_two_lines_above_does_not_apply() -> None:
    assert codes(job("          # hclgpu-ignore: HG203\n\n          count = 0")) == [
        ("HG290", 7),
        ("HG203", 9),
    ]


def test_errors_that_break_the_job_cannot_be_suppressed() -> None:
    text = 'job "j" {\n  # hclgpu-ignore: HG101\n  datacentres = ["dc1"]\n}\n'
    assert codes(text) == [("HG291", 2), ("HG101", 3)]


def test_a_suppressed_error_no_longer_blocks_the_job() -> None:
    text = job(
        '          constraint {\n            attribute = "${device.model}"\n'
        '            operator  = "=~"  # hclgpu-ignore: HG220\n            value = "A"\n          }'
    )
    result = compile_source(SourceFile("j.hcl", text))
    assert result.diagnostics == [] and result.job is not None
