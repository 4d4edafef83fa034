"""JSON-RPC as the LSP specification requires it of a server, over pygls' protocol.

pygls answers nothing when a message cannot be read: a body that is not JSON, JSON that is
not a request, or parameters its types refuse (``params: null``, a negative line) are logged
and dropped, so the client waits for an answer forever. Here each of them is answered as
JSON-RPC 2.0 says (Parse error, Invalid Request, Invalid params, with ``"id": null`` where
the id cannot be known), and a request before ``initialize`` or after ``shutdown`` is refused
as LSP says, where pygls would fail or drop it.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from cattrs import transform_error
from cattrs.errors import BaseValidationError
from cattrs.v import format_exception
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCMessage, RPCRequest

logger = logging.getLogger(__name__)

MsgId = int | str | None
_REASONS = 5
"""The most reasons an Invalid params message lists."""


class Protocol(LanguageServerProtocol):
    """pygls' LSP protocol, answering every request it receives."""

    @property
    def shut_down(self) -> bool:
        """Whether the client sent ``shutdown`` (``exit`` then ends with status 0, else 1)."""
        return self._shutdown

    def receive(self, body: bytes) -> None:
        """Handle one message body as the client framed it."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
            self.refuse(None, types.ErrorCodes.ParseError, f"the message is not JSON: {error}")
            return
        problem = _not_a_message(data)
        if problem is not None:
            self._invalid_request(data, problem)
            return
        try:
            message = self.structure_message(data)
        except Exception as error:  # pygls wraps cattrs' reasons in a JsonRpcException
            self._unusable(data, error)
            return
        self.handle_message(message)

    def handle_message(self, message: RPCMessage) -> None:
        """LSP's lifecycle: before ``initialize`` a request is refused (ServerNotInitialized)
        and a notification dropped; after ``shutdown`` a request is refused (InvalidRequest).
        ``exit`` is always taken, and responses are pygls' to match."""
        method = getattr(message, "method", None)
        refused = None if method in (None, types.EXIT) else self._out_of_turn(method)
        if refused is None:
            super().handle_message(message)
        elif isinstance(message, RPCRequest):
            self.refuse(message.id, *refused)
        else:
            logger.warning("dropped `%s`: %s", method, refused[1])

    def _out_of_turn(self, method: str) -> tuple[int, str] | None:
        """Why the session's state refuses ``method`` now (None: it does not)."""
        if self._shutdown:
            return types.ErrorCodes.InvalidRequest, f"`{method}` after `shutdown`: only `exit` is accepted"
        if self._workspace is None and method != types.INITIALIZE:
            return types.ErrorCodes.ServerNotInitialized, f"`{method}` before `initialize`"
        return None

    def refuse(self, msg_id: MsgId, code: int, message: str) -> None:
        """Answer ``msg_id`` with an error (written by hand: lsprotocol leaves out a null id,
        which JSON-RPC requires when the id could not be read)."""
        error = {"code": int(code), "message": message}
        self._send_data({"jsonrpc": self.VERSION, "id": msg_id, "error": error})

    def _invalid_request(self, data: object, problem: str) -> None:
        """Answer what may be a request, by its id where it has a usable one; a notification
        or a response is only logged, as JSON-RPC answers neither."""
        if isinstance(data, dict):
            response = "method" not in data and ("result" in data or "error" in data)
            if response or ("method" in data and "id" not in data):
                logger.warning("dropped a message: %s", problem)
                return
            msg_id = data["id"] if _is_id(data.get("id")) else None
        else:
            msg_id = None
        self.refuse(msg_id, types.ErrorCodes.InvalidRequest, problem)

    def _unusable(self, data: dict[str, Any], error: Exception) -> None:
        """Parameters (or a result) the method's types refuse: a request is answered with
        Invalid params; a response fails the request that waits for it."""
        reasons = _reasons(error)
        if "method" in data and "id" in data:
            message = f"invalid params for `{data['method']}`: {reasons}"
            self.refuse(data["id"], types.ErrorCodes.InvalidParams, message)
        elif "method" not in data and (waiting := self._request_futures.pop(data["id"], None)):
            waiting.set_exception(JsonRpcInvalidParams(f"the client's answer is not usable: {reasons}"))
        else:
            logger.warning("dropped `%s`: %s", data.get("method"), reasons)


def _not_a_message(data: object) -> str | None:
    """Why ``data`` is not a JSON-RPC 2.0 request, notification or response (None if it is)."""
    if not isinstance(data, dict):
        return "a message must be a JSON object (LSP has no batches)"
    if data.get("jsonrpc") != "2.0":
        return 'a message must have "jsonrpc": "2.0"'
    if "id" in data and not _is_id(data["id"]):
        return "an id must be a number or a string"
    if "method" in data:
        return None if isinstance(data["method"], str) else "a method must be a string"
    if "id" not in data or ("result" not in data and "error" not in data):
        return "a message needs a method (a request), or an id and a result or error (a response)"
    return None


def _is_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _reasons(error: Exception) -> str:
    """What the types refused, by the path of the JSON the client sent."""
    cause = error.__cause__ or error
    if not isinstance(cause, BaseValidationError):
        return str(cause) or type(cause).__name__
    reasons = [_camel_path(reason) for reason in transform_error(cause, format_exception=_described)]
    more = f" (and {len(reasons) - _REASONS} more)" if len(reasons) > _REASONS else ""
    return "; ".join(reasons[:_REASONS]) + more


def _described(error: BaseException, expected: type | None) -> str:
    """cattrs' words, and a validator's own (``Position.line should be in range...``)."""
    said = format_exception(error, expected)
    return f"{said}: {error}" if isinstance(error, ValueError) and said == "invalid value" else said


def _camel_path(reason: str) -> str:
    """``... @ $.params.text_document`` as the client spelt it: ``$.params.textDocument``."""
    said, at, path = reason.rpartition(" @ ")
    if not at:
        return reason
    return said + at + re.sub(r"_([a-z])", lambda letter: letter[1].upper(), path)
