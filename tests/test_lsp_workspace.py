"""`hclgpu lsp` per workspace: variable files from initializationOptions (relative to the root),
the nearest hclgpu.toml for each document, diagnostics again on save and when a variable file
changes on disk; a document without a `job` block checked for what it is."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import ROOT
from tests.test_lsp import SERVER, at, hover_text, published, start_session

WORKSPACE = ROOT / "tests" / "data" / "lsp"
NEEDS_GPUS = """variable "gpus" {
  type = number
}

job "train" {
  group "My_Trainer" {
    task "t" {
      driver = "docker"
      config {
        image = "busybox"
      }
      resources {
        device "nvidia/gpu" {
          count = var.gpus
        }
      }
    }
  }
}
"""


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient) -> object:
    await start_session(
        lsp_client, WORKSPACE, options={"varFiles": ["gpus.vars.hcl"], "targets": ["kubernetes"]}
    )
    yield
    await lsp_client.shutdown_session()


async def opened(client: LanguageClient, name: str, text: str) -> tuple[str, list[types.Diagnostic]]:
    document = (WORKSPACE / name).as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=document, language_id="hcl", version=1, text=text)
        )
    )
    return document, await published(client, document, 1)


@pytest.mark.asyncio(loop_scope="module")
async def test_the_workspace_variable_file_sets_the_variable(client: LanguageClient) -> None:
    document, diagnostics = await opened(client, "train.nomad.hcl", NEEDS_GPUS)
    assert [d.code for d in diagnostics] == ["HG267"]  # no "unset variable" error: the file sets it
    assert await hover_text(client, document, at(NEEDS_GPUS, "var.gpus", 5)) == "`var.gpus` = `4`"


@pytest.mark.asyncio(loop_scope="module")
async def test_the_nearest_configuration_filters_diagnostics(client: LanguageClient) -> None:
    _, diagnostics = await opened(client, "quiet/train.nomad.hcl", NEEDS_GPUS)
    assert diagnostics == []  # quiet/hclgpu.toml ignores HG267


@pytest.mark.asyncio(loop_scope="module")
async def test_save_checks_again(client: LanguageClient) -> None:
    document, _ = await opened(client, "saved.nomad.hcl", NEEDS_GPUS)
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=document))
    )
    assert [d.code for d in await published(client, document, 1)] == ["HG267"]


def test_without_the_variable_file_the_variable_is_unset() -> None:
    """The same job through the CLI, without --var-file: the error the workspace file prevents."""
    import subprocess

    completed = subprocess.run(
        [sys.executable, "-m", "hclgpu", "check", "-", "--stdin-filename", "train.nomad.hcl"],
        input=NEEDS_GPUS, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert completed.returncode == 1 and "gpus" in completed.stderr


def test_other_commands_never_import_the_server() -> None:
    """pygls and lsprotocol cost ~0.3 s to import: only `hclgpu lsp` may pay for them."""
    import subprocess

    program = (
        "import sys\nfrom hclgpu.cli import main\n"
        "main(['check', 'samples/tensorrt.nomad.hcl'])\n"
        "main(['fmt', '--check', 'samples/tensorrt.nomad.hcl'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol')))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert completed.stdout.strip().splitlines()[-1] == "[]", completed.stderr


READS_A_TEMPLATE = """job "web" {
  group "web" {
    task "server" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
      template {
        data        = file("templates/motd.txt")
        destination = "local/motd.txt"
      }
    }
  }
}
"""


@pytest.mark.asyncio(loop_scope="module")
async def test_file_functions_read_from_the_workspace_root(client: LanguageClient) -> None:
    """The editor's working directory is the workspace root: `file("templates/motd.txt")` in
    jobs/web.nomad.hcl reads the root's templates/, as `nomad job run jobs/web.nomad.hcl`
    run there does; the job's own folder has no templates/."""
    assert not (WORKSPACE / "jobs").exists() and (WORKSPACE / "templates" / "motd.txt").is_file()
    _, diagnostics = await opened(client, "jobs/web.nomad.hcl", READS_A_TEMPLATE)
    assert [d.code for d in diagnostics] == ["HG111"]  # the workspace's gpus.vars.hcl: no such variable
    missing = READS_A_TEMPLATE.replace("templates/", "jobs/")
    _, diagnostics = await opened(client, "jobs/missing.nomad.hcl", missing)
    assert sorted((d.code, d.range.start.line) for d in diagnostics) == [("HG111", 0), ("HG116", 8)]


# --------------------------------------------------------------------------- files by content


@pytest.mark.asyncio(loop_scope="module")
async def test_the_workspace_variable_file_opened_is_checked_as_one(client: LanguageClient) -> None:
    """The var file the workspace gives, opened: what `check --var-file` finds in it (nothing),
    never a job's errors (no `job` block, HG108; `gpus` is no job argument, HG101)."""
    _, diagnostics = await opened(client, "gpus.vars.hcl", (WORKSPACE / "gpus.vars.hcl").read_text())
    assert diagnostics == []
    _, diagnostics = await opened(client, "inputs.hcl", 'gpus = 2\nregion = lower("EU")\n')
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("HG115", 1)]  # no function there


@pytest.mark.asyncio(loop_scope="module")
async def test_declarations_without_a_job_get_no_job_errors(client: LanguageClient) -> None:
    _, diagnostics = await opened(client, "variables.hcl", 'variable "gpus" {\n  type = number\n}\n')
    assert diagnostics == []


# --------------------------------------------------------------------------- files changed on disk

TYPED = """variable "gpus" {
  type = number
}

job "t" {
  group "g" {
    count = var.gpus
    task "t" {
      driver = "docker"
      config {
        image = "a:1"
      }
    }
  }
}
"""


async def watching_session(
    client: LanguageClient, root: Path, editor: str, options: dict[str, object]
) -> list[types.Registration]:
    """A session in ``root`` whose client keeps what the server asks it to watch, and forgets
    what the server takes back (``client/unregisterCapability``)."""
    await start_session(client, root, editor, options)
    registered: list[types.Registration] = client.registered  # type: ignore[attr-defined]

    @client.feature(types.CLIENT_UNREGISTER_CAPABILITY)
    def unregister_capability(params: types.UnregistrationParams) -> None:
        gone = {u.id for u in params.unregisterations}
        registered[:] = [r for r in registered if r.id not in gone]

    return registered


async def open_typed(client: LanguageClient, root: Path) -> str:
    """A job whose `count` is `var.gpus` (a number), opened: checked clean with gpus = 2."""
    job = root / "train.nomad.hcl"
    job.write_text(TYPED)
    item = types.TextDocumentItem(uri=job.as_uri(), language_id="hcl", version=1, text=TYPED)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
    assert await published(client, job.as_uri(), 1) == []
    return job.as_uri()


def changed(client: LanguageClient, *files: Path) -> None:
    events = [types.FileEvent(uri=f.as_uri(), type=types.FileChangeType.Changed) for f in files]
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=events))


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def watching(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory) -> object:
    """VS Code's capabilities: it registers watchers for the server (dynamic registration)."""
    root = tmp_path_factory.mktemp("watching")
    (root / "inputs.hcl").write_text("gpus = 2\n")
    lsp_client.root = root  # type: ignore[attr-defined]
    lsp_client.watched = await watching_session(  # type: ignore[attr-defined]
        lsp_client, root, "visual-studio-code", {"varFiles": ["inputs.hcl"]}
    )
    yield
    await lsp_client.shutdown_session()


async def watched_glob(client: LanguageClient) -> str:
    """The one glob the client was asked to watch, once asked."""
    registered: list[types.Registration] = client.watched  # type: ignore[attr-defined]
    for _ in range(200):
        if registered:
            break
        await asyncio.sleep(0.01)
    [registration] = registered
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    [watcher] = registration.register_options["watchers"]  # type: ignore[index]
    return str(watcher["globPattern"])


@pytest.mark.asyncio(loop_scope="module")
async def test_a_changed_variable_file_checks_the_open_documents_again(watching: LanguageClient) -> None:
    """The client is asked to watch the configuration files, `*.vars.hcl` and the var file the
    settings give; when that file changes on disk, the open job is checked with its new value."""
    root: Path = watching.root  # type: ignore[attr-defined]
    glob = await watched_glob(watching)
    assert glob == "**/{.hclgpu.toml,hclgpu.toml,pyproject.toml,*.vars.hcl,*.vars.json,inputs.hcl}"
    document = await open_typed(watching, root)
    (root / "inputs.hcl").write_text('gpus = "many"\n')
    changed(watching, root / "inputs.hcl")
    assert [d.code for d in await published(watching, document, 1)] == ["HG112"]
    (root / "inputs.hcl").write_text("gpus = 2\n")
    changed(watching, root / "elsewhere" / "notes.txt", root / "inputs.hcl")
    assert await published(watching, document, 1) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_settings_naming_another_variable_file_are_watched_again(watching: LanguageClient) -> None:
    root: Path = watching.root  # type: ignore[attr-defined]
    (root / "prod.hcl").write_text("gpus = 3\n")
    watching.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"hclgpu": {"varFiles": ["prod.hcl"]}})
    )
    for _ in range(200):
        if "prod.hcl" in await watched_glob(watching):
            break
        await asyncio.sleep(0.01)
    assert (await watched_glob(watching)).endswith(",*.vars.json,prod.hcl}")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def unasked(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory) -> object:
    """Neovim 0.7's capabilities (pytest-lsp's): no dynamic registration of watchers."""
    root = tmp_path_factory.mktemp("unasked")
    (root / "prod.vars.hcl").write_text("gpus = 2\n")
    lsp_client.root = root  # type: ignore[attr-defined]
    lsp_client.watched = await watching_session(  # type: ignore[attr-defined]
        lsp_client, root, "neovim", {"varFiles": ["prod.vars.hcl"]}
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_a_change_reported_unasked_is_handled(unasked: LanguageClient) -> None:
    """A client that cannot register watchers is not asked to; a change it reports anyway
    (a plugin that watches files) checks the open documents again all the same."""
    root: Path = unasked.root  # type: ignore[attr-defined]
    document = await open_typed(unasked, root)
    assert unasked.watched == []  # type: ignore[attr-defined]
    (root / "prod.vars.hcl").write_text('gpus = "many"\n')
    changed(unasked, root / "prod.vars.hcl")
    assert [d.code for d in await published(unasked, document, 1)] == ["HG112"]


def test_only_configuration_and_variable_files_count() -> None:
    """A change to a job file or any other file is not a reason to check every document again;
    a var file given elsewhere than the one changed is told apart by its whole path."""
    from hclgpu.lsp.configuration import _watched
    from hclgpu.lsp.documents import State

    state = State({"var_file": (str(WORKSPACE / "inputs.hcl"),)}, 0.0)
    assert _watched(str(WORKSPACE / "quiet" / "hclgpu.toml"), state)
    assert _watched("/anywhere/prod.vars.hcl", state)
    assert _watched(str(WORKSPACE / "inputs.hcl"), state)
    assert not _watched(str(WORKSPACE / "quiet" / "inputs.hcl"), state)
    assert not _watched(str(WORKSPACE / "train.nomad.hcl"), state)
