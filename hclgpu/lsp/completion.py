"""Completion from the text around the cursor, which is usually not a valid file while one
types: the blocks around the cursor are found by scanning braces (strings and comments
skipped), then the line decides what is wanted: a block or argument name valid there, an
operator, a driver, a device name, an interpolation target, a variable or local name.

What is offered (:mod:`hclgpu.lsp.candidates`) comes from the tables the checker judges with,
so completion never offers what a diagnostic then flags. Every item carries an edit over the
typed prefix, and the text after the cursor that already belongs to it (the rest of a word, a
`}`, the closing quote) is neither repeated nor left behind, whether the client inserts or
replaces.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lsprotocol import types

from hclgpu.ir.schema import schema_of
from hclgpu.lsp.analysis import Analysis
from hclgpu.lsp.candidates import (
    DEVICES,
    DRIVERS,
    TOP_LEVEL,
    Candidate,
    Kind,
    argument,
    block,
    device_doc,
    operators,
    targets,
)
from hclgpu.lsp.positions import LineIndex
from hclgpu.lsp.syntax import model_for

_SKIP = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|//[^\n]*|/\*[\s\S]*?\*/')
_HEADER = re.compile(r'([A-Za-z_][\w-]*)((?:\s+(?:"[^"\n]*"|[A-Za-z_][\w-]*))*)\s*$')
_TOKEN = re.compile(
    r'(?P<skip>"(?:[^"\\\n]|\\.)*"?|#[^\n]*|//[^\n]*|/\*[\s\S]*?\*/)|(?P<open>\{)|(?P<close>\})'
    r'|^[ \t]*(?P<name>[A-Za-z_][\w-]*)(?:[ \t]*(?P<assign>=)(?!=)|[ \t]+"(?P<label>[^"\n]*)")?',
    re.MULTILINE,
)
_REFERENCE = re.compile(r"(?<![\w.])(var|local)\.([\w-]*)$")

Blocks = list[tuple[str, list[str]]]


@dataclass(frozen=True, slots=True)
class Client:
    """What the client declared it handles, so items use only what it can apply."""

    insert_replace: bool = False
    snippets: bool = False
    markdown: bool = False
    as_is: bool = False
    """It takes `insertTextMode: asIs`, so a snippet keeps the indentation written into it."""
    adjusts: bool = False
    """It re-indents multi-line insertions itself (and cannot be told not to)."""

    @classmethod
    def of(cls, capabilities: types.ClientCapabilities | None) -> Client:
        """From the `initialize` request's capabilities (none: the plainest client)."""
        document = capabilities.text_document if capabilities else None
        completion = document.completion if document else None
        item = completion.completion_item if completion else None
        if item is None:
            return cls()
        modes = item.insert_text_mode_support.value_set if item.insert_text_mode_support else []
        default = completion.insert_text_mode if completion else None
        return cls(
            insert_replace=bool(item.insert_replace_support),
            snippets=bool(item.snippet_support),
            markdown=types.MarkupKind.Markdown in (item.documentation_format or []),
            as_is=types.InsertTextMode.AsIs in modes,
            adjusts=default == types.InsertTextMode.AdjustIndentation,
        )


@dataclass(frozen=True, slots=True)
class Place:
    """Where items go: the prefix typed so far is ``start``..cursor, the rest of the same
    word or target after the cursor ends at ``end``. ``present`` is a closing text already
    written right after ``end`` (an interpolation's `}`), which items do not write again;
    ``quote`` is where the closing quote of an unterminated string goes (None: none missing);
    ``indent`` is the line's, which the lines of a multi-line snippet keep."""

    start: int
    cursor: int
    end: int
    present: str = ""
    quote: int | None = None
    indent: str = ""


@dataclass(slots=True)
class Request:
    """The text around the cursor and what the client handles."""

    text: str
    offset: int
    index: LineIndex
    client: Client
    analysis: Callable[[], Analysis | None]
    line_start: int = field(init=False)
    before: str = field(init=False)
    """The line up to the cursor."""
    after: str = field(init=False)
    """The line from the cursor on."""
    blocks: Blocks = field(init=False)

    def __post_init__(self) -> None:
        self.line_start = self.text.rfind("\n", 0, self.offset) + 1
        end = self.text.find("\n", self.offset)
        self.before = self.text[self.line_start : self.offset]
        self.after = self.text[self.offset : len(self.text) if end < 0 else end]
        self.blocks = enclosing_blocks(self.text[: self.offset])

    @property
    def kinds(self) -> list[str]:
        """The enclosing block types as the schema names them."""
        return _kinds(self.blocks)

    def place(self, start: int, tail: str = r"[\w-]*") -> Place:
        """The place of a word that starts at ``start`` and goes on after the cursor while
        ``tail`` matches."""
        rest = re.match(tail, self.after)
        return Place(start, self.offset, self.offset + (rest.end() if rest else 0))


def complete(
    text: str,
    position: types.Position,
    client: Client | None = None,
    analysis: Callable[[], Analysis | None] = lambda: None,
) -> list[types.CompletionItem]:
    """The items valid at ``position``; ``analysis`` gives the document's analysis (asked
    for only when variable or local names are wanted)."""
    index = LineIndex(text)
    request = Request(text, index.offset(position), index, client or Client(), analysis)
    for wanted in (_in_string, _references, _names):
        found = wanted(request)
        if found is not None:
            candidates, place = found
            return [_item(request, c, place, i) for i, c in enumerate(candidates)]
    return []


Found = tuple[Sequence[Candidate], Place] | None


def enclosing_blocks(text: str) -> Blocks:
    """(type, labels) of each block open at the end of ``text``, outermost first."""
    stack: Blocks = []
    last = 0
    position = 0
    pieces: list[str] = []
    while position < len(text):
        char = text[position]
        if char in '"#/':
            skipped = _SKIP.match(text, position)
            if skipped is not None and skipped.end() > position:
                pieces.append(text[last : skipped.end()])
                last = position = skipped.end()
                continue
        if char == "{":
            head = "".join(pieces) + text[last:position]
            line = head.rsplit("\n", 1)[-1]
            match = _HEADER.search(line)
            labels = re.findall(r'"([^"\n]*)"|([A-Za-z_][\w-]*)', match.group(2)) if match else []
            stack.append((match.group(1) if match else "", [a or b for a, b in labels]))
            pieces, last = [], position + 1
        elif char == "}" and stack:
            stack.pop()
            pieces, last = [], position + 1
        position += 1
    return stack


def _kinds(blocks: Blocks) -> list[str]:
    """Block types as the schema sees them: `dynamic "x"` is an `x`, its `content` too."""
    kinds: list[str] = []
    for block_type, labels in blocks:
        if block_type == "dynamic" and labels:
            kinds.append(labels[0])
        elif block_type != "content":
            kinds.append(block_type)
    return kinds


# --------------------------------------------------------------------------- items


def _item(request: Request, candidate: Candidate, place: Place, order: int) -> types.CompletionItem:
    """The LSP item: an edit over the prefix (insert) and over the whole word (replace)."""
    client = request.client
    text, extra = _closed(candidate.written, place, request.index)
    snippet = candidate.snippet if client.snippets else None
    if snippet is not None and not client.adjusts:
        snippet = snippet.replace("\n", "\n" + place.indent)
    new_text = snippet or text
    insert = _range(request.index, place.start, place.cursor)
    edit: types.TextEdit | types.InsertReplaceEdit = (
        types.InsertReplaceEdit(new_text, insert, _range(request.index, place.start, place.end))
        if client.insert_replace
        else types.TextEdit(insert, new_text)
    )
    multi_line = snippet is not None and "\n" in snippet
    return types.CompletionItem(
        label=candidate.label,
        kind=candidate.kind,
        detail=candidate.detail,
        documentation=_documentation(candidate.documentation, client),
        filter_text=candidate.filter or candidate.written,
        sort_text=f"{order:04d}",
        text_edit=edit,
        insert_text_format=types.InsertTextFormat.Snippet if snippet else types.InsertTextFormat.PlainText,
        insert_text_mode=types.InsertTextMode.AsIs if multi_line and client.as_is else None,
        additional_text_edits=extra,
    )


def _closed(text: str, place: Place, index: LineIndex) -> tuple[str, list[types.TextEdit] | None]:
    """``text`` less what is already written after the word, and the closing quote an
    unterminated string needs: in the text itself, or after the `}` that is already there."""
    if place.present and text.endswith(place.present):
        text = text[: -len(place.present)]
    if place.quote is None:
        return text, None
    if place.quote == place.end:
        return text + '"', None
    return text, [types.TextEdit(_range(index, place.quote, place.quote), '"')]


def _range(index: LineIndex, start: int, end: int) -> types.Range:
    """Offsets as an LSP range (UTF-16 columns)."""
    return types.Range(start=index.position(start), end=index.position(end))


def _documentation(text: str | None, client: Client) -> str | types.MarkupContent | None:
    """Markdown where the client shows it, else the same words as plain text."""
    if text is None:
        return None
    if client.markdown:
        return types.MarkupContent(kind=types.MarkupKind.Markdown, value=text)
    return text.replace("`", "").replace("**", "")


# --------------------------------------------------------------------------- strings


COMMENT = -1
"""What :func:`_string_at` says of a cursor in a comment."""


def _string_at(before: str) -> tuple[int, int | None] | int | None:
    """Where the string open at the end of ``before`` (one line) starts its content, and where
    its open `${` starts (None: the cursor is in the literal part); None outside strings,
    :data:`COMMENT` in a comment."""
    start: int | None = None
    interpolation: int | None = None
    position = 0
    while position < len(before):
        char = before[position]
        if start is None:
            if char == "#" or before.startswith("//", position):
                return COMMENT
            if char == '"':
                start = position + 1
        elif interpolation is not None:
            interpolation = None if char == "}" else interpolation
        elif char == "\\" or before.startswith("$${", position):
            position += 1 if char == "\\" else 2
        elif char == '"':
            start = None
        elif before.startswith("${", position):
            interpolation = position
            position += 1
        position += 1
    return None if start is None else (start, interpolation)


def _closing_quote(after: str) -> int | None:
    """Where the string the cursor is in closes on this line (None: it does not)."""
    position = 0
    while position < len(after):
        if after[position] == "\\":
            position += 2
            continue
        if after[position] == '"':
            return position
        position += 1
    return None


def _in_string(request: Request) -> Found:
    """Inside a quoted value: what that argument takes; inside `${`, a target or a name."""
    found = _string_at(request.before)
    if found == COMMENT:
        return [], request.place(request.offset)
    if not isinstance(found, tuple):
        return None
    start, interpolation = found
    if interpolation is not None:
        return _in_interpolation(request, interpolation)
    head = request.before[: start - 1]
    return _literal_candidates(request, head), _literal_place(request, request.line_start + start)


def _literal_candidates(request: Request, head: str) -> list[Candidate]:
    """What the argument the string is the value of takes."""
    argument = re.search(r"(?:^|[\s{;,])([A-Za-z_][\w-]*)\s*=\s*$", head)
    name = argument.group(1) if argument else None
    if name == "operator":
        return operators(request.kinds)
    if name == "driver":
        return [Candidate(d, Kind.EnumMember, "task driver") for d in DRIVERS]
    if name in ("attribute", "value"):
        return targets(_device_name(request.blocks))
    if re.search(r"(?:^|[\s{])device\s*$", head):
        return [Candidate(d, Kind.EnumMember, "device name", documentation=device_doc(d)) for d in DEVICES]
    return []


def _literal_place(request: Request, start: int) -> Place:
    """A whole string value is the word: it goes on to the closing quote, or, where there
    is none yet, the item writes it."""
    closing = _closing_quote(request.after)
    if closing is None:
        return Place(start, request.offset, request.offset, quote=request.offset)
    return Place(start, request.offset, request.offset + closing)


def _in_interpolation(request: Request, interpolation: int) -> Found:
    """After `${`: a variable or local name after `var.`/`local.`, else a target."""
    inner = request.before[interpolation + 2 :]
    if _REFERENCE.search(inner):
        return _references(request)
    if not re.fullmatch(r"[\w.-]*", inner):
        return [], request.place(request.offset)
    place = request.place(request.line_start + interpolation, r"[\w.-]*")
    rest = request.after[place.end - request.offset :]
    present = "}" if rest.startswith("}") else ""
    closed = _closing_quote(rest) is not None
    quote = None if closed else place.end + len(present)
    return targets(_device_name(request.blocks)), Place(place.start, place.cursor, place.end, present, quote)


def _device_name(blocks: Blocks) -> str | None:
    """The name of the device block around the cursor (None: not in one)."""
    for block_type, labels in reversed(blocks):
        if block_type == "device":
            return labels[0] if labels else ""
    return None


# --------------------------------------------------------------------------- var. and local.


def _references(request: Request) -> Found:
    """After `var.` or `local.`: the names of the variables or locals (never the keys of a
    value)."""
    match = _REFERENCE.search(request.before)
    if match is None:
        return None
    kind = match.group(1)
    place = request.place(request.offset - len(match.group(2)))
    names = _declared(request, kind, place.start - len(kind) - 1, place.end)
    return [Candidate(n, Kind.Variable, kind) for n in names], place


def _declared(request: Request, kind: str, start: int, end: int) -> list[str]:
    """The names of ``kind`` (`var` or `local`): from the evaluated scope where the file
    evaluates; else declared in the file with the reference being typed left out; else, in
    text that does not parse, written directly in the blocks that declare them."""
    from hclgpu.diagnostics import Sink
    from hclgpu.lsp.syntax import declarations
    from hclgpu.source import SourceFile
    from hclgpu.syntax.parser import parse

    analysis = request.analysis()
    scope = analysis.result.scope if analysis is not None else None
    values = scope.get(kind) if scope else None
    if isinstance(values, dict):
        return sorted(values)
    repaired = request.text[:start] + "null" + request.text[end:]
    tree = parse(SourceFile("completion.nomad.hcl", repaired), Sink())
    if tree is not None:
        return sorted(name for (declared, name) in declarations(tree) if declared == kind)
    return sorted(set(_written_names(request.text, kind)))


def _written_names(text: str, kind: str) -> list[str]:
    """`variable "x"` labels (``kind`` `var`), and the arguments directly in top-level
    `variables` or `locals` blocks: a map's keys are one brace deeper."""
    wanted = "variables" if kind == "var" else "locals"
    names: list[str] = []
    stack: list[str] = []
    header = ""
    for token in _TOKEN.finditer(text):
        if token["open"]:
            stack.append(header)
        elif token["close"]:
            stack = stack[:-1]
        elif token["name"]:
            if token["assign"] and stack == [wanted]:
                names.append(token["name"])
            elif not stack and kind == "var" and token["name"] == "variable" and token["label"]:
                names.append(token["label"])
            header = token["name"]
    return names


# --------------------------------------------------------------------------- names


def _names(request: Request) -> Found:
    """At the start of a line: the arguments and blocks the enclosing block takes (top level:
    job, variable, variables, locals)."""
    word = re.fullmatch(r"(\s*)([\w-]*)", request.before)
    if word is None:
        return None
    place = request.place(request.offset - len(word.group(2)))
    rest = request.after[place.end - request.offset :]
    place = Place(place.start, place.cursor, place.end, indent=word.group(1))
    bare = bool(rest.strip())
    blocks = request.blocks
    if not blocks:
        return [block(name, None, labels, bare) for name, labels in TOP_LEVEL.items()], place
    model = model_for(request.kinds)
    if model is None:
        return [], place
    schema = schema_of(model)
    assigned = bool(re.match(r"\s*=", rest))
    found = [argument(model, name, assigned) for name in schema.attributes]
    for name, spec in schema.blocks.items():
        labels = len(schema_of(spec.model).labels) if spec.model is not None else 0
        found.append(block(name, spec.model, labels, bare))
    return [*found, block("dynamic", None, 1, bare)], place
