"""``ide_screen``: a code editor with a table open as a CSV file (UI, desktop).

The same content (and facts) as ``table_document``, shown the way a table often travels between
people who write code: a full-screen desktop code editor (:mod:`._desktop`: 1,920 px wide,
11-12 px text) with an activity bar, a file explorer (the project's folders and files, the CSV
selected), editor tabs, a breadcrumb, the file in a monospaced face with line numbers and one
colour per column (a header line, then one line per row; a comment line with the table's title
first), a minimap, from level 1 a terminal panel with a script's output (other numbers:
distractors), and a status bar (cursor position, encoding, language). A careful reader crops the
file's lines (``doc_box``) and zooms, and splits each line at its commas.

Levels: :mod:`._desktop`'s (0 light, PNG; 1 the terminal panel; 2 the dark theme; 3 the 2,560 px
screen sent at 1,920 px as JPEG).

Facts: ``table_document``'s (title, headers, rows...) plus ``file_name``, ``frame``, ``doc_box``
(the file's lines), ``line_boxes`` (each data row's line), ``cursor`` (line and column shown in
the status bar) and ``tabs``.
"""

from __future__ import annotations

import re

from PIL import Image

from ._common import Ctx, drafting
from ._desktop import Desktop
from ._family import Family
from ._phone import record
from .table_document import FAMILY as TABLE_DOCUMENT, FIELDS, _table
from ..fonts import get_font

COLUMN_COLORS = {False: [(0, 92, 197), (163, 21, 21), (0, 128, 0), (121, 94, 38), (175, 0, 219), (9, 134, 88)],
                 True: [(86, 156, 214), (206, 145, 120), (106, 153, 85), (220, 220, 170), (197, 134, 192), (78, 201, 176)]}
FOLDERS = [".vscode", "data", "notebooks", "scripts", "src", "tests"]
FILES = ["README.md", "requirements.txt", "Makefile", "pyproject.toml", ".gitignore", "notes.md", "config.yaml"]
SCRIPTS = ["check_rows.py", "import_sheet.py", "report.py", "clean.py", "summary.py"]
MENUS = ["File", "Edit", "Selection", "View", "Go", "Run", "Terminal", "Help"]


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:48] or "table"


def _csv(cell: str) -> str:
    return f'"{cell}"' if "," in cell or '"' in cell else cell


def draw_ide_screen(ctx: Ctx):
    """A desktop code editor with a table open as a CSV file: table_document's facts and the file's box."""
    f = record(ctx, TABLE_DOCUMENT)
    headers, rows = f["headers"], f["rows"]
    lv = ctx.difficulty
    s = Desktop(lv)
    W, H, px, pal = s.W, s.H, s.px, s.pal
    r = ctx.rng("screen")
    dark = lv == 2
    mono = get_font("mono", s.font.size)
    file_name = f"{_slug(f['title'])}.csv"
    script = r.choice(SCRIPTS)
    tabs = [file_name] + r.sample([script, "README.md", "notes.md", "config.yaml"], 1 + (lv >= 1))
    lines = [f"# {f['title']}", ",".join(_csv(h) for h in headers)] + [",".join(_csv(c) for c in row) for row in rows]
    cur_line = r.randint(3, len(lines))
    cursor = {"line": cur_line, "column": r.randint(1, max(1, len(lines[cur_line - 1])))}
    terminal = []
    if lv >= 1:
        terminal = [f"$ python scripts/{script}", f"read {len(rows) + r.randint(3, 40)} rows from data/archive.csv",
                    f"wrote reports/summary-{r.randint(100, 999)}.txt ({r.randint(2, 90)} KB)", f"{r.randint(1, 9)} warnings, 0 errors"]
        ctx.distractors.extend(terminal[1:3])

    title_h, menu_h, status_h = px(30), px(24), px(24)
    act_w, side_w = px(48), px(260)
    tab_h, crumb_h = px(36), px(24)
    ed_x0 = act_w + side_w
    top = title_h + menu_h + tab_h + crumb_h
    lh = round(s.font.size * 1.6)
    gutter = px(56)
    text_x = ed_x0 + gutter + px(16)
    term_h = px(220) if terminal else 0
    minimap_w = px(110)
    y0 = top + px(8)
    line_boxes = [[text_x - 2, y0 + i * lh, round(text_x + mono.getlength(lines[i]) + 2), y0 + (i + 1) * lh]
                  for i in range(2, len(lines))]
    width = max(mono.getlength(line) for line in lines)
    doc_box = [text_x - px(6), y0 - px(4), round(text_x + width + px(6)), y0 + len(lines) * lh + px(4)]
    facts = {**f, "file_name": file_name, "frame": s.frame, "doc_box": s.box(doc_box),
             "line_boxes": [s.box(b) for b in line_boxes], "cursor": cursor, "tabs": tabs}
    if drafting():
        return Image.new("RGB", (W, H), (128, 128, 128)), facts

    img, d = s.canvas()
    text, muted, line = pal["text"], pal["muted"], pal["line"]
    s.title_bar(d, f"{file_name} - {_slug(r.choice(['roster tools', 'office data', 'shared sheets', 'club admin']))} - Code")
    d.rectangle((0, title_h, W, title_h + menu_h), fill=pal["chrome"])
    x = px(12)
    for m in MENUS:
        d.text((x, title_h + menu_h / 2), m, font=s.small, fill=text, anchor="lm")
        x += s.small.getlength(m) + px(16)
    # the activity bar and the explorer
    bar_top = title_h + menu_h
    d.rectangle((0, bar_top, act_w, H - status_h), fill=pal["chrome"])
    for i in range(5):
        cy = bar_top + px(30 + 48 * i)
        d.rounded_rectangle((act_w / 2 - px(11), cy - px(11), act_w / 2 + px(11), cy + px(11)), radius=4,
                            outline=pal["accent"] if i == 0 else muted, width=2)
    d.rectangle((act_w, bar_top, ed_x0, H - status_h), fill=pal["side"])
    d.line((ed_x0, bar_top, ed_x0, H - status_h), fill=line)
    y = bar_top + px(10)
    d.text((act_w + px(14), y), "EXPLORER", font=s.small, fill=muted)
    y += lh + px(4)
    tree = [(0, "v " + _slug(r.choice(["roster tools", "office data", "shared sheets"])).upper(), False)]
    for folder in FOLDERS:
        tree.append((1, ("v " if folder == "data" else "> ") + folder, False))
        if folder == "data":
            others = sorted(r.sample(["archive.csv", "contacts.csv", "old-rates.csv", "import.xlsx", "budget.csv"], 3) + [file_name])
            tree += [(2, name, name == file_name) for name in others]
    tree += [(1, name, False) for name in sorted(r.sample(FILES, 4))]
    s.tree(d, tree, act_w, y, lh, 14, 14, (act_w, ed_x0 - 1, 3, 4), fit=(side_w, 30))
    # the tabs and the breadcrumb
    ty = bar_top
    d.rectangle((ed_x0, ty, W, ty + tab_h), fill=pal["chrome"])
    x = ed_x0
    for i, t in enumerate(tabs):
        w = s.font.getlength(t) + px(46)
        if i == 0:
            d.rectangle((x, ty, x + w, ty + tab_h), fill=pal["bg"])
            d.line((x, ty, x + w, ty), fill=pal["accent"], width=2)
        d.text((x + px(14), ty + tab_h / 2), t, font=s.font, fill=text if i == 0 else muted, anchor="lm")
        d.text((x + w - px(14), ty + tab_h / 2), "x", font=s.small, fill=muted, anchor="mm")
        x += w
    d.text((ed_x0 + px(14), ty + tab_h + crumb_h / 2), f"data  >  {file_name}", font=s.small, fill=muted, anchor="lm")
    # the file: line numbers, the comment, the header and the rows, one colour a column
    colors = COLUMN_COLORS[dark]
    gutter_x = ed_x0 + gutter
    for i, ln in enumerate(lines):
        yy = y0 + i * lh
        if i + 1 == cur_line:
            d.rectangle((ed_x0 + 1, yy, W - minimap_w - px(14), yy + lh), fill=pal["hover"])
        d.text((gutter_x, yy + lh / 2), str(i + 1), font=mono, fill=text if i + 1 == cur_line else muted, anchor="rm")
        if i == 0:
            d.text((text_x, yy + lh / 2), ln, font=mono, fill=(106, 153, 85) if dark else (0, 128, 0), anchor="lm")
            continue
        cells = [_csv(h) for h in headers] if i == 1 else [_csv(c) for c in rows[i - 2]]
        xx = text_x
        for j, cell in enumerate(cells):
            if j:
                d.text((xx, yy + lh / 2), ",", font=mono, fill=muted, anchor="lm")
                xx += mono.getlength(",")
            d.text((xx, yy + lh / 2), cell, font=mono, fill=colors[j % len(colors)], anchor="lm")
            xx += mono.getlength(cell)
    # the minimap: a bar per line
    mx = W - minimap_w - px(8)
    for i, ln in enumerate(lines):
        d.rectangle((mx, y0 + i * 3, mx + min(minimap_w - px(10), len(ln) * 1.2), y0 + i * 3 + 1), fill=muted)
    # the terminal panel
    if terminal:
        py = H - status_h - term_h
        d.rectangle((ed_x0 + 1, py, W, H - status_h), fill=pal["side"])
        d.line((ed_x0, py, W, py), fill=line)
        x = ed_x0 + px(16)
        for i, name in enumerate(["PROBLEMS", "OUTPUT", "TERMINAL", "PORTS"]):
            d.text((x, py + px(16)), name, font=s.small, fill=text if name == "TERMINAL" else muted, anchor="lm")
            x += s.small.getlength(name) + px(24)
        for i, t in enumerate(terminal):
            d.text((ed_x0 + px(16), py + px(40) + i * lh), t, font=mono, fill=text)
    # the status bar, in the editor's colour
    d.rectangle((0, H - status_h, W, H), fill=pal["accent"])
    white = (255, 255, 255)
    d.text((px(12), H - status_h / 2), f"main*   {len(rows)} rows", font=s.small, fill=white, anchor="lm")
    d.text((W - px(12), H - status_h / 2), f"Ln {cursor['line']}, Col {cursor['column']}   Spaces: 4   UTF-8   LF   CSV",
           font=s.small, fill=white, anchor="rm")
    return s.send(img), facts


FAMILY = Family("ide_screen", FIELDS, draw_ide_screen, check=_table)
