"""``canonicalize`` applies exactly the client-side defaults of Nomad's ``api.Job.Canonicalize()``.

Two kinds of check. The derived fixtures in tests/data/conformance/nomad/derived carry what
Nomad printed after ``Canonicalize()`` (NAME.canonical.json): the rendered canonical job must
equal it key for key, in order, with the same value types. The hand-written jobs below cover
what those fixtures do not (batch/system/sysbatch policies, job-level strategies merged into
groups, periodic, templates, artifacts, services and checks, devices, connect); each expected
value is read from Nomad's Go source (``api/*.go``, named in the comment next to it), not taken
from running the implementation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hclgpu.backends.nomad.api import render, to_api
from hclgpu.codes import Severity
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.ir import models as m
from hclgpu.ir.base import Node, _all_models, _models_in
from hclgpu.ir.canonical import CHANGED, canonicalize
from hclgpu.ir.canonical import _job as _canonical_job
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from tests.conftest import vendored
from tests.fuzz_inputs import corpus

SECOND = 1_000_000_000
MINUTE = 60 * SECOND
HOUR = 60 * MINUTE

DERIVED = ("basic-no-tokens.hcl", "device-quirks.hcl", "device-dynamic.hcl")
WITH_CANONICAL = ("basic-no-tokens.hcl", "device-quirks.hcl")
"""The derived fixtures for which the corpus holds Nomad's canonicalised output."""

# api/tasks.go defaultServiceJobRestartPolicy(): Delay 15s, Attempts 2, Interval 30m, Mode "fail",
# RenderTemplates false.
SERVICE_RESTART = {
    "Interval": 30 * MINUTE,
    "Attempts": 2,
    "Delay": 15 * SECOND,
    "Mode": "fail",
    "RenderTemplates": False,
}
# api/tasks.go defaultBatchJobRestartPolicy(): Delay 15s, Attempts 3, Interval 24h, Mode "fail",
# RenderTemplates false.
BATCH_RESTART = {
    "Interval": 24 * HOUR,
    "Attempts": 3,
    "Delay": 15 * SECOND,
    "Mode": "fail",
    "RenderTemplates": False,
}
# api/tasks.go NewDefaultReschedulePolicy case "batch": Attempts 1, Interval 24h, Delay 5s,
# DelayFunction "constant", MaxDelay 0, Unlimited false.
BATCH_RESCHEDULE = {
    "Attempts": 1,
    "Interval": 24 * HOUR,
    "Delay": 5 * SECOND,
    "DelayFunction": "constant",
    "MaxDelay": 0,
    "Unlimited": False,
}
# api/jobs.go DefaultUpdateStrategy(): Stagger 30s, MaxParallel 1, HealthCheck "checks",
# MinHealthyTime 10s, HealthyDeadline 5m, ProgressDeadline 10m, AutoRevert false, Canary 0,
# AutoPromote false.
DEFAULT_UPDATE = {
    "Stagger": 30 * SECOND,
    "MaxParallel": 1,
    "HealthCheck": "checks",
    "MinHealthyTime": 10 * SECOND,
    "HealthyDeadline": 5 * MINUTE,
    "ProgressDeadline": 10 * MINUTE,
    "Canary": 0,
    "AutoRevert": False,
    "AutoPromote": False,
}


# --------------------------------------------------------------------------- helpers


def _compile(text: str, base_dir: Path | None = None, name: str = "test.hcl") -> m.Job:
    options = EvalOptions(VariableInputs(env={}), base_dir=base_dir or Path())
    result = compile_source(
        SourceFile(name, text), options, checks=False
    )  # the parser's job, not the server's
    errors = [f"{d.code} {d.message}" for d in result.diagnostics if d.severity is Severity.ERROR]
    assert not errors and result.job is not None, errors
    return result.job


def _job_text(job: str = "", group: str = "") -> str:
    """A one-group, one-task job with extra lines in the job and group bodies."""
    return f'job "j" {{\n{job}\n  group "g" {{\n{group}\n    task "t" {{ driver = "exec" }}\n  }}\n}}\n'


def _canonical(text: str) -> dict[str, Any]:
    """The canonical job as the API's JSON object (no shared corpus needed)."""
    document: dict[str, Any] = json.loads(render(canonicalize(_compile(text))))
    job: dict[str, Any] = document["Job"]
    return job


def _difference(want: object, got: object, where: str = "$") -> str:
    """The first place two JSON values differ in type, key order or value ("" if none)."""
    if type(want) is not type(got):
        return f"{where}: want {want!r} ({type(want).__name__}), got {got!r} ({type(got).__name__})"
    if isinstance(want, dict) and isinstance(got, dict):
        if list(want) != list(got):
            return f"{where}: want keys {list(want)}, got {list(got)}"
        for key in want:
            if found := _difference(want[key], got[key], f"{where}.{key}"):
                return found
        return ""
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return f"{where}: want {len(want)} items, got {len(got)}"
        for index, (w, g) in enumerate(zip(want, got, strict=True)):
            if found := _difference(w, g, f"{where}[{index}]"):
                return found
        return ""
    return "" if want == got else f"{where}: want {want!r}, got {got!r}"


def _subset(want: dict[str, Any], got: dict[str, Any]) -> str:
    """Like ``_difference`` for the keys ``want`` names only (strict on their values)."""
    return _difference(want, {key: got[key] for key in want if key in got})


def test_difference_is_strict() -> None:
    assert _difference({"a": 1, "b": 2}, {"b": 2, "a": 1}) != ""
    assert _difference({"a": 1}, {"a": 1.0}) != ""
    assert _difference({"a": 0}, {"a": False}) != ""
    assert _difference({"a": None}, {"a": []}) != ""
    assert _difference({"a": [1, {"b": "x"}]}, {"a": [1, {"b": "x"}]}) == ""


# --------------------------------------------------------------------------- ground truth


def _derived(name: str) -> Path:
    return vendored("conformance", "nomad", "derived") / name


def _compile_fixture(path: Path) -> m.Job:
    options = EvalOptions(VariableInputs(env={}), base_dir=path.parent)
    # the parser's job: a fixture need not pass Nomad's server validation to be canonicalized
    result = compile_source(SourceFile(path.name, path.read_text(encoding="utf-8")), options, checks=False)
    errors = [d.message for d in result.diagnostics if d.severity is Severity.ERROR]
    assert not errors and result.job is not None, errors
    return result.job


@pytest.mark.parametrize("name", WITH_CANONICAL)
def test_fixture_matches_nomad_canonicalize(name: str) -> None:
    path = _derived(name)
    job = _compile_fixture(path)
    expected_path = path.with_name(path.name + ".canonical.json")
    text = render(canonicalize(job))
    expected_text = expected_path.read_text(encoding="utf-8")
    assert _difference(json.loads(expected_text), json.loads(text)) == ""
    assert text == expected_text


@pytest.mark.parametrize("name", DERIVED)
def test_fixture_input_is_not_changed(name: str) -> None:
    path = _derived(name)
    job = _compile_fixture(path)
    before = render(job)
    canonicalize(job)
    assert render(job) == before
    raw = json.loads(path.with_name(path.name + ".json").read_text(encoding="utf-8"))
    assert _difference(raw, json.loads(before)) == ""


# --------------------------------------------------------------------------- job types


def test_batch_job_policies() -> None:
    job = _canonical(_job_text('type = "batch"'))
    group = job["TaskGroups"][0]
    assert _difference(BATCH_RESTART, group["RestartPolicy"]) == ""
    assert _difference(BATCH_RESCHEDULE, group["ReschedulePolicy"]) == ""
    # api/tasks.go Task.Canonicalize: `if t.RestartPolicy == nil { t.RestartPolicy = tg.RestartPolicy }`
    assert _difference(BATCH_RESTART, group["Tasks"][0]["RestartPolicy"]) == ""
    # api/jobs.go: `else if *j.Type == JobTypeService { j.Update = DefaultUpdateStrategy() }` only.
    assert job["Update"] is None and group["Update"] is None
    # api/tasks.go: `if g.Migrate == nil && *job.Type == "service" { g.Migrate = &MigrateStrategy{} }`
    assert group["Migrate"] is None
    assert (job["Type"], job["Priority"], job["Region"], job["Namespace"]) == (
        "batch",
        50,
        "global",
        "default",
    )


def test_system_job_policies() -> None:
    job = _canonical(_job_text('type = "system"'))
    group = job["TaskGroups"][0]
    # api/tasks.go: `case "service", "system": defaultRestartPolicy = defaultServiceJobRestartPolicy()`
    assert _difference(SERVICE_RESTART, group["RestartPolicy"]) == ""
    # api/tasks.go:
    # `if g.ReschedulePolicy == nil && *job.Type != JobTypeSysbatch && *job.Type != JobTypeSystem`
    assert group["ReschedulePolicy"] is None
    assert job["Update"] is None and group["Update"] is None and group["Migrate"] is None


def test_sysbatch_job_policies() -> None:
    job = _canonical(_job_text('type = "sysbatch"'))
    group = job["TaskGroups"][0]
    # api/tasks.go: sysbatch falls to `default: defaultRestartPolicy = defaultBatchJobRestartPolicy()`
    assert _difference(BATCH_RESTART, group["RestartPolicy"]) == ""
    assert group["ReschedulePolicy"] is None


def test_system_job_with_reschedule_gets_zero_defaults() -> None:
    text = _job_text('type = "system"', "reschedule { attempts = 1 }")
    group = _canonical(text)["TaskGroups"][0]
    # api/tasks.go NewDefaultReschedulePolicy `default:` branch: all zero, DelayFunction "".
    want = {"Attempts": 1, "Interval": 0, "Delay": 0, "DelayFunction": "", "MaxDelay": 0, "Unlimited": False}
    assert _difference(want, group["ReschedulePolicy"]) == ""


def test_service_job_defaults() -> None:
    job = _canonical(_job_text())
    group = job["TaskGroups"][0]
    # api/jobs.go Job.Canonicalize: Type "service", Priority JobDefaultPriority (50), Region GlobalRegion,
    # Namespace DefaultNamespace, Stop/AllAtOnce/Stable false, ParentID/NodePool/... "", indexes 0.
    want_job = {
        "Region": "global",
        "Namespace": "default",
        "ID": "j",
        "Name": "j",
        "Type": "service",
        "Priority": 50,
        "AllAtOnce": False,
        "NodePool": "",
        "Stop": False,
        "ParentID": "",
        "DispatchIdempotencyToken": None,
        "ConsulNamespace": "",
        "VaultNamespace": "",
        "NomadTokenID": "",
        "Status": "",
        "StatusDescription": "",
        "Stable": False,
        "Version": 0,
        "SubmitTime": None,
        "CreateIndex": 0,
        "ModifyIndex": 0,
        "JobModifyIndex": 0,
    }
    assert _subset(want_job, job) == ""
    assert _difference(DEFAULT_UPDATE, job["Update"]) == ""
    # api/tasks.go: the group inherits the job's update when `!job.Update.Empty()`.
    assert _difference(DEFAULT_UPDATE, group["Update"]) == ""
    # api/tasks.go NewDefaultReschedulePolicy case "service": Delay 30s, "exponential", MaxDelay 1h,
    # Unlimited true, Attempts 0, Interval 0.
    want = {"Attempts": 0, "Interval": 0, "Delay": 30 * SECOND, "DelayFunction": "exponential"}
    assert _subset({**want, "MaxDelay": HOUR, "Unlimited": True}, group["ReschedulePolicy"]) == ""
    # api/tasks.go DefaultMigrateStrategy(): MaxParallel 1, "checks", MinHealthyTime 10s, HealthyDeadline 5m.
    migrate = {
        "MaxParallel": 1,
        "HealthCheck": "checks",
        "MinHealthyTime": 10 * SECOND,
        "HealthyDeadline": 5 * MINUTE,
    }
    assert _difference(migrate, group["Migrate"]) == ""
    # api/tasks.go DefaultEphemeralDisk(): Sticky false, Migrate false, SizeMB 300.
    assert _difference({"Sticky": False, "Migrate": False, "SizeMB": 300}, group["EphemeralDisk"]) == ""
    assert group["Count"] == 1  # api/tasks.go: `g.Count = pointerOf(1)`
    assert group["Consul"] is None  # api/tasks.go: `if g.Consul != nil { ... }` only


# --------------------------------------------------------------------------- merged strategies


def test_job_update_is_merged_into_groups() -> None:
    text = """job "u" {
  update {
    max_parallel = 3
    stagger      = "45s"
  }
  group "a" {
    update {
      canary       = 2
      max_parallel = 5
    }
    task "t" { driver = "exec" }
  }
  group "b" {
    task "t" { driver = "exec" }
  }
}
"""
    job = _canonical(text)
    # api/jobs.go: `if j.Update != nil { j.Update.Canonicalize() }` fills the unset fields.
    job_update = {**DEFAULT_UPDATE, "Stagger": 45 * SECOND, "MaxParallel": 3}
    assert _difference(job_update, job["Update"]) == ""
    # api/tasks.go: `jc := job.Update.Copy(); jc.Merge(g.Update); g.Update = jc`
    a, b = job["TaskGroups"]
    assert _difference({**job_update, "MaxParallel": 5, "Canary": 2}, a["Update"]) == ""
    # api/tasks.go: `else if ju && !job.Update.Empty() { g.Update = job.Update.Copy() }`
    assert _difference(job_update, b["Update"]) == ""


def test_batch_job_update_is_inherited() -> None:
    text = _job_text('type = "batch"\nupdate { canary = 1 }')
    job = _canonical(text)
    assert _difference({**DEFAULT_UPDATE, "Canary": 1}, job["TaskGroups"][0]["Update"]) == ""


def test_job_reschedule_and_migrate_are_merged_into_groups() -> None:
    text = """job "r" {
  reschedule { attempts = 4 }
  migrate { max_parallel = 2 }
  group "a" {
    reschedule { delay = "1m" }
    migrate { health_check = "task_states" }
    task "t" { driver = "exec" }
  }
}
"""
    job = _canonical(text)
    group = job["TaskGroups"][0]
    # api/tasks.go: `jobReschedule := job.Reschedule.Copy(); jobReschedule.Merge(g.ReschedulePolicy)`,
    # then ReschedulePolicy.Canonicalize(jobType) fills from NewDefaultReschedulePolicy("service").
    want = {
        "Attempts": 4,
        "Interval": 0,
        "Delay": MINUTE,
        "DelayFunction": "exponential",
        "MaxDelay": HOUR,
        "Unlimited": True,
    }
    assert _difference(want, group["ReschedulePolicy"]) == ""
    # api/tasks.go: `jobMigrate := job.Migrate.Copy(); jobMigrate.Merge(g.Migrate)`, then defaults.
    migrate = {"MaxParallel": 2, "HealthCheck": "task_states", "MinHealthyTime": 10 * SECOND}
    assert _difference({**migrate, "HealthyDeadline": 5 * MINUTE}, group["Migrate"]) == ""
    # The job-level blocks themselves are not canonicalized by Job.Canonicalize.
    assert job["Reschedule"]["Delay"] is None and job["Migrate"]["HealthCheck"] is None


def test_group_restart_merges_onto_type_default_and_task_restart_onto_group() -> None:
    text = """job "r" {
  group "g" {
    restart { attempts = 7 }
    task "a" {
      driver = "exec"
      restart { mode = "delay" }
    }
  }
}
"""
    group = _canonical(text)["TaskGroups"][0]
    # api/tasks.go: `defaultRestartPolicy.Merge(g.RestartPolicy); g.RestartPolicy = defaultRestartPolicy`
    assert _difference({**SERVICE_RESTART, "Attempts": 7}, group["RestartPolicy"]) == ""
    # api/tasks.go Task.Canonicalize: `*tgrp = *tg.RestartPolicy; tgrp.Merge(t.RestartPolicy)`
    task_restart = {**SERVICE_RESTART, "Attempts": 7, "Mode": "delay"}
    assert _difference(task_restart, group["Tasks"][0]["RestartPolicy"]) == ""


# --------------------------------------------------------------------------- job blocks


def test_periodic_job() -> None:
    text = _job_text('type = "batch"\nperiodic { cron = "*/5 * * * *" }')
    periodic = _canonical(text)["Periodic"]
    # api/jobs.go PeriodicConfig.Canonicalize: Enabled true, SpecType PeriodicSpecCron, ProhibitOverlap
    # false, TimeZone "UTC" when nil or "". Specs: Nomad >= 1.6 adds `if p.Specs == nil { p.Specs =
    # []string{} }` next to `if p.Spec == nil { p.Spec = pointerOf("") }` (the stored api/jobs.go is older).
    want = {
        "Enabled": True,
        "Spec": "*/5 * * * *",
        "Specs": [],
        "SpecType": "cron",
        "ProhibitOverlap": False,
        "TimeZone": "UTC",
    }
    assert _difference(want, periodic) == ""


def test_periodic_empty_time_zone_becomes_utc() -> None:
    text = """job "p" {
  type = "batch"
  periodic {
    crons     = ["0 * * * *"]
    time_zone = ""
    enabled   = false
  }
  group "g" {
    task "t" { driver = "exec" }
  }
}
"""
    periodic = _canonical(text)["Periodic"]
    # api/jobs.go: `if p.TimeZone == nil || *p.TimeZone == "" { p.TimeZone = pointerOf("UTC") }`
    assert _subset({"Enabled": False, "Spec": "", "Specs": ["0 * * * *"], "TimeZone": "UTC"}, periodic) == ""


def test_multiregion_defaults() -> None:
    text = """job "m" {
  multiregion {
    region "west" {}
    region "east" {
      count = 3
    }
  }
  group "g" {
    task "t" { driver = "exec" }
  }
}
"""
    multiregion = _canonical(text)["Multiregion"]
    # api/jobs.go Multiregion.Canonicalize: Strategy {MaxParallel 0, OnFailure ""}; each region
    # Count 1, Datacenters []string{}, Meta map[string]string{}.
    assert _difference({"MaxParallel": 0, "OnFailure": ""}, multiregion["Strategy"]) == ""
    west, east = multiregion["Regions"]
    assert _subset({"Name": "west", "Count": 1, "Datacenters": [], "Meta": {}}, west) == ""
    assert _subset({"Name": "east", "Count": 3, "Datacenters": [], "Meta": {}}, east) == ""


def test_placement_weights_default_to_50() -> None:
    text = """job "w" {
  affinity {
    attribute = "${node.class}"
    value     = "large"
  }
  spread { attribute = "${node.datacenter}" }
  group "g" {
    affinity {
      attribute = "${meta.rack}"
      value     = "r1"
      weight    = -10
    }
    spread { attribute = "${meta.rack}" }
    task "t" {
      driver = "exec"
      affinity {
        attribute = "${attr.os.name}"
        value     = "ubuntu"
      }
    }
  }
}
"""
    job = _canonical(text)
    group = job["TaskGroups"][0]
    # api/tasks.go: Affinity.Canonicalize and Spread.Canonicalize `pointerOf(int8(50))` when nil.
    weights = [job["Affinities"][0]["Weight"], job["Spreads"][0]["Weight"], group["Spreads"][0]["Weight"]]
    assert weights == [50, 50, 50]
    assert group["Affinities"][0]["Weight"] == -10
    assert group["Tasks"][0]["Affinities"][0]["Weight"] == 50


def test_group_scaling_sets_count_and_policy() -> None:
    text = """job "s" {
  group "g" {
    scaling {
      min = 2
      max = 5
    }
    task "t" { driver = "exec" }
  }
}
"""
    group = _canonical(text)["TaskGroups"][0]
    # api/tasks.go: `if g.Scaling != nil && g.Scaling.Min != nil { g.Count = pointerOf(int(*g.Scaling.Min)) }`
    assert group["Count"] == 2
    # api/scaling.go ScalingPolicy.Canonicalize: Enabled true, Min = count, Type ScalingPolicyTypeHorizontal.
    assert _subset({"Min": 2, "Max": 5, "Enabled": True, "Type": "horizontal"}, group["Scaling"]) == ""


def test_group_blocks_defaults() -> None:
    text = """job "g" {
  group "g" {
    count = 0
    ephemeral_disk { size = 500 }
    disconnect { lost_after = "1h" }
    consul { namespace = "team" }
    volume "data" {
      type   = "host"
      source = "data"
    }
    task "t" {
      driver = "exec"
      volume_mount {
        volume      = "data"
        destination = "/data"
      }
      consul {}
    }
  }
}
"""
    group = _canonical(text)["TaskGroups"][0]
    assert group["Count"] == 0  # set counts are kept
    # api/tasks.go EphemeralDisk.Canonicalize: Sticky false, Migrate false, SizeMB 300 when nil.
    assert _difference({"Sticky": False, "Migrate": False, "SizeMB": 500}, group["EphemeralDisk"]) == ""
    # api/tasks.go DisconnectStrategy.Canonicalize: Replace true, Reconcile ReconcileOptionBestScore.
    disconnect = {"LostAfter": HOUR, "StopOnClientAfter": None, "Replace": True, "Reconcile": "best_score"}
    assert _difference(disconnect, group["Disconnect"]) == ""
    # api/consul.go Consul.Canonicalize: `if c.Cluster == "" { c.Cluster = "default" }`; Partition kept "".
    assert _difference({"Namespace": "team", "Cluster": "default", "Partition": ""}, group["Consul"]) == ""
    task = group["Tasks"][0]
    assert _difference({"Namespace": "", "Cluster": "default", "Partition": ""}, task["Consul"]) == ""
    # api/tasks.go VolumeMount.Canonicalize: PropagationMode "private", ReadOnly false, SELinuxLabel "".
    mount = {
        "Volume": "data",
        "Destination": "/data",
        "ReadOnly": False,
        "PropagationMode": "private",
        "SELinuxLabel": "",
    }
    assert _difference(mount, task["VolumeMounts"][0]) == ""


# --------------------------------------------------------------------------- tasks


def test_task_without_resources() -> None:
    text = """job "r" {
  group "g" {
    task "none" { driver = "exec" }
    task "cores" {
      driver = "exec"
      resources { cores = 2 }
    }
    task "cpu" {
      driver = "exec"
      resources {
        cpu    = 250
        memory = 64
      }
    }
  }
}
"""
    none, cores, cpu = _canonical(text)["TaskGroups"][0]["Tasks"]
    # api/resources.go Resources.Canonicalize with DefaultResources() {CPU 100, Cores 0, MemoryMB 300}:
    # Cores nil -> 0 and CPU nil -> 100; Cores set -> CPU 0 ("cores has been set and cpu should be 0").
    want = {
        "CPU": 100,
        "Cores": 0,
        "MemoryMB": 300,
        "MemoryMaxMB": None,
        "DiskMB": None,
        "Networks": None,
        "Devices": None,
        "NUMA": None,
        "SecretsMB": None,
        "IOPS": None,
    }
    assert _difference(want, none["Resources"]) == ""
    assert _subset({"CPU": 0, "Cores": 2, "MemoryMB": 300}, cores["Resources"]) == ""
    assert _subset({"CPU": 250, "Cores": 0, "MemoryMB": 64}, cpu["Resources"]) == ""
    # api/tasks.go Task.Canonicalize: KillTimeout 5s; DefaultLogConfig() {MaxFiles 10, MaxFileSizeMB 10,
    # Disabled false}, Enabled left nil.
    assert none["KillTimeout"] == 5 * SECOND
    log = {"MaxFiles": 10, "MaxFileSizeMB": 10, "Enabled": None, "Disabled": False}
    assert _difference(log, none["LogConfig"]) == ""


def test_partial_logs_block() -> None:
    text = 'job "l" {\n group "g" {\n task "t" {\n driver = "exec"\n logs { max_files = 3 }\n }\n }\n}\n'
    task = _canonical(text)["TaskGroups"][0]["Tasks"][0]
    # api/tasks.go LogConfig.Canonicalize: MaxFileSizeMB 10 and Disabled false when nil.
    want = {"MaxFiles": 3, "MaxFileSizeMB": 10, "Enabled": None, "Disabled": False}
    assert _difference(want, task["LogConfig"]) == ""


def test_templates() -> None:
    text = """job "t" {
  group "g" {
    task "t" {
      driver = "exec"
      template {
        data        = "x"
        destination = "local/a"
        change_mode = "signal"
      }
      template {
        source        = "b.tpl"
        destination   = "local/b"
        change_signal = "sigusr1"
      }
      template {
        data        = "c"
        destination = "local/c"
        change_mode = "script"
        change_script {
          command       = "/bin/reload"
          fail_on_error = true
        }
      }
    }
  }
}
"""
    signal, upper, script = _canonical(text)["TaskGroups"][0]["Tasks"][0]["Templates"]
    # api/tasks.go Template.Canonicalize: SourcePath/DestPath/EmbeddedTmpl "" when nil; ChangeSignal
    # "SIGHUP" when nil and ChangeMode "signal", else ""; a set ChangeSignal is strings.ToUpper'ed;
    # Once false, Splay 5s, Perms "0644", LeftDelim "{{", RightDelim "}}", Envvars false,
    # ErrMissingKey false, VaultGrace 0.
    want = {
        "SourcePath": "",
        "DestPath": "local/a",
        "EmbeddedTmpl": "x",
        "ChangeMode": "signal",
        "ChangeScript": None,
        "ChangeSignal": "SIGHUP",
        "Once": False,
        "Splay": 5 * SECOND,
        "Perms": "0644",
        "Uid": None,
        "Gid": None,
        "LeftDelim": "{{",
        "RightDelim": "}}",
        "Envvars": False,
        "VaultGrace": 0,
        "Wait": None,
        "ErrMissingKey": False,
    }
    assert _difference(want, signal) == ""
    assert _subset({"SourcePath": "b.tpl", "EmbeddedTmpl": "", "ChangeMode": "restart"}, upper) == ""
    assert upper["ChangeSignal"] == "SIGUSR1"
    assert script["ChangeSignal"] == ""
    # api/tasks.go ChangeScript.Canonicalize: Args []string{}, Timeout 5s; set FailOnError kept.
    change = {"Command": "/bin/reload", "Args": [], "Timeout": 5 * SECOND, "FailOnError": True}
    assert _subset(change, script["ChangeScript"]) == ""


def test_artifacts() -> None:
    text = """job "a" {
  group "g" {
    task "t" {
      driver = "exec"
      artifact { source = "https://example.com/dir/" }
      artifact {
        source = "https://example.com/files/app.tar.gz"
        mode   = "file"
      }
      artifact {
        source      = "https://example.com/x"
        destination = "opt/"
        insecure    = true
        options {}
      }
    }
  }
}
"""
    default, file, kept = _canonical(text)["TaskGroups"][0]["Tasks"][0]["Artifacts"]
    # api/tasks.go TaskArtifact.Canonicalize: GetterMode "any", GetterInsecure false, RelativeDest
    # "local/" (a directory), or filepath.Join("local", path.Base(source)) in "file" mode; empty
    # GetterOptions/GetterHeaders become nil.
    want = {
        "GetterSource": "https://example.com/dir/",
        "GetterOptions": None,
        "GetterHeaders": None,
        "GetterMode": "any",
        "GetterInsecure": False,
        "RelativeDest": "local/",
        "Chown": False,
    }
    assert _difference(want, default) == ""
    assert _subset({"GetterMode": "file", "RelativeDest": "local/app.tar.gz"}, file) == ""
    assert _subset({"GetterOptions": None, "GetterInsecure": True, "RelativeDest": "opt/"}, kept) == ""


def test_vault_defaults() -> None:
    text = 'job "v" {\n group "g" {\n task "t" {\n driver = "exec"\n vault { role = "r" }\n }\n }\n}\n'
    vault = _canonical(text)["TaskGroups"][0]["Tasks"][0]["Vault"]
    # api/tasks.go Vault.Canonicalize: Env true, DisableFile false, Namespace "", Cluster "default",
    # ChangeMode "restart", ChangeSignal "SIGHUP", AllowTokenExpiration false.
    want = {
        "Policies": None,
        "Role": "r",
        "Namespace": "",
        "Cluster": "default",
        "Env": True,
        "DisableFile": False,
        "ChangeMode": "restart",
        "ChangeSignal": "SIGHUP",
        "AllowTokenExpiration": False,
    }
    assert _difference(want, vault) == ""


def test_csi_plugin_defaults() -> None:
    text = """job "c" {
  group "g" {
    task "t" {
      driver = "docker"
      csi_plugin {
        id   = "ebs"
        type = "node"
      }
    }
  }
}
"""
    plugin = _canonical(text)["TaskGroups"][0]["Tasks"][0]["CSIPluginConfig"]
    # api/tasks.go TaskCSIPluginConfig.Canonicalize: MountDir "/csi", StagePublishBaseDir
    # filepath.Join("/local", "csi"), HealthTimeout 30s.
    want = {"ID": "ebs", "Type": "node", "MountDir": "/csi", "StagePublishBaseDir": "/local/csi"}
    assert _difference({**want, "HealthTimeout": 30 * SECOND}, plugin) == ""


# --------------------------------------------------------------------------- services


SERVICES = """job "web" {
  group "g" {
    network {
      port "http" {}
    }
    service {
      port      = "http"
      on_update = "ignore"
      check_restart { limit = 3 }
      weights { warning = 3 }
      check {
        type     = "http"
        path     = "/"
        interval = "10s"
        timeout  = "2s"
      }
      check {
        type      = "tcp"
        interval  = "10s"
        timeout   = "2s"
        on_update = "require_healthy"
        check_restart { grace = "5s" }
      }
    }
    task "t" {
      driver = "docker"
      service {
        port = "http"
        meta {}
        check {
          type     = "tcp"
          interval = "10s"
          timeout  = "2s"
          check_restart { limit = 2 }
        }
      }
    }
  }
}
"""


def test_service_with_checks() -> None:
    group = _canonical(SERVICES)["TaskGroups"][0]
    service = group["Services"][0]
    # api/services.go Service.Canonicalize: Name "<job>-<group>" for a group service; AddressMode
    # "auto", OnUpdate OnUpdateRequireHealthy, Provider ServiceProviderConsul, Cluster "default".
    want = {
        "Name": "web-g",
        "AddressMode": "auto",
        "OnUpdate": "ignore",
        "Provider": "consul",
        "Cluster": "default",
    }
    assert _subset(want, service) == ""
    # api/services.go ServiceWeights.Canonicalize: `if weights.Passing <= 0 { weights.Passing = 1 }`
    assert _difference({"Passing": 1, "Warning": 3}, service["Weights"]) == ""
    # The service's own CheckRestart is only copied into the checks, never canonicalized.
    assert _difference({"Limit": 3, "Grace": None, "IgnoreWarnings": False}, service["CheckRestart"]) == ""
    first, second = service["Checks"]
    # api/services.go: `s.Checks[i].CheckRestart = s.CheckRestart.Merge(check.CheckRestart)` then
    # CheckRestart.Canonicalize: `c.Grace = pointerOf(1 * time.Second)` when nil.
    assert _difference({"Limit": 3, "Grace": SECOND, "IgnoreWarnings": False}, first["CheckRestart"]) == ""
    assert (
        _difference({"Limit": 3, "Grace": 5 * SECOND, "IgnoreWarnings": False}, second["CheckRestart"]) == ""
    )
    # api/services.go: `if s.Checks[i].OnUpdate == "" { s.Checks[i].OnUpdate = s.OnUpdate }`
    assert (first["OnUpdate"], second["OnUpdate"]) == ("ignore", "require_healthy")
    assert first["AddressMode"] == ""  # checks keep their own (empty) address mode

    task_service = group["Tasks"][0]["Services"][0]
    # api/services.go: `s.Name = fmt.Sprintf("%s-%s-%s", *job.Name, *tg.Name, t.Name)`
    assert _subset({"Name": "web-g-t", "OnUpdate": "require_healthy", "Meta": None}, task_service) == ""
    check = task_service["Checks"][0]
    # CheckRestart.Merge with a nil receiver returns the check's own, then Grace 1s.
    assert _difference({"Limit": 2, "Grace": SECOND, "IgnoreWarnings": False}, check["CheckRestart"]) == ""
    assert check["OnUpdate"] == "require_healthy"


def test_connect_sidecar_defaults() -> None:
    text = """job "c" {
  group "g" {
    network { mode = "bridge" }
    service {
      name = "api"
      port = "9090"
      connect {
        sidecar_service {
          tags = []
          proxy {
            upstreams {
              destination_name = "db"
              local_bind_port  = 5432
            }
          }
        }
        sidecar_task {
          driver = "docker"
        }
      }
    }
    task "t" { driver = "docker" }
  }
}
"""
    connect = _canonical(text)["TaskGroups"][0]["Services"][0]["Connect"]
    # api/consul.go ConsulSidecarService.Canonicalize: empty Tags -> nil.
    assert connect["SidecarService"]["Tags"] is None
    assert connect["SidecarService"]["Proxy"]["Upstreams"][0]["DestinationName"] == "db"
    task = connect["SidecarTask"]
    # api/consul.go SidecarTask.Canonicalize: Resources DefaultResources() {CPU 100, Cores 0,
    # MemoryMB 300}, DefaultLogConfig(), KillTimeout 5s, ShutdownDelay 0.
    assert _subset({"CPU": 100, "Cores": 0, "MemoryMB": 300, "DiskMB": None}, task["Resources"]) == ""
    log = {"MaxFiles": 10, "MaxFileSizeMB": 10, "Enabled": None, "Disabled": False}
    assert _difference(log, task["LogConfig"]) == ""
    assert (task["KillTimeout"], task["ShutdownDelay"]) == (5 * SECOND, 0)


def test_connect_gateway_defaults() -> None:
    text = """job "gw" {
  group "g" {
    network { mode = "bridge" }
    service {
      name = "ingress"
      port = "8080"
      connect {
        gateway {
          proxy {}
          ingress {
            listener {
              port = 8080
              service { name = "web" }
            }
          }
        }
      }
    }
  }
}
"""
    gateway = _canonical(text)["TaskGroups"][0]["Services"][0]["Connect"]["Gateway"]
    # api/consul.go ConsulGatewayProxy.Canonicalize: ConnectTimeout defaultGatewayConnectTimeout (5s).
    assert gateway["Proxy"]["ConnectTimeout"] == 5 * SECOND
    # api/consul.go ConsulIngressListener.Canonicalize: Protocol defaultIngressListenerProtocol ("tcp").
    assert gateway["Ingress"]["Listeners"][0]["Protocol"] == "tcp"


# --------------------------------------------------------------------------- devices


def test_device_with_constraints() -> None:
    text = """job "gpu" {
  group "g" {
    task "t" {
      driver = "docker"
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "8 GiB"
          }
          affinity {
            attribute = "${device.model}"
            value     = "A100"
          }
          affinity {
            attribute = "${device.vendor}"
            value     = "nvidia"
            weight    = -20
          }
        }
        device "amd/gpu" {
          count = 0
        }
      }
    }
  }
}
"""
    raw = to_api(_compile(text))["TaskGroups"][0]["Tasks"][0]["Resources"]["Devices"]
    nvidia, amd = _canonical(text)["TaskGroups"][0]["Tasks"][0]["Resources"]["Devices"]
    # api/resources.go RequestedDevice.Canonicalize: `d.Count = pointerOf(uint64(1))` when nil, and
    # Affinity.Canonicalize on each affinity; constraints are left alone.
    assert nvidia["Count"] == 1
    assert [a["Weight"] for a in nvidia["Affinities"]] == [50, -20]
    assert _difference(raw[0]["Constraints"], nvidia["Constraints"]) == ""
    assert amd["Count"] == 0


# --------------------------------------------------------------------------- purity


def test_canonicalize_does_not_change_its_input() -> None:
    job = _compile(SERVICES)
    before = render(job)
    out = canonicalize(job)
    assert render(job) == before
    assert out is not job
    assert out.task_groups is not None and job.task_groups is not None
    assert out.task_groups[0] is not job.task_groups[0]
    assert job.task_groups[0].restart_policy is None and job.region is None
    # Canonicalizing twice changes nothing more.
    assert render(canonicalize(out)) == render(out)


def test_canonicalize_leaves_every_corpus_job_as_it_was() -> None:
    """The canonical job shares the nodes no default changes with its input: none of them,
    and no list or dict, may change in any job the corpus holds."""
    jobs = 0
    for name, data in corpus():
        result = compile_source(SourceFile(name, data.decode("utf-8")), checks=False)
        if result.job is None:
            continue
        before = result.job.tree_copy()
        canonicalize(result.job)
        assert result.job == before, name
        jobs += 1
    assert jobs > 100


def _every_model(model: type[Node], above: frozenset[type[Node]], variant: Variant) -> Node:
    """A node of ``model`` with one node of every model its fields can hold, at every depth
    (``variant.emptied``'s node fields left empty; with ``variant.zero`` every scalar field
    set to Go's zero value, which several Canonicalize functions test for)."""
    values: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        shape = repr(info.annotation)
        held = list(_models_in(info.annotation))
        inner = [model for model in held if model not in above]
        if name == "span" or (held and not inner):
            continue
        if inner:
            node = _every_model(inner[0], above | {inner[0]}, variant)
            if shape.startswith("list["):
                values[name] = [] if model is variant.emptied else [node]
            elif shape.startswith("dict["):
                values[name] = {} if model is variant.emptied else {"k": node}
            elif model is not variant.emptied:
                values[name] = node
        elif variant.zero:
            zeros = (("list[", []), ("dict[", {}), ("str", ""), ("int", 0), ("bool", False))
            values[name] = next((zero for prefix, zero in zeros if prefix in shape), None)
    return model.build(**values)


@dataclass(frozen=True)
class Variant:
    zero: bool
    emptied: type[Node] | None


def _changed_models(before: Any, after: Any, found: set[type[Node]]) -> None:
    """The models of the nodes whose own fields differ between two copies of one tree."""
    if isinstance(before, Node):
        for name, value in before.__dict__.items():
            other = after.__dict__[name]
            if isinstance(value, (Node, list, dict)) and type(value) is type(other):
                _changed_models(value, other, found)
            elif value != other:
                found.add(type(before))
    elif isinstance(before, list) and len(before) == len(after):
        for value, other in zip(before, after, strict=True):
            _changed_models(value, other, found)
    elif isinstance(before, dict) and before.keys() == after.keys():
        for key, value in before.items():
            _changed_models(value, after[key], found)
    elif before != after:
        raise AssertionError(f"a list or dict changed in place: {before!r} -> {after!r}")


def test_changed_names_exactly_the_models_the_defaults_change() -> None:
    """``CHANGED`` decides what the canonical job copies. Derive it: canonicalise full copies
    of jobs that hold every model, each model once with its node fields empty, every scalar
    unset or zero, for each job type, and collect the models whose fields changed."""
    models = sorted(_all_models(), key=lambda model: model.__name__)
    found: set[type[Node]] = set()
    for job_type in ("service", "batch", "system"):
        for zero in (False, True):
            for emptied in [None, *models]:
                job = _every_model(m.Job, frozenset({m.Job}), Variant(zero, emptied))
                job.type = job_type
                out = job.tree_copy()
                _canonical_job(out)
                _changed_models(job, out, found)
    assert sorted(model.__name__ for model in found) == sorted(model.__name__ for model in CHANGED)


def test_canonical_job_shares_what_no_default_changes() -> None:
    job = _compile(
        'job "j" {\n  group "g" {\n'
        '    constraint {\n      attribute = "${attr.kernel.name}"\n      value = "linux"\n    }\n'
        '    task "t" {\n      driver = "exec"\n      config { command = "/bin/true" }\n    }\n'
        "  }\n}\n"
    )
    out = canonicalize(job)
    assert out.task_groups is not None and job.task_groups is not None
    group, original = out.task_groups[0], job.task_groups[0]
    assert group is not original and group.constraints is original.constraints
    assert group.tasks is not None and original.tasks is not None
    assert group.tasks[0] is not original.tasks[0] and group.tasks[0].config is original.tasks[0].config
