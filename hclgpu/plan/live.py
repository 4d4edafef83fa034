"""Nodes and allocations read from a running Nomad cluster (`--nodes nomad`, `--allocs nomad`).

The client is configured from the environment the Nomad CLI reads (command/meta.go,
api.DefaultConfig): `NOMAD_ADDR` (default `http://127.0.0.1:4646`), `NOMAD_TOKEN` (sent as
`X-Nomad-Token`), `NOMAD_REGION`, `NOMAD_NAMESPACE` (the planned job's namespace when the
file sets none), `NOMAD_CACERT`, `NOMAD_CAPATH`, `NOMAD_CLIENT_CERT`, `NOMAD_CLIENT_KEY`,
and `NOMAD_SKIP_VERIFY` (`NOMAD_TLS_SERVER_NAME` is not read).

Reads: `/v1/nodes?resources=true` (paged with `next_token`), then `/v1/node/<id>` for each
ready node (attributes, meta and device attributes are only in the detail), a few at a
time; `/v1/allocations?resources=true&namespace=*` (every namespace's allocations hold
resources). Loopback addresses are never sent through a proxy. Every failure is a
:class:`LiveError` with one line for people, which the CLI prints with exit status 2.

The client runs in CI next to a real token, against servers that may be broken or hostile,
so nothing a server sends can hold it, grow it without bound or move its token:

* one deadline per request (`--timeout`) covers connecting, the TLS handshake, sending, the
  headers and every byte of the body: each socket operation gets only the time left, so a
  server trickling a byte a second ends at the deadline like one that does not answer;
* a list holds at most :data:`MAX_NODES` nodes or :data:`MAX_ALLOCATIONS` allocations and is
  read in at most that bound over :data:`PAGE` pages (100 and 1,000), each answer at most
  :data:`MAX_BODY` bytes; a next token that comes back again ends it at once;
* a redirect is followed only within the origin it came from (scheme, host and port), see
  :class:`_SameOrigin`;
* the TLS variables must name a regular file (`NOMAD_CAPATH` a directory), looked at before
  anything opens them: a FIFO would block the open forever.
"""

from __future__ import annotations

import http.client
import io
import ipaddress
import json
import math
import os
import socket
import ssl
import stat
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hclgpu.plan.inventory import nomad_schedulable

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

__all__ = ["Client", "LiveError", "fetch_allocations", "fetch_nodes", "same_origin"]

DEFAULT_ADDRESS = "http://127.0.0.1:4646"
MAX_BODY = 256 * 2**20
"""The largest response read: a cluster of 50,000 nodes lists well under this."""
PAGE = 1000
"""Items asked for per page (`per_page`)."""
MAX_NODES = 100_000
"""The most nodes read: ten times Nomad's largest clusters (about 10,000 nodes). With
:data:`PAGE` a page, at most 100 pages; more nodes, or more pages, is an error."""
MAX_ALLOCATIONS = 1_000_000
"""The most allocations read: a hundred for each node of a cluster ten times the largest
(terminal ones included until Nomad collects them); at most 1,000 pages."""
WORKERS = 8


class LiveError(Exception):
    """The cluster could not be read; the message says why and what to do, on one printable
    line whatever part of it came from the server or the environment."""

    def __init__(self, message: str) -> None:
        super().__init__(_printable(message))


@dataclass(frozen=True)
class Client:
    """One Nomad HTTP API endpoint, with the CLI's environment applied."""

    address: str
    token: str = ""
    region: str = ""
    namespace: str = ""
    context: ssl.SSLContext | None = None
    timeout: float = 10.0
    """Seconds for each request as a whole, from connecting to its last byte."""

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None, timeout: float = 10.0) -> Client:
        env = os.environ if environ is None else environ
        address = (env.get("NOMAD_ADDR") or DEFAULT_ADDRESS).rstrip("/")
        if address.startswith("unix://"):
            raise LiveError(f"NOMAD_ADDR={address}: unix sockets are not supported; use the HTTP address")
        if "://" not in address:
            address = "http://" + address
        try:
            parts = urllib.parse.urlsplit(address)
            parts.port  # noqa: B018 - a port that is not a number raises here
        except ValueError as error:
            raise LiveError(f"NOMAD_ADDR={address}: not a valid address ({error})") from None
        scheme = parts.scheme
        if not math.isfinite(timeout) or timeout <= 0:
            raise LiveError("--timeout must be a positive number of seconds")
        if scheme not in ("http", "https"):
            raise LiveError(f"NOMAD_ADDR={address}: expected an http:// or https:// address")
        context = _tls_context(env) if scheme == "https" else None
        return cls(
            address=address,
            token=env.get("NOMAD_TOKEN", ""),
            region=env.get("NOMAD_REGION", ""),
            namespace=env.get("NOMAD_NAMESPACE", ""),
            context=context,
            timeout=timeout,
        )

    def get(self, path: str, query: dict[str, str] | None = None) -> tuple[Any, str]:
        """The decoded JSON of ``GET path`` and the `X-Nomad-NextToken` header, all within
        one deadline of :attr:`timeout` seconds."""
        params = dict(query or {})
        if self.region:
            params.setdefault("region", self.region)
        url = f"{self.address}{path}" + (f"?{urllib.parse.urlencode(params)}" if params else "")
        request = urllib.request.Request(url, headers={"Accept": "application/json"})
        if self.token:
            if not self.token.isprintable() or not self.token.isascii():
                raise LiveError("NOMAD_TOKEN holds characters no HTTP header can carry")
            request.add_header("X-Nomad-Token", self.token)
        deadline = time.monotonic() + self.timeout
        try:
            with _opener(self.address, self.context, deadline).open(request) as response:
                body = _read(response, url)
                next_token = response.headers.get("X-Nomad-NextToken", "")
        except urllib.error.HTTPError as error:
            raise LiveError(_http_error(error, url)) from None
        except urllib.error.URLError as error:
            raise LiveError(f"cannot reach Nomad at {self.address}: {_reason(error.reason)}") from None
        except TimeoutError:
            raise LiveError(
                f"Nomad at {self.address} did not answer {path} within {self.timeout:g} s"
            ) from None
        except OSError as error:
            raise LiveError(f"cannot reach Nomad at {self.address}: {_reason(error)}") from None
        except (http.client.HTTPException, ValueError) as error:  # not an HTTP server, a bad URL
            raise LiveError(
                f"{self.address} did not answer as Nomad's HTTP API does ({_one_line(repr(error))})"
            ) from None
        try:
            return json.loads(body), next_token
        except (ValueError, RecursionError):
            raise LiveError(f"{url}: the answer is not JSON") from None

    def pages(self, path: str, query: dict[str, str], limit: int, noun: str) -> list[Any]:
        """Every item of a paged list endpoint: at most ``limit`` items in at most ``limit``
        over :data:`PAGE` pages (a server honouring `per_page` never needs more), so that a
        server handing out new tokens forever ends with an error, not exhausted memory."""
        items: list[Any] = []
        token = ""
        seen: set[str] = set()
        most = math.ceil(limit / PAGE)
        for _ in range(most):
            page_query = {**query, "per_page": str(PAGE)}
            if token:
                page_query["next_token"] = token
            data, token = self.get(path, page_query)
            if not isinstance(data, list):
                raise LiveError(f"{self.address}{path}: expected a JSON list")
            items.extend(data)
            if len(items) > limit:
                raise LiveError(f"{self.address}{path}: more than {limit:,} {noun}, the most hclgpu reads")
            if not token:
                return items
            if token in seen:
                shown = _one_line(repr(token))
                raise LiveError(f"{self.address}{path}: the pages do not end (next token {shown} again)")
            seen.add(token)
        raise LiveError(
            f"{self.address}{path}: more than {most} pages of {noun} ({PAGE} a page, "
            f"at most {limit:,} {noun}): the pages do not end"
        )


def fetch_nodes(client: Client) -> list[dict[str, Any]]:
    """Full node objects of every ready, eligible node (the converter leaves out the rest)."""
    stubs = client.pages("/v1/nodes", {"resources": "true"}, MAX_NODES, "nodes")
    ready = [
        stub["ID"]
        for stub in stubs
        if isinstance(stub, dict) and isinstance(stub.get("ID"), str) and nomad_schedulable(stub)
    ]
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        nodes = list(
            pool.map(lambda node_id: client.get(f"/v1/node/{urllib.parse.quote(node_id)}")[0], ready)
        )
    return [node for node in nodes if isinstance(node, dict)]


def fetch_allocations(client: Client) -> list[Any]:
    """Every namespace's allocations, with their allocated resources."""
    return client.pages(
        "/v1/allocations", {"resources": "true", "namespace": "*"}, MAX_ALLOCATIONS, "allocations"
    )


def _opener(address: str, context: ssl.SSLContext | None, deadline: float) -> urllib.request.OpenerDirector:
    """An opener whose connections end by ``deadline``, that follows redirects only within
    their origin and, like Go's `http.ProxyFromEnvironment`, never sends a loopback address
    (where the token would travel to the proxy) through `http_proxy`/`https_proxy`."""
    handlers: list[urllib.request.BaseHandler] = [_Handler(deadline, context), _SameOrigin()]
    if _loopback(urllib.parse.urlsplit(address).hostname or ""):
        handlers.append(urllib.request.ProxyHandler({}))
    return urllib.request.build_opener(*handlers)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _time_left(deadline: float) -> float:
    """Seconds until ``deadline`` (a `time.monotonic` value); none left is a timeout."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the request's deadline has passed")
    return left


class _DeadlineReader(io.RawIOBase):
    """A socket's bytes, each read allowed only the time left before the deadline: a socket
    timeout alone starts again with every byte, so a server that trickles bytes would hold
    the client for as long as it likes."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        super().__init__()
        self._sock = sock
        self._file = sock.makefile("rb", buffering=0)  # holds the socket open while it is read
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int | None:
        self._sock.settimeout(_time_left(self._deadline))
        return self._file.readinto(buffer)

    def close(self) -> None:
        self._file.close()
        super().close()


def _response_class(deadline: float) -> type[http.client.HTTPResponse]:
    """`HTTPResponse` reading status line, headers and body through :class:`_DeadlineReader`
    (http.client builds it for a proxy's CONNECT answer and for the server's answer)."""

    class Response(http.client.HTTPResponse):
        def __init__(self, sock: socket.socket, *args: Any, **kwargs: Any) -> None:
            super().__init__(sock, *args, **kwargs)
            self.fp.close()  # the unbounded file HTTPResponse opened on the socket
            self.fp = io.BufferedReader(_DeadlineReader(sock, deadline))

    return Response


class _Connection(http.client.HTTPConnection):
    """An HTTP connection whose connect, TLS handshake, sends and reads all end by one
    deadline."""

    def __init__(self, host: str, *, deadline: float, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        self.deadline = deadline
        self._create_connection = self._connect
        self.response_class = _response_class(deadline)

    def _connect(
        self, address: tuple[str, int], timeout: object = None, source_address: Any = None
    ) -> socket.socket:
        """A socket connected within the time left (``timeout``, urllib's, is not used), left
        with the time then left: the TLS handshake that follows is bounded by it as a whole
        (the ssl module times a handshake so). Name resolution is not bounded."""
        sock = socket.create_connection(address, _time_left(self.deadline), source_address)
        try:
            sock.settimeout(_time_left(self.deadline))
        except TimeoutError:
            sock.close()
            raise
        return sock

    def send(self, data: Any) -> None:
        if self.sock is not None:
            self.sock.settimeout(_time_left(self.deadline))
        super().send(data)


class _TLSConnection(_Connection, http.client.HTTPSConnection):
    """:class:`_Connection` over TLS."""


class _Handler(urllib.request.HTTPHandler, urllib.request.HTTPSHandler):
    """Opens http:// and https:// URLs on connections that end by ``deadline`` (in place
    of urllib's handlers, whose timeout applies to each socket operation alone)."""

    def __init__(self, deadline: float, context: ssl.SSLContext | None) -> None:
        super().__init__(context=context)
        self.deadline = deadline
        self.tls = context

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(self._plain, req)

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(self._secure, req, context=self.tls)

    def _plain(self, host: str, **kwargs: Any) -> http.client.HTTPConnection:
        return _Connection(host, deadline=self.deadline, **kwargs)

    def _secure(self, host: str, **kwargs: Any) -> http.client.HTTPConnection:
        return _TLSConnection(host, deadline=self.deadline, **kwargs)


class _SameOrigin(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to the origin (scheme, host and port) it came from, the token
    with it; any other is an error. Nomad's API does not redirect, so a redirect elsewhere
    is a proxy's or an attacker's. Refusing is safer than following without the token: the
    request itself would then go to a host nobody named (from a CI runner, perhaps a
    service inside its network), and the plan would be made from whatever answers there.
    An https:// address redirected to http:// is another origin too: the token never
    travels in clear text."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: Any,
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        if same_origin(req.full_url, newurl):
            return super().redirect_request(req, fp, code, msg, headers, newurl)
        fp.close()
        here = _origin(req.full_url)
        origin = f"{here[0]}://{here[1]}:{here[2]}" if here else req.full_url
        raise LiveError(
            f"{req.full_url}: redirected ({code}) to {_one_line(newurl)}, outside {origin}; hclgpu "
            "follows no redirect elsewhere and sends NOMAD_TOKEN nowhere else: set NOMAD_ADDR to "
            "the address that answers"
        )


def same_origin(first: str, second: str) -> bool:
    """Whether two absolute URLs share scheme, host and port (default ports filled in, host
    names compared without case); an unparsable one shares nothing."""
    origin = _origin(first)
    return origin is not None and origin == _origin(second)


def _origin(url: str) -> tuple[str, str, int] | None:
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    default = {"http": 80, "https": 443}.get(scheme)
    if default is None or not parts.hostname:
        return None
    return scheme, parts.hostname, default if port is None else port


def _read(response: Any, url: str) -> bytes:
    """The body, at most :data:`MAX_BODY` bytes (the deadline is kept by the socket)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = response.read(65536)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_BODY:
            raise LiveError(f"{url}: the answer is larger than {MAX_BODY // 2**20} MiB")
        chunks.append(chunk)


def _http_error(error: urllib.error.HTTPError, url: str) -> str:
    try:
        detail = error.read(2000).decode("utf-8", "replace").strip().splitlines()[0]
    except (OSError, IndexError):
        detail = ""
    detail = _one_line(detail or str(error.reason))
    if error.code == 403:
        return (
            f"{url}: Nomad refused the request (403 {detail}); set NOMAD_TOKEN to a token that may read nodes"
        )
    return f"{url}: Nomad answered {error.code} ({detail})"


def _reason(reason: object) -> str:
    if isinstance(reason, TimeoutError):
        return "timed out"
    if isinstance(reason, ssl.SSLError):
        return _one_line(str(reason))
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror.lower()
    return _one_line(str(reason))


def _one_line(text: str, limit: int = 200) -> str:
    """``text`` as one printable line of at most ``limit`` characters: what a server sends
    must not break the one-line error or put terminal escapes into a CI log."""
    flat = " ".join(_printable(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _printable(text: str) -> str:
    """``text`` with every character that is not printable (a line break, an escape) a space."""
    return "".join(c if c.isprintable() else " " for c in text)


TLS_FILES = ("NOMAD_CACERT", "NOMAD_CLIENT_CERT", "NOMAD_CLIENT_KEY")
"""The TLS variables that name a file; `NOMAD_CAPATH` names a directory."""

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISREG, "a file"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _tls_context(env: Mapping[str, str]) -> ssl.SSLContext:
    """`api.TLSConfig` from the environment: CA file or directory, client certificate and key
    (both or neither, as `api.ConfigureTLS` demands), skip-verify; a path that is not the
    kind it must be, or a file that cannot be loaded, is a :class:`LiveError` naming it."""
    paths = {name: _tls_path(env, name, directory=False) for name in TLS_FILES}
    capath = _tls_path(env, "NOMAD_CAPATH", directory=True)
    cert, key = paths["NOMAD_CLIENT_CERT"], paths["NOMAD_CLIENT_KEY"]
    if bool(cert) != bool(key):
        given, missing = (
            ("NOMAD_CLIENT_CERT", "NOMAD_CLIENT_KEY") if cert else ("NOMAD_CLIENT_KEY", "NOMAD_CLIENT_CERT")
        )
        raise LiveError(f"{given} is set but {missing} is not: a client certificate needs both")
    cafile = paths["NOMAD_CACERT"]
    try:
        context = ssl.create_default_context(cafile=cafile, capath=capath)
    except (OSError, ssl.SSLError) as error:
        where = f"NOMAD_CACERT={cafile}" if cafile else f"NOMAD_CAPATH={capath}"
        raise LiveError(f"{_one_line(where)}: no CA certificate could be loaded ({_reason(error)})") from None
    if cert and key:
        try:
            context.load_cert_chain(cert, key)
        except (OSError, ssl.SSLError) as error:
            where = f"NOMAD_CLIENT_CERT={cert}, NOMAD_CLIENT_KEY={key}"
            raise LiveError(
                f"{_one_line(where)}: the client certificate cannot be loaded ({_reason(error)})"
            ) from None
    if env.get("NOMAD_SKIP_VERIFY", "").lower() in ("1", "t", "true"):
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


def _tls_path(env: Mapping[str, str], name: str, *, directory: bool) -> str | None:
    """The path in variable ``name``, when set, if it is a regular file (a directory when
    ``directory``). Looked at with `stat` before anything opens it: opening a FIFO for
    reading waits for a writer forever, a device may never end, and OpenSSL's own errors
    ("Is a directory") say neither the variable nor the path."""
    path = env.get(name) or ""
    if not path:
        return None
    shown = _one_line(f"{name}={path}", 1000)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise LiveError(f"{shown}: does not exist") from None
    except OSError as error:
        raise LiveError(f"{shown}: cannot be read ({_reason(error)})") from None
    wanted = "a directory" if directory else "a file"
    kind = next((kind for test, kind in _KINDS if test(mode)), "something else")
    if kind != wanted:
        raise LiveError(f"{shown}: is {kind}, not {wanted}")
    return path
