"""The gallery page: every dashboard with its one-line description."""

from __future__ import annotations

import html

from IPython.display import HTML

from nessus.apps import GALLERY


def gallery() -> HTML:
    """The gallery as HTML: one card per dashboard, linking to its page."""
    cards = "".join(
        f'<a class="nessus-card" href="{e.notebook}" style="display:block;border:1px solid #ccc;border-radius:8px;'
        f'padding:12px 16px;margin:10px 0;text-decoration:none;color:inherit;max-width:640px">'
        f"<b style='font-size:1.2em;color:#4c78a8'>{html.escape(e.title)}</b><br>{html.escape(e.description)}</a>"
        for e in GALLERY
    )
    return HTML(
        "<h1>nessus</h1><p>The dice games of <i>Les jeux populaires de Nessus</i>, with exact odds "
        f"and simulations you can watch. Pick a game:</p>{cards}"
    )
