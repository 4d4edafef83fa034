"""Device rules (HG201-HG237) on small jobs: each fires where it should and only there."""

from __future__ import annotations

import pytest

from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile


def device_job(device: str, task_extra: str = "") -> str:
    return (
        'job "j" {\n  group "g" {\n    task "t" {\n      driver = "docker"\n'
        f"{task_extra}"
        f"      resources {{\n{device}\n      }}\n    }}\n  }}\n}}\n"
    )


def found(text: str) -> list[tuple[str, str]]:
    """(code, the source text the diagnostic points at)."""
    result = compile_source(SourceFile("j.hcl", text))
    return [
        (d.code, result.source.text[d.span.start : d.span.end] if d.span else "") for d in result.diagnostics
    ]


def constraint(attribute: str, operator: str, value: str) -> str:
    return (
        f'        device "nvidia/gpu" {{\n          constraint {{\n            attribute = "{attribute}"\n'
        f'            operator  = "{operator}"\n            value     = "{value}"\n          }}\n        }}'
    )


def affinity(attribute: str, value: str, weight: str) -> str:
    return (
        f'        device "nvidia/gpu" {{\n          affinity {{\n            attribute = "{attribute}"\n'
        f'            value     = "{value}"\n            weight    = {weight}\n          }}\n        }}'
    )


def test_a_good_gpu_request_is_clean() -> None:
    device = (
        '        device "nvidia/gpu" {\n          count = 2\n'
        '          constraint {\n            attribute = "${device.attr.memory}"\n'
        '            operator  = ">="\n            value     = "16 GiB"\n          }\n'
        '          affinity {\n            attribute = "${device.model}"\n'
        '            value     = "NVIDIA A100-SXM4-80GB"\n            weight    = 50\n          }\n        }'
    )
    assert found(device_job(device)) == []


@pytest.mark.parametrize(
    ("name", "codes"),
    [
        ("gpu", []),
        ("nvidia/gpu", []),
        ("nvidia/gpu/Tesla T4", []),
        ("", ["HG201"]),
        ("/", ["HG201"]),
        ("nvidia//T4", ["HG202"]),
        ("nvidia /gpu", ["HG202"]),
        ("a/b/c/d", ["HG202"]),
    ],
)
def test_device_names(name: str, codes: list[str]) -> None:
    assert [c for c, _ in found(device_job(f'        device "{name}" {{}}'))] == codes


def test_count_zero_and_duplicates() -> None:
    assert found(device_job('        device "gpu" {\n          count = 0\n        }')) == [("HG203", "0")]
    twice = '        device "gpu" {}\n        device "gpu" {}'
    assert found(device_job(twice)) == [("HG204", '"gpu"')]


@pytest.mark.parametrize(
    ("target", "codes"),
    [
        ("${device.model}", []),
        ("${device.ids}", []),
        ("${device.attr.memory}", []),
        ("${node.class}", ["HG210"]),
        ("${attr.kernel.name}", ["HG210"]),
        ("${meta.rack}", ["HG210"]),
        ("${device.foo}", ["HG210"]),
        ("${ device.model }", ["HG212", "HG288"]),  # Nomad 1.11.2+ refuses it too
        ("${device.attr.memory_mb}", ["HG213"]),
        ("${device.attr.Memory}", ["HG213"]),
    ],
)
def test_device_targets(target: str, codes: list[str]) -> None:
    assert [c for c, _ in found(device_job(constraint(target, "=", "x")))] == codes


def test_device_targets_in_node_constraints() -> None:
    task = '      constraint {\n        attribute = "${device.model}"\n        value     = "A100"\n      }\n'
    assert found(device_job('        device "gpu" {}', task)) == [("HG211", '"${device.model}"')]


@pytest.mark.parametrize(
    ("operator", "value", "codes"),
    [
        ("=~", "x", ["HG220"]),
        ("distinct_hosts", "", ["HG221"]),
        ("regexp", "^(?!Tesla).*", ["HG222"]),
        ("regexp", "Tesla.*", []),
        ("version", "=> 535", ["HG223"]),
        ("version", ">= 535, < 600", []),
        ("set_contains", "", ["HG224"]),
        ("=", "", ["HG224"]),
        ("is_set", "x", ["HG225"]),
        ("is_set", "", []),
    ],
)
def test_operators(operator: str, value: str, codes: list[str]) -> None:
    assert [c for c, _ in found(device_job(constraint("${device.model}", operator, value)))] == codes


def test_an_empty_affinity_value_is_pointed_at_where_it_is_written() -> None:
    """`value = ""` (a blank a script was to fill) is what Nomad refuses: the finding is there."""
    assert found(device_job(affinity("${device.model}", "", "50"))) == [("HG224", '""')]


def test_is_set_in_an_affinity_is_refused() -> None:
    text = device_job(
        '        device "gpu" {\n          affinity {\n            attribute = "${device.model}"\n'
        '            operator  = "is_set"\n          }\n        }'
    )
    assert found(text) == [("HG221", '"is_set"')]


def test_dropped_shortcut_is_reported_once_with_the_value_it_leaves_missing() -> None:
    """Nomad's server refuses the `=` the dropped shortcut leaves ("Operator \"=\" requires an
    RTarget"): an error at the constraint, and the shortcut said once."""
    text = device_job(
        '        device "gpu" {\n          constraint {\n            attribute = "${device.model}"\n'
        '            set_contains_any = "A100,H100"\n          }\n        }'
    )
    assert found(text) == [("HG224", "constraint"), ("HG226", "set_contains_any")]


@pytest.mark.parametrize(
    ("weight", "codes"),
    [("50", []), ("-100", []), ("0", ["HG230"]), ("120", ["HG231"]), ("200", ["HG232"]),
     ("130", ["HG231", "HG232"]), ("12.5", ["HG233"]), ("-50.7", ["HG233"])],
)  # fmt: skip
def test_affinity_weights(weight: str, codes: list[str]) -> None:
    assert sorted(c for c, _ in found(device_job(affinity("${device.model}", "A100", weight)))) == codes


@pytest.mark.parametrize(
    ("attribute", "operator", "value", "codes"),
    [
        ("${device.attr.memory}", ">=", "16 GiB", []),
        ("${device.attr.memory}", ">=", "16384 MiB", []),
        ("${device.attr.memory}", ">=", "16384", ["HG214"]),
        ("${device.attr.memory}", "!=", "16384", ["HG214"]),
        ("${device.attr.memory}", ">=", "16 gb", ["HG215"]),
        ("${device.attr.cores_clock}", ">=", "3 Hz", ["HG215"]),
        ("${device.attr.memory}", ">=", "2 GHz", ["HG216"]),
        ("${device.attr.pci_bandwidth}", ">=", "15 GiB", ["HG216"]),
        ("${device.attr.pci_bandwidth}", ">=", "15 GiB/s", []),
        ("${device.attr.memory}", ">=", "5 GiB ", ["HG217"]),
        ("${device.attr.persistence_mode}", "=", "T", ["HG218"]),
        ("${device.attr.persistence_mode}", "=", "Enabled", []),
        ("${device.attr.memory}", "<=", "16 EiB", ["HG219"]),
        ("${device.attr.memory}", "<=", "7 EiB", []),
        ("${device.model}", "=", "1080ti", []),
        ("${device.attr.driver_version}", "=", "535.104.05", []),
        ("${device.attr.power}", ">", "300 W", []),
    ],
)
def test_values(attribute: str, operator: str, value: str, codes: list[str]) -> None:
    assert [c for c, _ in found(device_job(constraint(attribute, operator, value)))] == codes


def two_constraints(
    first: tuple[str, str, str], second: tuple[str, str, str], name: str = "nvidia/gpu"
) -> str:
    def block(attribute: str, operator: str, value: str) -> str:
        return (
            f'          constraint {{\n            attribute = "{attribute}"\n'
            f'            operator  = "{operator}"\n            value     = "{value}"\n          }}\n'
        )

    return device_job(f'        device "{name}" {{\n{block(*first)}{block(*second)}        }}')


@pytest.mark.parametrize(
    ("first", "second", "codes"),
    [
        ((">=", "8 GiB"), ("<", "4 GiB"), ["HG235"]),
        ((">=", "8 GiB"), ("<", "8192 MiB"), ["HG235"]),
        ((">=", "8 GiB"), ("<=", "8192 MiB"), []),
        ((">", "8 GiB"), ("<=", "8192 MiB"), ["HG235"]),
        ((">=", "4 GiB"), ("<", "16 GiB"), []),
        (("=", "16 GiB"), (">", "32 GiB"), ["HG235"]),
        (("=", "16 GiB"), ("=", "16384 MiB"), []),
    ],
)
def test_contradictory_memory_bounds(
    first: tuple[str, str], second: tuple[str, str], codes: list[str]
) -> None:
    memory = "${device.attr.memory}"
    assert [c for c, _ in found(two_constraints((memory, *first), (memory, *second)))] == codes


def test_contradictory_models_and_names() -> None:
    model = "${device.model}"
    assert [c for c, _ in found(two_constraints((model, "=", "A100"), (model, "regexp", "^Tesla")))] == [
        "HG235"
    ]
    assert [c for c, _ in found(two_constraints((model, "=", "Tesla T4"), (model, "regexp", "^Tesla")))] == []
    named = two_constraints((model, "regexp", "A100"), (model, "!=", "x"), name="nvidia/gpu/Tesla T4")
    assert [c for c, _ in found(named)] == ["HG236"]
