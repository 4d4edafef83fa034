"""`check --policy DIR`: real Rego rules run by the engine on real job files, findings located.

Every test writes its own policy next to the assertion (a real `.rego` file in a temporary
directory) and checks the job file tests/data/policies/train.nomad.hcl, whose layout the
expected line:column pairs are read from:

     1  job "train" {                       job header               1:1
     4      team = "ml"                     meta value               4:12
     7    group "trainer" {                 group header             7:3
    10      task "torch" {                  task header             10:5
    14          image = "docker.io/..."     image value             14:17
    17        resources {                   resources header        17:7
    19          memory = 16384              memory value            19:18
    21          device "nvidia/gpu" {       device header           21:9
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from hclgpu.cli import main
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data" / "policies"
TRAIN = DATA / "train.nomad.hcl"
SAMPLES = ROOT / "samples"
POLICIES = SAMPLES / "policies"


def policy(folder: Path, text: str, name: str = "policy.rego") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("package main\n\nimport rego.v1\n\n" + textwrap.dedent(text))
    return folder


def check_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, Any]]]:
    status = main(["check", "--format", "json", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, json.loads(out)["diagnostics"]


def found(diagnostics: list[dict[str, Any]]) -> list[tuple[str, int, int, str]]:
    """(code, line, column, message) of each policy diagnostic."""
    return [
        (d["code"], d["line"], d["column"], d["message"]) for d in diagnostics if d["code"].startswith("HG4")
    ]


# ---- rules and where their findings land ----------------------------------------------


def test_deny_without_a_path_is_an_error_at_the_job(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = policy(
        tmp_path,
        """
        deny contains msg if {
            groups := input.Job.TaskGroups
            some group in groups
            group.Count > 1
            msg := sprintf("group %s runs %d copies", [group.Name, group.Count])
        }
        """,
    )
    status, diagnostics = check_json(capsys, "--policy", str(rules), str(TRAIN))
    assert status == 1
    assert found(diagnostics) == [("HG401", 1, 1, "`main.deny`: group trainer runs 2 copies")]
    assert diagnostics[0]["severity"] == "error" and diagnostics[0]["end_column"] == 12


def test_warn_is_a_warning_and_does_not_fail_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = policy(tmp_path, 'warn contains "the job has no owner" if not input.Job.Meta.owner\n')
    status, diagnostics = check_json(capsys, "--policy", str(rules), str(TRAIN))
    assert status == 0
    assert found(diagnostics) == [("HG402", 1, 1, "`main.warn`: the job has no owner")]
    assert diagnostics[0]["severity"] == "warning"
    assert main(["check", "--strict", "--policy", str(rules), str(TRAIN)]) == 1


def test_violation_path_points_at_the_device_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = policy(
        tmp_path,
        """
        violation contains {"msg": msg, "path": ["TaskGroups", g, "Tasks", t, "Resources", "Devices", d]} if {
            groups := input.Job.TaskGroups
            some g, group in groups
            some t, task in group.Tasks
            some d, device in task.Resources.Devices
            device.Count > 2
            msg := sprintf("%d GPUs is more than 2", [device.Count])
        }
        """,
    )
    _, diagnostics = check_json(capsys, "--policy", str(rules), str(TRAIN))
    assert found(diagnostics) == [("HG401", 21, 9, "`main.violation`: 4 GPUs is more than 2")]
    assert (diagnostics[0]["end_line"], diagnostics[0]["end_column"]) == (21, 28)  # `device "nvidia/gpu"`


@pytest.mark.parametrize(
    ("path", "where"),
    [
        ('["Job", "TaskGroups", 0, "Tasks", 0, "Config", "image"]', (14, 17)),  # a key of `config`
        ('"/Job/TaskGroups/0/Tasks/0/Config/image"', (14, 17)),  # the same, as a JSON pointer
        ('["TaskGroups", 0, "Tasks", 0, "Resources", "MemoryMB"]', (19, 18)),  # an attribute's value
        ('["TaskGroups", 0, "Tasks", 0, "Resources", "DiskMB"]', (17, 7)),  # never written: its block
        ('["Meta", "team"]', (4, 12)),  # a key of the job's `meta` block
        ('["TaskGroups", 0, "Name"]', (7, 9)),  # the group's label
        ('["TaskGroups", 0, "Tasks", 0]', (10, 5)),  # the task block
        ('["file"]', (1, 1)),  # the input's own `file`: the job
    ],
)
def test_a_path_maps_back_to_the_hcl_that_produced_it(
    path: str, where: tuple[int, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = policy(tmp_path, f'violation contains {{"msg": "here", "path": {path}}} if true\n')
    _, diagnostics = check_json(capsys, "--policy", str(rules), str(TRAIN))
    assert found(diagnostics) == [("HG401", *where, "`main.violation`: here")]
    assert diagnostics[0].get("help") is None


def test_a_path_that_names_nothing_falls_back_to_the_job_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lost = '{"msg": "lost", "path": ["TaskGroups", 7, "Tasks"]}'
    rules = policy(tmp_path, f"violation contains {lost} if true\n")
    _, diagnostics = check_json(capsys, "--policy", str(rules), str(TRAIN))
    assert found(diagnostics) == [("HG401", 1, 1, "`main.violation`: lost")]
    assert diagnostics[0]["help"] == (
        'note: the path `["TaskGroups", 7, "Tasks"]` names nothing in the job\'s API JSON'
    )


def test_the_input_is_render_nomads_document_plus_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rendered = tmp_path / "out"
    assert main(["render", str(TRAIN), "--target", "nomad", "--out", str(rendered)]) == 0
    document = json.loads((rendered / "train.json").read_text())
    expected = json.dumps(document, sort_keys=True)
    rules = policy(
        tmp_path / "rules",
        f"""
        expected := {expected}

        deny contains "the input differs from render --target nomad" if {{
            object.remove(input, ["file"]) != expected
        }}

        warn contains input.file if true
        """,
    )
    capsys.readouterr()
    status, diagnostics = check_json(capsys, "--policy", str(rules), str(TRAIN))
    assert found(diagnostics) == [("HG402", 1, 1, f"`main.warn`: {TRAIN}")]
    assert status == 0


def test_rules_with_suffixes_in_other_packages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "team.rego").write_text(
        "package team.gpu\n\nimport rego.v1\n\n"
        'deny_big contains "four GPUs" if input.Job.TaskGroups[0].Tasks[0].Resources.Devices[0].Count == 4\n'
        'warn_owner contains "no owner" if not input.Job.Meta.owner\n'
    )
    policy(tmp_path, 'deny contains "from main" if true\n', "main.rego")
    _, default = check_json(capsys, "--policy", str(tmp_path), str(TRAIN))
    assert found(default) == [("HG401", 1, 1, "`main.deny`: from main")]
    _, team = check_json(capsys, "--policy", str(tmp_path), "--namespace", "team.gpu", str(TRAIN))
    assert found(team) == [
        ("HG401", 1, 1, "`team.gpu.deny_big`: four GPUs"),
        ("HG402", 1, 1, "`team.gpu.warn_owner`: no owner"),
    ]
    _, every = check_json(capsys, "--policy", str(tmp_path), "--all-namespaces", str(TRAIN))
    assert [d[3] for d in found(every)] == [
        "`main.deny`: from main", "`team.gpu.deny_big`: four GPUs", "`team.gpu.warn_owner`: no owner"
    ]  # fmt: skip


def test_policy_tests_and_helper_rules_are_not_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy(tmp_path, 'deny_nothing contains "never" if false\nhelper := "not a finding"\n')
    policy(tmp_path, "test_deny if true\ndeny contains 1 if {\n", "policy_test.rego")  # would not compile
    status, diagnostics = check_json(capsys, "--policy", str(tmp_path), str(TRAIN))
    assert (status, found(diagnostics)) == (0, [])


# ---- suppressions and report formats --------------------------------------------------------


IMAGE_RULE = """
violation contains {"msg": "not our registry", "path": ["TaskGroups", 0, "Tasks", 0, "Config", "image"]} if {
    not startswith(input.Job.TaskGroups[0].Tasks[0].Config.image, "registry.example.com/")
}
"""


def test_a_policy_finding_is_suppressed_like_any_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = policy(tmp_path / "rules", IMAGE_RULE)
    job = tmp_path / "job.nomad.hcl"
    text = TRAIN.read_text()
    job.write_text(text.replace("        image =", "        # hclgpu-ignore: HG401\n        image ="))
    status, diagnostics = check_json(capsys, "--policy", str(rules), str(job))
    assert (status, diagnostics) == (0, [])
    job.write_text(text.replace("    count = 2", "    # hclgpu-ignore: policy-denied\n    count = 2"))
    status, diagnostics = check_json(capsys, "--policy", str(rules), str(job))
    assert [(d["code"], d["line"]) for d in diagnostics] == [("HG290", 8), ("HG401", 15)]
    status, diagnostics = check_json(capsys, str(job))  # without the policies nothing is unused
    assert (status, diagnostics) == (0, [])


def test_sarif_and_github_reports_carry_policy_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = policy(tmp_path, IMAGE_RULE)
    assert main(["check", "--format", "sarif", "--policy", str(rules), str(TRAIN)]) == 1
    sarif = json.loads(capsys.readouterr().out)
    result = sarif["runs"][0]["results"][0]
    assert result["ruleId"] == "HG401" and result["level"] == "error"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (14, 17)
    assert main(["check", "--format", "github", "--policy", str(rules), str(TRAIN)]) == 1
    annotation = capsys.readouterr().out.splitlines()[0]
    assert annotation.startswith("::error ")
    assert "line=14,endLine=14,col=17," in annotation and "(HG401 policy-denied)" in annotation


def test_the_configuration_names_the_policies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    policy(tmp_path / "policies", IMAGE_RULE)
    (tmp_path / "hclgpu.toml").write_text('policy = ["policies"]\npolicy-timeout = 5\n')
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "train.nomad.hcl").write_text(TRAIN.read_text())
    monkeypatch.chdir(tmp_path / "jobs")
    status, diagnostics = check_json(capsys, "train.nomad.hcl")
    assert (status, found(diagnostics)) == (1, [("HG401", 14, 17, "`main.violation`: not our registry")])
    (tmp_path / "hclgpu.toml").write_text("policy = [3]\n")
    assert main(["check", "train.nomad.hcl"]) == 2
    assert "hclgpu.toml: `policy`: must be a path, not 3" in capsys.readouterr().err


def test_the_cache_knows_the_policies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HCLGPU_NO_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert check_json(capsys, str(TRAIN))[1] == []  # clean without policies: every cache level has it
    rules = policy(tmp_path / "rules", 'warn contains "first" if true\n')
    first = check_json(capsys, "--policy", str(rules), str(TRAIN))[1]
    assert found(first) == [("HG402", 1, 1, "`main.warn`: first")]
    policy(tmp_path / "rules", 'warn contains "second" if true\n')
    assert found(check_json(capsys, "--policy", str(rules), str(TRAIN))[1]) == [
        ("HG402", 1, 1, "`main.warn`: second")
    ]
    policy(tmp_path / "rules", 'warn contains "never" if false\n')
    assert check_json(capsys, "--policy", str(rules), str(TRAIN)) == (0, [])  # clean with these policies
    policy(tmp_path / "rules", 'warn contains "third" if true\n')
    assert found(check_json(capsys, "--policy", str(rules), str(TRAIN))[1]) == [
        ("HG402", 1, 1, "`main.warn`: third")
    ]


def test_many_files_in_worker_processes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hclgpu.cli.batch import WORKERS_PAY_FROM

    rules = policy(tmp_path / "rules", IMAGE_RULE)
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    count = WORKERS_PAY_FROM + 6
    for index in range(count):
        (jobs / f"j{index:02}.nomad.hcl").write_text(TRAIN.read_text().replace('"train"', f'"train{index}"'))
    status, diagnostics = check_json(capsys, "--jobs", "2", "--policy", str(rules), str(jobs))
    assert status == 1
    assert [(Path(d["path"]).name, d["line"]) for d in diagnostics] == [
        (f"j{index:02}.nomad.hcl", 14) for index in range(count)
    ]


# ---- broken policies ------------------------------------------------------------------------


def test_a_syntax_error_is_located_in_the_policy_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy(tmp_path, "deny contains msg if {\n\tmsg := \n}\n", "broken.rego")
    status, diagnostics = check_json(capsys, "--policy", str(tmp_path), str(TRAIN))
    assert status == 2
    assert [(d["path"], d["code"], d["line"], d["column"]) for d in diagnostics] == [
        (str(tmp_path / "broken.rego"), "HG410", 6, 6)
    ]
    assert diagnostics[0]["end_column"] == 8  # `:=`


def test_a_rego_v0_rule_head_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "old.rego").write_text('package main\n\ndeny[msg] {\n  msg := "old"\n}\n')
    status, diagnostics = check_json(capsys, "--policy", str(tmp_path), str(TRAIN))
    assert status == 2
    assert [(d["code"], d["line"], d["column"], d["message"]) for d in diagnostics] == [
        ("HG410", 3, 5, "`deny[...]` is a Rego v0 rule head")
    ]


@pytest.mark.parametrize(
    ("rule", "error"),
    [
        (
            'deny_twice := "a" if true\ndeny_twice := "b" if true\n',
            "complete rules must not produce multiple outputs",
        ),
        ("deny_twice contains msg if {\n    msg := nofunc(input.Job.ID)\n}\n", "Function not found: nofunc"),
    ],
)
def test_a_runtime_error_names_the_rule(
    rule: str, error: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy(tmp_path, rule + 'warn contains "fine" if true\n')
    status, diagnostics = check_json(capsys, "--policy", str(tmp_path), str(TRAIN))
    assert status == 2
    assert found(diagnostics) == [  # the other rules still report
        ("HG402", 1, 1, "`main.warn`: fine"),
        ("HG411", 1, 1, f"policy rule `main.deny_twice` failed: {error}"),
    ]


def test_a_rule_that_never_ends_is_stopped_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy(
        tmp_path,
        """
        warn contains "fine" if true

        deny_slow contains n if {
            n := count([1 | some i in numbers.range(1, 100000); some j in numbers.range(1, 100000); i == -j])
        }
        """,
    )
    argv = ("--policy", str(tmp_path), "--policy-timeout", "0.5", str(TRAIN))
    status, diagnostics = check_json(capsys, *argv)
    assert status == 2
    assert found(diagnostics) == [
        ("HG412", 1, 1, "policy rule `main.deny_slow` did not finish within 0.5 s and was stopped")
    ]


SLOW_RULE = """
deny_slow contains n if {
    n := count([1 | some i in numbers.range(1, 100000); some j in numbers.range(1, 100000); i == -j])
}
"""


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from /proc")
def test_ctrl_c_stops_the_engines_of_the_workers_too(tmp_path: Path) -> None:
    """Each worker's engine busy with a rule that runs for minutes: Ctrl-C leaves no process
    of the run behind, neither running nor unreaped (an engine the check worker did not
    wait for would linger as a zombie, or run on alone)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.work import children, cpu_seconds

    rules = policy(tmp_path / "rules", SLOW_RULE)
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    for index in range(30):  # enough for two workers
        (jobs / f"j{index:02d}.nomad.hcl").write_text(TRAIN.read_text())
    limit = ["--policy-timeout", "600"]
    argv = ["check", "--no-cache", "--jobs", "2", "--policy", str(rules), *limit, str(jobs)]
    check = subprocess.Popen(
        [sys.executable, "-m", "hclgpu", *argv], stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    engines: list[int] = []
    deadline = time.monotonic() + 120  # a guard against a hang, not a measurement
    while time.monotonic() < deadline:
        engines = [engine for worker in children(check.pid) for engine in children(worker)]
        if len(engines) == 2 and min(cpu_seconds(pid) for pid in engines) > 0.2:
            break  # both engines are inside the slow rule
        time.sleep(0.02)
    assert len(engines) == 2
    os.killpg(check.pid, signal.SIGINT)
    _, errors = check.communicate(timeout=120)  # a guard against a hang
    assert check.returncode == 130, errors
    assert errors == ""
    with pytest.raises(ProcessLookupError):  # nothing left in the run's process group
        os.killpg(check.pid, 0)


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda p: None, "policy directory `{p}/missing` does not exist"),
        (lambda p: (p / "missing").mkdir(), "no policy files (*.rego) in directory `{p}/missing`"),
        (
            lambda p: policy(p / "missing", "helper := 1\n"),
            "no policy in `main` has a `deny`, `warn` or `violation` rule",
        ),
    ],
)
def test_unusable_policy_directories_exit_two(
    setup: Any, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    setup(tmp_path)
    status, diagnostics = check_json(capsys, "--policy", str(tmp_path / "missing"), str(TRAIN))
    assert status == 2
    assert [(d["code"], d["message"]) for d in diagnostics] == [("HG413", message.format(p=tmp_path))]


def test_without_the_engine_installed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    hidden = lambda name, *rest: None if name == "regopy" else real(name, *rest)  # noqa: E731
    monkeypatch.setattr(importlib.util, "find_spec", hidden)
    rules = policy(tmp_path / "other", IMAGE_RULE)  # a policy set no engine of this process has compiled
    status, diagnostics = check_json(capsys, "--policy", str(rules), str(TRAIN))
    assert status == 2
    assert [d["code"] for d in diagnostics] == ["HG413"]
    assert "pip install 'hclgpu[policy]'" in diagnostics[0]["message"]


def test_a_bad_timeout_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["check", "--policy", str(POLICIES), "--policy-timeout", "0", str(TRAIN)])
    assert stopped.value.code == 2
    assert (
        "argument --policy-timeout: must be a number of seconds above 0, not '0'" in capsys.readouterr().err
    )


# ---- the shipped policies -------------------------------------------------------------------


def test_the_samples_pass_the_shipped_policies(capsys: pytest.CaptureFixture[str]) -> None:
    status, diagnostics = check_json(capsys, "--policy", str(POLICIES), str(SAMPLES))
    assert status == 0
    findings = {(Path(d["path"]).name, d["code"], d["line"]) for d in diagnostics if d["code"] >= "HG4"}
    assert sorted(findings) == [
        ("distributed-training.nomad.hcl", "HG402", 103),  # each a GPU task's `resources` block
        ("mixed-service.nomad.hcl", "HG402", 101),
        ("periodic-batch.nomad.hcl", "HG402", 68),
        ("tensorrt.nomad.hcl", "HG402", 83),
        ("variables.nomad.hcl", "HG402", 119),
    ]


def test_a_sample_that_breaks_a_shipped_policy(capsys: pytest.CaptureFixture[str]) -> None:
    status, diagnostics = check_json(capsys, "--policy", str(POLICIES), str(DATA / "violating.nomad.hcl"))
    assert status == 1
    assert found(diagnostics) == [
        (
            "HG401", 11, 17,
            "`main.violation`: task mine uses image docker.io/someone/definitely-not-a-miner:latest, "
            "which is not from an approved registry",
        )
    ]  # fmt: skip


@pytest.fixture()
def started(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every engine worker process started from now on (the policies compile in each)."""
    import subprocess

    from hclgpu.rego import engine

    found: list[object] = []
    real = subprocess.Popen

    def counting(*args: Any, **kwargs: Any) -> Any:
        if engine.WORKER in args[0]:
            found.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", counting)
    return found


def test_the_policies_compile_once_per_run(tmp_path: Path, started: list[object]) -> None:
    rules = policy(tmp_path / "rules", IMAGE_RULE + '\nwarn contains "w" if true\n')
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    for index in range(5):
        (jobs / f"j{index}.nomad.hcl").write_text(TRAIN.read_text())
    assert main(["check", "--jobs", "1", "--policy", str(rules), str(jobs)]) == 1
    assert len(started) == 1


def test_a_language_server_compiles_the_policies_once(tmp_path: Path, started: list[object]) -> None:
    from hclgpu.lsp.analysis import analyse

    given: dict[str, object] = {"policy": (str(policy(tmp_path / "session", IMAGE_RULE)),)}
    text = TRAIN.read_text()
    for version, edit in enumerate(("", "\n", "\n\n")):
        analysis = analyse("file:///train.nomad.hcl", str(TRAIN), edit + text, version, given)
        assert [(d.code, d.source.position(d.span.start).line) for d in analysis.diagnostics if d.span] == [
            ("HG401", 14 + len(edit))
        ]
    assert len(started) == 1


def test_a_forked_worker_loads_the_bundle_its_parent_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check worker process is forked after the run compiled its policies: its engine loads
    the saved bundle instead of compiling (here the fork is a changed process id)."""
    import os

    from hclgpu.diagnostics import Sink
    from hclgpu.rego import engine
    from hclgpu.rego.policies import load_policies

    policies = load_policies([str(policy(tmp_path, IMAGE_RULE))], ["main"], 10.0, Sink())
    assert policies is not None
    parent = engine.engine_for(policies)
    assert parent.start() == [] and parent.bundle is not None and Path(parent.bundle).is_file()
    setups: list[set[str]] = []
    real = engine.Engine._setup
    monkeypatch.setattr(
        engine.Engine, "_setup", lambda self, setup: setups.append(set(setup)) or real(self, setup)
    )
    monkeypatch.setattr(os, "getpid", lambda: -1)
    child = engine.engine_for(policies)
    assert child is not parent
    document = {"Job": {"TaskGroups": [{"Tasks": [{"Config": {"image": "x"}}]}]}, "file": "f"}
    assert child.evaluate(document).values == {0: [{"msg": "not our registry", "path": [
        "TaskGroups", 0, "Tasks", 0, "Config", "image"]}]}  # fmt: skip
    assert setups == [{"bundle", "rules"}]
    child.close()
