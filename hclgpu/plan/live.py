"""Nodes and allocations read from a running Nomad cluster (`--nodes nomad`, `--allocs nomad`).

The client is configured from the environment the Nomad CLI reads (command/meta.go,
api.DefaultConfig): `NOMAD_ADDR` (default `http://127.0.0.1:4646`), `NOMAD_TOKEN` (sent as
`X-Nomad-Token`), `NOMAD_REGION`, `NOMAD_NAMESPACE` (the planned job's namespace when the
file sets none), `NOMAD_CACERT`, `NOMAD_CAPATH`, `NOMAD_CLIENT_CERT`, `NOMAD_CLIENT_KEY`,
and `NOMAD_SKIP_VERIFY` (`NOMAD_TLS_SERVER_NAME` is not read).

Reads: `/v1/nodes?resources=true` (paged with `next_token`), then `/v1/node/<id>` for each
ready node (attributes, meta and device attributes are only in the detail), a few at a
time; `/v1/allocations?resources=true&namespace=*` (every namespace's allocations hold
resources). Each request has a timeout, each answer a deadline, and paging stops when a
token comes back; loopback addresses are never sent through a proxy. Every failure is a
:class:`LiveError` with one line for people, which the CLI prints with exit status 2.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import math
import os
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from hclgpu.plan.inventory import nomad_schedulable

__all__ = ["Client", "LiveError", "fetch_allocations", "fetch_nodes"]

DEFAULT_ADDRESS = "http://127.0.0.1:4646"
MAX_BODY = 256 * 2**20
"""The largest response read: a cluster of 50,000 nodes lists well under this."""
PAGE = 1000
WORKERS = 8


class LiveError(Exception):
    """The cluster could not be read; the message says why and what to do."""


@dataclass(frozen=True)
class Client:
    """One Nomad HTTP API endpoint, with the CLI's environment applied."""

    address: str
    token: str = ""
    region: str = ""
    namespace: str = ""
    context: ssl.SSLContext | None = None
    timeout: float = 10.0

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
        """The decoded JSON of ``GET path`` and the `X-Nomad-NextToken` header."""
        params = dict(query or {})
        if self.region:
            params.setdefault("region", self.region)
        url = f"{self.address}{path}" + (f"?{urllib.parse.urlencode(params)}" if params else "")
        request = urllib.request.Request(url, headers={"Accept": "application/json"})
        if self.token:
            if not self.token.isprintable() or not self.token.isascii():
                raise LiveError("NOMAD_TOKEN holds characters no HTTP header can carry")
            request.add_header("X-Nomad-Token", self.token)
        try:
            with _opener(self.address, self.context).open(request, timeout=self.timeout) as response:
                body = _read(response, self.timeout, url)
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
            raise LiveError(f"{self.address} did not answer as Nomad's HTTP API does ({error!r})") from None
        try:
            return json.loads(body), next_token
        except (ValueError, RecursionError):
            raise LiveError(f"{url}: the answer is not JSON") from None

    def pages(self, path: str, query: dict[str, str]) -> list[Any]:
        """Every item of a paged list endpoint."""
        items: list[Any] = []
        token = ""
        seen: set[str] = set()
        while True:
            page_query = {**query, "per_page": str(PAGE)}
            if token:
                page_query["next_token"] = token
            data, token = self.get(path, page_query)
            if not isinstance(data, list):
                raise LiveError(f"{self.address}{path}: expected a JSON list")
            items.extend(data)
            if not token:
                return items
            if token in seen:
                raise LiveError(f"{self.address}{path}: the pages do not end (next token {token!r} again)")
            seen.add(token)


def fetch_nodes(client: Client) -> list[dict[str, Any]]:
    """Full node objects of every ready, eligible node (the converter leaves out the rest)."""
    stubs = client.pages("/v1/nodes", {"resources": "true"})
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
    return client.pages("/v1/allocations", {"resources": "true", "namespace": "*"})


def _opener(address: str, context: ssl.SSLContext | None) -> urllib.request.OpenerDirector:
    """An opener that, like Go's `http.ProxyFromEnvironment`, never sends a loopback address
    (where the token would travel to the proxy) through `http_proxy`/`https_proxy`."""
    handlers: list[urllib.request.BaseHandler] = [urllib.request.HTTPSHandler(context=context)]
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


def _read(response: Any, timeout: float, url: str) -> bytes:
    """The body, within ``timeout`` seconds overall, at most :data:`MAX_BODY` bytes (a server
    that trickles bytes forever is stopped by the deadline, not only by the socket timeout)."""
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = response.read(65536)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_BODY:
            raise LiveError(f"{url}: the answer is larger than {MAX_BODY // 2**20} MiB")
        if time.monotonic() > deadline:
            raise TimeoutError
        chunks.append(chunk)


def _http_error(error: urllib.error.HTTPError, url: str) -> str:
    try:
        detail = error.read(2000).decode("utf-8", "replace").strip().splitlines()[0]
    except (OSError, IndexError):
        detail = ""
    detail = detail or str(error.reason)
    if error.code == 403:
        return (
            f"{url}: Nomad refused the request (403 {detail}); set NOMAD_TOKEN to a token that may read nodes"
        )
    return f"{url}: Nomad answered {error.code} ({detail})"


def _reason(reason: object) -> str:
    if isinstance(reason, TimeoutError):
        return "timed out"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror.lower()
    return str(reason)


def _tls_context(env: Mapping[str, str]) -> ssl.SSLContext:
    """`api.TLSConfig` from the environment: CA file or directory, client certificate and key,
    skip-verify; a file that cannot be loaded is a :class:`LiveError`."""
    try:
        context = ssl.create_default_context(
            cafile=env.get("NOMAD_CACERT") or None, capath=env.get("NOMAD_CAPATH") or None
        )
        if env.get("NOMAD_CLIENT_CERT"):
            context.load_cert_chain(env["NOMAD_CLIENT_CERT"], env.get("NOMAD_CLIENT_KEY") or None)
    except (OSError, ssl.SSLError) as error:
        raise LiveError(f"TLS configuration (NOMAD_CACERT, NOMAD_CLIENT_CERT...): {error}") from None
    if env.get("NOMAD_SKIP_VERIFY", "").lower() in ("1", "t", "true"):
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context
