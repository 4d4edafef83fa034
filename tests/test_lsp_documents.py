"""What the server makes of a document depends on its content, not its name: a job file
named `*.hcl` is checked as a job, a variable file gets the checks `check` makes of a var
file, and any other HCL file (Terraform, say) only its syntax errors."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import ROOT
from tests.test_lsp import SERVER, open_document, start_session


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient) -> object:
    await start_session(lsp_client, ROOT)
    yield
    await lsp_client.shutdown_session()


async def codes(client: LanguageClient, name: str, text: str) -> list[tuple[str, int]]:
    document = await open_document(client, name, text)
    found: list[types.Diagnostic] = list(client.diagnostics[document])
    return [(str(d.code), d.range.start.line) for d in found]


@pytest.mark.asyncio(loop_scope="module")
async def test_a_job_named_hcl_is_checked_as_a_job(client: LanguageClient) -> None:
    assert await codes(client, "web.hcl", 'job "web" {\n  bogus = 1\n}\n') == [("HG101", 1)]


@pytest.mark.asyncio(loop_scope="module")
async def test_a_variable_file_gets_the_var_file_checks(client: LanguageClient) -> None:
    assert await codes(client, "prod.vars.hcl", 'gpus = 2\nregion = "eu"\n') == []
    found = await codes(client, "bad.vars.hcl", 'gpus = 2\nname = upper("a")\ngpus = 3\n')
    assert found == [("HG115", 1), ("HG109", 2)]  # no function in a var file; set twice


@pytest.mark.asyncio(loop_scope="module")
async def test_other_hcl_gets_its_syntax_errors_only(client: LanguageClient) -> None:
    terraform = 'resource "aws_instance" "web" {\n  ami = "ami-1"\n}\n'
    assert await codes(client, "main.tf.hcl", terraform) == []
    assert await codes(client, "broken.hcl", 'resource "a" {\n  ami = \n}\n') == [("HG001", 1)]
