"""`hclgpu render` and `hclgpu dump ir` from the command line: output, --out, errors, inputs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hclgpu.cli import main

JOB = """variable "gpus" {
  type    = number
  default = 1
}

job "infer" {
  group "g" {
    task "t" {
      driver = "docker"
      config { image = "nvcr.io/nvidia/tritonserver:24.05-py3" }
      resources {
        device "nvidia/gpu" {
          count = var.gpus
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "16 GiB"
          }
        }
      }
    }
  }
}
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture()
def job_file(tmp_path: Path) -> Path:
    path = tmp_path / "infer.nomad.hcl"
    path.write_text(JOB)
    return path


def device(out: str) -> dict[str, object]:
    job = json.loads(out)["Job"]
    return job["TaskGroups"][0]["Tasks"][0]["Resources"]["Devices"][0]  # type: ignore[no-any-return]


def test_render_prints_nomad_api_json(job_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "render", str(job_file), "--target", "nomad")
    assert status == 0 and err == ""
    assert out.startswith('{\n    "Job": {\n        "Region": null,\n')
    assert device(out) == {
        "Name": "nvidia/gpu",
        "Count": 1,
        "Constraints": [{"LTarget": "${device.attr.memory}", "RTarget": "16 GiB", "Operand": ">="}],
        "Affinities": None,
    }


def test_var_flags_in_both_spellings(job_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        device(run(capsys, "render", str(job_file), "--target", "nomad", "--var", "gpus=2")[1])["Count"] == 2
    )
    assert (
        device(run(capsys, "render", str(job_file), "--target", "nomad", "-var", "gpus=4")[1])["Count"] == 4
    )


def test_var_file_flag(job_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    values = tmp_path / "prod.vars.hcl"
    values.write_text("gpus = 8\n")
    _, out, _ = run(capsys, "render", str(job_file), "--target", "nomad", "--var-file", str(values))
    assert device(out)["Count"] == 8


def test_nomad_var_environment(
    job_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NOMAD_VAR_gpus", "3")
    assert device(run(capsys, "render", str(job_file), "--target", "nomad")[1])["Count"] == 3


def test_out_writes_the_job_file(job_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "out"
    status, out, _ = run(capsys, "render", str(job_file), "--target", "nomad", "--out", str(out_dir))
    assert status == 0 and out == ""
    assert [p.name for p in out_dir.iterdir()] == ["infer.json"]
    assert device((out_dir / "infer.json").read_text())["Count"] == 1


def test_errors_exit_one_and_write_nothing(
    job_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    job_file.write_text(JOB.replace("count = var.gpus", "count = var.gpu"))
    out_dir = tmp_path / "out"
    status, out, err = run(capsys, "render", str(job_file), "--target", "nomad", "--out", str(out_dir))
    assert status == 1 and out == "" and not out_dir.exists()
    assert "infer.nomad.hcl:13:23: error[HG111]" in err and "did you mean `gpus`?" in err


def test_undeclared_var_flag_is_an_error(job_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "render", str(job_file), "--target", "nomad", "--var", "gpu=2")
    assert status == 1 and out == "" and "HG111" in err


def test_render_of_a_directory_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.hcl").write_text(JOB)
    (tmp_path / "b.hcl").write_text(JOB)
    assert run(capsys, "render", str(tmp_path), "--target", "nomad")[0] == 2


def test_check_reports_evaluation_errors(job_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    job_file.write_text(JOB.replace('driver = "docker"', 'driver = "docker"\n      drivr = "x"'))
    status, out, _ = run(capsys, "check", "--format", "json", str(job_file))
    [diagnostic] = json.loads(out)["diagnostics"]
    assert status == 1
    assert (diagnostic["code"], diagnostic["line"], diagnostic["column"]) == ("HG101", 10, 7)
    assert diagnostic["help"] == "did you mean `driver`?"


def test_dump_ir_prints_the_typed_job(job_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "dump", "ir", str(job_file))
    data = json.loads(out)
    assert status == 0
    assert data["task_groups"][0]["tasks"][0]["resources"]["devices"][0]["count"] == 1
    assert "span" not in data


def test_file_functions_are_confined_to_the_job_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("s3cret")
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    (jobs / "local.txt").write_text("fine")
    path = jobs / "job.hcl"
    path.write_text('job "j" {\n  meta {\n    a = file("local.txt")\n    b = file("../secret.txt")\n  }\n}\n')
    monkeypatch.chdir(jobs)  # file() reads from the working directory, as `nomad job run` does
    status, out, err = run(capsys, "render", str(path), "--target", "nomad")
    assert status == 1 and out == "" and "s3cret" not in err
    assert "job.hcl:4:14: error[HG107]" in err
    status, out, _ = run(capsys, "render", str(path), "--target", "nomad", "--allow-fs")
    assert status == 0 and json.loads(out)["Job"]["Meta"] == {"a": "fine", "b": "s3cret"}


def test_kubernetes_to_stdout_and_to_one_file_per_object(
    job_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import yaml

    status, out, _ = run(capsys, "render", str(job_file), "--target", "kubernetes")
    kinds = [d["kind"] for d in yaml.safe_load_all(out) if d]
    assert status == 0 and "Deployment" in kinds
    out_dir = tmp_path / "k8s"
    status, out, _ = run(capsys, "render", str(job_file), "--target", "kubernetes", "--out", str(out_dir))
    assert status == 0 and out == ""
    assert sorted(p.name for p in out_dir.iterdir()) == sorted(f"{k.lower()}-infer-g.yaml" for k in kinds)


def test_unsupported_error_writes_nothing(
    job_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    job_file.write_text(
        JOB.replace('driver = "docker"', 'driver = "docker"\n      artifact { source = "https://x/y" }')
    )
    out_dir = tmp_path / "k8s"
    argv = (
        "render",
        str(job_file),
        "--target",
        "kubernetes",
        "--out",
        str(out_dir),
        "--unsupported",
        "error",
    )
    status, out, err = run(capsys, *argv)
    assert status == 1 and out == "" and not out_dir.exists() and "error[HG301]" in err
    assert run(capsys, *argv[:-1], "ignore")[0] == 0


def test_templates_can_be_overridden(
    job_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    custom = tmp_path / "tpl" / "kubernetes"
    custom.mkdir(parents=True)
    layout = "{% for key, value in object.items() %}{{ key }}: {{ value | json }}\n{% endfor %}"
    (custom / "deployment.yaml.j2").write_text("# custom layout\n" + layout)
    status, out, _ = run(
        capsys, "render", str(job_file), "--target", "kubernetes", "--templates", str(tmp_path / "tpl")
    )
    assert status == 0 and "# custom layout" in out
    (custom / "deployment.yaml.j2").write_text("kind: Deployment\n")  # drops fields: refused, nothing printed
    status, out, err = run(
        capsys, "render", str(job_file), "--target", "kubernetes", "--templates", str(tmp_path / "tpl")
    )
    assert status == 2 and out == "" and "does not reproduce the object" in err


def test_oci_bundles_docker_lines_and_compose_files(
    job_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shlex

    out_dir = tmp_path / "oci"
    assert run(capsys, "render", str(job_file), "--target", "oci", "--out", str(out_dir))[0] == 0
    [config] = list(out_dir.rglob("config.json"))
    assert config.relative_to(out_dir).parts == ("g", "t", "config.json")
    assert json.loads(config.read_text())["process"]["env"]
    status, out, _ = run(capsys, "render", str(job_file), "--target", "docker")
    words = shlex.split(out, comments=True)
    assert (
        status == 0 and out.startswith("#!/bin/sh\n") and words[:2] == ["docker", "run"] and "--gpus" in words
    )
    docker_dir = tmp_path / "docker"
    assert run(capsys, "render", str(job_file), "--target", "docker", "--out", str(docker_dir))[0] == 0
    [script] = list(docker_dir.glob("*.sh"))
    assert script.stat().st_mode & 0o100 and script.read_text().startswith("#!/bin/sh\n")  # runs as ./x.sh
    status, out, _ = run(capsys, "render", str(job_file), "--target", "compose", "--out", str(tmp_path / "c"))
    assert status == 0 and (tmp_path / "c" / "compose.yaml").exists()


def tree(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*"))


@pytest.mark.parametrize(
    ("job_id", "written"),
    [
        ("../../evil", ".._.._evil.json"),
        ("/tmp/x/absx", "_tmp_x_absx.json"),
        ("team/infer", "team_infer.json"),
        ("back\\\\slash", "back_slash.json"),
        ("tab\\there\\u0001\\u007f\\u0085", "tab_here___.json"),
        ("..", "...json"),
    ],
)
def test_a_job_id_is_one_file_name_inside_the_out_directory(
    job_id: str, written: str, job_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    job_file.write_text(JOB.replace('job "infer"', f'job "{job_id}"'))
    out_dir = tmp_path / "x" / "y"
    status, _, err = run(capsys, "render", str(job_file), "--target", "nomad", "--out", str(out_dir))
    assert status == 0, err
    assert tree(tmp_path) == ["infer.nomad.hcl", "x", "x/y", f"x/y/{written}"]
    assert device((out_dir / written).read_text())["Count"] == 1


def test_a_long_job_id_is_cut_to_a_file_name_that_stays_distinct(
    job_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "out"
    for job_id in ("é" * 200, "é" * 199 + "e", "x" * 400):
        job_file.write_text(JOB.replace('job "infer"', f'job "{job_id}"'))
        assert run(capsys, "render", str(job_file), "--target", "nomad", "--out", str(out_dir))[0] == 0
    names = [p.name for p in out_dir.iterdir()]
    assert len(names) == 3
    for name in names:
        assert len(name.encode()) <= 200 and re.fullmatch(r"(é+|x+)-[0-9a-f]{8}\.json", name), name


def test_docker_scripts_of_long_names_are_cut_and_stay_distinct(
    job_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    group = JOB[JOB.index('  group "g"') : JOB.rindex("}")]
    groups = "".join(group.replace('group "g"', f'group "{"g" * 300}{n}"') for n in range(2))
    job_file.write_text(JOB[: JOB.index('  group "g"')] + groups + "}\n")
    out_dir = tmp_path / "docker"
    status, _, err = run(capsys, "render", str(job_file), "--target", "docker", "--out", str(out_dir))
    assert status == 0, err
    names = sorted(p.name for p in out_dir.iterdir())
    assert len(names) == 2
    for name in names:
        assert len(name.encode()) <= 200 and re.fullmatch(r"g+-[0-9a-f]{8}\.sh", name), name


def test_a_directory_where_a_bundle_goes_is_an_error_and_nothing_changes(
    job_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "d1"
    (out_dir / "g" / "t" / "config.json").mkdir(parents=True)
    status, out, err = run(capsys, "render", str(job_file), "--target", "oci", "--out", str(out_dir))
    assert status == 2 and out == ""
    assert f"cannot write {out_dir / 'g' / 't' / 'config.json'}: Is a directory" in err
    assert tree(out_dir) == ["g", "g/t", "g/t/config.json"]


def coinciding_groups(job_file: Path) -> None:
    """The job with groups `a_b`, `a-b` and `A.B` (one DNS label, or near it, for all)."""
    group = JOB[JOB.index('  group "g"') : JOB.rindex("}")]
    groups = "".join(group.replace('group "g"', f'group "{name}"') for name in ("a_b", "a-b", "A.B"))
    job_file.write_text(JOB[: JOB.index('  group "g"')] + groups + "}\n")


def test_kubernetes_groups_whose_names_coincide_write_a_file_each(
    job_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    coinciding_groups(job_file)
    out_dir = tmp_path / "k8s"
    status, _, err = run(capsys, "render", str(job_file), "--target", "kubernetes", "--out", str(out_dir))
    assert status == 0, err
    assert tree(out_dir) == sorted(f"deployment-infer-a-b{suffix}.yaml" for suffix in ("", "-2", "-3"))


def test_container_targets_keep_every_task_of_coinciding_groups(
    job_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import yaml

    coinciding_groups(job_file)
    argv = ["render", str(job_file), "--out"]
    assert run(capsys, *argv, str(tmp_path / "oci"), "--target", "oci")[0] == 0
    assert [p for p in tree(tmp_path / "oci") if p.endswith("config.json")] == [
        "a-b/t-2/config.json",
        "a-b/t-3/config.json",
        "a-b/t/config.json",
    ]
    assert run(capsys, *argv, str(tmp_path / "docker"), "--target", "docker")[0] == 0
    assert tree(tmp_path / "docker") == ["a-b-t.sh", "a.b-t.sh", "a_b-t.sh"]
    assert run(capsys, *argv, str(tmp_path / "compose"), "--target", "compose")[0] == 0
    compose = yaml.safe_load((tmp_path / "compose" / "compose.yaml").read_text())
    assert sorted(compose["services"]) == ["a-b-t", "a.b-t", "a_b-t"]


SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "tensorrt.nomad.hcl"
NODES = SAMPLE.parent / "nodes" / "v100.yaml"


def _explode(*args: object, **kwargs: object) -> None:
    raise KeyError("boom")


@pytest.mark.parametrize(
    ("broken", "argv"),
    [
        ("hclgpu.backends.registry.render", ["render", str(SAMPLE), "--target", "kubernetes"]),
        ("hclgpu.plan.planner.plan", ["render", str(SAMPLE), "--target", "oci", "--nodes", str(NODES),
                                      "--node", "nomad-client-v100"]),
        ("hclgpu.plan.planner.schedule", ["plan", str(SAMPLE), "--nodes", str(NODES)]),
        ("hclgpu.plan.report.to_text", ["plan", str(SAMPLE), "--nodes", str(NODES)]),
    ],
    ids=["render", "render-nodes", "plan", "plan-report"],
)  # fmt: skip
def test_a_bug_in_a_back_end_or_the_planner_is_hg901_exit_2_and_nothing_is_written(
    broken: str, argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setattr(broken, _explode)
    out_dir = tmp_path / "out"
    extra = ["--out", str(out_dir)] if argv[0] == "render" else []
    assert main([*argv, *extra]) == 2
    out, err = capsys.readouterr()
    assert out == "" and not out_dir.exists()
    assert f"{SAMPLE}: error[HG901]: internal error while" in err and "KeyError: 'boom'" in err, err


@pytest.mark.parametrize("namespace", ["a/b\n", "", "Team", "-a", "a-", "a" * 64, "a.b"])
def test_a_namespace_that_is_not_a_dns_label_is_a_usage_error(
    namespace: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as status:
        main(["render", str(SAMPLE), "--target", "kubernetes", f"--namespace={namespace}"])
    assert status.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "--namespace" in err and "DNS label" in err


def test_a_namespace_that_is_a_dns_label_is_written(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(SAMPLE), "--target", "kubernetes", "--namespace", "team-a1"]) == 0
    assert "\n  namespace: team-a1\n" in capsys.readouterr().out  # kubectl's block style


def test_version_takes_no_other_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as status:
        main(["--version"])
    assert status.value.code == 0 and capsys.readouterr().out.startswith("hclgpu ")
    for argv in (["--version", "x"], ["--version", "check", "job.hcl"]):
        with pytest.raises(SystemExit) as status:
            main(argv)
        assert status.value.code == 2
        out, err = capsys.readouterr()
        assert out == "" and "--version takes no other arguments" in err
