"""`check --fix`, `--unsafe-fixes`, `--diff` and `--show-fixes`, with ruff's meanings: safe
fixes by default, the guesses only when asked, the file checked again and written atomically,
the exit status that of what remains."""

from __future__ import annotations

from pathlib import Path

import pytest

from hclgpu.cli import main
from hclgpu.cli.fixes import apply_edits, fix_file
from hclgpu.codes import Severity
from hclgpu.diagnostics import Diagnostic, Edit
from hclgpu.source import SourceFile, Span

JOB = """job "x" {
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "a:1"
      }
      resources {
        memory = 100
        device "nvidia/gpu" {
          constraint {
            attribute = "${ device.model }"
            value     = "Tesla T4"
          }
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "4 GIb"
          }
          affinity {
            attribute = "${attr.memory}"
            value     = "1"
            weight    = 500
          }
        }
      }
    }
  }
}
"""

SAFE = JOB.replace('"${ device.model }"', '"${device.model}"')
"""What `--fix` makes of JOB: only the spaces inside the target (HG212) go."""

ALL = (
    SAFE.replace('"4 GIb"', '"4 GiB"')
    .replace('"${attr.memory}"', '"${device.attr.memory}"')
    .replace('value     = "1"', 'value     = "1 MiB"')
    .replace("weight    = 500", "weight    = 100")
)
"""What `--fix --unsafe-fixes` makes of it: the unit, the device target, the weight too, and
in a second round the unit the device target's value now lacks (HG214)."""


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["check", "--no-cache", "--isolated", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def job(tmp_path: Path) -> Path:
    path = tmp_path / "job.nomad.hcl"
    path.write_text(JOB, encoding="utf-8")
    return path


def test_fix_applies_the_safe_fixes_only(job: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run([str(job), "--fix", "--show-fixes"], capsys)
    assert job.read_text(encoding="utf-8") == SAFE
    assert "1 × HG212 (spaces-in-target)" in err
    assert "3 hidden fixes can be enabled with `--unsafe-fixes`" in err
    assert status == 0  # warnings remain, and warnings do not fail a run


def test_unsafe_fixes_apply_the_guesses_too_and_a_second_run_changes_nothing(
    job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _run([str(job), "--fix", "--unsafe-fixes", "--show-fixes"], capsys)
    assert job.read_text(encoding="utf-8") == ALL
    for line in ("1 × HG210", "1 × HG212", "1 × HG214", "1 × HG215", "1 × HG232"):
        assert line in err
    assert status == 0 and "Found 0 errors and 1 warning" in err  # an affinity its constraint forbids
    again, _, err = _run([str(job), "--fix", "--unsafe-fixes", "--show-fixes"], capsys)
    assert again == 0 and job.read_text(encoding="utf-8") == ALL and "No fixes applied." in err


def test_diff_prints_the_change_and_writes_nothing(job: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run([str(job), "--diff"], capsys)
    assert job.read_text(encoding="utf-8") == JOB
    assert status == 1 and "Would fix 1 error." in err
    assert f"--- {job}\n+++ {job}\n" in out
    assert '-            attribute = "${ device.model }"\n+            attribute = "${device.model}"\n' in out
    clean = job.with_name("clean.nomad.hcl")
    clean.write_text(SAFE, encoding="utf-8")
    status, out, _ = _run([str(clean), "--diff"], capsys)
    assert (status, out) == (0, "")


def test_a_device_block_in_the_task_moves_into_its_resources(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    misplaced = JOB.replace(
        "      resources {\n", '      device "amd/gpu" {\n        count = 1\n      }\n      resources {\n'
    )
    path = tmp_path / "job.nomad.hcl"
    path.write_text(misplaced, encoding="utf-8")
    status, _, err = _run([str(path), "--fix", "--show-fixes"], capsys)
    text = path.read_text(encoding="utf-8")
    assert "1 × HG102 (unknown-block)" in err and status == 0
    assert (
        '          }\n        }\n        device "amd/gpu" {\n          count = 1\n        }\n      }\n'
        in text
    )
    assert text.count('device "amd/gpu"') == 1


def test_without_resources_the_device_block_is_wrapped_in_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    job = 'job "x" {\n  group "g" {\n    task "t" {\n      driver = "docker"\n'
    job += '      config {\n        image = "a:1"\n      }\n'
    job += '      device "nvidia/gpu" {\n        count = 2\n      }\n    }\n  }\n}\n'
    path = tmp_path / "job.nomad.hcl"
    path.write_text(job, encoding="utf-8")
    assert _run([str(path), "--fix"], capsys)[0] == 0
    assert path.read_text(encoding="utf-8") == job.replace(
        '      device "nvidia/gpu" {\n        count = 2\n      }\n',
        '      resources {\n        device "nvidia/gpu" {\n          count = 2\n        }\n      }\n',
    )


def test_errors_that_remain_fail_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "job.nomad.hcl"
    path.write_text(JOB.replace("memory = 100", "memory = 100\n        cpu    = -5"), encoding="utf-8")
    status, _, err = _run([str(path), "--fix"], capsys)
    assert status == 1 and "error[HG242]" in err
    assert '"${device.model}"' in path.read_text(encoding="utf-8")  # the safe fix still applied


def test_standard_input_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(["-", "--fix"], capsys)
    assert status == 2 and "take files, not standard input" in err


def _finding(source: SourceFile, start: int, end: int, text: str, code: str = "HG212") -> Diagnostic:
    return Diagnostic(
        code,
        Severity.WARNING,
        "m",
        source,
        Span(start, end),
        fix=(Edit(Span(start, end), text),),
        fix_safe=True,
    )


def test_overlapping_fixes_wait_for_the_next_round() -> None:
    source = SourceFile("f", "abcdef")
    found = [_finding(source, 0, 2, "X"), _finding(source, 1, 3, "Y"), _finding(source, 4, 4, "Z")]
    text, applied = apply_edits(source.text, found, unsafe=False)
    assert (text, applied["HG212"]) == ("Xcd" + "Zef", 2)
    unsafe = [Diagnostic("HG101", Severity.ERROR, "m", source, Span(0, 1), fix=(Edit(Span(0, 1), "Q"),))]
    assert apply_edits(source.text, unsafe, unsafe=False)[0] == "abcdef"
    assert apply_edits(source.text, unsafe, unsafe=True)[0] == "Qbcdef"


def test_a_round_that_breaks_the_syntax_is_undone() -> None:
    source = SourceFile("f", 'job "x" {}\n')
    broken = _finding(source, 9, 10, "")  # removes the closing brace

    def check(fixed: SourceFile) -> list[Diagnostic]:
        return [Diagnostic("HG001", Severity.ERROR, "unclosed", fixed, Span(0, 1))]

    fixed = fix_file("f", source.text, [broken], check, unsafe=False)
    assert fixed.after == source.text and not fixed.applied


def _fixed(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *flags: str) -> tuple[str, str]:
    path = tmp_path / "job.nomad.hcl"
    path.write_text(text, encoding="utf-8")
    _, _, err = _run([str(path), "--fix", "--show-fixes", *flags], capsys)
    return path.read_text(encoding="utf-8"), err


BATCH = (
    'job "b" {\n  type = "batch"\n  periodic {\n    cron = "*/5 * * * *"\n  }\n%s  group "g" {\n%s'
    '    task "t" {\n      driver = "docker"\n      config {\n        image = "a:1"\n      }\n    }\n  }\n}\n'
)


def test_deprecated_settings_are_rewritten_as_nomad_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`cron` is `crons`; the group's disconnect settings move into one `disconnect` block
    (api/tasks.go at v1.10.0), the second on the next round, once the block exists."""
    group = '    max_client_disconnect = "1h"\n    prevent_reschedule_on_lost = true\n'
    text, err = _fixed(tmp_path, capsys, BATCH % ("", group), "--nomad-version", "1.10")
    assert '    crons = ["*/5 * * * *"]\n' in text and "cron =" not in text
    assert '    disconnect {\n      lost_after = "1h"\n      replace = false\n    }\n' in text
    assert "max_client_disconnect" not in text and "prevent_reschedule_on_lost" not in text
    assert "3 × HG258 (deprecated-field)" in err


def test_a_disconnect_setting_written_twice_is_left_to_the_user(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    group = '    max_client_disconnect = "1h"\n    disconnect {\n      lost_after = "2h"\n    }\n'
    text, _ = _fixed(tmp_path, capsys, BATCH % ("", group), "--nomad-version", "1.10")
    assert 'max_client_disconnect = "1h"' in text and 'lost_after = "2h"' in text


def test_a_shutdown_delay_is_a_guess_so_an_unsafe_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    service = JOB.replace(
        'driver = "docker"\n', 'driver = "docker"\n      service {\n        name = "web"\n      }\n'
    )
    text, _ = _fixed(tmp_path, capsys, service, "--nomad-version", "2.0")
    assert "shutdown_delay" not in text
    text, err = _fixed(tmp_path, capsys, service, "--nomad-version", "2.0", "--unsafe-fixes")
    assert '      }\n      shutdown_delay = "5s"\n    }\n  }\n}\n' in text
    assert "HG264 (server-warning)" in err


def test_json_reports_each_fix_and_whether_it_is_safe(job: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    _, out, _ = _run([str(job), "--format", "json"], capsys)
    fixes = {d["code"]: d["fix"] for d in json.loads(out)["diagnostics"] if "fix" in d}
    assert fixes["HG212"] == {
        "applicability": "safe",
        "edits": [
            {"content": '"${device.model}"', "line": 12, "column": 25, "end_line": 12, "end_column": 44}
        ],
    }
    assert fixes["HG215"]["applicability"] == "unsafe" and fixes["HG215"]["edits"][0]["content"] == '"4 GiB"'


def test_sarif_carries_each_fix_and_validates(job: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    jsonschema = pytest.importorskip("jsonschema")
    from tests.conftest import vendored

    _, out, _ = _run([str(job), "--format", "sarif"], capsys)
    log = json.loads(out)
    schema = json.loads((vendored("schemas", "sarif") / "sarif-schema-2.1.0.json").read_text())
    jsonschema.validate(log, schema)
    [fix] = next(r["fixes"] for r in log["runs"][0]["results"] if r["ruleId"] == "HG212")
    [change] = fix["artifactChanges"]
    assert fix["properties"] == {"applicability": "safe"}
    assert change["replacements"] == [
        {
            "deletedRegion": {"startLine": 12, "startColumn": 25, "endLine": 12, "endColumn": 44},
            "insertedContent": {"text": '"${device.model}"'},
        }
    ]


def test_a_service_port_typo_is_an_unsafe_rename(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    job = (
        'job "x" {\n  group "g" {\n    network {\n      port "http" {\n        to = 80\n      }\n    }\n'
        '    service {\n      name = "web"\n      port = "htp"\n    }\n    task "t" {\n'
        '      driver = "docker"\n      config {\n        image = "a:1"\n      }\n    }\n  }\n}\n'
    )
    text, _ = _fixed(tmp_path, capsys, job, "--nomad-version", "1.10")
    assert 'port = "htp"' in text
    text, err = _fixed(tmp_path, capsys, job, "--nomad-version", "1.10", "--unsafe-fixes")
    assert 'port = "http"' in text and "1 × HG248 (undeclared-port)" in err


def test_hcl1_habits_that_stop_the_parse_are_safe_fixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Quoted argument names are unquoted, all of a block's at once (the parse skips the rest
    of the block after the first); a name that is no identifier stays; a trailing `,` goes."""
    env = '      env {\n        "PUID" = "1"\n        "PGID" = "2"\n        "a.b" = "3"\n      }\n'
    text = JOB.replace('driver = "docker"\n', 'driver = "docker",\n' + env)
    fixed, err = _fixed(tmp_path, capsys, text)
    assert 'driver = "docker"\n' in fixed
    assert '        PUID = "1"\n        PGID = "2"\n        "a.b" = "3"\n' in fixed
    assert "2 × HG001 (syntax-error)" in err
    assert "`a.b` is not an identifier, so it can only be a key of a map" in err


def test_a_dropped_shortcut_becomes_the_operator_it_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bound = '            operator  = ">="\n            value     = "4 GIb"\n'
    shortcut = JOB.replace(bound, '            set_contains_any = "a,b"\n').replace(
        'value     = "Tesla T4"\n', 'value     = "Tesla T4"\n            is_set = false\n'
    )
    fixed, err = _fixed(tmp_path, capsys, shortcut)
    assert '            operator = "set_contains_any"\n            value = "a,b"\n' in fixed
    assert "is_set = false" in fixed  # the block has a value, and `false` is no operator's
    assert "1 × HG226 (dropped-shortcut)" in err


def test_a_misspelt_choice_is_an_unsafe_fix_to_the_close_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A job type, a time zone, a check's type and on_update: the one close choice; both
    `cron` and `crons` keep `crons`."""
    periodic = '    cron = "*/5 * * * *"\n    crons = ["*/5 * * * *"]\n    time_zone = "america/new york"\n'
    check = (
        '    network {\n      port "http" {}\n    }\n    service {\n      name = "web"\n      port = "http"\n'
        '      check {\n        type = "htpp"\n        path = "/"\n        interval = "10s"\n'
        '        timeout = "2s"\n        on_update = "ignore_warning"\n      }\n    }\n'
    )
    text = (BATCH % ("", check)).replace('type = "batch"', 'type = "batchh"')
    text = text.replace('    cron = "*/5 * * * *"\n', periodic)
    fixed, _ = _fixed(tmp_path, capsys, text)
    assert fixed == text
    fixed, err = _fixed(tmp_path, capsys, text, "--unsafe-fixes")
    assert 'type = "batch"\n' in fixed and 'time_zone = "America/New_York"' in fixed
    assert '    crons = ["*/5 * * * *"]\n' in fixed and "cron =" not in fixed
    assert 'type = "http"\n' in fixed and 'on_update = "ignore_warnings"\n' in fixed
    assert "HG268" in err and "HG274" in err and "HG284" in err


def test_what_suppresses_nothing_or_is_ignored_goes_and_a_removed_argument_is_an_unsafe_delete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unused code leaves its suppression comment (the comment goes with its last code, and
    its line where it is alone on it); `vault_grace`, which Nomad ignores, is deleted; a
    `consul_token` Nomad 1.10 removed is deleted only with `--unsafe-fixes`."""
    text = (
        'job "x" {\n  consul_token = "t"\n  # hclgpu-ignore: HG291\n'
        '  datacenters = ["dc1"] # hclgpu-ignore: HG264, HG210\n  group "g" {\n    task "t" {\n'
        '      driver = "docker"\n      template {\n        data = "x"\n        destination = "local/x"\n'
        '        vault_grace = "5s"\n      }\n    }\n  }\n}\n'
    )
    fixed, _ = _fixed(tmp_path, capsys, text)
    assert fixed == text  # the removed argument stops the checks: nothing else is reported yet
    fixed, err = _fixed(tmp_path, capsys, text, "--unsafe-fixes")
    assert fixed == (
        'job "x" {\n  datacenters = ["dc1"]\n  group "g" {\n    task "t" {\n      driver = "docker"\n'
        '      template {\n        data = "x"\n        destination = "local/x"\n      }\n    }\n  }\n}\n'
    )
    assert "HG101" in err and "HG290" in err and "HG264" in err


def test_a_missing_check_interval_and_a_batch_update_block_are_unsafe_fixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "add `interval = "10s"`" writes that line into the check; a batch group's `update`
    block, which Nomad refuses there, is deleted. Both guess, so neither is applied by default."""
    group = (
        '    update {\n      max_parallel = 1\n    }\n    network {\n      port "http" {}\n    }\n'
        '    service {\n      name = "web"\n      port = "http"\n      provider = "nomad"\n'
        '      check {\n        type = "http"\n        path = "/"\n        timeout = "2s"\n      }\n    }\n'
    )
    text = BATCH.replace('  periodic {\n    cron = "*/5 * * * *"\n  }\n', "") % ("", group)
    fixed, _ = _fixed(tmp_path, capsys, text)
    assert fixed == text
    fixed, err = _fixed(tmp_path, capsys, text, "--unsafe-fixes")
    assert "update {" not in fixed and "max_parallel" not in fixed
    assert '        timeout = "2s"\n        interval = "10s"\n      }\n' in fixed
    assert "HG269" in err and "HG284" in err
