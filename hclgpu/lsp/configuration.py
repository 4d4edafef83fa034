"""The editor's settings and the configuration files, as the language server follows them.

The settings every document gets are ``hclgpu lsp``'s flags, then the client's
``initializationOptions``, then its `hclgpu` workspace settings: asked for once the session
starts (``workspace/configuration``, where the client can answer), and again whenever the
client says they changed (``workspace/didChangeConfiguration``; a client that pushes them,
as Neovim's ``settings`` and Helix's ``config`` do, is read as it pushes). A configuration
file changing on disk (``hclgpu.toml``, ``.hclgpu.toml``, ``pyproject.toml``, watched where
the client can watch files) has every open document analysed again, as a change of the
settings does; so does a variable file changing (one named ``*.vars.hcl`` or ``*.vars.json``,
or one the settings give as `varFiles`/``--var-file``). The client is asked to watch them
where it can register watchers (``workspace.didChangeWatchedFiles.dynamicRegistration``), and
asked again when the settings name other variable files; a change it reports unasked is
handled all the same. A key or value that cannot be used is shown to the user and left out.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from hclgpu.lsp.documents import State, analyse_again
from hclgpu.lsp.documents import given as documents_given

PULL_TIMEOUT = 2.0
"""Seconds to wait for the client's answer to `workspace/configuration`."""
_CONFIGURATION = (".hclgpu.toml", "hclgpu.toml", "pyproject.toml")
_VARIABLES = (".vars.hcl", ".vars.json")
WATCHED = "**/{" + ",".join(_CONFIGURATION + tuple(f"*{suffix}" for suffix in _VARIABLES)) + "}"
"""The files whose changes the server asks the client to report: the configuration files, and
variable files named as Nomad's examples name them (those the settings give are added)."""
WATCHER_ID = "hclgpu-watched-files"


def register(server: LanguageServer, state: State) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: LanguageServer, params: types.InitializeParams) -> None:
        state.root = to_fs_path(params.root_uri) if params.root_uri else None
        options = params.initialization_options
        state.initialization = _read(ls, state, options, "initializationOptions")

    @server.feature(types.INITIALIZED)
    async def initialized(ls: LanguageServer, params: types.InitializedParams) -> None:
        try:
            await _pull(ls, state)
        finally:
            state.configured.set()
        await _watch_files(ls, state)  # after the pull: its `varFiles` are watched too

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(
        ls: LanguageServer, params: types.DidChangeConfigurationParams
    ) -> None:
        """``{"hclgpu": {...}}`` (an empty object clears them), or the settings themselves;
        anything else (null, another tool's section) means "ask again", where the client can
        be asked."""
        state.pushes += 1
        found = _section(params.settings)
        if found is not None:
            _apply(ls, state, found)
        elif _can_pull(ls):
            state.configured.clear()  # no analysis with the settings about to change
            try:
                await _pull(ls, state)
            finally:
                state.configured.set()
        if state.watching is not None:  # watched already: the settings may name other var files
            await _watch_files(ls, state)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: LanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        paths = {to_fs_path(change.uri) or change.uri for change in params.changes}
        if any(_watched(path, state) for path in paths):
            analyse_again(ls, state)


def _section(settings: Any) -> dict[str, Any] | None:
    """The `hclgpu` settings a push carries, or None when it carries none of them."""
    from hclgpu.settings import Settings

    if not isinstance(settings, dict):
        return None
    section = settings.get("hclgpu")
    if isinstance(section, dict):
        return section
    keys = {o.lsp_key for o in Settings.options() if o.lsp_key}
    return settings if settings and set(settings) <= keys else None


def _can_pull(ls: LanguageServer) -> bool:
    workspace = ls.client_capabilities.workspace
    return workspace is not None and bool(workspace.configuration)


async def _pull(ls: LanguageServer, state: State) -> None:
    """Ask the client for the `hclgpu` section; an answer overtaken by a push is dropped."""
    if not _can_pull(ls):
        return
    pushes = state.pushes
    request = types.ConfigurationParams(items=[types.ConfigurationItem(section="hclgpu")])
    try:
        answer = await asyncio.wait_for(ls.workspace_configuration_async(request), PULL_TIMEOUT)
    except Exception:  # a client that cannot answer: its other settings still apply
        return
    if state.pushes == pushes:
        _apply(ls, state, answer[0] if answer and isinstance(answer[0], dict) else {})


def _can_watch(ls: LanguageServer) -> bool:
    workspace = ls.client_capabilities.workspace
    watching = workspace.did_change_watched_files if workspace is not None else None
    return watching is not None and bool(watching.dynamic_registration)


def _glob(state: State) -> str:
    """What the client is asked to watch: :data:`WATCHED`, with each variable file the
    settings give by its name, anywhere (a glob cannot name a path outside the workspace; a
    file of the same name elsewhere is told apart by :func:`_watched`). A name a glob would
    read as a pattern is left out: its change shows at the next edit."""
    names = {os.path.basename(path) for path in _var_files(state)}
    plain = sorted(
        name for name in names if not set(name) & set("{}[]*?,\\!") and not name.endswith(_VARIABLES)
    )
    return WATCHED if not plain else WATCHED[:-1] + "".join(f",{name}" for name in plain) + "}"


async def _watch_files(ls: LanguageServer, state: State) -> None:
    """Ask the client to report changes of the configuration and variable files, where it can
    register watchers; when the settings name other variable files, the watchers asked for
    before are replaced."""
    glob = _glob(state)
    if not _can_watch(ls) or glob == state.watching:
        return
    before, state.watching = state.watching, glob
    method = types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    try:
        if before is not None:
            gone = types.UnregistrationParams(unregisterations=[types.Unregistration(WATCHER_ID, method)])
            await asyncio.wait_for(ls.client_unregister_capability_async(gone), PULL_TIMEOUT)
        watchers = [types.FileSystemWatcher(glob_pattern=glob)]
        options = types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers)
        registration = types.Registration(id=WATCHER_ID, method=method, register_options=options)
        await asyncio.wait_for(
            ls.client_register_capability_async(types.RegistrationParams(registrations=[registration])),
            PULL_TIMEOUT,
        )
    except Exception:  # the client cannot watch: a change on disk shows at the next edit
        return


def _read(ls: LanguageServer, state: State, options: Any, where: str) -> dict[str, object]:
    """Settings by their camelCase names (``{"nomadVersion": "2.0.5", "varFiles": [...]}``),
    relative paths from the workspace root; what cannot be used is shown and left out."""
    from hclgpu.settings.resolve import from_editor

    values, problems = from_editor(options, state.root or os.getcwd())
    for problem in problems:
        ls.window_show_message(
            types.ShowMessageParams(type=types.MessageType.Warning, message=f"hclgpu: {where}: {problem}")
        )
    return values


def _apply(ls: LanguageServer, state: State, options: dict[str, Any]) -> None:
    state.workspace = _read(ls, state, options, "settings")
    analyse_again(ls, state)


def _watched(path: str, state: State) -> bool:
    """Whether a change to ``path`` changes what a document's analysis finds: a configuration
    file, or a variable file (by its name, or one the settings give)."""
    name = os.path.basename(path)
    if name in _CONFIGURATION or name.endswith(_VARIABLES):
        return True
    return os.path.abspath(path) in _var_files(state)


def _var_files(state: State) -> set[str]:
    """The variable files the settings give, as absolute paths. The editor's come relative to
    the server's working directory (see :func:`hclgpu.settings.resolve.from_editor`), as the
    command line's do, and are read from there: so are they resolved here."""
    given = documents_given(state).get("var_file") or ()
    files = [given] if isinstance(given, str) else list(given) if isinstance(given, (list, tuple)) else []
    return {os.path.abspath(str(f)) for f in files}
