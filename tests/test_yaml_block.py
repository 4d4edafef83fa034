"""Block-style YAML for the Kubernetes and Compose templates (hclgpu/backends/yaml_block.py):
it reads back as the data, and it quotes exactly what a YAML reader could take for
something other than a string."""

from __future__ import annotations

import random
import string

import pytest
import yaml

from hclgpu.backends.yaml_block import block, scalar

AMBIGUOUS = [
    "yes", "no", "on", "off", "y", "N", "True", "null", "~", "", "=", "<<",  # YAML 1.1 words
    "1", "-1", "+1", "1.5", ".5", "1e3", "0x1f", "0o17", "1_000", "12:30", ".inf", ".nan",  # numbers
    "2024-01-01", "2024-01-01 10:00:00",  # timestamps
    "-", "- a", "a: b", "a #b", "#x", "a:", "@x", "%x", "`x", "*x", "&x", "!x", "|x", ">x",
    "{x}", "[x]", "'q'", '"q"', " lead", "trail ", "é", "tab\tx", "nel\x85", "ls\u2028",
]  # fmt: skip
"""Strings a plain scalar would change or break: each must be quoted."""

PLAIN = ["web", "nvcr.io/nvidia/cuda:12.4.0-base", "500m", "8192Mi", "nvidia.com/gpu", "-c", "a=b", "x,y"]
"""Strings kubectl writes plain: they stay plain."""


@pytest.mark.parametrize("text", AMBIGUOUS)
def test_what_a_reader_could_misread_is_quoted_and_reads_back(text: str) -> None:
    assert scalar(text).startswith('"')
    assert yaml.safe_load(f"k: {scalar(text)}\n") == {"k": text}


@pytest.mark.parametrize("text", PLAIN)
def test_ordinary_strings_are_plain(text: str) -> None:
    assert scalar(text) == text
    assert yaml.safe_load(f"k: {text}\n") == {"k": text}


def test_kubectl_layout() -> None:
    data = {
        "metadata": {"name": "x", "labels": {"on": "yes"}},
        "spec": {"containers": [{"name": "a", "args": ["-c", "echo hi\nthere\n"], "resources": {}}]},
        "list": [[1, 2], [], {}],
    }
    text = "\n".join(f"{key}:{block(value)}" for key, value in data.items()) + "\n"
    assert text == (
        'metadata:\n  name: x\n  labels:\n    "on": "yes"\n'
        "spec:\n  containers:\n  - name: a\n    args:\n    - -c\n    - |\n      echo hi\n      there\n"
        "    resources: {}\n"
        "list:\n- - 1\n  - 2\n- []\n- {}\n"
    )
    assert yaml.safe_load(text) == data


@pytest.mark.parametrize("text", ["a\nb", "a\nb\n", "a\n\n", "a\n\nb\n\n\n", "  x\ny", "x \ny"])
def test_multi_line_text_reads_back_exactly(text: str) -> None:
    for document in (f"k:{block(text)}\nz: 1\n", f"k:{block(text)}\n"):
        assert yaml.safe_load(document)["k"] == text


def test_random_strings_read_back_in_mappings_and_sequences() -> None:
    rnd = random.Random(7)
    alphabet = string.printable + "é€\x85\u2028"
    for _ in range(5000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 12)))
        value = [text, {"a": text, "b": [text]}]
        assert yaml.safe_load(f"k:{block(text)}\nz: 1\n") == {"k": text, "z": 1}, repr(text)
        assert yaml.safe_load(f"l:{block(value)}\n") == {"l": value}, repr(text)
