"""`hclgpu lsp` with policies: findings published at the lines their paths name, policies from
initializationOptions (relative to the workspace root) or from the nearest configuration, and
a policy that does not compile shown on the document with its own place; the session's
packages and time limit from initializationOptions or the command line."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import ROOT
from tests.test_lsp import SERVER, published, start_session

WORKSPACE = ROOT / "tests" / "data" / "lsp_policies"
JOB = (ROOT / "tests" / "data" / "policies" / "train.nomad.hcl").read_text()


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient) -> object:
    await start_session(lsp_client, WORKSPACE, options={"policy": ["policies"]})
    yield
    await lsp_client.shutdown_session()


async def opened(client: LanguageClient, name: str, text: str, version: int = 1) -> list[types.Diagnostic]:
    document = (WORKSPACE / name).as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=document, language_id="hcl", version=version, text=text)
        )
    )
    return await published(client, document, version)


def where(diagnostic: types.Diagnostic) -> tuple[str, int, int, int]:
    """(code, line, start character, end character), 0-based as LSP counts."""
    start, end = diagnostic.range.start, diagnostic.range.end
    return (str(diagnostic.code), start.line, start.character, end.character)


@pytest.mark.asyncio(loop_scope="module")
async def test_policy_findings_are_published_where_their_paths_point(client: LanguageClient) -> None:
    diagnostics = await opened(client, "train.nomad.hcl", JOB)
    assert [where(d) for d in diagnostics] == [("HG402", 0, 0, 11), ("HG401", 13, 16, 47)]
    assert diagnostics[1].message == (
        "`main.violation`: image docker.io/someone/trainer:1.0 is not ours [policy-denied]"
    )
    assert diagnostics[1].severity == types.DiagnosticSeverity.Error


@pytest.mark.asyncio(loop_scope="module")
async def test_an_edit_is_checked_against_the_same_policies(client: LanguageClient) -> None:
    fixed = JOB.replace("docker.io/someone/trainer:1.0", "registry.example.com/trainer:1.0")
    diagnostics = await opened(client, "fixed.nomad.hcl", fixed)
    assert [where(d) for d in diagnostics] == [("HG402", 0, 0, 11)]


@pytest.mark.asyncio(loop_scope="module")
async def test_the_nearest_configuration_names_other_policies(client: LanguageClient) -> None:
    """initializationOptions win over the configuration; here the options name policies, so
    the `broken/` folder's own hclgpu.toml (a policy that does not compile) is not used."""
    diagnostics = await opened(client, "broken/train.nomad.hcl", JOB)
    assert [where(d)[0] for d in diagnostics] == ["HG402", "HG401"]


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def plain_client(lsp_client: LanguageClient) -> object:
    await start_session(lsp_client, WORKSPACE)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_a_policy_that_does_not_compile_is_shown_on_the_document(plain_client: LanguageClient) -> None:
    diagnostics = await opened(plain_client, "broken/train.nomad.hcl", JOB)
    assert [where(d) for d in diagnostics] == [("HG410", 0, 0, 0)]
    place, _, message = diagnostics[0].message.partition(": ")
    assert place.endswith("lsp_policies/broken/policies/bad.rego:6:7")  # relative to the server's directory
    assert message == "Invalid assignment operator [policy-syntax-error]"


TEAM = ["team"]
"""A policy in package `team` with a rule that runs for minutes."""


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def team_client(lsp_client: LanguageClient) -> object:
    options = {"policy": TEAM, "policyAllNamespaces": True, "policyTimeout": 0.5}
    await start_session(lsp_client, WORKSPACE, options=options)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_every_package_and_the_time_limit_come_from_the_client(team_client: LanguageClient) -> None:
    diagnostics = await opened(team_client, "team.nomad.hcl", JOB)
    assert [(where(d)[0], d.message) for d in diagnostics] == [
        ("HG401", "`team.deny`: every job needs the team's sign-off [policy-denied]"),
        (
            "HG412",
            "policy rule `team.deny_slow` did not finish within 0.5 s and was stopped [policy-timeout]\n"
            "help: make the rule cheaper, or raise --policy-timeout",
        ),
    ]


@pytest.mark.parametrize(
    ("options", "timeout", "every"),
    [
        ({"policyTimeout": 2.5, "policyAllNamespaces": True}, 2.5, True),
        ({"policyTimeout": 3}, 3.0, False),
        ({"policyTimeout": 0}, None, False),
        ({"policyTimeout": -1}, None, False),
        ({"policyTimeout": "2"}, None, False),
        ({"policyTimeout": True}, None, False),
        ({"policyTimeout": float("inf")}, None, False),
        ({"policyTimeout": float("nan")}, None, False),
    ],
)
def test_initialization_options_give_the_time_limit_and_packages(
    options: dict[str, object], timeout: float | None, every: bool
) -> None:
    """A value that cannot be used is left out (and shown to the user), as the rest apply."""
    from hclgpu.settings import Settings
    from hclgpu.settings.resolve import from_editor

    values, problems = from_editor(options, "/workspace")
    settings = Settings(values)
    assert (settings.policy_timeout, settings.policy_all_namespaces) == (timeout, every)
    assert len(problems) == (timeout is None)


def test_the_command_line_gives_the_time_limit_and_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    from hclgpu.cli import main
    from hclgpu.lsp import server

    served = []
    monkeypatch.setattr(server, "serve", lambda given, debounce: served.append(given) or 0)
    assert main(["lsp", "--policy", "p", "--all-namespaces", "--policy-timeout", "1.5"]) == 0
    [given] = served
    assert given == {"policy": ("p",), "policy_all_namespaces": True, "policy_timeout": 1.5}


def test_a_time_limit_of_zero_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from hclgpu.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["lsp", "--policy-timeout", "0"])
    assert stopped.value.code == 2
    assert "must be a number of seconds above 0, not '0'" in capsys.readouterr().err
