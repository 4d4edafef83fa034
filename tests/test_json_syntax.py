"""Job files in HCL JSON syntax compile to the same job as their native-syntax twins.

Each case is one job written twice; both must render to identical Nomad JSON. The
JSON side goes through :func:`hclgpu.ir.json_syntax.parse_json_job` and then the
steps :func:`hclgpu.pipeline.compile_source` runs after parsing. No case calls an HCL
function: the function library may not be present in every checkout.
"""

from __future__ import annotations

import inspect
import json
import textwrap

import pytest

from hclgpu import pipeline
from hclgpu.backends.nomad.api import render
from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.eval.program import EvalOptions, prepare
from hclgpu.ir.build import build_job
from hclgpu.ir.json_syntax import parse_json_job
from hclgpu.pipeline import Result, compile_source
from hclgpu.source import Position, SourceFile, looks_like_json
from hclgpu.syntax import ast


def compile_json(text: str) -> Result:
    """What compile_source does, with the JSON parser in place of the native one."""
    source = SourceFile("job.nomad.json", textwrap.dedent(text))
    sink = Sink()
    tree = parse_json_job(source, sink)
    if tree is None or sink.has_errors:
        return Result(source, tree, sink.sorted())
    prepared = prepare(tree, source, EvalOptions(), sink)
    job = build_job(prepared, sink)
    return Result(source, tree, sink.sorted(), None if sink.has_errors else job)


def rendered(result: Result) -> str:
    errors = [(d.code, d.message, where(d)) for d in result.diagnostics if d.severity == "error"]
    assert not errors, errors
    assert result.job is not None
    return render(result.job)


def where(diagnostic: Diagnostic) -> Position | None:
    span = diagnostic.span
    return diagnostic.source.position(span.start) if span is not None else None


def assert_same_job(native: str, json_text: str) -> None:
    expected = rendered(compile_source(SourceFile("job.nomad.hcl", textwrap.dedent(native))))
    assert rendered(compile_json(json_text)) == expected


def errors_of(result: Result) -> list[tuple[str, int]]:
    """(code, line) of every error."""
    found = []
    for d in result.diagnostics:
        position = where(d)
        if d.severity == "error" and position is not None:
            found.append((d.code, position.line))
    return found


# ---- same job, two syntaxes ---------------------------------------------------------------

GROUPS_NATIVE = """
job "web" {
  datacenters = ["dc1", "dc2"]
  type        = "service"
  meta {
    team = "search"
    tier = "1"
  }

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }
  constraint {
    attribute = "${node.class}"
    operator  = "regexp"
    value     = "gpu-.*"
  }

  group "api" {
    count = 3
    network {
      port "http" { to = 8080 }
      port "metrics" { to = 9090 }
    }
    restart {
      attempts = 2
      interval = "30m"
      delay    = "15s"
      mode     = "fail"
    }

    task "server" {
      driver = "docker"
      config {
        image = "ghcr.io/acme/api:1.0"
        ports = ["http", "metrics"]
        args  = ["--port", "8080", "--quote=\\"x\\""]
        labels {
          app = "api"
        }
        mount {
          type   = "bind"
          source = "local/conf"
          target = "/etc/conf"
        }
        mount {
          type   = "tmpfs"
          target = "/scratch"
        }
        logging = { type = "json-file", config = [{ max-size = "10m" }] }
      }
      env {
        PORT  = "${NOMAD_PORT_http}"
        DEBUG = "0"
      }
      meta { role = "frontend" }
      resources {
        cpu    = 500
        memory = 256
      }
    }

    task "sidecar" {
      driver = "exec"
      config {
        command = "/bin/sidecar"
      }
    }
  }

  group "worker" {
    task "work" {
      driver = "raw_exec"
      config {
        command = "/usr/bin/work"
      }
    }
  }
}
"""

GROUPS_JSON = """
{
  "job": {
    "web": {
      "//": "a comment, ignored",
      "datacenters": ["dc1", "dc2"],
      "type": "service",
      "meta": {"team": "search", "tier": "1"},
      "constraint": [
        {"attribute": "${attr.kernel.name}", "value": "linux"},
        {"attribute": "${node.class}", "operator": "regexp", "value": "gpu-.*"}
      ],
      "group": {
        "api": {
          "count": 3,
          "network": {
            "port": {"http": {"to": 8080}, "metrics": {"to": 9090}}
          },
          "restart": {"attempts": 2, "interval": "30m", "delay": "15s", "mode": "fail"},
          "task": {
            "server": {
              "driver": "docker",
              "config": {
                "image": "ghcr.io/acme/api:1.0",
                "ports": ["http", "metrics"],
                "args": ["--port", "8080", "--quote=\\"x\\""],
                "labels": [{"app": "api"}],
                "mount": [
                  {"type": "bind", "source": "local/conf", "target": "/etc/conf"},
                  {"type": "tmpfs", "target": "/scratch"}
                ],
                "logging": {"type": "json-file", "config": [{"max-size": "10m"}]}
              },
              "env": {"PORT": "${NOMAD_PORT_http}", "DEBUG": "0"},
              "meta": {"role": "frontend"},
              "resources": {"cpu": 500, "memory": 256}
            },
            "sidecar": {"driver": "exec", "config": {"command": "/bin/sidecar"}}
          }
        },
        "worker": {
          "task": {"work": {"driver": "raw_exec", "config": {"command": "/usr/bin/work"}}}
        }
      }
    }
  }
}
"""


def test_groups_tasks_config_meta_env_and_constraints() -> None:
    assert_same_job(GROUPS_NATIVE, GROUPS_JSON)


def test_labelled_blocks_as_arrays_at_every_level() -> None:
    arrays = """
    {
      "job": [{
        "web": [{
          "datacenters": ["dc1", "dc2"],
          "type": "service",
          "meta": {"team": "search", "tier": "1"},
          "constraint": {"attribute": "${attr.kernel.name}", "value": "linux"},
          "group": [
            {"api": [{
              "count": 3,
              "network": [{"port": [{"http": {"to": 8080}}, {"metrics": [{"to": 9090}]}]}],
              "restart": {"attempts": 2, "interval": "30m", "delay": "15s", "mode": "fail"},
              "task": [
                {"server": {
                  "driver": "docker",
                  "config": {
                    "image": "ghcr.io/acme/api:1.0",
                    "ports": ["http", "metrics"],
                    "args": ["--port", "8080", "--quote=\\"x\\""],
                    "labels": {"app": "api"},
                    "mount": [
                      {"type": "bind", "source": "local/conf", "target": "/etc/conf"},
                      {"type": "tmpfs", "target": "/scratch"}
                    ],
                    "logging": {"type": "json-file", "config": [{"max-size": "10m"}]}
                  },
                  "env": {"PORT": "${NOMAD_PORT_http}", "DEBUG": "0"},
                  "meta": {"role": "frontend"},
                  "resources": {"cpu": 500, "memory": 256}
                }},
                {"sidecar": {"driver": "exec", "config": {"command": "/bin/sidecar"}}}
              ]
            }]},
            {"worker": {"task": {"work": {"driver": "raw_exec", "config": {"command": "/usr/bin/work"}}}}}
          ],
          "constraint": [{"attribute": "${node.class}", "operator": "regexp", "value": "gpu-.*"}]
        }]
      }]
    }
    """
    assert_same_job(GROUPS_NATIVE, arrays)


def test_device_with_constraints_and_affinities() -> None:
    native = """
    job "infer" {
      group "g" {
        task "triton" {
          driver = "docker"
          config { image = "nvcr.io/nvidia/tritonserver:24.05-py3" }
          resources {
            cpu    = 4000
            memory = 16384
            device "nvidia/gpu" {
              count = 2
              constraint {
                attribute = "${device.attr.memory}"
                operator  = ">="
                value     = "20 GiB"
              }
              constraint {
                attribute = "${device.attr.cuda_cores}"
                operator  = ">"
                value     = "4000"
              }
              affinity {
                attribute = "${device.model}"
                operator  = "regexp"
                value     = "L4|A10G"
                weight    = 60
              }
              affinity {
                attribute = "${ device.vendor }"
                value     = "nvidia"
                weight    = -200
              }
            }
            device "amd/gpu" {}
          }
        }
      }
    }
    """
    json_text = """
    {"job": {"infer": {"group": {"g": {"task": {"triton": {
      "driver": "docker",
      "config": {"image": "nvcr.io/nvidia/tritonserver:24.05-py3"},
      "resources": {
        "cpu": 4000,
        "memory": 16384,
        "device": {
          "nvidia/gpu": {
            "count": 2,
            "constraint": [
              {"attribute": "${device.attr.memory}", "operator": ">=", "value": "20 GiB"},
              {"attribute": "${device.attr.cuda_cores}", "operator": ">", "value": "4000"}
            ],
            "affinity": [
              {"attribute": "${device.model}", "operator": "regexp", "value": "L4|A10G", "weight": 60},
              {"attribute": "${ device.vendor }", "value": "nvidia", "weight": -200}
            ]
          },
          "amd/gpu": {}
        }
      }
    }}}}}}}
    """
    assert_same_job(native, json_text)


def test_variables_locals_and_templates() -> None:
    native = """
    variable "image" {
      type        = string
      default     = "redis:7"
      description = "The image; $${not a template} here."
    }
    variable "ports" {
      type    = map(number)
      default = { http = 8080, admin = 9000 }
      validation {
        condition     = var.ports["http"] > 1024
        error_message = "Use an unprivileged port."
      }
    }
    variable "replicas" {
      type    = number
      default = 2
    }
    variables {
      region = "eu"
      debug  = true
    }
    locals {
      name  = "cache-${var.region}"
      label = "${local.name}/${var.replicas}"
    }
    job "cache" {
      region = var.region
      group "g" {
        count = var.replicas
        task "redis" {
          driver = "docker"
          config {
            image = var.image
            args = [
              "--port", "${var.ports["http"]}", "$${HOME}",
              "%{ if var.debug }--debug%{ else }--quiet%{ endif }",
            ]
          }
          env {
            LABEL = "${local.label}"
            HOST  = "${attr.unique.hostname}:${var.ports.admin}"
            PLAIN = "a \\\\ b \\"c\\" \\n"
            KEYED = "${ var.ports["admin"] }"
          }
          meta {
            for_each = "%{ for k, v in var.ports }${k}=${v};%{ endfor }"
          }
        }
      }
    }
    """
    json_text = r"""
    {
      "variable": {
        "image": {
          "type": "string",
          "default": "redis:7",
          "description": "The image; ${not a template} here."
        },
        "ports": {
          "type": "map(number)",
          "default": {"http": 8080, "admin": 9000},
          "validation": {
            "condition": "${var.ports[\"http\"] > 1024}",
            "error_message": "Use an unprivileged port."
          }
        },
        "replicas": {"type": "number", "default": 2}
      },
      "variables": {"region": "eu", "debug": true},
      "locals": {
        "name": "cache-${var.region}",
        "label": "${local.name}/${var.replicas}"
      },
      "job": {
        "cache": {
          "region": "${var.region}",
          "group": {
            "g": {
              "count": "${var.replicas}",
              "task": {
                "redis": {
                  "driver": "docker",
                  "config": {
                    "image": "${var.image}",
                    "args": [
                      "--port", "${var.ports[\"http\"]}", "$${HOME}",
                      "%{ if var.debug }--debug%{ else }--quiet%{ endif }"
                    ]
                  },
                  "env": {
                    "LABEL": "${local.label}",
                    "HOST": "${attr.unique.hostname}:${var.ports.admin}",
                    "PLAIN": "a \\ b \"c\" \n",
                    "KEYED": "${ var.ports[\"admin\"] }"
                  },
                  "meta": {
                    "for_each": "%{ for k, v in var.ports }${k}=${v};%{ endfor }"
                  }
                }
              }
            }
          }
        }
      }
    }
    """
    assert_same_job(native, json_text)


def test_dynamic_block() -> None:
    native = """
    variable "gpus" {
      type    = list(object({ name = string, count = number, mem = string }))
      default = [
        { name = "nvidia/gpu", count = 2, mem = "8 GiB" },
        { name = "amd/gpu", count = 1, mem = "4 GiB" },
      ]
    }
    locals { w = 30 }
    job "dyn" {
      group "g" {
        task "t" {
          driver = "exec"
          env = { ALLOC = "${NOMAD_ALLOC_DIR}/x", ESC = "$${literal}", N = "${node.unique.name}" }
          resources {
            dynamic "device" {
              for_each = var.gpus
              iterator = gpu
              labels   = [gpu.value.name]
              content {
                count = gpu.value.count
                constraint {
                  attribute = "${device.attr.memory}"
                  operator  = ">="
                  value     = gpu.value.mem
                }
                affinity {
                  attribute = "${device.model}"
                  value     = "a100"
                  weight    = local.w
                }
              }
            }
          }
        }
      }
    }
    """
    json_text = """
    {
      "variable": {
        "gpus": {
          "type": "list(object({ name = string, count = number, mem = string }))",
          "default": [
            {"name": "nvidia/gpu", "count": 2, "mem": "8 GiB"},
            {"name": "amd/gpu", "count": 1, "mem": "4 GiB"}
          ]
        }
      },
      "locals": {"w": 30},
      "job": {"dyn": {"group": {"g": {"task": {"t": {
        "driver": "exec",
        "env": {"ALLOC": "${NOMAD_ALLOC_DIR}/x", "ESC": "$${literal}", "N": "${node.unique.name}"},
        "resources": {
          "dynamic": {
            "device": {
              "for_each": "${var.gpus}",
              "iterator": "gpu",
              "labels": ["${gpu.value.name}"],
              "content": {
                "count": "${gpu.value.count}",
                "constraint": {
                  "attribute": "${device.attr.memory}", "operator": ">=", "value": "${gpu.value.mem}"
                },
                "affinity": {"attribute": "${device.model}", "value": "a100", "weight": "${local.w}"}
              }
            }
          }
        }
      }}}}}}
    }
    """
    assert_same_job(native, json_text)


def test_custom_decoded_blocks() -> None:
    """Job-level `vault`, task `scaling "cpu"`, a `volume` keyed by label, group `scaling`."""
    native = """
    job "custom" {
      vault { policies = ["read"] }
      group "g" {
        volume "data" {
          type   = "host"
          source = "data"
        }
        scaling {
          min = 1
          max = 4
        }
        task "t" {
          driver = "exec"
          config { command = "/bin/true" }
          scaling "cpu" {
            max    = 2000
            policy { cooldown = "1m" }
          }
        }
      }
    }
    """
    json_text = """
    {"job": {"custom": {
      "vault": {"policies": ["read"]},
      "group": {"g": {
        "volume": {"data": {"type": "host", "source": "data"}},
        "scaling": {"min": 1, "max": 4},
        "task": {"t": {
          "driver": "exec",
          "config": {"command": "/bin/true"},
          "scaling": {"cpu": {"max": 2000, "policy": {"cooldown": "1m"}}}
        }}
      }}
    }}}
    """
    assert_same_job(native, json_text)


# ---- the tree itself --------------------------------------------------------------------------


def test_strings_are_templates_with_spans_in_the_file() -> None:
    text = '{"job": {"j": {"region": "a-${var.x}", "type": "plain"}}}'
    tree = parse_json_job(SourceFile("t.json", text), Sink())
    assert tree is not None
    (job,) = tree.body.blocks("job")
    assert job.labels[0].value == "j"
    region, kind = job.body.attributes()
    assert isinstance(kind.value, ast.Literal) and kind.value.value == "plain"
    assert isinstance(region.value, ast.Template)
    text_part, interpolation = region.value.parts
    assert isinstance(text_part, ast.TemplateText) and text_part.text == "a-"
    assert isinstance(interpolation, ast.Interpolation)
    span = interpolation.span
    assert text[span.start : span.end] == "${var.x}"
    assert text[region.name_span.start : region.name_span.end] == '"region"'


def test_escaped_strings_map_back_to_their_characters() -> None:
    text = '{"job": {"j": {"region": "\\u0041\\"${var.x}"}}}'
    tree = parse_json_job(SourceFile("t.json", text), Sink())
    assert tree is not None
    value = tree.body.blocks("job")[0].body.attributes()[0].value
    assert isinstance(value, ast.Template)
    first, interpolation = value.parts
    assert isinstance(first, ast.TemplateText) and first.text == 'A"'
    assert text[interpolation.span.start : interpolation.span.end] == "${var.x}"


def test_looks_like_json_follows_jobspec2() -> None:
    assert looks_like_json('{"job": {}}')
    assert looks_like_json('   {"job": {}}')
    assert not looks_like_json('job "x" {}')
    assert not looks_like_json('\n{"job": {}}')  # jobspec2 skips spaces only


# ---- problems ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ('{\n  "job": {\n    "a": 1\n    "b": 2\n  }\n}', 4, 5),  # missing comma
        ('{\n  "job": {"a": 1,}\n}', 2, 18),  # trailing comma: at the brace, as hcl does
        ('{\n  // a comment\n  "job": {}\n}', 2, 3),
        ('{\n  "job": {"a": "never closed}\n}', 2, 16),  # at the opening quote
        ('{\n  "job": {"a": "bad \\q escape"}\n}', 2, 21),
        ('{\n  "job": {"a": tru}\n}', 2, 16),
        ('{\n  "job": {"a": 1}\n}\n{}', 4, 1),
        ('{\n  "job": {"a": 1}\n', 3, 1),
        ('{\n  "job": {"a": "two\nlines"}\n}', 2, 16),
        ("{\n  job: {}\n}", 2, 3),
    ],
)
def test_invalid_json_is_a_located_syntax_error(text: str, line: int, column: int) -> None:
    source = SourceFile("bad.json", text)
    sink = Sink()
    assert parse_json_job(source, sink) is None
    (diagnostic,) = sink.sorted()
    assert diagnostic.code == "HG001"
    assert diagnostic.message.startswith("invalid JSON")
    assert where(diagnostic) == Position(line, column)


def test_unknown_argument_is_reported_on_its_line() -> None:
    result = compile_json(
        """\
        {
          "job": {
            "web": {
              "group": {
                "g": {
                  "task": {
                    "t": {
                      "driver": "exec",
                      "drivr": "docker"
                    }
                  }
                }
              }
            }
          }
        }
        """
    )
    assert errors_of(result) == [("HG101", 9)]
    (diagnostic,) = result.diagnostics
    assert "drivr" in diagnostic.message
    assert result.job is None


def test_unknown_top_level_property_is_an_unknown_argument() -> None:
    result = compile_json('{\n  "Job": {"ID": "x"},\n  "job": {"x": {}}\n}')
    assert ("HG101", 2) in errors_of(result)


def test_bad_template_is_reported_inside_the_string() -> None:
    result = compile_json('{\n  "job": {\n    "j": {"region": "${var.x"}\n  }\n}')
    found = errors_of(result)
    assert found and all(line == 3 for _, line in found), found
    assert result.job is None


def test_percent_brace_must_start_a_directive() -> None:
    result = compile_json('{\n  "job": {\n    "j": {"region": "50%{x}", "type": "50%%{x}"}\n  }\n}')
    assert errors_of(result) == [("HG001", 3)]
    (diagnostic,) = result.diagnostics
    assert diagnostic.span is not None
    assert result.source.text[diagnostic.span.start : diagnostic.span.end] == "%{"


def test_meta_may_be_an_expression_and_null_means_no_block() -> None:
    native = """
    variable "m" {
      default = { a = "1" }
    }
    job "j" {
      meta = var.m
      group "g" {
        task "t" {
          driver = "exec"
        }
      }
    }
    """
    json_text = """
    {
      "variable": {"m": {"default": {"a": "1"}}},
      "job": {"j": {
        "meta": "${var.m}",
        "constraint": null,
        "group": {"g": {"task": {"t": {"driver": "exec", "resources": null}}}}
      }}
    }
    """
    assert_same_job(native, json_text)


def test_block_given_a_scalar_is_reported_by_the_decoder() -> None:
    result = compile_json('{\n  "job": {\n    "j": {\n      "group": "g"\n    }\n  }\n}')
    assert errors_of(result) == [("HG101", 4)]


def test_block_labels_must_be_objects() -> None:
    result = compile_json('{\n  "job": {\n    "j": {\n      "group": {"g": 3}\n    }\n  }\n}')
    assert ("HG106", 4) in errors_of(result)


def test_missing_label() -> None:
    result = compile_json('{\n  "job": {\n    "j": {\n      "group": {}\n    }\n  }\n}')
    assert errors_of(result) == [("HG105", 4)]


def test_validation_condition_is_a_template() -> None:
    """In JSON a condition is written `${...}`; a bare expression is only a string, as in Nomad."""
    text = """
    {
      "variable": {"port": {
        "default": 80,
        "validation": {"condition": "var.port > 1024", "error_message": "Use a high port."}
      }},
      "job": {"j": {}}
    }
    """
    assert "HG121" in [code for code, _ in errors_of(compile_json(text))]
    failing = text.replace('"var.port > 1024"', '"${var.port > 1024}"')
    assert [code for code, _ in errors_of(compile_json(failing))] == ["HG113"]


def _routed() -> bool:
    return "json_syntax" in inspect.getsource(pipeline)


@pytest.mark.skipif(not _routed(), reason="compile_source does not route JSON files yet")
def test_compile_source_routes_json() -> None:
    """The JSON file and its native twin make the same job, but for one difference Nomad
    makes too: an object in a task's `config` stays a map in JSON syntax, where native syntax
    wraps an object literal in a list (tests/data/api_json/groups.oracle.json is Nomad's
    output for this file)."""
    result = compile_source(SourceFile("job.nomad.json", textwrap.dedent(GROUPS_JSON).lstrip("\n")))
    native = compile_source(SourceFile("n.hcl", textwrap.dedent(GROUPS_NATIVE)))
    from_json, from_native = json.loads(rendered(result)), json.loads(rendered(native))
    config = from_json["Job"]["TaskGroups"][0]["Tasks"][0]["Config"]
    assert config["logging"] == {"config": [{"max-size": "10m"}], "type": "json-file"}
    config["logging"] = [config["logging"]]
    assert from_json == from_native
