"""`hclgpu lsp` per workspace: variable files from initializationOptions (relative to the root),
the nearest hclgpu.toml for each document, diagnostics again on save."""

from __future__ import annotations

import sys

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
