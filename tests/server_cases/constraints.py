"""Cases for the server checks of hclgpu.checks.devices, operators, affinities and resources."""

from __future__ import annotations

from tests.server_cases.common import job


def _constraint(body: str) -> str:
    return f"constraint {{\n{body}\n}}"


def _affinity(body: str) -> str:
    return f"affinity {{\n{body}\n}}"


def _device(body: str) -> str:
    return f'resources {{\ndevice "nvidia/gpu" {{\n{body}\n}}\n}}'


RACK = 'attribute = "${meta.rack}"'
VERSION = 'attribute = "${attr.nomad.version}"'

CASES: dict[str, tuple[str, str]] = {
    # devices
    "device-name-format": (
        job(task='resources {\ndevice "" {}\n}'),
        job(task='resources {\ndevice "gpu" {}\n}'),
    ),
    "device-constraint-operator": (
        job(task=_device(_constraint('attribute = "${device.model}"\noperator = "distinct_property"'))),
        job(task=_device(_constraint('attribute = "${device.model}"\noperator = "is_set"'))),
    ),
    # constraints
    "constraint-set-contains-value": (
        job(_constraint(f'{RACK}\noperator = "set_contains"')),
        job(_constraint(f'{RACK}\noperator = "set_contains"\nvalue = "r1"')),
    ),
    "constraint-regexp": (
        job(_constraint(f'{RACK}\noperator = "regexp"\nvalue = "^(?!r1)"')),
        job(_constraint(f'{RACK}\noperator = "regexp"\nvalue = "^r1"')),
    ),
    "constraint-version": (
        job(_constraint(f'{VERSION}\noperator = "version"\nvalue = "=> 1.2"')),
        job(_constraint(f'{VERSION}\noperator = "version"\nvalue = ">= 1.2"')),
    ),
    "constraint-semver": (
        job(_constraint(f'{VERSION}\noperator = "semver"\nvalue = "=> 1.2.0"')),
        job(_constraint(f'{VERSION}\noperator = "semver"\nvalue = ">= 1.2.0"')),
    ),
    "constraint-is-set-value": (
        job(_constraint(f'{RACK}\noperator = "is_set"\nvalue = "true"')),
        job(_constraint(f'{RACK}\noperator = "is_set"')),
    ),
    "constraint-operator-value": (
        job(_constraint(f'{RACK}\noperator = "!="')),
        job(_constraint(f'{RACK}\noperator = "!="\nvalue = "r1"')),
    ),
    "constraint-operator": (
        job(_constraint(f'{RACK}\noperator = "=~"\nvalue = "r1"')),
        job(_constraint(f'{RACK}\noperator = "regexp"\nvalue = "r1"')),
    ),
    "constraint-attribute": (
        job(_constraint('value = "r1"')),
        job(_constraint(f'{RACK}\nvalue = "r1"')),
    ),
    # affinities
    "affinity-set-contains-value": (
        job(_affinity(f'{RACK}\noperator = "set_contains_any"')),
        job(_affinity(f'{RACK}\noperator = "set_contains_any"\nvalue = "r1,r2"')),
    ),
    "affinity-regexp": (
        job(_affinity(f'{RACK}\noperator = "regexp"\nvalue = "^(?!r1)"')),
        job(_affinity(f'{RACK}\noperator = "regexp"\nvalue = "^r1"')),
    ),
    "affinity-version": (
        job(_affinity(f'{VERSION}\noperator = "version"\nvalue = "=> 1.2"')),
        job(_affinity(f'{VERSION}\noperator = "version"\nvalue = ">= 1.2"')),
    ),
    "affinity-semver": (
        job(_affinity(f'{VERSION}\noperator = "semver"\nvalue = "=> 1.2.0"')),
        job(_affinity(f'{VERSION}\noperator = "semver"\nvalue = ">= 1.2.0"')),
    ),
    "affinity-operator-value": (
        job(_affinity(f'{RACK}\noperator = "!="')),
        job(_affinity(f'{RACK}\noperator = "!="\nvalue = "r1"')),
    ),
    "affinity-operator": (
        job(_affinity(f'{RACK}\noperator = "=~"\nvalue = "r1"')),
        job(_affinity(f'{RACK}\noperator = "regexp"\nvalue = "r1"')),
    ),
    "affinity-attribute": (
        job(_affinity('value = "r1"')),
        job(_affinity(f'{RACK}\nvalue = "r1"')),
    ),
    "affinity-operator-not-allowed": (
        job(_affinity(f'{RACK}\noperator = "is_set"\nvalue = "r1"')),
        job(_affinity(f'{RACK}\noperator = "="\nvalue = "r1"')),
    ),
    "affinity-weight-zero": (
        job(_affinity(f'{RACK}\nvalue = "r1"\nweight = 0')),
        job(_affinity(f'{RACK}\nvalue = "r1"\nweight = 50')),
    ),
    "affinity-weight-range": (
        job(_affinity(f'{RACK}\nvalue = "r1"\nweight = 101')),
        job(_affinity(f'{RACK}\nvalue = "r1"\nweight = 100')),
    ),
    # resources
    "cpu-and-cores-both-set": (
        job(task="resources {\ncpu = 500\ncores = 1\n}"),
        job(task="resources {\ncores = 1\n}"),
    ),
    "memory-max-below-memory-mb": (
        job(task="resources {\nmemory = 256\nmemory_max = 128\n}"),
        job(task="resources {\nmemory = 256\nmemory_max = 0\n}"),
    ),
    "minimum-cpu": (job(task="resources {\ncpu = 0\n}"), job(task="resources {\ncpu = 1\n}")),
    "minimum-memory": (job(task="resources {\nmemory = 9\n}"), job(task="resources {\nmemory = 10\n}")),
}

ALSO: dict[str, set[str]] = {}
