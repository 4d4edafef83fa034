"""The language server reads the settings as `hclgpu check` does: each document's nearest
configuration, the editor's settings over it (initializationOptions and the `hclgpu`
workspace settings, pushed or pulled) as a command line's flags are over it. The same folder
and configuration give the same findings through both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from hclgpu.cli import main
from tests.test_lsp import SERVER, published, start_session
from tests.test_settings import DATA, TEAM

FILES = sorted([*TEAM.glob("*.hcl"), *(DATA / "newest").glob("*.hcl")])


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient) -> object:
    await start_session(lsp_client, DATA)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def editor(lsp_client: LanguageClient) -> object:
    """A client whose initializationOptions say the cluster runs the newest release."""
    await start_session(lsp_client, DATA, options={"nomadVersion": "2.0.6"})
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def pulling(lsp_client: LanguageClient) -> object:
    """A client that answers the server's `workspace/configuration` request (the pull model)."""
    lsp_client.set_configuration({"nomadVersion": "2.0.6", "targets": []}, section="hclgpu")
    await start_session(lsp_client, DATA)
    yield
    await lsp_client.shutdown_session()


async def lsp_findings(client: LanguageClient, path: Path, version: int = 1) -> list[tuple[object, ...]]:
    """(code, line, column, message) of what the server publishes for ``path``'s text (the
    check's name, which the editor's message ends with, left out; 1-based as the CLI's)."""
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=path.as_uri(), language_id="hcl", version=version, text=path.read_text()
            )
        )
    )
    found = []
    for d in await published(client, path.as_uri(), version):
        message = d.message.split("\nhelp: ")[0]
        check = (d.data or {}).get("check", "")
        message = message.removesuffix(f" [{check}]")
        found.append((d.code, d.range.start.line + 1, d.range.start.character + 1, message))
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    )
    return found


def cli_findings(path: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[object, ...]]:
    """The same for ``hclgpu check`` of the folder holding ``path`` (a span-less note is shown
    at the start of the document in an editor)."""
    main(["check", "--no-cache", "--format", "json", str(path.parent)])
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    return [
        (d["code"], d.get("line", 1), d.get("column", 1), d["message"])
        for d in found
        if Path(d["path"]).resolve() == path.resolve()
    ]


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
async def test_the_cli_and_the_editor_find_the_same(
    client: LanguageClient, path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Except the note a folder's check gives a file that is no job (HG023): the editor checks
    such a file by its content instead (a variable file as one, other HCL for its syntax)."""
    expected = [found for found in cli_findings(path, capsys) if found[0] != "HG023"]
    assert await lsp_findings(client, path) == expected


@pytest.mark.asyncio(loop_scope="module")
async def test_the_team_release_keeps_the_job_the_newest_refuses(client: LanguageClient) -> None:
    assert await lsp_findings(client, TEAM / "migrate.nomad.hcl", 2) == []
    [(code, *_)] = await lsp_findings(client, DATA / "newest" / "migrate.nomad.hcl", 2)
    assert code == "HG269"


@pytest.mark.asyncio(loop_scope="module")
async def test_the_editor_settings_act_as_flags_and_can_change(editor: LanguageClient) -> None:
    [(code, *_)] = await lsp_findings(editor, TEAM / "migrate.nomad.hcl", 1)
    assert code == "HG269"  # initializationOptions over hclgpu.toml's 2.0.5
    editor.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"hclgpu": {"nomadVersion": "2.0.5", "ignore": ["HG267"]}}
        )
    )
    assert await lsp_findings(editor, TEAM / "migrate.nomad.hcl", 2) == []
    assert [f[0] for f in await lsp_findings(editor, TEAM / "infer.nomad.hcl", 3)] == ["HG264"]


@pytest.mark.asyncio(loop_scope="module")
async def test_a_setting_that_cannot_be_used_is_shown_and_left_out(editor: LanguageClient) -> None:
    editor.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"hclgpu": {"nomadVersion": "3.0", "ignor": []}})
    )
    # the bad value is left out, so initializationOptions' 2.0.6 applies again
    assert [f[0] for f in await lsp_findings(editor, TEAM / "migrate.nomad.hcl", 4)] == ["HG269"]
    assert [m.message for m in editor.messages] == [  # shown before that document's diagnostics
        "hclgpu: settings: `nomadVersion`: hclgpu does not know Nomad 3.0; it knows 1.8.0-1.8.4, 1.9.0-1.9.7,"
        " 1.10.0-1.10.5, 1.11.0-1.11.3, 2.0.0-2.0.6",
        "hclgpu: settings: unknown setting `ignor`; did you mean `ignore`?",
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_the_server_pulls_the_workspace_settings(pulling: LanguageClient) -> None:
    found = await lsp_findings(pulling, TEAM / "migrate.nomad.hcl")
    assert [f[0] for f in found] == ["HG269"]
    assert [f[0] for f in await lsp_findings(pulling, TEAM / "infer.nomad.hcl")] == ["HG264"]


@pytest.mark.asyncio(loop_scope="module")
async def test_an_empty_push_clears_the_workspace_settings_and_another_tools_is_ignored(
    pulling: LanguageClient,
) -> None:
    """`{"hclgpu": {}}` clears what was pushed; `{"yaml": ...}` is not hclgpu's: the server asks
    again (the pulling client answers with its configuration), and shows no problem."""
    pulling.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"hclgpu": {"ignore": ["HG264"]}})
    )
    # the push replaces the pulled settings (targets = []): the configuration's targets are back
    assert [f[0] for f in await lsp_findings(pulling, TEAM / "infer.nomad.hcl", 2)] == ["HG267"]
    pulling.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"hclgpu": {}}))
    assert [f[0] for f in await lsp_findings(pulling, TEAM / "infer.nomad.hcl", 3)] == ["HG267", "HG264"]
    pulling.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"yaml": {"format": True}})
    )
    assert [f[0] for f in await lsp_findings(pulling, TEAM / "migrate.nomad.hcl", 4)] == ["HG269"]  # pulled
    assert pulling.messages == []


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def watching(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory) -> object:
    """A client in a workspace of its own, whose configuration file the test changes."""
    root = tmp_path_factory.mktemp("workspace")
    (root / "infer.nomad.hcl").write_text((TEAM / "infer.nomad.hcl").read_text())
    await start_session(lsp_client, root, "visual-studio-code")
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_a_configuration_file_changed_on_disk_checks_the_open_documents_again(
    watching: LanguageClient,
) -> None:
    root: Path = watching.root  # type: ignore[attr-defined]
    job = root / "infer.nomad.hcl"
    watching.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=job.as_uri(), language_id="hcl", version=1, text=job.read_text()
            )
        )
    )
    assert await published(watching, job.as_uri(), 1) == []  # the defaults: no fact, no target
    registered = watching.registered  # type: ignore[attr-defined]
    assert [r.method for r in registered] == ["workspace/didChangeWatchedFiles"]
    config = root / "hclgpu.toml"
    config.write_text('memory-oversubscription = false\ntargets = ["kubernetes"]\n')
    watching.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Created)]
        )
    )
    assert [d.code for d in await published(watching, job.as_uri(), 1)] == ["HG267", "HG264"]


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def variables(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory) -> object:
    """A client whose variable file, given as `varFiles`, the test changes on disk."""
    root = tmp_path_factory.mktemp("variables")
    (root / "inputs.hcl").write_text("gpus = 2\n")
    await start_session(lsp_client, root, "visual-studio-code", {"varFiles": ["inputs.hcl"]})
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_a_variable_file_changed_on_disk_checks_the_open_documents_again(
    variables: LanguageClient,
) -> None:
    root: Path = variables.root  # type: ignore[attr-defined]
    job = root / "train.nomad.hcl"
    text = 'variable "gpus" {\n  type = number\n}\njob "t" {\n  group "g" {\n    count = var.gpus\n'
    text += '    task "t" {\n      driver = "docker"\n      config {\n        image = "a:1"\n'
    text += "      }\n    }\n  }\n}\n"
    job.write_text(text)
    item = types.TextDocumentItem(uri=job.as_uri(), language_id="hcl", version=1, text=text)
    variables.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
    assert await published(variables, job.as_uri(), 1) == []
    [watcher] = variables.registered[0].register_options["watchers"]  # type: ignore[attr-defined]
    assert "*.vars.hcl" in watcher["globPattern"]
    (root / "inputs.hcl").write_text('gpus = "many"\n')
    change = types.FileEvent(uri=(root / "inputs.hcl").as_uri(), type=types.FileChangeType.Changed)
    variables.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[change]))
    assert [d.code for d in await published(variables, job.as_uri(), 1)] == ["HG112"]
