"""Decoding to the IR: strict schema checks with precise spans, Nomad's custom decoders,
normalisation, dynamic blocks and the values Nomad leaves unset."""

from __future__ import annotations

import pytest

from hclgpu.backends.nomad.api import to_api
from hclgpu.ir import models as m
from hclgpu.pipeline import Result, compile_source
from hclgpu.source import SourceFile


def compile_text(text: str) -> Result:
    """Decoding only: the semantic rules (which refuse, say, a weight of 200) are tested elsewhere."""
    return compile_source(SourceFile("job.nomad.hcl", text), checks=False)


def job_of(text: str) -> m.Job:
    result = compile_text(text)
    assert result.job is not None, [f"{d.code} {d.message}" for d in result.diagnostics]
    return result.job


def located(text: str) -> list[tuple[str, str, str | None]]:
    """(code, the exact source text the diagnostic points at, help) for each diagnostic."""
    result = compile_text(text)
    return [
        (d.code, result.source.text[d.span.start : d.span.end] if d.span else "", d.help)
        for d in result.diagnostics
    ]


def in_task(body: str) -> str:
    return f'job "j" {{\n  group "g" {{\n    task "t" {{\n{body}\n    }}\n  }}\n}}\n'


def test_unknown_argument_points_at_the_name_and_suggests() -> None:
    found = located(in_task("      resources {\n        memroy = 256\n      }"))
    assert found == [("HG101", "memroy", "did you mean `memory`?")]


@pytest.mark.parametrize(
    ("text", "name", "release"),
    [
        ('job "j" {\n  vault_token = "s.x"\n}\n', "vault_token", "1.10"),
        ('job "j" {\n  consul_token = "x"\n}\n', "consul_token", "1.10"),
        ('job "j" {\n  group "g" {\n    service {\n      id = "a"\n    }\n  }\n}\n', "id", "1.3"),
        (in_task('      service {\n        check {\n          id = "c"\n        }\n      }'), "id", "1.3"),
    ],
)
def test_an_argument_nomad_removed_says_when_in_one_error(text: str, name: str, release: str) -> None:
    result = compile_source(SourceFile("j.hcl", text))
    (diagnostic,) = [d for d in result.diagnostics if d.severity == "error"]
    assert diagnostic.code == "HG101" and diagnostic.span is not None
    assert diagnostic.message == f"`{name}` was removed in Nomad {release}"
    assert result.source.text[diagnostic.span.start : diagnostic.span.end] == name
    assert (diagnostic.help or "").startswith("delete it")


def test_block_written_as_argument_and_argument_as_block() -> None:
    assert located(in_task("      resources = {}"))[0][:2] == ("HG101", "resources")
    assert "is a block" in (located(in_task("      resources = {}"))[0][2] or "")
    found = located(in_task("      driver { }"))
    assert found[0][:2] == ("HG102", "driver") and "is an argument" in (found[0][2] or "")


def test_unknown_block_suggests_the_close_name() -> None:
    found = located(in_task('      resources {\n        devices "nvidia/gpu" {}\n      }'))
    assert found == [("HG102", "devices", "did you mean `device`?")]


def test_a_block_one_level_too_high_says_where_it_goes_and_offers_the_move() -> None:
    """`device` in the task (a real job did this) belongs in `resources`: the fix moves it
    there (a safe one); renaming it to the closest word (`service`) would be a wrong fix."""
    text = in_task('      device "nvidia/gpu" {}')
    assert located(text) == [
        ("HG102", "device", "`device` blocks go inside `resources { ... }`: move it there")
    ]
    [found] = compile_source(SourceFile("j.hcl", text)).diagnostics
    assert found.fix_safe and [e.text for e in found.fix] == [
        '      resources {\n        device "nvidia/gpu" {}\n      }\n'
    ]


def test_missing_and_extra_labels() -> None:
    assert located(in_task("      resources {\n        device { }\n      }"))[0][:2] == ("HG105", "device")
    extra = located(in_task('      resources {\n        device "a" "b" { }\n      }'))
    assert extra[0][:2] == ("HG105", '"b"')
    assert located('job "j" {\n  update "x" {}\n}\n')[0][:2] == ("HG105", '"x"')


def test_duplicate_singleton_block_points_at_the_second() -> None:
    result = compile_text(in_task("      logs {}\n      logs {}"))
    [diagnostic] = result.diagnostics
    assert diagnostic.code == "HG104" and diagnostic.span is not None
    assert result.source.position(diagnostic.span.start).line == 5
    assert [result.source.position(r.span.start).line for r in diagnostic.related] == [4]


def test_missing_required_argument_points_at_the_opening_brace() -> None:
    assert located(in_task("      lifecycle {\n        sidecar = true\n      }")) == [("HG103", "{", None)]


@pytest.mark.parametrize("for_each", ["2", '["nvidia/gpu"]', "[]"])
def test_a_dynamic_block_of_labelled_blocks_needs_labels_whatever_its_for_each(for_each: str) -> None:
    """hcl's dynblock requires `labels` for a block type that takes them before it reads
    `for_each`: Nomad's parser says "Missing required argument; The argument \"labels\" is
    required" at the dynamic block's `{` (jobspec2-oracle), for `task` as for `device`."""
    dynamic = f'dynamic "{{}}" {{{{\nfor_each = {for_each}\ncontent {{{{}}}}\n}}}}'
    device = "resources {\n" + dynamic.format("device") + "\n}"
    assert [(code, at) for code, at, _ in located(in_task(device))] == [("HG119", "{")]
    result = compile_text('job "j" {\n  group "g" {\n    ' + dynamic.format("task") + "\n  }\n}\n")
    [found] = result.diagnostics
    where = result.source.position(found.span.start)
    assert (found.code, where.line, where.column) == ("HG119", 3, 20)  # Nomad: 3,20-20


def test_unsuitable_values() -> None:
    assert located(in_task('      kill_timeout = "soon"'))[0][:2] == ("HG106", '"soon"')
    assert located(in_task("      leader = [true]"))[0][:2] == ("HG106", "[true]")
    negative = in_task('      resources {\n        device "gpu" { count = -1 }\n      }')
    assert located(negative)[0][:2] == ("HG106", "-1")
    header = (
        'job "j" {\n  group "g" {\n    service {\n      check {\n'
        '        header { A = "x" }\n      }\n    }\n  }\n}\n'
    )
    assert located(header)[0][:2] == ("HG106", '"x"')


def test_durations_parse_as_go_does() -> None:
    task = (
        job_of(in_task('      kill_timeout = "1m30s"\n      shutdown_delay = 2000')).task_groups[0].tasks[0]
    )  # type: ignore[index]
    assert (task.kill_timeout, task.shutdown_delay) == (90_000_000_000, 2000)
    check = job_of(in_task('      kill_timeout = "1.5h"')).task_groups[0].tasks[0]  # type: ignore[index]
    assert check.kill_timeout == 5_400_000_000_000


def test_values_nomad_leaves_unset_stay_null() -> None:
    task = (
        job_of(in_task('      resources {\n        device "nvidia/gpu" {}\n      }')).task_groups[0].tasks[0]
    )  # type: ignore[index]
    api = to_api(task)
    assert api["Resources"]["Devices"] == [
        {"Name": "nvidia/gpu", "Count": None, "Constraints": None, "Affinities": None}
    ]
    assert api["KillTimeout"] is None and api["Leader"] is False and api["Resources"]["CPU"] is None


def test_constraint_shortcuts_apply_in_nomads_order() -> None:
    text = (
        'job "j" {\n'
        '  constraint {\n    attribute = "${attr.os}"\n    regexp = "lin.*"\n    version = ">= 1"\n  }\n'
        '  constraint {\n    distinct_property = "${meta.rack}"\n    value = "2"\n  }\n'
        '  constraint {\n    attribute = "${attr.x}"\n    set_contains_all = "a,b"\n  }\n'
        "  constraint {\n    distinct_hosts = false\n  }\n"
        "}\n"
    )
    constraints = [to_api(c) for c in job_of(text).constraints or []]
    assert constraints == [
        {"LTarget": "${attr.os}", "RTarget": "lin.*", "Operand": "regexp"},
        {"LTarget": "${meta.rack}", "RTarget": "2", "Operand": "distinct_property"},
        {"LTarget": "${attr.x}", "RTarget": "", "Operand": "="},
        {"LTarget": "", "RTarget": "false", "Operand": "distinct_hosts"},
    ]


def test_affinity_weight_wraps_like_a_go_int8() -> None:
    weights = [200, -129, -50.7, 1e2, 0, 127]
    body = "\n".join(
        f'  affinity {{\n    attribute = "a"\n    value = "b"\n    weight = {w}\n  }}' for w in weights
    )
    affinities = job_of(f'job "j" {{\n{body}\n}}\n').affinities or []
    assert [a.weight for a in affinities] == [-56, 127, -50, 100, 0, 127]


def test_constraint_values_must_be_strings() -> None:
    found = located('job "j" {\n  constraint {\n    attribute = "a"\n    value = ["b"]\n  }\n}\n')
    assert found[0][:2] == ("HG106", '["b"]')


def test_meta_and_env_accept_map_attributes_but_not_both_forms() -> None:
    task = (
        job_of(in_task('      env = { "A.B" = "x", N = 1 }\n      meta { k = true }')).task_groups[0].tasks[0]
    )  # type: ignore[index]
    assert (task.env, task.meta) == ({"A.B": "x", "N": "1"}, {"k": "true"})
    found = located(in_task('      env = { A = "x" }\n      env { B = "y" }'))
    assert found[0][:2] == ("HG104", "env")


def test_job_level_task_becomes_its_own_group_first() -> None:
    job = job_of('job "j" {\n  group "g" {}\n  task "solo" { driver = "exec" }\n}\n')
    assert [g.name for g in job.task_groups or []] == ["solo", "g"]
    assert (job.id, job.name) == ("j", "j")


def test_vault_inheritance_and_defaults() -> None:
    text = (
        'job "j" {\n  vault { policies = ["a"] }\n'
        '  group "g" {\n    vault { role = "r" }\n    task "a" {}\n  }\n'
        '  group "h" {\n    task "b" {}\n  }\n}\n'
    )
    groups = job_of(text).task_groups or []
    first, second = groups[0].tasks[0].vault, groups[1].tasks[0].vault  # type: ignore[index]
    assert first is not None and second is not None
    assert (first.role, first.env, first.change_mode, first.disable_file) == ("r", True, "restart", False)
    assert second.policies == ["a"]


def test_ports_split_into_reserved_and_dynamic() -> None:
    text = (
        'job "j" {\n  group "g" {\n    network {\n'
        '      port "http" { static = 8080 }\n      port "grpc" {}\n    }\n  }\n}\n'
    )
    network = (job_of(text).task_groups or [])[0].networks[0]  # type: ignore[index]
    assert [p.label for p in network.reserved_ports or []] == ["http"]
    assert [p.label for p in network.dynamic_ports or []] == ["grpc"]


def test_dynamic_blocks_with_iterator_labels_and_nesting() -> None:
    text = (
        "locals { gpus = { a100 = 2, t4 = 1 } }\n"
        'job "j" {\n  group "g" {\n    task "t" {\n      resources {\n'
        '        dynamic "device" {\n          for_each = local.gpus\n          iterator = gpu\n'
        '          labels = ["nvidia/gpu/${gpu.key}"]\n          content {\n            count = gpu.value\n'
        '            dynamic "constraint" {\n              for_each = [gpu.key]\n'
        '              content {\n                attribute = "${device.model}"\n'
        "                value = constraint.value\n"
        "              }\n            }\n          }\n        }\n      }\n    }\n  }\n}\n"
    )
    devices = (job_of(text).task_groups or [])[0].tasks[0].resources.devices  # type: ignore[index, union-attr]
    assert [(d.name, d.count) for d in devices or []] == [("nvidia/gpu/a100", 2), ("nvidia/gpu/t4", 1)]
    assert [c.r_target for d in devices or [] for c in d.constraints or []] == ["a100", "t4"]
    assert (devices or [])[0].constraints[0].l_target == "${device.model}"  # type: ignore[index]


def test_dynamic_device_without_iterator_hides_device_references() -> None:
    text = in_task(
        '      resources {\n        dynamic "device" {\n          for_each = ["nvidia/gpu"]\n'
        "          labels = [device.value]\n          content {\n"
        '            constraint {\n              attribute = "${device.attr.memory}"\n'
        '              value = "4 GiB"\n'
        "            }\n          }\n        }\n      }"
    )
    assert located(text)[0][:2] == ("HG117", ".attr")


def test_schemaless_config_follows_blocks_as_attributes() -> None:
    text = in_task(
        '      config {\n        m = { k = "v" }\n        l = [{ k = "v" }]\n'
        '        b "x" { n = 1 }\n        b "y" { n = 2 }\n      }'
    )
    config = (job_of(text).task_groups or [])[0].tasks[0].config  # type: ignore[index]
    assert config == {"b": [{"x": [{"n": 1}]}, {"y": [{"n": 2}]}], "l": [{"k": "v"}], "m": [{"k": "v"}]}


def test_scaling_policies() -> None:
    text = in_task('      scaling "CPU" {\n        max = 4\n        policy { a = 1 }\n      }')
    [policy] = (job_of(text).task_groups or [])[0].tasks[0].scaling_policies or []  # type: ignore[index]
    assert (policy.type, policy.max, policy.policy) == ("vertical_cpu", 4, {"a": 1})
    group = job_of('job "j" {\n  group "g" {\n    scaling {\n      max = 3\n    }\n  }\n}\n').task_groups[0]  # type: ignore[index]
    assert group.scaling is not None and group.scaling.type == "horizontal"
    assert located('job "j" {\n  group "g" {\n    scaling {\n      min = 1\n    }\n  }\n}\n')[0][:2] == (
        "HG103",
        "{",
    )


def test_only_one_job_block() -> None:
    assert [c for c, _, _ in located('job "a" {}\njob "b" {}\n')] == ["HG104"]
    assert [c for c, _, _ in located("job {}\n")] == ["HG105"]
    assert sorted(c for c, _, _ in located('jobs "a" {}\n')) == ["HG102", "HG108"]


def test_attributes_set_twice_are_refused_in_every_body() -> None:
    for body in (
        "config {\n a = 1\n a = 2\n}",
        "env {\n A = 1\n A = 2\n}",
        'constraint {\n attribute = "a"\n attribute = "b"\n}',
    ):
        found = located(in_task(body))
        assert [code for code, _, _ in found] == ["HG109"], body


def test_null_is_refused_where_go_has_no_pointer() -> None:
    port = 'job "j" {\n  group "g" {\n    network {\n      port "http" { static = null }\n    }\n  }\n}\n'
    assert located(port)[0][:2] == ("HG106", "null")
    assert located(in_task("      driver = null"))[0][:2] == ("HG106", "null")
    assert located(in_task("      kill_timeout = null"))[0][:2] == ("HG106", "null")
    assert located(in_task("      user = null"))[0][:2] == ("HG106", "null")
    task = job_of(in_task("      meta = null")).task_groups[0].tasks[0]  # type: ignore[index]
    assert to_api(task)["Meta"] is None  # a pointer (Go map) field may be null


def test_out_of_range_numbers_are_diagnostics() -> None:
    assert located('job "j" {\n  priority = 1e400\n}\n')[0][:2] == ("HG106", "1e400")
    affinity = 'job "j" {\n  affinity {\n    attribute = "a"\n    value = "b"\n    weight = 1e30\n  }\n}\n'
    assert [a.weight for a in job_of(affinity).affinities or []] == [-1]  # Go saturates, then wraps


def test_dynamic_blocks_in_schemaless_config_stay_data() -> None:
    text = in_task(
        '      config {\n        dynamic "mount" {\n          for_each = ["a"]\n'
        "          content { x = mount.value }\n        }\n      }"
    )
    config = (job_of(text).task_groups or [])[0].tasks[0].config  # type: ignore[index]
    assert config == {"dynamic": [{"mount": [{"content": [{"x": "${mount.value}"}], "for_each": ["a"]}]}]}


def test_big_numbers_in_config_print_as_go_prints_float64() -> None:
    from hclgpu.backends.nomad.api import render

    job = job_of(
        in_task(
            "      config {\n        a = 100000000000000000000\n"
            "        b = 1e21\n        c = 0.0000001\n      }"
        )
    )
    text = render(job)
    assert '"a": 100000000000000000000,' in text and '"b": 1e+21,' in text and '"c": 1e-7' in text


def test_every_decoded_node_keeps_its_source_span() -> None:
    text = in_task(
        '      resources {\n        device "nvidia/gpu" {\n          constraint {}\n        }\n      }'
    )
    result = compile_text(text)
    assert result.job is not None
    group = (result.job.task_groups or [])[0]
    task = (group.tasks or [])[0]
    device = (task.resources.devices or [])[0]  # type: ignore[union-attr]
    constraint = (device.constraints or [])[0]
    source = result.source.text
    spans = [result.job.span, group.span, task.span, task.resources.span, device.span, constraint.span]  # type: ignore[union-attr]
    assert all(span is not None for span in spans)
    starts = [source[span.start : span.start + 10] for span in spans if span is not None]
    assert starts == ['job "j" {\n', 'group "g" ', 'task "t" {', "resources ", 'device "nv', "constraint"]


def test_dynamic_device_without_iterator_explains_the_trap() -> None:
    text = in_task(
        '      resources {\n        dynamic "device" {\n          for_each = ["nvidia/gpu"]\n'
        "          labels = [device.value]\n          content {\n            constraint {\n"
        '              attribute = "${device.attr.memory}"\n              value = "4 GiB"\n'
        "            }\n          }\n        }\n      }"
    )
    [(code, _, help)] = located(text)
    assert code == "HG117" and help is not None and "iterator" in help and "dynamic" in help


@pytest.mark.parametrize(
    ("written", "nomad"),
    [  # what jobspec2-oracle printed for `device "nvidia/gpu" { count = <written> }`
        ("1.5", 1),
        ("2.5", 2),
        ("1.75", 1),
        ("9007199254740993.5", 9007199254740993),
        ("0.5", None),
        ("1.1", None),
        ("2.7", None),
        ("-1.5", None),
        ("18446744073709551615.5", None),
    ],
)
def test_an_unsigned_count_takes_a_fraction_as_go_big_float_does(written: str, nomad: int | None) -> None:
    """Go's big.Float.Uint64 calls a value of at least 1 with a mantissa of at most 64 bits
    exact: gocty truncates it. A group's signed `count` takes no fraction at all."""
    device = 'resources {\n  device "nvidia/gpu" {\n    count = ' + written + "\n  }\n}"
    result = compile_text(in_task('      driver = "docker"\n' + device))
    counts = (
        [
            d.count
            for g in result.job.task_groups or []
            for t in g.tasks or []
            for d in t.resources.devices or []
        ]
        if result.job
        else []
    )
    assert counts == ([] if nomad is None else [nomad])
    assert (result.job is None) == (nomad is None)
    group = compile_text(f'job "j" {{\n  group "g" {{\n    count = {written}\n  }}\n}}\n')
    assert [d.code for d in group.diagnostics] == ["HG106"]
