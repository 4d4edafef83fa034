"""The settings: one definition per option, each file's own configuration, the cluster's facts
(the profile), selectors that name codes and checks, and the CI habits of `check`.

tests/data/settings/team holds a team's jobs beside a variable file and an agent
configuration, under an hclgpu.toml for Nomad 2.0.5 Community Edition without memory
oversubscription, rendering for Kubernetes too; tests/data/settings/newest holds the same
batch job with no configuration (the newest release, 2.0.6, refuses it).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from hclgpu.cli import main
from hclgpu.settings import Settings
from hclgpu.settings.files import ConfigError
from hclgpu.settings.resolve import Resolver
from tests.conftest import GROUP, ROOT

DATA = ROOT / "tests" / "data" / "settings"
TEAM = DATA / "team" / "jobs"
MEMORY_MAX = (
    'job "web" {\n  group "api" {\n    task "server" {\n      driver = "docker"\n'
    '      config {\n        image = "nginx:1.27"\n      }\n'
    "      resources {\n        memory     = 512\n        memory_max = 1024\n      }\n    }\n  }\n}\n"
)
# An unused suppression: one HG290 warning, on line 2.
UNUSED = 'job "j" {\n  # hclgpu-ignore: HG291\n  datacenters = ["dc1"]\n' + GROUP + "}\n"


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, object]]]:
    """``hclgpu check --format json --no-cache ARGV``: the exit status and the findings."""
    status = main(["check", "--format", "json", "--no-cache", *argv])
    out = capsys.readouterr().out
    return status, json.loads(out)["diagnostics"] if out else []


def codes(found: list[dict[str, object]]) -> list[str]:
    return [str(d["code"]) for d in found]


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "a.hcl").write_text(UNUSED)
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ---------------------------------------------------------------- the must-show of the profile


def test_a_team_on_2_0_5_keeps_a_job_only_2_0_6_refuses_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # not above the configuration: each file finds its own
    status, found = check(capsys, str(TEAM / "migrate.nomad.hcl"))
    assert (status, found) == (0, [])
    status, found = check(capsys, str(DATA / "newest" / "migrate.nomad.hcl"))
    assert status == 1 and [(d["code"], d["check"]) for d in found] == [("HG269", "group-without-main-task")]
    status, found = check(capsys, "--nomad-version", "2.0.6", str(TEAM / "migrate.nomad.hcl"))
    assert status == 1 and codes(found) == ["HG269"]  # the command line over the configuration


def test_a_folder_with_jobs_variables_and_agent_configuration_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    status, found = check(capsys, str(TEAM))
    assert status == 0
    notes = [(Path(str(d["path"])).name, d["severity"]) for d in found if d["code"] == "HG023"]
    assert notes == [("client.hcl", "info"), ("prod.vars.hcl", "info")]
    assert main(["check", "--no-cache", str(TEAM)]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == "Found 0 errors and 1 warning in 2 files, 2 skipped."


def test_a_variable_file_named_on_the_command_line_is_checked_as_a_job(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, found = check(capsys, str(TEAM / "prod.vars.hcl"))
    assert status == 1 and "HG108" in codes(found)
    status, found = check(capsys, "--force-exclude", str(TEAM / "prod.vars.hcl"))  # as pre-commit names it
    assert (status, codes(found)) == (0, ["HG023"])


def test_the_profile_states_the_facts_its_findings_depend_on(capsys: pytest.CaptureFixture[str]) -> None:
    status, found = check(capsys, str(TEAM / "infer.nomad.hcl"))
    assert status == 0
    assert [(d["code"], d["check"], d["line"]) for d in found] == [
        ("HG267", "name-not-dns-label", 2),
        ("HG264", "memory-oversubscription-disabled", 12),
    ]
    status, found = check(capsys, "--isolated", str(TEAM / "infer.nomad.hcl"))
    assert (status, found) == (0, [])  # the defaults state no fact and name no target


# ---------------------------------------------------------------- configuration files


def test_defaults_without_a_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check(capsys, "jobs")[0] == 0 and codes(check(capsys, "jobs")[1]) == ["HG290"]
    assert check(capsys, "--strict", "jobs")[0] == 1


def test_pyproject_table(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.hclgpu]\nstrict = true\n')
    assert check(capsys, "jobs")[0] == 1
    (project / "pyproject.toml").write_text('[tool.hclgpu]\nignore = ["HG290"]\n')
    assert check(capsys, "jobs") == (0, [])


@pytest.mark.parametrize("name", ["hclgpu.toml", ".hclgpu.toml"])
def test_the_readme_table_works_in_hclgpu_toml(
    name: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / name).write_text('[tool.hclgpu]\nignore = ["HG290"]\nstrict = true\n')
    assert check(capsys, "jobs") == (0, [])
    (project / name).write_text('strict = true\n[tool.hclgpu]\nignore = ["HG290"]\n')
    assert main(["check", "jobs"]) == 2
    assert "either at the top level or in [tool.hclgpu], not both" in capsys.readouterr().err


def test_in_one_folder_the_dot_file_wins_then_hclgpu_toml_then_pyproject(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text("[tool.hclgpu]\nstrict = true\n")
    assert check(capsys, "jobs")[0] == 1
    (project / "hclgpu.toml").write_text("strict = false\n")
    assert check(capsys, "jobs")[0] == 0
    (project / ".hclgpu.toml").write_text("strict = true\n")
    assert check(capsys, "jobs")[0] == 1


def test_the_nearest_configuration_applies_to_each_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "hclgpu.toml").write_text('ignore = ["HG290"]\n')
    (project / "legacy").mkdir()
    (project / "legacy" / "old.hcl").write_text(UNUSED)
    (project / "legacy" / "hclgpu.toml").write_text("strict = true\n")  # not merged: HG290 back
    status, found = check(capsys, ".")
    assert status == 1 and [d["path"] for d in found] == [os.path.join("legacy", "old.hcl")]


def test_a_pyproject_without_the_table_is_passed_over(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "hclgpu.toml").write_text('ignore = ["HG290"]\n')
    (project / "jobs" / "pyproject.toml").write_text('[project]\nname = "hclgpu-jobs"\n')
    assert check(capsys, "jobs") == (0, [])


def test_per_file_ignores_match_from_the_configuration_folder(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "hclgpu.toml").write_text('[per-file-ignores]\n"jobs/a.hcl" = ["unused-suppression"]\n')
    (project / "jobs" / "b.hcl").write_text(UNUSED)
    monkeypatch.chdir(project / "jobs")  # patterns are the configuration's, not the working directory's
    _, found = check(capsys, ".")
    assert [d["path"] for d in found] == ["b.hcl"]


def test_the_command_line_overrides(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "hclgpu.toml").write_text('select = ["HG1"]\n')
    assert check(capsys, "jobs") == (0, [])
    assert codes(check(capsys, "--select", "HG2", "jobs")[1]) == ["HG290"]
    assert check(capsys, "--select", "HG2", "--ignore", "HG290", "jobs") == (0, [])
    assert codes(check(capsys, "--extend-select", "HG29", "jobs")[1]) == ["HG290"]


def test_errors_that_break_the_job_cannot_be_ignored(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "jobs" / "a.hcl").write_text('job "j" {\n  datacenter = ["dc1"]\n}\n')
    (project / "hclgpu.toml").write_text('ignore = ["HG"]\n')  # every code: those it may hide
    assert (check(capsys, "jobs")[0], codes(check(capsys, "jobs")[1])) == (1, ["HG101"])
    (project / "hclgpu.toml").write_text('ignore = ["HG101"]\n')  # only what it may not: a usage error
    assert main(["check", "jobs"]) == 2
    assert "`ignore`: `HG101` cannot be ignored: an error in the file's syntax" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["check", "--ignore", "HG1", "jobs"])
    assert "argument --ignore: `HG1` cannot be ignored" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ignroe = []\n", "hclgpu.toml: unknown key `ignroe`; did you mean `ignore`?"),
        ('var-file = ["x"]\n', "unknown key `var-file` (it is a command-line option only"),
        ('select = ["XX"]\n', "hclgpu.toml: `select`: `XX` is not a code, code prefix or check name"),
        ('ignore = ["HG999"]\n', "`ignore`: `HG999` is not a code hclgpu has; did you mean `HG901`"),
        ('nomad-version = "2.0.7"\n', "`nomad-version`: hclgpu does not know Nomad 2.0.7"),
        ('enterprise = "yes"\n', "`enterprise`: must be true or false, not 'yes'"),
        (
            'targets = ["k8s"]\n',
            "`targets`: must be one of nomad, kubernetes, oci, docker, compose, not 'k8s'",
        ),
        ('exclude = ["!keep.hcl"]\n', "`exclude`: `!keep.hcl`: negated patterns (`!`) are not supported"),
        ("strict = \n", "cannot read the configuration"),
    ],
)
def test_a_configuration_that_cannot_be_used_is_a_usage_error(
    text: str, message: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "hclgpu.toml").write_text(text)
    assert main(["check", "jobs"]) == 2
    assert message in capsys.readouterr().err
    with pytest.raises(ConfigError, match=re.escape(message.split(": ", 1)[-1][:30])):
        Resolver().for_folder(str(project))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--select", "XX"], "argument --select: `XX` is not a code, code prefix or check name"),
        (["--ignore", "HG999"], "argument --ignore: `HG999` is not a code hclgpu has; did you mean"),
        (["--ignore", "memory-oversubscripton-disabled"], "did you mean `memory-oversubscription-disabled`?"),
        (["--nomad-version", "1.7"], "hclgpu does not know Nomad 1.7"),
        (["--target", "k8s"], "invalid choice: 'k8s'"),
    ],
)
def test_an_unknown_code_check_or_release_on_the_command_line_exits_two(
    argv: list[str], message: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["check", *argv, "jobs"])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def test_config_names_one_file_and_isolated_reads_none(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "hclgpu.toml").write_text('ignore = ["HG290"]\n')
    (project / "strict.toml").write_text("strict = true\n")
    assert check(capsys, "jobs") == (0, [])
    assert check(capsys, "--config", "strict.toml", "jobs")[0] == 1
    assert codes(check(capsys, "--isolated", "jobs")[1]) == ["HG290"]


def test_show_settings_says_where_each_value_comes_from(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "hclgpu.toml").write_text('nomad-version = "2.0.5"\nignore = ["HG290"]\n')
    assert main(["check", "--show-settings", "--ignore", "HG291", "--enterprise", "jobs/a.hcl"]) == 0
    out = capsys.readouterr().out
    assert f"configuration: {project / 'hclgpu.toml'}" in out
    assert re.search(rf"nomad-version +2\.0\.5  \({re.escape(str(project / 'hclgpu.toml'))}\)", out)
    assert re.search(r"enterprise +true  \(command line\)", out)
    assert re.search(r'ignore +\["HG290", "HG291"\]  \(.*hclgpu.toml and command line\)', out)
    assert re.search(r"memory-oversubscription +not set  \(default\)", out)


# ---------------------------------------------------------------- selectors: codes, prefixes, names


def test_a_check_of_a_code_is_ignored_by_its_name_alone(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    job = MEMORY_MAX.replace('group "api" {\n', 'group "api" {\n    service {\n      name = "web"\n    }\n')
    (project / "jobs" / "a.hcl").write_text(job)
    _, found = check(capsys, "--no-memory-oversubscription", "jobs")
    assert sorted(str(d["check"]) for d in found if d["code"] == "HG264") == [
        "group-services-without-shutdown-delay",
        "memory-oversubscription-disabled",
    ]
    _, found = check(
        capsys, "--no-memory-oversubscription", "--ignore", "memory-oversubscription-disabled", "jobs"
    )
    assert [d["check"] for d in found] == ["group-services-without-shutdown-delay"]
    _, found = check(capsys, "--no-memory-oversubscription", "--ignore", "server-warning", "jobs")
    assert found == []  # the code's name: all its checks
    _, found = check(
        capsys, "--no-memory-oversubscription", "--select", "memory-oversubscription-disabled", "jobs"
    )
    assert [d["check"] for d in found] == ["memory-oversubscription-disabled"]


def test_a_suppression_comment_takes_a_check_name_or_a_prefix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "a.nomad.hcl"
    lines = MEMORY_MAX.splitlines(keepends=True)
    path.write_text(
        "".join(lines[:9])
        + "        # hclgpu-ignore: memory-oversubscription-disabled\n"
        + "".join(lines[9:])
    )
    assert check(capsys, "--no-memory-oversubscription", str(path)) == (0, [])
    path.write_text("# hclgpu-ignore-file: HG26\n" + MEMORY_MAX)
    assert check(capsys, "--no-memory-oversubscription", str(path)) == (0, [])
    path.write_text("# hclgpu-ignore-file: memory-oversubscription-disabld\n" + MEMORY_MAX)
    _, found = check(capsys, str(path))
    assert [(d["code"], d["message"]) for d in found] == [
        ("HG291", "`memory-oversubscription-disabld` is not a code, code prefix or check name;"
         " did you mean `memory-oversubscription-disabled`?")
    ]  # fmt: skip


def test_every_check_name_is_one_name_only() -> None:
    """A name selects exactly one thing: a code's name or a check's, never both."""
    from hclgpu.checks.registry import addressable
    from hclgpu.codes import BY_NAME

    assert not set(addressable()) & set(BY_NAME)


def test_the_index_of_codes_and_check_names_is_the_registry(golden: object) -> None:
    from hclgpu.checks.registry import index_module

    golden(ROOT / "hclgpu" / "codes" / "index.py", index_module())  # type: ignore[operator]


# ---------------------------------------------------------------- a finding about one target


def test_kubernetes_names_only_when_a_target_names_kubernetes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "a.nomad.hcl"
    path.write_text('job "a" {\n  group "My_G" {\n    task "t" {\n      driver = "docker"\n    }\n  }\n}\n')
    assert check(capsys, str(path)) == (0, [])
    assert codes(check(capsys, "--target", "kubernetes", str(path))[1]) == ["HG267"]
    assert main(["render", "--target", "kubernetes", str(path)]) == 0
    assert "HG267" in capsys.readouterr().err
    assert main(["render", "--target", "docker", str(path)]) == 0
    assert "HG267" not in capsys.readouterr().err


# ---------------------------------------------------------------- which files


def test_exclude_skips_what_a_walk_finds_but_not_a_file_named(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "jobs" / "legacy").mkdir()
    (project / "jobs" / "legacy" / "old.hcl").write_text(UNUSED)
    (project / "jobs" / "b.hcl").write_text(UNUSED.replace("  # hclgpu-ignore: HG291\n", ""))
    (project / "hclgpu.toml").write_text('exclude = ["legacy/"]\nextend-exclude = ["a.hcl"]\n')
    assert check(capsys, ".") == (0, [])
    assert codes(check(capsys, "jobs/legacy/old.hcl")[1]) == ["HG290"]
    assert check(capsys, "--force-exclude", "jobs/legacy/old.hcl", "jobs/a.hcl", "jobs/b.hcl") == (0, [])
    assert main(["check", "--no-cache", "--force-exclude", "jobs/a.hcl"]) == 0
    assert capsys.readouterr().err == "All checks passed (0 files).\n"
    found = check(capsys, "--exclude", "nothing", ".")[1]  # replaces `exclude`; `extend-exclude` stays
    assert [d["path"] for d in found] == [os.path.join("jobs", "legacy", "old.hcl")]


@pytest.mark.parametrize(
    ("pattern", "path", "is_dir", "matched"),
    [
        ("vars.hcl", "a/b/vars.hcl", False, True),
        ("*.vars.hcl", "a/prod.vars.hcl", False, True),
        ("legacy/", "jobs/legacy", True, True),
        ("legacy/", "jobs/legacy", False, False),
        ("legacy/", "jobs/legacy/x.hcl", False, True),
        ("jobs/legacy", "jobs/legacy/x.hcl", False, True),
        ("jobs/legacy", "other/jobs/legacy/x.hcl", False, False),
        ("/top.hcl", "top.hcl", False, True),
        ("/top.hcl", "a/top.hcl", False, False),
        ("jobs/**/old-*.hcl", "jobs/a/b/old-1.hcl", False, True),
        ("jobs/**/old-*.hcl", "jobs/old-1.hcl", False, True),
        ("[!a]*.hcl", "b.hcl", False, True),
        ("[!a]*.hcl", "a.hcl", False, False),
        ("?.hcl", "ab.hcl", False, False),
    ],
)
def test_patterns_match_as_gitignore_does(pattern: str, path: str, is_dir: bool, matched: bool) -> None:
    from hclgpu.settings.patterns import Pattern

    assert Pattern(pattern, "/repo").matches(f"/repo/{path}", is_dir, ancestors=True) is matched


# ---------------------------------------------------------------- reports


def test_statistics_count_each_code_and_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--no-cache", "--statistics", str(TEAM)]) == 0
    assert capsys.readouterr().out == (
        "2  HG023  info     not-a-job-file\n"
        "1  HG264  warning  memory-oversubscription-disabled\n"
        "1  HG267  info     name-not-dns-label\n"
        "4 findings in all.\n"
    )
    assert main(["check", "--no-cache", "--statistics", "--format", "json", str(TEAM)]) == 0
    assert json.loads(capsys.readouterr().out)[1] == {
        "code": "HG264", "check": "memory-oversubscription-disabled", "severity": "warning", "count": 1
    }  # fmt: skip


def test_output_file_is_written_whole_and_quiet_drops_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "out" / "hclgpu.sarif"
    report.parent.mkdir()
    assert main(["check", "--no-cache", "--format", "sarif", "--output-file", str(report), str(TEAM)]) == 0
    assert capsys.readouterr() == ("", "")
    results = json.loads(report.read_text())["runs"][0]["results"]
    assert {r["properties"]["check"] for r in results} >= {"memory-oversubscription-disabled"}
    assert main(["check", "--no-cache", "--quiet", "--select", "HG264", str(TEAM)]) == 0
    err = capsys.readouterr().err
    assert "HG264" in err and "Found" not in err
    assert main(["check", "--no-cache", "--quiet", "--select", "HG2", str(DATA / "newest")]) == 1
    assert "Found" not in capsys.readouterr().err


def test_the_text_report_names_the_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--no-cache", str(TEAM / "infer.nomad.hcl")]) == 0
    assert "   = check: memory-oversubscription-disabled\n" in capsys.readouterr().err


def test_the_version_names_the_newest_nomad_release(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == "hclgpu 0.1.0 (checks job files as Nomad 1.8.0 to 2.0.6 does)\n"


# ---------------------------------------------------------------- every option defined once


def test_each_command_has_a_flag_for_exactly_its_settings() -> None:
    from hclgpu.cli.parser import COMMANDS, build_parser

    for command in COMMANDS:
        parser = build_parser(command)
        sub = next(a for a in parser._actions if a.dest == "command").choices[command]  # type: ignore[index]
        dests = {action.dest for action in sub._actions}
        for option in Settings.options():
            has_flag = option.attr in dests
            assert has_flag == (command in option.commands and option.kind.cli != "none"), (
                command,
                option.name,
            )


def test_every_option_has_a_kind_a_help_and_one_name_per_place() -> None:
    options = Settings.options()
    assert len({o.name for o in options}) == len(options)
    keys = [o.lsp_key for o in options if o.lsp_key]
    assert len(set(keys)) == len(keys)
    flags = [(c, f) for o in options for c in o.commands for f in o.cli_flags]
    assert len(set(flags)) == len(flags)
    for option in options:
        assert option.help and not option.help.endswith(".")
        assert option.config or option.section == "inputs"


def test_explain_lists_the_checks_of_a_code_and_takes_a_check_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["explain", "HG264"]) == 0
    by_code = capsys.readouterr().out
    assert main(["explain", "memory-oversubscription-disabled"]) == 0
    assert capsys.readouterr().out == by_code
    checks = by_code.split("Checks (", 1)[1].splitlines()[1:]
    assert [line.split()[0] for line in checks] == [
        "auto-promote-not-everywhere", "group-services-without-shutdown-delay",
        "identity-env-without-restart", "identity-multiple-audiences", "identity-without-audience",
        "identity-without-expiration", "job-source-too-large", "memory-oversubscription-disabled",
        "service-task-without-shutdown-delay", "task-services-without-shutdown-delay",
        "template-vault-grace", "vault-identity-without-vault", "vault-policies-with-identity",
    ]  # fmt: skip


def test_the_servers_limits_are_the_profiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`job-max-source-size` and `job-max-count` state the servers' configuration (Nomad's
    defaults, 1 MB and 50000, unless the profile says otherwise)."""
    path = tmp_path / "a.nomad.hcl"
    path.write_text(UNUSED.replace("  # hclgpu-ignore: HG291\n", "") + "# " + "x" * 2000 + "\n")
    assert check(capsys, str(path)) == (0, [])
    _, found = check(capsys, "--job-max-source-size", "2k", str(path))
    assert [(d["check"], d["message"]) for d in found] == [
        ("job-source-too-large", "job source size of 2.1 kB exceeds maximum of 2.0 kB and will be discarded")
    ]
    (tmp_path / "hclgpu.toml").write_text('job-max-source-size = "1KiB"\njob-max-count = 1\n')
    path.write_text(path.read_text().replace('group "g" {', 'group "g" {\n    count = 2', 1))
    _, found = check(capsys, str(path))
    assert sorted(str(d["check"]) for d in found) == ["job-max-count", "job-source-too-large"]


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("1M", 1_000_000),
        ("1MiB", 1_048_576),
        ("2 kb", 2_000),
        ("1.5G", 1_500_000_000),
        ("512", 512),
        (64, 64),
    ],
)
def test_a_size_is_read_as_the_nomad_agent_reads_it(text: object, size: int) -> None:
    from hclgpu.settings.kinds import ByteSize

    assert ByteSize().read(text, "/") == size


@pytest.mark.parametrize("text", ["1 X", "", "M", "-1", 0, True, "1e3"])
def test_a_size_that_is_not_one_is_refused(text: object) -> None:
    from hclgpu.settings.kinds import ByteSize

    with pytest.raises(ValueError, match="must be a size in bytes"):
        ByteSize().read(text, "/")


@pytest.mark.parametrize("name", ["migrate.nomad.hcl", "infer.nomad.hcl"])
def test_nomad_2_0_6_decides_as_its_own_validator(name: str) -> None:
    """`validate-oracle` (Nomad's own validator at aa026cc99c, 2.0.6; its output kept in
    tests/data/settings/oracle) refuses the job with only a lifecycle task, in the words hclgpu
    reports at 2.0.6, and accepts the other (its memory_max warning is an admission hook's,
    which the offline validator does not run). Nomad added the check after v2.0.5
    (hashicorp/nomad 613ee33259, #28283): hclgpu at 2.0.5 accepts the job."""
    import hclgpu

    oracle = json.loads((DATA / "oracle" / f"{name}.json").read_text())
    newest = hclgpu.loads((TEAM / name).read_text(), path=name, nomad_version="2.0.6")
    errors = [d.message.split(": ", 1)[1] for d in newest.diagnostics if d.severity == "error"]
    assert [e for e in errors if e not in oracle.get("Error", "")] == []
    assert bool(errors) == ("ValidationErrors" in oracle)
    older = hclgpu.loads((TEAM / name).read_text(), path=name, nomad_version="2.0.5")
    assert [d for d in older.diagnostics if d.severity == "error"] == []


# ---------------------------------------------------------------- every command reads the settings


def test_fmt_walks_as_check_does(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "jobs" / "a.hcl").write_text('job "j" {\ntype="batch"\n}\n')
    (project / "jobs" / "prod.vars.hcl").write_text('image="x"\n')
    (project / "jobs" / "legacy.hcl").write_text('job "l" {\ntype="batch"\n}\n')
    (project / "hclgpu.toml").write_text('exclude = ["legacy.hcl"]\n')
    assert main(["fmt", "jobs"]) == 0
    assert "jobs/prod.vars.hcl: info[HG023]" in capsys.readouterr().err
    assert (project / "jobs" / "a.hcl").read_text() == 'job "j" {\n  type = "batch"\n}\n'
    assert (project / "jobs" / "prod.vars.hcl").read_text() == 'image="x"\n'  # not a job file: untouched
    assert (project / "jobs" / "legacy.hcl").read_text() == 'job "l" {\ntype="batch"\n}\n'  # excluded
    assert main(["fmt", "--force-exclude", "jobs/legacy.hcl"]) == 0
    assert (project / "jobs" / "legacy.hcl").read_text() == 'job "l" {\ntype="batch"\n}\n'
    assert main(["fmt", "jobs/legacy.hcl"]) == 0  # named: formatted
    assert (project / "jobs" / "legacy.hcl").read_text() == 'job "l" {\n  type = "batch"\n}\n'


def test_render_takes_its_target_options_from_the_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "hclgpu.toml").write_text('k8s-devices = "dra"\nnamespace = "ml"\ncpu-mhz-per-core = 2000\n')
    job = tmp_path / "train.nomad.hcl"
    job.write_text((ROOT / "samples" / "tensorrt.nomad.hcl").read_text())
    assert main(["render", "--target", "kubernetes", "--unsupported", "ignore", str(job)]) == 0
    out = capsys.readouterr().out
    assert "  namespace: ml\n" in out and "ResourceClaimTemplate" in out and "cpu: 4096m\n" in out
    assert (
        main(["render", "--target", "kubernetes", "--unsupported", "ignore", "--namespace", "prod", str(job)])
        == 0
    )
    out = capsys.readouterr().out
    assert "  namespace: prod\n" in out and "  namespace: ml\n" not in out


def test_import_and_plan_take_their_settings_from_the_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "hclgpu.toml").write_text('cpu-mhz-per-core = 3000\nnodes = "cluster.yaml"\n')
    deployment = tmp_path / "deployment.yaml"
    deployment.write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n"
        "    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n"
        "    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n"
        "          resources:\n            requests: {cpu: '2'}\n"
    )
    assert main(["import", str(deployment), "--from", "kubernetes"]) == 0
    assert re.search(r"cpu += 6000", capsys.readouterr().out)
    (tmp_path / "cluster.yaml").write_text((ROOT / "samples" / "nodes" / "cluster.yaml").read_text())
    job = tmp_path / "infer.nomad.hcl"
    job.write_text((ROOT / "samples" / "tensorrt.nomad.hcl").read_text())
    assert main(["plan", str(job)]) == 0  # the inventory is the configuration's
    assert "placed" in capsys.readouterr().out
    (tmp_path / "hclgpu.toml").write_text("")
    assert main(["plan", str(job)]) == 2
    assert "give the inventory: --nodes INVENTORY, or `nodes` in the configuration" in capsys.readouterr().err


# ---------------------------------------------------------------- edges


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('exclude = ["[z-a].hcl"]\n', "`exclude`: `[z-a].hcl` is not a pattern: bad character range z-a"),
        ('[per-file-ignores]\n"[z-a]" = ["HG290"]\n', "`per-file-ignores`: `[z-a]` is not a pattern"),
        ('job-max-source-size = "' + "9" * 400 + '"\n', "`job-max-source-size`: must be a size in bytes"),
        ('nodes = "a\\u0000b"\n', "`nodes`: must be a path"),
    ],
)
def test_a_value_that_breaks_a_reader_is_a_usage_error_too(
    text: str, message: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "hclgpu.toml").write_text(text)
    for argv in (["check", "jobs"], ["fmt", "--check", "jobs"], ["plan", "jobs/a.hcl"]):
        assert main(argv) == 2
        assert message in capsys.readouterr().err


def test_a_bad_configuration_below_stops_fmt_before_it_writes(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "jobs" / "a.hcl").write_text('job "j" {\ntype="batch"\n}\n')
    (project / "jobs" / "sub").mkdir()
    (project / "jobs" / "sub" / "b.hcl").write_text('job "b" {\ntype="batch"\n}\n')
    (project / "jobs" / "sub" / "hclgpu.toml").write_text("bogus = 1\n")
    assert main(["fmt", "jobs"]) == 2
    assert "unknown key `bogus`" in capsys.readouterr().err
    assert (project / "jobs" / "a.hcl").read_text() == 'job "j" {\ntype="batch"\n}\n'


def test_a_folder_named_on_the_command_line_is_walked_though_its_name_is_excluded(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "hclgpu.toml").write_text('exclude = ["jobs/"]\n')
    assert codes(check(capsys, "jobs")[1]) == ["HG290"]  # as ruff: the folder named is walked
    assert main(["check", "--no-cache", "."]) == 2  # walking `.`, jobs/ is excluded: nothing left
    capsys.readouterr()


def test_an_unanchored_pattern_of_the_command_line_applies_anywhere(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "jobs" / "legacy").mkdir()
    (project / "jobs" / "legacy" / "old.hcl").write_text(UNUSED)
    elsewhere = project / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    _, found = check(capsys, "--exclude", "legacy/", "../jobs")
    assert [d["path"] for d in found] == [os.path.join("..", "jobs", "a.hcl")]


def test_a_switch_of_the_configuration_is_turned_off_on_the_command_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "hclgpu.toml").write_text("strict = true\n")
    assert check(capsys, "jobs")[0] == 1
    assert check(capsys, "--no-strict", "jobs")[0] == 0


def test_select_on_the_command_line_replaces_the_configurations_extend_select(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "hclgpu.toml").write_text('select = ["HG1"]\nextend-select = ["HG29"]\n')
    assert codes(check(capsys, "jobs")[1]) == ["HG290"]
    assert codes(check(capsys, "--select", "HG1", "jobs")[1]) == []


def test_standard_input_named_into_an_excluded_place_is_skipped_with_force_exclude(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    (project / "hclgpu.toml").write_text('exclude = ["jobs/"]\n')
    for forced, expected in ((False, ["HG290"]), (True, [])):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(UNUSED.encode())))
        argv = ["-", "--stdin-filename", "jobs/a.hcl", *(["--force-exclude"] if forced else [])]
        assert codes(check(capsys, *argv)[1]) == expected


def test_the_python_api_reports_what_check_reports(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hclgpu

    (project / "hclgpu.toml").write_text('ignore = ["HG290"]\n')
    assert hclgpu.load("jobs/a.hcl").diagnostics == []
    assert [d.code for d in hclgpu.loads(UNUSED).diagnostics] == ["HG290"]  # no configuration read
    assert [d.code for d in hclgpu.loads(UNUSED, select=["HG1"]).diagnostics] == []
    (project / "v.hcl").write_text('variable "img" {\n  type = string\n}\n' + UNUSED)
    monkeypatch.setenv("NOMAD_VAR_img", "busybox")  # the API reads no environment
    assert [d.code for d in hclgpu.load(str(project / "v.hcl")).diagnostics] == ["HG110"]
    with pytest.raises(ValueError, match="`HG101` cannot be ignored"):
        hclgpu.loads(UNUSED, ignore=["HG101"])
