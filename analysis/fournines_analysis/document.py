"""A report as a list of blocks (headings, paragraphs, tables, images) rendered twice: to Markdown
with relative image links, and to one self-contained HTML file with the PNGs embedded, so the two
reports cannot drift apart and report.html can be mailed or attached to a CI run on its own."""
import base64
import html
from dataclasses import dataclass
from pathlib import Path

from fournines_analysis.errors import write_text


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 2


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Table:
    header: list[str]
    rows: list[list[str]]


@dataclass(frozen=True)
class Image:
    path: Path  # a PNG inside the report's folder
    alt: str


@dataclass(frozen=True)
class Alert:
    """What a reader must see before the figures: a bold title over a list."""
    title: str
    items: list[str]


Block = Heading | Paragraph | Table | Image | Alert


def write(blocks: list[Block], folder: Path, name: str = "report") -> tuple[Path, Path]:
    """Writes `<folder>/<name>.md` and `<folder>/<name>.html`; returns both paths."""
    md, page = folder / f"{name}.md", folder / f"{name}.html"
    return write_text(md, to_markdown(blocks, folder)), write_text(page, to_html(blocks))


def to_markdown(blocks: list[Block], folder: Path) -> str:
    out = []
    for block in blocks:
        match block:
            case Heading(text, level):
                out.append(f"{'#' * level} {text}")
            case Paragraph(text):
                out.append(text)
            case Table(header, rows):
                lines = [header, ["---"] * len(header), *rows]
                out.append("\n".join("| " + " | ".join(c.replace("|", "\\|") for c in line) + " |"
                                     for line in lines))
            case Image(path, alt):
                out.append(f"![{alt}]({path.relative_to(folder).as_posix()})")
            case Alert(title, items):
                out.append("\n".join([f"> **{title}**", ">", *(f"> - {item}" for item in items)]))
    return "\n\n".join(out) + "\n"


def to_html(blocks: list[Block]) -> str:
    title = next((b.text for b in blocks if isinstance(b, Heading)), "fournines report")
    return _PAGE.format(title=html.escape(title), body=html_body(blocks))


def html_body(blocks: list[Block]) -> str:
    """The blocks as HTML elements, images embedded: the page's body, or a part of the dashboard's pages."""
    body = []
    for block in blocks:
        match block:
            case Heading(text, level):
                body.append(f"<h{level}>{html.escape(text)}</h{level}>")
            case Paragraph(text):
                body.append(f"<p>{html.escape(text)}</p>")
            case Table(header, rows):
                head = "".join(f"<th>{html.escape(c)}</th>" for c in header)
                cells = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                                for row in rows)
                body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{cells}</tbody></table>")
            case Image(path, alt):
                data = base64.b64encode(path.read_bytes()).decode("ascii")
                body.append(f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">')
            case Alert(title, items):
                entries = "".join(f"<li>{html.escape(item)}</li>" for item in items)
                body.append(f'<div class="alert"><strong>{html.escape(title)}</strong><ul>{entries}</ul></div>')
    return "\n".join(body)


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 1000px; margin: 2em auto; padding: 0 1em; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; }}
td:first-child, th:first-child {{ text-align: left; }}
img {{ max-width: 100%; }}
.alert {{ border-left: 4px solid #c62828; background: #fdecea; padding: 0.5em 1em; margin: 1em 0; }}
</style></head>
<body>
{body}
</body></html>
"""
