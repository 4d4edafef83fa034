"""Policies are hostile input: a pull request brings job files and `.rego` files alike, and CI
checks them next to its secrets (a NOMAD_TOKEN). A rule must not read the environment, must
not take the machine's memory, and must not silently pass on a built-in the engine lacks
(`http.send` answers nothing here, so a rule that asks a registry would pass every job).

Each test writes its own policy in a temporary directory and checks
tests/data/policies/train.nomad.hcl, as tests/test_policies.py does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hclgpu.cli import main
from tests.conftest import ROOT
from tests.test_policies import TRAIN, check_json, found, policy

SECRET = "s3cret-nomad-token-do-not-print"


# ---- the environment ------------------------------------------------------------------------


def test_a_rule_sees_no_environment_variable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`opa.runtime().env` is rego-cpp's copy of the engine process's environment: the engine
    runs with none, so the token never reaches a message, in any report format."""
    monkeypatch.setenv("NOMAD_TOKEN", SECRET)
    rules = policy(
        tmp_path,
        """
        warn contains sprintf("the engine sees %d environment variables", [count(opa.runtime().env)]) if true

        deny_token contains concat(" ", ["token", opa.runtime().env.NOMAD_TOKEN]) if true
        """,
    )
    status, diagnostics = check_json(capsys, "--policy", str(rules), str(TRAIN))
    assert (status, found(diagnostics)) == (
        0,
        [("HG402", 1, 1, "`main.warn`: the engine sees 0 environment variables")],
    )
    for form in ("text", "sarif", "github"):
        main(["check", "--format", form, "--policy", str(rules), str(TRAIN)])
        assert SECRET not in capsys.readouterr().out


@pytest.mark.skipif(
    not Path("/proc/self/environ").exists(), reason="reads the worker's environment from /proc"
)
def test_the_engine_process_starts_with_an_empty_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the parent hands the worker at start (its /proc environ), before the worker
    clears its own: nothing of the parent's, the token least of all."""
    from hclgpu.diagnostics import Sink
    from hclgpu.rego.engine import engine_for
    from hclgpu.rego.policies import load_policies

    monkeypatch.setenv("NOMAD_TOKEN", SECRET)
    for kept in ("LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "PYTHONHOME"):  # paths a build may need
        monkeypatch.delenv(kept, raising=False)
    policies = load_policies([str(policy(tmp_path, 'warn contains "w" if true\n'))], ["main"], 10.0, Sink())
    assert policies is not None
    engine = engine_for(policies)
    try:
        assert engine.start() == []
        assert engine._process is not None
        given = Path(f"/proc/{engine._process.pid}/environ").read_bytes()
        assert SECRET.encode() not in given and b"NOMAD_" not in given
        assert given == b""
    finally:
        engine.close()


# ---- memory ---------------------------------------------------------------------------------

GREEDY = """
deny_greedy contains n if {
    n := count([i | some i in numbers.range(1, 2000000)])
}
"""
"""Two million numbers in an array: about 1.6 GB in rego-cpp, built in a few seconds, well
within the time limit the test gives; bounded, so that without a memory limit the rule ends
(and the test fails) rather than taking the machine."""

MEASURED = """
import json, resource, sys
from hclgpu.rego import engine
engine.MEMORY_LIMIT = {limit}
from hclgpu.cli import main
status = main(["check", "--format", "json", "--policy", sys.argv[1], "--policy-timeout", "30", sys.argv[2]])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps({{"status": status, "peak": peak}}), file=sys.stderr)
"""
"""A run in a process of its own, with a lower memory limit (a test need not take 1 GiB
to show it), which reports the largest resident size of the processes it started."""


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="the memory limit reads /proc")
def test_a_rule_that_takes_too_much_memory_is_stopped_and_named(tmp_path: Path) -> None:
    import time

    limit = 256 << 20
    rules = policy(tmp_path, GREEDY)
    script = textwrap.dedent(MEASURED).format(limit=limit)
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-c", script, str(rules), str(TRAIN)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={**os.environ, "HCLGPU_NO_CACHE": "1"},
    )  # fmt: skip
    elapsed = time.monotonic() - started
    measured = json.loads(run.stderr.strip().splitlines()[-1])
    diagnostics = json.loads(run.stdout)["diagnostics"]
    assert found(diagnostics) == [
        ("HG414", 1, 1, "policy rule `main.deny_greedy` used more than 256 MiB of memory and was stopped")
    ]
    assert measured["status"] == 2
    assert measured["peak"] < limit + (128 << 20)  # the limit, and what 50 ms of growth adds
    assert elapsed < 20  # stopped twice (all rules, then one at a time) well before 30 s


# ---- built-ins the engine lacks ---------------------------------------------------------------


def test_http_send_is_refused_where_it_is_called(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """rego-cpp declares `http.send` but does not provide it: a call is undefined, and this
    rule, which means "deny when the registry says no", would pass every job."""
    policy(
        tmp_path,
        """
        deny contains "the registry refuses the image" if {
            image := input.Job.TaskGroups[0].Tasks[0].Config.image
            response := http.send({"method": "get", "url": concat("/", ["https://registry.example", image])})
            response.status_code != 200
        }
        """,
        "registry.rego",
    )
    status, diagnostics = check_json(capsys, "--policy", str(tmp_path), str(TRAIN))
    assert status == 2
    assert [(d["path"], d["code"], d["line"], d["column"], d["end_column"]) for d in diagnostics] == [
        (str(tmp_path / "registry.rego"), "HG415", 8, 17, 26)
    ]
    assert diagnostics[0]["message"] == (
        "`http.send` is not available in the policy engine: every call is undefined, so the rule"
        " would pass silently"
    )


@pytest.mark.parametrize(
    ("call", "column"),
    [
        ('net.lookup_ip_addr("registry.example.com")', 10),
        ('net . lookup_ip_addr ("registry.example.com")', 10),  # rego-cpp reads these too
        ('net["lookup_ip_addr"]("registry.example.com")', 10),
        ('net.cidr_contains("10.0.0.0/8", "10.1.2.3")', 10),
        ("json.match_schema({}, {})", 10),
    ],
)
def test_every_unavailable_built_in_is_refused(
    call: str, column: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy(tmp_path, f'deny contains "x" if {{\n    x := {call}\n}}\n')
    status, diagnostics = check_json(capsys, "--policy", str(tmp_path), str(TRAIN))
    assert status == 2
    assert [(d["code"], d["line"], d["column"]) for d in diagnostics] == [("HG415", 6, column)]


def test_mentions_that_are_not_calls_of_the_built_in_are_not_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A comment or a string that names it, a rule of the policies' own imported as `net`
    (rego-cpp calls that one), and a built-in this engine does provide."""
    (tmp_path / "net.rego").write_text(
        "package lib.net\n\nimport rego.v1\n\nlookup_ip_addr(name) := {name}\n"
    )
    policy(
        tmp_path,
        """
        import data.lib.net

        # http.send("...") would ask the registry; not offline
        warn contains "http.send(x) is not used" if true

        warn_lookup contains concat(",", net.lookup_ip_addr("here")) if true

        warn_digest contains crypto.sha256("a") if true
        """,
    )
    status, diagnostics = check_json(capsys, "--policy", str(tmp_path), str(TRAIN))
    assert status == 0
    assert [d[3] for d in found(diagnostics)] == [
        "`main.warn`: http.send(x) is not used",
        "`main.warn_digest`: ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb",
        "`main.warn_lookup`: here",
    ]


def test_the_calls_are_found_in_the_policy_text() -> None:
    """The scan itself: each call's name and span, through comments, strings and the forms
    of a reference rego-cpp accepts."""
    from hclgpu.rego.worker import builtin_calls

    text = (
        "import data.lib.crypto\n"
        'x := http.send({"url": "http.send(1)"})  # net.lookup_ip_addr(2)\n'
        'y := net[`cidr_merge`](["a"]) + crypto.md5("a") + data.http.send(1) + input.net.cidr_expand(3)\n'
        "z := net.\n  cidr_expand(3)\n"
    )
    assert [(name, text[start:end]) for name, start, end in builtin_calls(text)] == [
        ("http.send", "http.send"),
        ("net.cidr_merge", "net[`cidr_merge`]"),
        ("net.cidr_expand", "net.\n  cidr_expand"),
    ]


def test_a_rule_that_crashes_the_engine_is_said_to_crash_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rego-cpp ends its process on a built-in called with too few arguments; with memory
    measured apart (HG414), such a stop is no longer guessed to be memory."""
    policy(
        tmp_path,
        """
        deny contains msg if {
            n := count()
            msg := sprintf("n=%v", [n])
        }
        """,
    )
    status, diagnostics = check_json(capsys, "--policy", str(tmp_path), str(TRAIN))
    assert status == 2
    assert [(d["code"], d["message"]) for d in diagnostics] == [
        ("HG411", "the policy engine crashed while evaluating `main.deny`")
    ]
    assert "wrong number of arguments" in diagnostics[0]["help"]
