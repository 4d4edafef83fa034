"""`hclgpu plan --nodes nomad` against broken or hostile servers, and unusable TLS files.

A CI linter reads the cluster with a real token, so a server must not be able to hold it
(bytes trickled one at a time), exhaust it (pages that never end), take its token
elsewhere (a redirect to another host, port or scheme), and a TLS variable naming
something that is not a file must be said, not waited on. Each test counts what the fake
server saw, and bounds how long a client that does not stop would keep it.
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

import pytest

from hclgpu.plan import live
from tests import test_plan_live as base
from tests.test_plan_live import (
    TOKEN,
    Answer,
    FakeNomad,
    Seen,
    failed,
    fixture,
    json_answer,
    placements,
    plan,
)

environment = base.environment
nomad = base.nomad
job = base.job
"""The loopback server and the clean environment of tests/test_plan_live.py."""

# --------------------------------------------------------------------------- servers


@contextmanager
def serving(server: FakeNomad) -> Iterator[FakeNomad]:
    """``server`` answering on a thread until the block ends."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.release.set()
        server.shutdown()
        server.server_close()
        thread.join()


class TLSNomad(FakeNomad):
    """The fake Nomad behind TLS with the certificate ``cert`` (its key inside)."""

    def __init__(self, cert: Path) -> None:
        super().__init__()
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert)
        self.socket = context.wrap_socket(self.socket, server_side=True)

    @property
    def url(self) -> str:
        return super().url.replace("http://", "https://", 1)


STEP = 0.02
"""Seconds between two bytes of a trickled answer."""
GIVE_UP = 4.0
"""Seconds after which the trickling server hangs up, so a client without a deadline ends
too (with another error) instead of hanging the suite."""


class Trickler:
    """A server on 127.0.0.1 that answers every request with an answer that never ends, one
    byte every :data:`STEP` seconds: each read gets a byte long before any socket timeout,
    so only a deadline over the whole request stops a client. ``where`` is ``headers`` (a
    header line that never ends) or ``body`` (JSON whitespace of a long Content-Length).
    ``outcomes`` says, per connection, whether the client ``left`` or the server ``gave up``
    after :data:`GIVE_UP` seconds: it does not depend on how fast either side runs, as the
    server cannot give up before GIVE_UP seconds have passed."""

    def __init__(self, where: str) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.outcomes: list[str] = []
        self.threads: list[threading.Thread] = []
        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        if where == "headers":
            self.start, self.fill = head + b"X-Pad: ", b"a"
        else:
            self.start, self.fill = head + b"Content-Length: 1000000\r\n\r\n", b" "
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:  # closed by close()
                return
            thread = threading.Thread(target=self.trickle, args=(connection,), daemon=True)
            self.threads.append(thread)
            thread.start()

    def trickle(self, connection: socket.socket) -> None:
        with connection:
            request = b""
            while b"\r\n\r\n" not in request:
                chunk = connection.recv(4096)
                if not chunk:
                    return
                request += chunk
            answer = itertools.chain(self.start, itertools.repeat(self.fill[0]))
            for _ in range(int(GIVE_UP / STEP)):
                time.sleep(STEP)
                try:
                    connection.sendall(bytes([next(answer)]))
                except OSError:
                    self.outcomes.append("left")
                    return
            self.outcomes.append("gave up")

    def close(self) -> None:
        """Stops listening and waits for every connection to end (a client that left is
        noticed at the next byte or the one after)."""
        self.listener.close()
        for thread in list(self.threads):
            thread.join(GIVE_UP + 1)


@pytest.fixture
def certificate(tmp_path: Path) -> Path:
    """A self-signed certificate for 127.0.0.1, its key in the same file."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    pem = tmp_path / "nomad.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem"),
        ],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    pem.write_text((tmp_path / "cert.pem").read_text() + (tmp_path / "key.pem").read_text())
    return pem


# --------------------------------------------------------------------------- 1. one deadline


@pytest.mark.parametrize("where", ["headers", "body"])
def test_a_server_that_trickles_bytes_ends_at_the_deadline(
    where: str, environment: pytest.MonkeyPatch, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Headers or body one byte every 20 ms, never ending: every read is quick. `--timeout
    0.5` covers the request from connecting to its last byte, so the client leaves at 0.5 s
    and says it as for a server that does not answer (a client that only times each read
    waits until the server hangs up after GIVE_UP seconds, and says something else)."""
    trickler = Trickler(where)
    environment.setenv("NOMAD_ADDR", trickler.url)
    try:
        status = plan(job, "--timeout", "0.5")
    finally:
        trickler.close()
    assert status == 2
    assert f"hclgpu: Nomad at {trickler.url} did not answer /v1/nodes within 0.5 s" in failed(capsys)
    assert trickler.outcomes == ["left"]


# --------------------------------------------------------------------------- 2. bounded pages


def test_new_tokens_forever_stop_at_the_page_bound(
    nomad: FakeNomad, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Empty pages, each with a token never seen before: the repeated-token check never
    fires. The client reads at most 100 pages of nodes (100,000 nodes at 1,000 a page);
    the server stops handing out tokens after 300 so a client without a bound still ends."""
    counter = itertools.count(1)

    def endless(seen: Seen) -> Answer:
        page = next(counter)
        return json_answer([], {"X-Nomad-NextToken": f"token-{page}"} if page < 300 else {})

    nomad.routes["/v1/nodes"] = endless
    assert plan(job) == 2
    assert "more than 100 pages" in failed(capsys)
    assert len(nomad.requests("/v1/nodes")) == live.MAX_NODES // live.PAGE == 100


def test_more_nodes_than_any_cluster_are_an_error(
    nomad: FakeNomad, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pages of 2,000 down nodes (twice `per_page`), each with a new token: page 51 takes
    the list past 100,000 nodes and the client stops there. After 60 pages the server
    stops handing out tokens, so a client without a bound still ends."""
    stubs = [{"ID": f"node-{index}", "Status": "down"} for index in range(2000)]
    counter = itertools.count(1)

    def crowded(seen: Seen) -> Answer:
        page = next(counter)
        return json_answer(stubs, {"X-Nomad-NextToken": f"token-{page}"} if page < 60 else {})

    nomad.routes["/v1/nodes"] = crowded
    assert plan(job) == 2
    assert "more than 100,000 nodes" in failed(capsys)
    assert len(nomad.requests("/v1/nodes")) == 51


# --------------------------------------------------------------------------- 3. redirects


def test_a_redirect_to_another_port_is_not_followed(
    nomad: FakeNomad, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The node list answers 307 to a second server on another port: the client never
    connects there (no request, so no token); it says where it was sent."""
    with serving(FakeNomad()) as other:
        nomad.routes["/v1/nodes"] = lambda seen: (307, {"Location": f"{other.url}/v1/nodes"}, b"")
        status = plan(job)
        assert other.seen == []
    assert status == 2
    err = failed(capsys)
    assert "redirected" in err and other.url in err
    assert len(nomad.requests("/v1/nodes")) == 1


def test_a_redirect_to_another_host_name_is_not_followed(
    nomad: FakeNomad, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`localhost` on the same port reaches the same server, but is another host: the
    server redirects requests for 127.0.0.1 there and answers those for `localhost`, which
    must never come."""
    port = nomad.server_address[1]

    def elsewhere(seen: Seen) -> Answer:
        if seen.headers["host"].startswith("localhost"):
            return json_answer(fixture("nodes.json"))
        return 302, {"Location": f"http://localhost:{port}/v1/nodes"}, b""

    nomad.routes["/v1/nodes"] = elsewhere
    assert plan(job) == 2
    assert "redirected" in failed(capsys)
    assert [seen.headers["host"] for seen in nomad.seen] == [f"127.0.0.1:{port}"]


def test_a_redirect_within_the_server_is_followed_with_the_token(
    nomad: FakeNomad, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A relative Location on the same server: same scheme, host and port, so the client
    follows it and sends the token there too."""
    nomad.routes["/v1/nodes"] = lambda seen: (301, {"Location": "/v1/moved"}, b"")
    nomad.routes["/v1/moved"] = lambda seen: json_answer(fixture("nodes.json"))
    assert plan(job) == 0
    assert placements(capsys.readouterr().out)
    (moved,) = nomad.requests("/v1/moved")
    assert moved.headers.get("x-nomad-token") == TOKEN


def test_a_redirect_from_https_to_http_is_not_followed(
    certificate: Path, environment: pytest.MonkeyPatch, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A TLS Nomad sends the node list to plain HTTP: the token would cross the network in
    clear text. The plain server never sees a request."""
    with serving(TLSNomad(certificate)) as secure, serving(FakeNomad()) as plain:
        secure.routes["/v1/nodes"] = lambda seen: (307, {"Location": f"{plain.url}/v1/nodes"}, b"")
        environment.setenv("NOMAD_ADDR", secure.url)
        environment.setenv("NOMAD_CACERT", str(certificate))
        environment.setenv("NOMAD_TOKEN", TOKEN)
        status = plan(job)
        assert plain.seen == []
        assert len(secure.requests("/v1/nodes")) == 1
    assert status == 2
    assert "redirected" in failed(capsys)


def test_a_tls_cluster_is_read(
    certificate: Path, environment: pytest.MonkeyPatch, job: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The whole plan over HTTPS with NOMAD_CACERT, the token on every request."""
    with serving(TLSNomad(certificate)) as secure:
        environment.setenv("NOMAD_ADDR", secure.url)
        environment.setenv("NOMAD_CACERT", str(certificate))
        environment.setenv("NOMAD_TOKEN", TOKEN)
        assert plan(job) == 0
        assert len(secure.seen) == 4
        assert all(seen.headers.get("x-nomad-token") == TOKEN for seen in secure.seen)
    assert len(placements(capsys.readouterr().out)) == 2


@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        ("http://127.0.0.1:4646/v1/nodes", "http://127.0.0.1:4646/v1/moved?x=1", True),
        ("https://nomad.example/v1/nodes", "https://NOMAD.example:443/v1/nodes", True),
        ("http://nomad.example/v1/nodes", "http://nomad.example:80/v1/nodes", True),
        ("https://nomad.example:4646/v1/nodes", "http://nomad.example:4646/v1/nodes", False),
        ("http://nomad.example:4646/v1/nodes", "http://nomad.example:4647/v1/nodes", False),
        ("http://nomad.example:4646/v1/nodes", "http://evil.example:4646/v1/nodes", False),
        ("http://nomad.example:4646/v1/nodes", "http://nomad.example:46x6/v1/nodes", False),
    ],
)
def test_an_origin_is_scheme_host_and_port(first: str, second: str, same: bool) -> None:
    """Default ports and the case of the host name do not make another origin."""
    assert live.same_origin(first, second) is same


# --------------------------------------------------------------------------- 4. TLS files


@contextmanager
def rescued(fifo: Path, after: float = 2.0) -> Iterator[list[bool]]:
    """After ``after`` seconds, opens ``fifo`` for writing if a reader is blocked opening it
    (then closes it, so that reader gets an empty file and goes on); the list yielded holds
    True once that happened. A client that never opens the FIFO leaves it empty."""
    done = threading.Event()
    happened: list[bool] = []

    def rescue() -> None:
        if done.wait(after):
            return
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:  # ENXIO: nobody is reading
            return
        happened.append(True)

    thread = threading.Thread(target=rescue, daemon=True)
    thread.start()
    try:
        yield happened
    finally:
        done.set()
        thread.join()


def test_a_fifo_as_the_ca_certificate_is_refused_without_opening_it(
    environment: pytest.MonkeyPatch, job: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Opening a FIFO for reading waits for a writer forever; the client looks first."""
    fifo = tmp_path / "ca.pem"
    os.mkfifo(fifo)
    environment.setenv("NOMAD_ADDR", "https://127.0.0.1:1")
    environment.setenv("NOMAD_CACERT", str(fifo))
    with rescued(fifo) as happened:
        status = plan(job)
    assert happened == []
    assert status == 2
    err = failed(capsys)
    assert f"NOMAD_CACERT={fifo}: " in err and "named pipe" in err


TLS_CASES: dict[str, tuple[str, Callable[[Path], Path], str]] = {
    "client-cert-directory": ("NOMAD_CLIENT_CERT", lambda tmp: tmp, "is a directory, not a file"),
    "client-cert-missing": ("NOMAD_CLIENT_CERT", lambda tmp: tmp / "client.pem", "does not exist"),
    "client-key-fifo": ("NOMAD_CLIENT_KEY", lambda tmp: mkfifo(tmp / "client-key.pem"), "named pipe"),
    "ca-cert-device": ("NOMAD_CACERT", lambda tmp: Path(os.devnull), "is a character device"),
    "ca-path-fifo": ("NOMAD_CAPATH", lambda tmp: mkfifo(tmp / "certs"), "not a directory"),
    "ca-path-missing": ("NOMAD_CAPATH", lambda tmp: tmp / "certs", "does not exist"),
}


def mkfifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("case", TLS_CASES)
def test_a_tls_variable_naming_no_usable_file_says_which(
    case: str,
    environment: pytest.MonkeyPatch,
    job: Path,
    tmp_path: Path,
    certificate: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The message names the variable and its path, and says what is there instead. The
    other client variable names a good file, so only the case's variable is wrong."""
    variable, make, message = TLS_CASES[case]
    path = make(tmp_path)
    environment.setenv("NOMAD_ADDR", "https://127.0.0.1:1")
    environment.setenv("NOMAD_CLIENT_CERT", str(certificate))
    environment.setenv("NOMAD_CLIENT_KEY", str(certificate))
    environment.setenv(variable, str(path))
    context: AbstractContextManager[Any] = rescued(path) if path.is_fifo() else nullcontext()
    with context:
        status = plan(job)
    assert status == 2
    err = failed(capsys)
    assert f"{variable}={path}: " in err and message in err, err


@pytest.mark.parametrize(
    ("given", "missing"),
    [("NOMAD_CLIENT_KEY", "NOMAD_CLIENT_CERT"), ("NOMAD_CLIENT_CERT", "NOMAD_CLIENT_KEY")],
)
def test_a_client_key_without_its_certificate_is_said(
    given: str,
    missing: str,
    environment: pytest.MonkeyPatch,
    job: Path,
    certificate: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As Nomad's api.ConfigureTLS: a client key needs its certificate (and the other way
    round); a key alone is never silently left out."""
    environment.setenv("NOMAD_ADDR", "https://127.0.0.1:1")
    environment.setenv(given, str(certificate))
    assert plan(job) == 2
    err = failed(capsys)
    assert f"{given} is set but {missing} is not" in err
