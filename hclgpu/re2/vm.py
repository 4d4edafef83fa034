"""RE2's guarantee for `regexp` constraints: matching time linear in the text, whatever the
pattern (``(a+)+$`` on a long run of ``a`` is as fast as ``a``).

The RE2 parse tree (:mod:`hclgpu.re2.parser`) is compiled to a small program and run as a
Pike VM: every thread advances one character at a time and threads that reach the same
instruction merge, so there is no backtracking. Each character test is one single-character
pattern of Python's ``re`` (classes, case folding and Unicode tables are already translated
there), which costs constant time. Only "does it match anywhere" is asked, so greediness
does not matter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hclgpu.re2.translator import translate

if TYPE_CHECKING:
    from hclgpu.re2.parser import Node

_WORD = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


@dataclass(slots=True)
class _Instruction:
    op: str
    """``char`` (test ``test``), ``split`` (go to ``x`` and ``y``), ``jump`` (``x``),
    ``assert`` (``kind``), ``match``."""
    test: re.Pattern[str] | None = None
    x: int = 0
    y: int = 0
    kind: str = ""


class Program:
    """A compiled pattern: :meth:`search` answers Go's ``MatchString``."""

    def __init__(self, root: Node) -> None:
        self.code: list[_Instruction] = []
        self._emit(root)
        self.code.append(_Instruction("match"))

    # -- compiling --

    def _add(self, instruction: _Instruction) -> int:
        self.code.append(instruction)
        return len(self.code) - 1

    def _emit(self, node: Node) -> None:
        op = node.op
        if op in ("lit", "class", "any"):
            self._add(_Instruction("char", test=re.compile(translate(node))))
        elif op in ("bot", "eot", "bol", "eol", "wb", "nwb"):
            self._add(_Instruction("assert", kind=op))
        elif op in ("capture", "group"):
            self._emit(node.subs[0])
        elif op == "concat":
            for sub in node.subs:
                self._emit(sub)
        elif op == "alternate":
            self._alternate(node.subs)
        elif op == "repeat":
            self._repeat(node)
        # "empty" emits nothing

    def _alternate(self, subs: list[Node]) -> None:
        jumps = []
        for index, sub in enumerate(subs):
            if index == len(subs) - 1:
                self._emit(sub)
                break
            split = self._add(_Instruction("split"))
            self.code[split].x = len(self.code)
            self._emit(sub)
            jumps.append(self._add(_Instruction("jump")))
            self.code[split].y = len(self.code)
        for jump in jumps:
            self.code[jump].x = len(self.code)

    def _repeat(self, node: Node) -> None:
        """``x{n,m}``: n copies, then m-n optional ones (nested), or a loop when unbounded."""
        body = node.subs[0]
        for _ in range(node.min):
            self._emit(body)
        if node.max == -1:
            split = self._add(_Instruction("split"))
            self.code[split].x = len(self.code)
            self._emit(body)
            self._add(_Instruction("jump", x=split))
            self.code[split].y = len(self.code)
            return
        splits = []
        for _ in range(node.max - node.min):
            split = self._add(_Instruction("split"))
            self.code[split].x = len(self.code)
            splits.append(split)
            self._emit(body)
        for split in splits:
            self.code[split].y = len(self.code)

    # -- running --

    def search(self, text: str) -> bool:
        """Whether the pattern matches anywhere in ``text`` (unanchored, as ``MatchString``)."""
        current: list[int] = []
        for position in range(len(text) + 1):
            if self._add_thread(current, 0, text, position):
                return True
            if position == len(text):
                break
            following: list[int] = []
            seen: set[int] = set()
            for pc in current:
                test = self.code[pc].test
                assert test is not None
                if test.fullmatch(text, position, position + 1) and self._closure(
                    following, seen, pc + 1, text, position + 1
                ):
                    return True
            current = following
        return False

    def _add_thread(self, threads: list[int], pc: int, text: str, position: int) -> bool:
        return self._closure(threads, set(threads), pc, text, position)

    def _closure(self, threads: list[int], seen: set[int], start: int, text: str, position: int) -> bool:
        """Follow jumps, splits and assertions from ``start``; keep the character tests.
        True as soon as the match instruction is reached."""
        stack = [start]
        while stack:
            pc = stack.pop()
            if pc in seen:
                continue
            seen.add(pc)
            instruction = self.code[pc]
            if instruction.op == "match":
                return True
            if instruction.op == "char":
                threads.append(pc)
            elif instruction.op == "jump":
                stack.append(instruction.x)
            elif instruction.op == "split":
                stack.extend((instruction.y, instruction.x))
            elif _holds(instruction.kind, text, position):
                stack.append(pc + 1)
        return False


def _holds(kind: str, text: str, position: int) -> bool:
    """Go's empty-width assertions at ``position`` (ASCII word boundaries)."""
    if kind == "bot":
        return position == 0
    if kind == "eot":
        return position == len(text)
    if kind == "bol":
        return position == 0 or text[position - 1] == "\n"
    if kind == "eol":
        return position == len(text) or text[position] == "\n"
    before = position > 0 and text[position - 1] in _WORD
    after = position < len(text) and text[position] in _WORD
    return (before != after) == (kind == "wb")
