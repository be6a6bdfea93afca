"""The bot writers' documents served by the site: docs/bots.md and docs/protocol.md as pages, the protocol's
JSON Schema and the example bots (Python, JavaScript) as files, so a student finds them from the token page without the
repository.

The Markdown files in docs/ stay the one source (the repository reads them as they are); Python-Markdown
turns them into HTML (tables, fenced code, heading anchors), and links between them are pointed at their
pages here. The files are ours, not users' input, so their HTML is trusted as the site's templates are.
A page is rendered once per process and again when its file changes (its modification time).
"""

from __future__ import annotations

from pathlib import Path
from xml.etree.ElementTree import Element

import markdown
from django.conf import settings
from django.http import FileResponse, Http404
from django.shortcuts import render
from django.urls import reverse
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

DOCS = Path(settings.BASE_DIR) / "docs"
EXAMPLES = Path(settings.BASE_DIR) / "examples"
PAGES = {"bots": "bots.md", "protocol": "protocol.md"}  # page name -> file in docs/
FILES = {  # url name -> (folder, file, content type)
    "bot_docs_schema": (DOCS, "protocol.schema.json", "application/json"),
    "bot_docs_example": (EXAMPLES, "bot.py", "text/plain; charset=utf-8"),
    "bot_docs_example_js": (EXAMPLES / "js", "bot.js", "text/plain; charset=utf-8"),
}
_rendered: dict[str, tuple[float, str, str]] = {}  # page -> (file's mtime, title, html)


def _link_targets() -> dict[str, str]:
    """Where a link to a document or file of the repository goes on the site."""
    targets = {f"{name}.md": reverse("bot_docs", args=[name]) for name in PAGES}
    targets["protocol.schema.json"] = reverse("bot_docs_schema")
    targets["bot.py"] = reverse("bot_docs_example")
    targets["bot.js"] = reverse("bot_docs_example_js")
    return targets


class _SiteLinks(Treeprocessor):
    """`[the protocol](protocol.md#moves)` -> the protocol page's anchor; links to other repository files
    stay as text (`code`), since the site does not serve them. Code blocks and tables, which may scroll
    sideways, take the keyboard's focus."""

    def run(self, root: Element) -> None:
        for block in [*root.iter("pre"), *root.iter("table")]:
            block.set("tabindex", "0")  # it may scroll sideways on a phone: reachable by keyboard
        targets = _link_targets()
        for link in root.iter("a"):
            href = link.get("href", "")
            if href.startswith(("http://", "https://", "#", "/", "mailto:")):
                continue
            path, _, anchor = href.partition("#")
            target = targets.get(Path(path).name)
            if target is not None:
                link.set("href", target + (f"#{anchor}" if anchor else ""))
            else:
                link.tag = "code"
                link.attrib.clear()


class _SiteLinksExtension(Extension):
    def extendMarkdown(self, md) -> None:  # noqa: N802 - Python-Markdown's name
        md.treeprocessors.register(_SiteLinks(md), "site_links", 5)


def _page(name: str) -> tuple[str, str]:
    path = DOCS / PAGES[name]
    mtime = path.stat().st_mtime
    cached = _rendered.get(name)
    if cached is None or cached[0] != mtime:
        text = path.read_text(encoding="utf-8")
        title = next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("# ")), name)
        html = markdown.markdown(text, extensions=["tables", "fenced_code", "sane_lists", "toc",
                                                   _SiteLinksExtension()])
        # Fenced code is stashed as raw HTML, past the tree the links pass through: focusable here.
        html = html.replace("<pre>", '<pre tabindex="0">')
        cached = _rendered[name] = (mtime, title, html)
    return cached[1], cached[2]


def bot_docs(request, name: str):
    if name not in PAGES:
        raise Http404("no such document")
    title, html = _page(name)
    others = [(other, reverse("bot_docs", args=[other])) for other in PAGES if other != name]
    return render(request, "games/bot_docs.html", {"title": title, "html": html, "others": others,
                                                    "schema_url": reverse("bot_docs_schema"),
                                                    "example_url": reverse("bot_docs_example"),
                                                    "example_js_url": reverse("bot_docs_example_js")})


def _file_view(url_name: str):
    folder, filename, content_type = FILES[url_name]

    def serve(request):
        return FileResponse((folder / filename).open("rb"), content_type=content_type, filename=filename)

    serve.__name__ = url_name
    return serve


bot_docs_schema = _file_view("bot_docs_schema")
bot_docs_example = _file_view("bot_docs_example")
bot_docs_example_js = _file_view("bot_docs_example_js")
