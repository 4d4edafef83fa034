"""`hclgpu plan --nodes nomad --allocs nomad` against a real HTTP server on 127.0.0.1.

The server answers with the recorded API fixtures in tests/data/plan/api/ (written in the
shapes Nomad 1.9 returns) and records every request it gets. The cluster:

* gpu-a and gpu-b (dc1, ready): 8000 MHz, 8 cores, 16384 MB, 100000 MB of disk, docker,
  one `nvidia/gpu/Tesla T4` group of 2 instances each, nothing reserved;
* gpu-c: `"Status": "down"`, so its detail must never be asked for;
* job `inference` (namespace ml, running) holds 500 MHz, 12000 MB and GPU A1 on gpu-a;
* job `nightly-eval` (complete) once held 2000 MHz, 14000 MB and GPU B1 on gpu-b: a
  terminal allocation holds nothing.

The job places 2 × (100 MHz, 4096 MB, 1 GPU) with binpack. First allocation: gpu-a has
16384 − 12000 = 4384 MB free ≥ 4096 and GPU A2 free; its fit is
binpack(1 − 600/8000, 1 − 16096/16384) ≈ 0.586 against gpu-b's
binpack(1 − 100/8000, 1 − 4096/16384) ≈ 0.259, so gpu-a, offered A2 (A1 is held). Second:
gpu-a has 288 MB and no GPU left (exhausted), so gpu-b, offered B1 (the complete allocation
holds nothing; were it counted, gpu-b would have only 2384 MB free and the allocation
would be unplaced).
"""

from __future__ import annotations

import json
import socket
import threading
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from hclgpu.cli import main
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data" / "plan" / "api"
TOKEN = "3f9c1a7e-52d4-4b0e-9a61-8c2f5e7d4b13"

NODE_A = "5b8f2c1e-3a4d-4e6f-9b7a-0c1d2e3f4a5b"
NODE_B = "7d9e4f2a-6b1c-4a8d-8e3f-1a2b3c4d5e6f"
NODE_C = "c3e1d7b9-2f4a-4b6c-9d8e-7f6a5b4c3d2e"
GPU_A1 = "GPU-3f0c9a1e-5d27-4b8e-a6f1-0e9d8c7b6a51"
"""Held by the running `inference` allocation: never offered."""
GPU_A2 = "GPU-8b24e6d0-1c93-4f7a-b5e2-7d6c5b4a3f92"
GPU_B1 = "GPU-c61a7f3b-9e05-4d2c-8a1b-2f3e4d5c6b73"
"""Held only by the complete `nightly-eval` allocation: free."""
DETAILS = {NODE_A: "node-gpu-a.json", NODE_B: "node-gpu-b.json"}

HANG = 5.0
"""How long the hung server keeps a request (teardown lets it go at once)."""
GUARD = 60.0
"""The most a plan may run before the test gives up on it: a bound against hanging the
suite, never a measurement."""

JOB = """\
job "train" {
  datacenters = ["dc1"]

  group "trainer" {
    count = 2

    task "worker" {
      driver = "docker"

      config {
        image = "example/trainer:1"
      }

      resources {
        memory = 4096

        device "nvidia/gpu" {}
      }
    }
  }
}
"""

ENVIRONMENT = (
    "NOMAD_ADDR", "NOMAD_TOKEN", "NOMAD_REGION", "NOMAD_NAMESPACE", "NOMAD_CACERT", "NOMAD_CAPATH",
    "NOMAD_CLIENT_CERT", "NOMAD_CLIENT_KEY", "NOMAD_SKIP_VERIFY", "http_proxy", "HTTP_PROXY",
    "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
)  # fmt: skip


def binpack(cpu: float, memory: float) -> float:
    """The binpack fit of a node left with ``cpu`` and ``memory`` free (fractions)."""
    return min(max(20 - (10**cpu + 10**memory), 0), 18) / 18


def fixture(name: str) -> Any:
    return json.loads((DATA / name).read_text())


# --------------------------------------------------------------------------- the server


@dataclass(frozen=True)
class Seen:
    """One request the server got."""

    path: str
    query: dict[str, str]
    headers: dict[str, str]
    """Names lower-cased."""


Answer = tuple[int, dict[str, str], bytes]
"""Status, headers and body; status 0 answers nothing (the client has gone)."""


def json_answer(data: Any, headers: dict[str, str] | None = None) -> Answer:
    nomad = {"Content-Type": "application/json", "X-Nomad-Index": "4711", "X-Nomad-KnownLeader": "true"}
    return 200, {**nomad, "X-Nomad-LastContact": "0", **(headers or {})}, json.dumps(data).encode()


def recorded(seen: Seen) -> Answer:
    """The fixtures, as Nomad serves them; anything else is Nomad's 404."""
    if seen.path == "/v1/nodes":
        return json_answer(fixture("nodes.json"))
    if seen.path == "/v1/allocations":
        return json_answer(fixture("allocations.json"))
    node = seen.path.removeprefix("/v1/node/")
    if node in DETAILS and seen.path.startswith("/v1/node/"):
        return json_answer(fixture(DETAILS[node]))
    if seen.path.startswith("/v1/node/"):
        return 404, {"Content-Type": "text/plain"}, b"node not found"
    return 404, {"Content-Type": "text/plain"}, b"404 page not found"


class FakeNomad(ThreadingHTTPServer):
    """A Nomad HTTP API on a free port of 127.0.0.1: `routes` (by path) first, else the
    recorded fixtures; `seen` lists every request in the order it came."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.seen: list[Seen] = []
        self.routes: dict[str, Callable[[Seen], Answer]] = {}
        self.release = threading.Event()
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"

    def record(self, seen: Seen) -> None:
        with self._lock:
            self.seen.append(seen)

    def requests(self, path: str) -> list[Seen]:
        with self._lock:
            return [seen for seen in self.seen if seen.path == path]

    def paths(self) -> set[str]:
        with self._lock:
            return {seen.path for seen in self.seen}

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that timed out and left: nothing to report."""


class Handler(BaseHTTPRequestHandler):
    server: FakeNomad

    def do_GET(self) -> None:
        url = urllib.parse.urlsplit(self.path)
        seen = Seen(
            path=url.path,
            query=dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True)),
            headers={name.lower(): value for name, value in self.headers.items()},
        )
        self.server.record(seen)
        route = self.server.routes.get(seen.path, recorded)
        status, headers, body = route(seen)
        if not status:
            return
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: the test reads `seen` instead."""


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """None of the caller's Nomad settings or proxies (urllib would send 127.0.0.1 through one)."""
    for name in ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("no_proxy", "*")
    monkeypatch.setenv("NO_PROXY", "*")
    return monkeypatch


@pytest.fixture
def nomad(request: pytest.FixtureRequest, environment: pytest.MonkeyPatch) -> FakeNomad:
    server = FakeNomad()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()

    def stop() -> None:
        server.release.set()  # a hung handler answers nothing and returns
        server.shutdown()
        server.server_close()
        thread.join()

    request.addfinalizer(stop)
    environment.setenv("NOMAD_ADDR", server.url)
    environment.setenv("NOMAD_TOKEN", TOKEN)
    return server


@pytest.fixture
def job(tmp_path: Path) -> Path:
    path = tmp_path / "train.nomad.hcl"
    path.write_text(JOB)
    return path


def plan(job: Path, *extra: str) -> int:
    """`hclgpu plan JOB --nodes nomad --allocs nomad --format json`, in-process on a thread
    that the test stops waiting for after :data:`GUARD` seconds."""
    argv = ["plan", str(job), "--nodes", "nomad", "--allocs", "nomad", "--format", "json", *extra]
    outcome: list[int | BaseException] = []

    def target() -> None:
        try:
            outcome.append(main(argv))
        except BaseException as error:  # re-raised on the test's thread
            outcome.append(error)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(GUARD)
    assert outcome, "hclgpu plan never returned"
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def placements(out: str) -> list[tuple[str, list[str]]]:
    """(node, GPU IDs) of each placement, best score first."""
    (group,) = json.loads(out)["groups"]
    return [(p["node"], [i for d in p["devices"] for i in d["ids"]]) for p in group["placements"]]


def failed(capsys: pytest.CaptureFixture[str]) -> str:
    """The one error line of a plan that exited 2 (nothing on standard output)."""
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("hclgpu: ") and captured.err.count("\n") == 1, captured.err
    return captured.err


# --------------------------------------------------------------------------- tests


def test_the_live_cluster_is_planned_with_what_it_holds(
    nomad: FakeNomad, job: Path, capsys: pytest.CaptureFixture[str], environment: pytest.MonkeyPatch
) -> None:
    """The module docstring derives it: gpu-a gets A2 (A1 is held), gpu-b gets B1 (the
    complete allocation holds nothing); A1 appears nowhere."""
    nomad_region = "global"
    environment.setenv("NOMAD_REGION", nomad_region)
    status = plan(job)
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert captured.err == ""
    assert placements(captured.out) == [("gpu-a", [GPU_A2]), ("gpu-b", [GPU_B1])]
    assert GPU_A1 not in captured.out
    plan_json = json.loads(captured.out)
    assert plan_json["notes"] == []
    group = plan_json["groups"][0]
    assert group["unplaced"] == 0
    # gpu-a's fit counts the 500 MHz and 12000 MB `inference` holds; gpu-b's, nothing
    assert [p["score"] for p in group["placements"]] == [
        pytest.approx(binpack(1 - (500 + 100) / 8000, 1 - (12000 + 4096) / 16384)),
        pytest.approx(binpack(1 - 100 / 8000, 1 - 4096 / 16384)),
    ]

    # what the server saw: the lists with their resources, every namespace's allocations,
    # the two ready nodes in detail and never the down one; the token and region each time
    assert nomad.paths() == {"/v1/nodes", f"/v1/node/{NODE_A}", f"/v1/node/{NODE_B}", "/v1/allocations"}
    assert not nomad.requests(f"/v1/node/{NODE_C}")
    (nodes,) = nomad.requests("/v1/nodes")
    assert nodes.query == {"resources": "true", "per_page": "1000", "region": nomad_region}
    (allocations,) = nomad.requests("/v1/allocations")
    assert allocations.query == {
        "resources": "true",
        "namespace": "*",
        "per_page": "1000",
        "region": nomad_region,
    }
    assert len(nomad.seen) == 4
    for seen in nomad.seen:
        assert seen.headers.get("x-nomad-token") == TOKEN, seen.path
        assert seen.query.get("region") == nomad_region, seen.path


def test_every_page_of_the_lists_is_read(
    nomad: FakeNomad, job: Path, capsys: pytest.CaptureFixture[str], environment: pytest.MonkeyPatch
) -> None:
    """Nodes: page 1 is gpu-a with `X-Nomad-NextToken` gpu-b's ID, page 2 gpu-b and gpu-c.
    Allocations: page 1 the complete one, page 2 the running one holding A1. The plan is
    the one derived above only if both pages of both lists were read: without nodes page 2
    nothing lands on gpu-b; without allocations page 2 gpu-a would be offered A1 at an
    idle node's fit. No NOMAD_TOKEN: no `X-Nomad-Token` header is sent."""
    environment.delenv("NOMAD_TOKEN")
    stubs, allocs = fixture("nodes.json"), fixture("allocations.json")
    assert [stub["ID"] for stub in stubs] == [NODE_A, NODE_B, NODE_C]
    assert [alloc["ClientStatus"] for alloc in allocs] == ["running", "complete"]

    def paged(first: list[Any], second: list[Any], token: str) -> Callable[[Seen], Answer]:
        def route(seen: Seen) -> Answer:
            if seen.query.get("next_token") == token:
                return json_answer(second)
            return json_answer(first, {"X-Nomad-NextToken": token})

        return route

    nomad.routes["/v1/nodes"] = paged(stubs[:1], stubs[1:], NODE_B)
    nomad.routes["/v1/allocations"] = paged(allocs[1:], allocs[:1], allocs[0]["ID"])
    status = plan(job)
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert placements(captured.out) == [("gpu-a", [GPU_A2]), ("gpu-b", [GPU_B1])]
    assert [seen.query.get("next_token") for seen in nomad.requests("/v1/nodes")] == [None, NODE_B]
    assert [seen.query.get("next_token") for seen in nomad.requests("/v1/allocations")] == [
        None,
        allocs[0]["ID"],
    ]
    assert all(seen.query["per_page"] == "1000" for seen in nomad.requests("/v1/nodes"))
    assert not nomad.requests(f"/v1/node/{NODE_C}")
    assert all("x-nomad-token" not in seen.headers for seen in nomad.seen)


def test_a_refused_token_is_explained(
    nomad: FakeNomad, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nomad answers 403 with the text `Permission denied` to a token without node:read."""
    nomad.routes["/v1/nodes"] = lambda seen: (403, {"Content-Type": "text/plain"}, b"Permission denied")
    assert plan(job) == 2
    err = failed(capsys)
    assert "403" in err and "Permission denied" in err and "NOMAD_TOKEN" in err
    assert nomad.paths() == {"/v1/nodes"}


def test_a_server_that_does_not_answer_times_out(
    nomad: FakeNomad, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The node list is kept for HANG seconds, then answered; `--timeout 0.5` gives up first.
    A client that waited would get the answer and exit 0."""

    def hang(seen: Seen) -> Answer:
        if nomad.release.wait(HANG):  # teardown: the client is long gone
            return 0, {}, b""
        return recorded(seen)

    nomad.routes["/v1/nodes"] = hang
    assert plan(job, "--timeout", "0.5") == 2
    err = failed(capsys)
    assert f"hclgpu: Nomad at {nomad.url} did not answer /v1/nodes within 0.5 s" in err


def test_an_unreachable_address_is_said(
    environment: pytest.MonkeyPatch, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A port that was free a moment ago: nothing listens there, the connection is refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"http://127.0.0.1:{port}"
    environment.setenv("NOMAD_ADDR", address)
    assert plan(job, "--timeout", "5") == 2
    assert failed(capsys).startswith(f"hclgpu: cannot reach Nomad at {address}")


@pytest.mark.parametrize(
    "path",
    ["/v1/nodes", f"/v1/node/{NODE_B}", "/v1/allocations"],
    ids=["node-list", "node-detail", "allocations"],
)
def test_an_answer_that_is_not_json_is_an_error(
    path: str, nomad: FakeNomad, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A proxy's HTML page (or a cut-off body) in place of any of the three answers."""
    page = b"<html><body><h1>502 Bad Gateway</h1></body></html>\n"
    nomad.routes[path] = lambda seen: (200, {"Content-Type": "text/html"}, page)
    assert plan(job) == 2
    err = failed(capsys)
    assert "is not JSON" in err and path in err


@pytest.mark.parametrize(
    ("variable", "value", "extra", "message"),
    [
        ("NOMAD_ADDR", "http://127.0.0.1:46x6", (), "not a valid address"),
        ("NOMAD_ADDR", "http://[::1:4646", (), "not a valid address"),
        ("NOMAD_TOKEN", "abc\ndef", (), "NOMAD_TOKEN holds characters"),
        ("NOMAD_TOKEN", "tok€n", (), "NOMAD_TOKEN holds characters"),
        ("NOMAD_REGION", "global", ("--timeout", "nan"), "--timeout must be a positive number"),
        ("NOMAD_REGION", "global", ("--timeout", "inf"), "--timeout must be a positive number"),
    ],
)
def test_a_bad_setting_is_one_line_and_exit_2(
    variable: str,
    value: str,
    extra: tuple[str, ...],
    message: str,
    environment: pytest.MonkeyPatch,
    job: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Addresses, tokens and timeouts the client cannot use are said, never a traceback."""
    environment.setenv(variable, value)
    assert plan(job, *extra) == 2
    assert message in failed(capsys)


def test_a_server_that_is_not_http_is_said(
    environment: pytest.MonkeyPatch, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An SSH daemon at NOMAD_ADDR answers with its banner, not HTTP."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)

    def banner() -> None:
        connection, _ = listener.accept()
        connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
        connection.close()

    threading.Thread(target=banner, daemon=True).start()
    environment.setenv("NOMAD_ADDR", f"http://127.0.0.1:{listener.getsockname()[1]}")
    try:
        assert plan(job, "--timeout", "5") == 2
    finally:
        listener.close()
    assert "did not answer as Nomad's HTTP API does" in failed(capsys)


def test_pages_that_never_end_are_an_error(
    nomad: FakeNomad, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server that hands out the same next token again would be read forever."""
    nomad.routes["/v1/nodes"] = lambda seen: json_answer(
        fixture("nodes.json"), {"X-Nomad-NextToken": "again"}
    )
    assert plan(job) == 2
    assert "the pages do not end" in failed(capsys)
    assert len(nomad.requests("/v1/nodes")) == 2


def test_a_loopback_address_skips_the_proxy(
    nomad: FakeNomad, environment: pytest.MonkeyPatch, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As Go's ProxyFromEnvironment, a loopback Nomad is never reached through http_proxy
    (the token would go to the proxy); the proxy here is a closed port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment.setenv("http_proxy", f"http://127.0.0.1:{port}")
    environment.delenv("no_proxy", raising=False)
    environment.delenv("NO_PROXY", raising=False)
    assert plan(job) == 0
    assert placements(capsys.readouterr().out)
