"""Templates place values; they never build them.

The jinja2 environment is strict (an undefined name is an error), does no escaping of
its own, and has two ways to write a value: the `yaml` filter, block-style YAML as kubectl
writes it (:mod:`hclgpu.backends.yaml_block`; `yaml_key` for a key), and the `json` filter,
whose output is also valid YAML (and the OCI bundle's JSON). Every rendered document is
parsed back and compared with the data it was made from, so a template can never produce
invalid output or let a value change the document's structure. `--templates DIR` puts
DIR/<target>/ in front of the built-in templates, file by file.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hclgpu.assets import templates_dir

if TYPE_CHECKING:
    from jinja2 import Environment


class TemplateError(Exception):
    """A template failed or produced a document that does not parse back to its data."""


_YAML_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")
"""Characters JSON may leave raw but YAML reads as line breaks (NEL, LS, PS) or refuses."""


def to_json(value: Any) -> str:
    """A value as JSON text, continuation lines indented so it nests under a YAML key.

    Non-ASCII text stays readable; only the characters YAML would fold or reject are
    written as `\\uXXXX` escapes, which mean the same in JSON and YAML.
    """
    text = json.dumps(value, ensure_ascii=False, indent=2)
    text = _YAML_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
    return text.replace("\n", "\n  ")


@cache
def environment(target: str, user_dir: str | None) -> Environment:
    from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined

    folders = ([Path(user_dir) / target] if user_dir else []) + [templates_dir() / target]
    env = Environment(
        loader=ChoiceLoader([FileSystemLoader(str(folder)) for folder in folders]),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
    )
    from hclgpu.backends.yaml_block import block, scalar

    env.filters["json"] = to_json
    env.filters["yaml"] = block
    env.filters["yaml_key"] = scalar
    return env


def _parse_yaml(text: str, data: Any) -> Any:
    """``yaml.safe_load(text)``, on libyaml's parser when PyYAML has it.

    The pure-Python parser is most of a large render's time; libyaml reads the same YAML
    1.1 through the same constructors and resolvers several times faster. It only confirms:
    a document it refuses, or reads as something other than ``data`` (it is stricter, e.g.
    about ``\\uD800``), is parsed again by the pure-Python parser, whose verdict and
    messages stand, so what is accepted or refused does not depend on how PyYAML was built.
    """
    import yaml

    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None:
        try:
            parsed = yaml.load(text, Loader=fast)
        except (yaml.YAMLError, ValueError):  # ValueError: a raw surrogate cannot be encoded
            pass
        else:
            if parsed == data:
                return parsed
    return yaml.load(text, Loader=yaml.SafeLoader)


def render_yaml(
    target: str, names: list[str], data: dict[str, Any], user_dir: str | None, **context: Any
) -> str:
    """Render the first template of ``names`` that exists, and check it parses back to ``data``."""
    import jinja2
    import yaml

    try:
        choices: list[Any] = list(names)  # jinja2 takes names or Template objects
        template = environment(target, user_dir).get_or_select_template(choices)
        text = template.render(object=data, **context)
    except jinja2.TemplateError as error:
        raise TemplateError(f"template {names[-1]}: {error}") from None
    try:
        parsed = _parse_yaml(text, data)
    except yaml.YAMLError as error:
        raise TemplateError(f"template {template.name} produced invalid YAML: {error}") from None
    if parsed != data:
        raise TemplateError(f"template {template.name} does not reproduce the object it was given")
    return text if text.endswith("\n") else text + "\n"
