"""Jinja2 environments for scenario templates (Tcl-safe delimiters, StrictUndefined)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2


@cache
def environment(template_dir: Path) -> jinja2.Environment:
    """Jinja2 environment: << var >>, <% block %>, <# comment #>; undefined names fail."""
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
        autoescape=False,
    )
