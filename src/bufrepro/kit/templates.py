"""Jinja2 environments for scenario templates (Tcl-safe delimiters, StrictUndefined)."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import jinja2


def _environment(template_dir: Path, plain_text: bool) -> jinja2.Environment:
    """The templates' Jinja2 environment: << var >>, <% block %>, <# comment #> (Tcl-safe);
    undefined names fail; with plain_text a line holding only a block tag leaves no line."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir)),
        undefined=jinja2.StrictUndefined,
        variable_start_string="<<",
        variable_end_string=">>",
        block_start_string="<%",
        block_end_string="%>",
        comment_start_string="<#",
        comment_end_string="#>",
        keep_trailing_newline=True,
        trim_blocks=plain_text,
        lstrip_blocks=plain_text,
        autoescape=False,
    )


@cache
def environment(template_dir: Path) -> jinja2.Environment:
    """Jinja2 environment: << var >>, <% block %>, <# comment #>; undefined names fail."""
    return _environment(template_dir, plain_text=False)


def _fmt(value: object, spec: str) -> str:
    """format(value, spec); a number not measured (None) reads nan, as a NaN would."""
    return format(math.nan if value is None else value, spec)


@cache
def text_environment(template_dir: Path) -> jinja2.Environment:
    """The environment above for plain-text output: a line holding only a block tag leaves no
    line, and `fmt` formats a number as Python does (<< x|fmt(".3f") >>)."""
    env = _environment(template_dir, plain_text=True)
    env.filters["fmt"] = _fmt
    return env
