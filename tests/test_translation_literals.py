"""What a task's process receives is what Nomad gives it, whatever a target expands.

The kubelet expands ``$(VAR)`` and reduces ``$$`` in a container's command, args and env
values; Nomad does neither. An env key holding ``=`` is, under Nomad, a variable named by
what comes before it. A template rendered outside the task's mounted directories is not
in the container at all. Each test states the target's rule independently of the code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
import yaml

from tests.test_docker_compose import argvs, compose, flag_values, own_env, validate_compose
from tests.test_k8s_render import documents, render, validate


def kubelet_expand(text: str, env: Mapping[str, str]) -> str:
    """The kubelet's expansion of a command, arg or env value (k8s.io/kubernetes,
    third_party/forked/golang/expansion/expand.go): ``$$`` is ``$``; ``$(NAME)`` is the
    variable when defined and stays as written when not; an unclosed ``$(`` and ``$`` before
    anything else stay."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] != "$" or i + 1 == len(text):
            out.append(text[i])
            i += 1
            continue
        following = text[i + 1]
        if following == "$":
            out.append("$")
            i += 2
        elif following == "(" and ")" in text[i + 2 :]:
            end = text.index(")", i + 2)
            name = text[i + 2 : end]
            out.append(env.get(name, f"$({name})"))
            i = end + 1
        else:
            out.append("$" + following)
            i += 2
    return "".join(out)


def test_the_kubelet_rule_as_written_here() -> None:
    env = {"HOME": "/root"}
    assert kubelet_expand("$(HOME)/x", env) == "/root/x"
    assert kubelet_expand("$$(HOME)", env) == "$(HOME)"
    assert kubelet_expand("a$$b", env) == "a$b"
    assert kubelet_expand("$(UNSET) $( $x $", env) == "$(UNSET) $( $x $"


LITERALS = [
    "$(HOME)",
    "$(date +%s)",
    "$$",
    "$$(HOME)",
    "cost: $5",
    "trailing $",
    "$$$(HOME)$",
    "${NOMAD_TASK_NAME}",
    "echo $(( 1 + 2 ))",
]


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("${", "$${") + '"'


def _job(args: list[str], env: Mapping[str, str]) -> str:
    lines = "\n".join(f"        {_quoted(k)} = {_quoted(v)}" for k, v in env.items())
    return (
        'job "literal" {\n  group "g" {\n    task "t" {\n      driver = "docker"\n'
        f'      config {{\n        image = "busybox:1.36"\n        entrypoint = [{_quoted(args[0])}]\n'
        f"        args = [{', '.join(_quoted(a) for a in args)}]\n      }}\n"
        f"      env = {{\n{lines}\n      }}\n    }}\n  }}\n}}\n"
    )


def _container(text: str, nomad: bool = False) -> dict[str, Any]:
    """The container; its env without the NOMAD_* variables Nomad sets in every task unless
    ``nomad``."""
    rendered, _ = render(text)
    validate(rendered)
    (deployment,) = [d for d in documents(rendered) if d["kind"] == "Deployment"]
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    own = [item for item in container["env"] if nomad or not item["name"].startswith("NOMAD_")]
    return {**container, "env": own}


def _in_nomad(value: str) -> str:
    """What the process sees in Nomad: its runtime interpolation fills ${NOMAD_TASK_NAME}."""
    return value.replace("$${", "${").replace("${NOMAD_TASK_NAME}", "t")


def test_kubernetes_passes_command_args_and_env_literally() -> None:
    env = {f"V{i}": value for i, value in enumerate(LITERALS)}
    container = _container(_job(LITERALS, env), nomad=True)
    defined = {"HOME": "/root", **{item["name"]: item.get("value", "") for item in container["env"]}}
    process_args = [kubelet_expand(word, defined) for word in container["args"]]
    process_env = {e["name"]: kubelet_expand(e["value"], defined) for e in container["env"] if "value" in e}
    assert [kubelet_expand(container["command"][0], defined)] == LITERALS[:1]
    assert process_args == [_in_nomad(value) for value in LITERALS]
    assert {k: v for k, v in process_env.items() if k.startswith("V")} == {
        k: _in_nomad(v) for k, v in env.items()
    }


def test_an_env_key_holding_equals_names_the_variable_before_it() -> None:
    text = _job(["run"], {"A=B": "x", "PLAIN": "y", "=nameless": "z"})
    container = _container(text)
    assert {item["name"]: item["value"] for item in container["env"]} == {"A": "B=x", "PLAIN": "y"}
    [argv] = argvs(text).values()
    assert sorted(own_env(flag_values(argv, "-e"))) == ["A=B=x", "PLAIN=y"]
    doc = compose(text)
    validate_compose(doc)
    [service] = doc["services"].values()
    assert {k: v for k, v in service["environment"].items() if not k.startswith("NOMAD_")} == {
        "A": "B=x",
        "PLAIN": "y",
    }
    _, diagnostics = render(text)
    said = [d.message for d in diagnostics]
    assert any('env "A=B"' in m and "A='B=x'" in m for m in said), said
    assert any('env "=nameless"' in m and "names no variable" in m for m in said), said


def test_two_keys_naming_one_variable_keep_the_first() -> None:
    container = _container(_job(["run"], {"A": "1", "A=2": "x"}))
    assert container["env"] == [{"name": "A", "value": "1"}]


def test_compose_escapes_label_values_but_not_keys() -> None:
    """compose-go interpolates values only: a mapping's keys are passed through unchanged
    (interpolation/interpolation.go, recursiveInterpolate, at 0342c62c), so a `$` in a key
    must stay single and one in a value is doubled."""
    text = (
        'job "labels" {\n  meta = { "cost$" = "$5" }\n  group "g" {\n    task "t" {\n'
        '      driver = "docker"\n      config {\n        image = "busybox:1.36"\n'
        '        labels = { "team$x" = "a$b" }\n      }\n    }\n  }\n}\n'
    )
    [service] = compose(text)["services"].values()
    assert service["labels"]["team$x"] == "a$$b"
    assert service["labels"]["io.hclgpu.meta.cost$"] == "$$5"


@pytest.mark.parametrize("destination", ["/etc/shadow", "etc/app.conf", "local/../../escape", "/"])
def test_a_template_the_container_cannot_see_is_not_mounted(destination: str) -> None:
    text = (
        'job "tmpl" {\n  group "g" {\n    task "t" {\n      driver = "docker"\n'
        '      config { image = "busybox:1.36" }\n'
        f'      template {{\n        destination = "{destination}"\n        data = "secret"\n      }}\n'
        '      template {\n        destination = "/local/app.conf"\n        data = "ok"\n      }\n'
        "    }\n  }\n}\n"
    )
    rendered, diagnostics = render(text)
    validate(rendered)
    mounts = [
        mount["mountPath"]
        for doc in documents(rendered)
        if doc["kind"] == "Deployment"
        for container in doc["spec"]["template"]["spec"]["containers"]
        for mount in container.get("volumeMounts", [])
    ]
    assert mounts == ["/local/app.conf"]
    assert any(destination in d.message and "does not see it" in d.message for d in diagnostics)
    assert "secret" not in yaml.safe_dump([d for d in documents(rendered) if d["kind"] == "ConfigMap"])
