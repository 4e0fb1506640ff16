"""``spreadsheet_screen``: a desktop screenshot of a spreadsheet application showing a table (UI).

The same content (and facts) as ``table_document``, shown the way people actually share a table:
a full-screen desktop window (1,920 x 1,080 px; at level 3 a 2,560 x 1,440 screen forwarded at
1,920 x 1,080) of a spreadsheet with a
title bar, a menu bar, two rows of toolbar buttons, a formula bar (the selected cell's address and
content), column letters and row numbers, the table in the grid with its title above it, a
summary block of another sheet's numbers beside it (never this table's count or average), a comments
panel on the right, sheet tabs and a status bar. Text is
small (13 px at level 0 down to 11 px; about 8 px at level 3), as on a real desktop: a careful
reader crops the table (``doc_box``) and zooms.

Levels: 0 light theme, PNG; 1 smaller type, a filter row and conditional colours; 2 the dark
theme; 3 the 2,560 px screen shrunk to 1,920 px and re-encoded as JPEG (quality 82), as a
forwarded screenshot (tesseract reads about a third of the cells as delivered, nine in ten once
the table is cropped and zoomed 2x).

Facts: ``table_document``'s (title, headers, rows, n_rows, n_cols...) plus ``frame``, ``doc_box``
(the table's cells, title included, in pixels), ``cell_boxes`` (each data row's box),
``selected`` (the formula bar's cell and text), ``file_name``, ``sheet`` and ``tabs``. The
summary block, comments and other tabs are recorded as distractors.
"""

from __future__ import annotations

import string

import cv2
import numpy as np
from PIL import Image, ImageDraw

from ._family import Family
from ._common import Ctx, drafting, jpeg
from ._phone import record
from .table_document import FAMILY as TABLE_DOCUMENT, FIELDS, _table
from ..fonts import get_font

SIZES = {0: (1920, 1080), 1: (1920, 1080), 2: (1920, 1080), 3: (2560, 1440)}
TYPE = {0: 13, 1: 12, 2: 11, 3: 11}  # cell text, px
QUALITY = {3: 82}
SHRINK = {3: 0.75}  # level 3: the 2,560 px screen forwarded at 1,920 px (its 11 px type at about 8 px)
LIGHT = {"bg": (255, 255, 255), "chrome": (243, 244, 246), "line": (218, 220, 224), "head": (248, 249, 250),
         "text": (32, 33, 36), "muted": (95, 99, 104), "accent": (26, 115, 232), "band": (232, 240, 254),
         "header_fill": (220, 230, 241)}
DARK = {"bg": (32, 33, 36), "chrome": (41, 42, 45), "line": (72, 74, 78), "head": (48, 49, 52),
        "text": (232, 234, 237), "muted": (154, 160, 166), "accent": (138, 180, 248), "band": (40, 52, 72),
        "header_fill": (52, 62, 80)}
MENUS = ["File", "Edit", "View", "Insert", "Format", "Data", "Tools", "Extensions", "Help"]
TOOLS = ["undo", "redo", "print", "paint", "zoom", "sep", "$", "%", ".0", ".00", "123", "sep", "font", "size", "sep",
         "B", "I", "S", "A", "sep", "fill", "border", "merge", "sep", "align", "valign", "wrap", "rotate", "sep",
         "link", "comment", "chart", "filter", "view", "func"]
# each drawn tool's glyph: strokes, outlined boxes and filled boxes over the unit square of its button
GLYPHS = {
    "undo": [("line", [(0.9, 0.8), (0.9, 0.4), (0.15, 0.4)]), ("line", [(0.4, 0.1), (0.1, 0.4), (0.4, 0.7)])],
    "redo": [("line", [(0.1, 0.8), (0.1, 0.4), (0.85, 0.4)]), ("line", [(0.6, 0.1), (0.9, 0.4), (0.6, 0.7)])],
    "print": [("box", [(0.25, 0.0), (0.75, 0.3)]), ("box", [(0.0, 0.3), (1.0, 0.75)]), ("box", [(0.25, 0.6), (0.75, 1.0)])],
    "paint": [("box", [(0.0, 0.0), (1.0, 0.35)]), ("line", [(0.5, 0.35), (0.5, 1.0)])],
    "zoom": [("box", [(0.0, 0.0), (0.6, 0.6)]), ("line", [(0.6, 0.6), (1.0, 1.0)])],
    "fill": [("line", [(0.1, 0.5), (0.5, 0.1), (0.9, 0.5), (0.5, 0.9), (0.1, 0.5)]), ("dot", [(0.0, 0.85), (1.0, 1.0)])],
    "border": [("box", [(0.0, 0.0), (1.0, 1.0)]), ("line", [(0.5, 0.0), (0.5, 1.0)]), ("line", [(0.0, 0.5), (1.0, 0.5)])],
    "merge": [("line", [(0.0, 0.5), (0.4, 0.5)]), ("line", [(0.6, 0.5), (1.0, 0.5)]), ("line", [(0.0, 0.0), (0.0, 1.0)]),
              ("line", [(1.0, 0.0), (1.0, 1.0)])],
    "align": [("line", [(0.0, 0.1), (1.0, 0.1)]), ("line", [(0.0, 0.5), (0.6, 0.5)]), ("line", [(0.0, 0.9), (0.85, 0.9)])],
    "valign": [("line", [(0.0, 1.0), (1.0, 1.0)]), ("line", [(0.5, 0.0), (0.5, 0.75)]), ("line", [(0.25, 0.5), (0.5, 0.75), (0.75, 0.5)])],
    "wrap": [("line", [(0.0, 0.15), (1.0, 0.15), (1.0, 0.6), (0.35, 0.6)]), ("line", [(0.55, 0.4), (0.35, 0.6), (0.55, 0.8)])],
    "rotate": [("line", [(0.0, 1.0), (1.0, 0.0)]), ("line", [(0.55, 0.0), (1.0, 0.0), (1.0, 0.45)])],
    "link": [("box", [(0.0, 0.3), (0.55, 0.7)]), ("box", [(0.45, 0.3), (1.0, 0.7)])],
    "comment": [("box", [(0.0, 0.0), (1.0, 0.7)]), ("line", [(0.2, 0.7), (0.2, 1.0), (0.5, 0.7)])],
    "chart": [("dot", [(0.0, 0.55), (0.22, 1.0)]), ("dot", [(0.39, 0.15), (0.61, 1.0)]), ("dot", [(0.78, 0.4), (1.0, 1.0)])],
    "filter": [("line", [(0.0, 0.0), (1.0, 0.0), (0.6, 0.5), (0.6, 1.0), (0.4, 0.85), (0.4, 0.5), (0.0, 0.0)])],
    "view": [("line", [(0.0, 0.5), (0.5, 0.1), (1.0, 0.5), (0.5, 0.9), (0.0, 0.5)]), ("dot", [(0.4, 0.4), (0.6, 0.6)])],
    "func": [("line", [(0.9, 0.0), (0.1, 0.0), (0.55, 0.5), (0.1, 1.0), (0.9, 1.0)])],
}
FONTS = ["Arial", "Calibri", "Roboto", "Verdana"]
TAB_NAMES = ["Archive", "Drafts", "Old rates", "Contacts", "Budget", "Sheet2", "Notes", "Import"]
COMMENTERS = ["Priya K.", "Tom B.", "Lena M.", "Omar S.", "Ruth A.", "Jonas W."]
COMMENTS = ["Please double-check row {r} before we print.", "Moved the {c} column, looks cleaner.",
            "Can we add the spring dates here?", "Updated from the paper copy.", "Row {r} was wrong last time.",
            "Shared with the front desk.", "Who owns this sheet now?"]


def _is_number(cell: str) -> bool:
    return cell.replace(",", "").replace(".", "").isdigit()


def _col(i: int) -> str:
    return string.ascii_uppercase[i] if i < 26 else string.ascii_uppercase[i // 26 - 1] + string.ascii_uppercase[i % 26]


def draw_spreadsheet_screen(ctx: Ctx):
    """A desktop spreadsheet screenshot showing a table: table_document's facts, the table's box and the screen's furniture."""
    f = record(ctx, TABLE_DOCUMENT)
    headers, rows = f["headers"], f["rows"]
    lv = ctx.difficulty
    W, H = SIZES[lv]
    k = H / 1080  # the larger screen's chrome scales with it; its text does not
    r = ctx.rng("screen")
    pal = DARK if lv == 2 else LIGHT
    fs = TYPE[lv]
    font, bold, small = get_font("sans", fs), get_font("sans-bold", fs), get_font("sans", fs - 1)
    title_font = get_font("sans-bold", fs + 3)
    row_h = round(fs * 1.65)
    # the window's bands, top to bottom
    title_h, menu_h, tool_h, formula_h, colhead_h = round(30 * k), round(26 * k), round(36 * k), round(28 * k), row_h
    tabs_h, status_h = round(30 * k), round(24 * k)
    grid_top = title_h + menu_h + 2 * tool_h + formula_h + colhead_h
    rownum_w = round(46 * k)
    panel_w = round(330 * k)
    grid_right = W - panel_w
    # the table's columns: as wide as their widest cell (at least a spreadsheet's default)
    widths = [max(round(96 * k), max([bold.getlength(h)] + [font.getlength(row[j]) for row in rows]) + 22)
              for j, h in enumerate(headers)]
    lead = 1  # one empty column before the table (column A)
    col_w = [round(64 * k)] + widths
    while sum(col_w) < grid_right - rownum_w:  # empty columns to the window's edge
        col_w.append(round(96 * k))
    xs = [rownum_w]
    for w in col_w:
        xs.append(xs[-1] + w)
    first_row = r.randint(1, 3)  # the table's title sits in this sheet row (1-based), the headers under it
    n_visible = (H - tabs_h - status_h - grid_top) // row_h

    def row_y(n: int) -> int:  # top of sheet row n (1-based)
        return grid_top + (n - 1) * row_h

    head_row = first_row + 1
    t_x0, t_x1 = xs[lead], xs[lead + len(headers)]
    doc_box = [int(t_x0 - 2), row_y(first_row) - 2, int(t_x1 + 2), row_y(head_row + 1 + len(rows)) + 2]
    cell_boxes = [[int(t_x0), row_y(head_row + 1 + i), int(t_x1), row_y(head_row + 2 + i)] for i in range(len(rows))]
    sel_i, sel_j = r.randrange(len(rows)), r.randrange(len(headers))
    selected = {"cell": f"{_col(lead + sel_j)}{head_row + 1 + sel_i}", "text": rows[sel_i][sel_j]}
    sheet = r.choice(["Schedule", "Current", "Sheet1", "This term", "Live"])
    tabs = [sheet] + r.sample(TAB_NAMES, 3 + (lv >= 1))
    file_name = f"{f['title']}.xlsx"
    # beside the table: a summary block of another sheet's numbers (what a careless read takes for the
    # table's). Never this table's own count and average: their product gave a column's sum unread
    sx = lead + len(headers) + 1
    right = [all(_is_number(row[j]) for row in rows) for j in range(len(headers))]  # numbers right-aligned
    numeric = [j for j, is_num in enumerate(right) if is_num]
    other_rows = max(3, len(rows) + r.choice([-5, -4, -3, -2, 2, 3, 4, 5]))
    summary = [(f"{tabs[1]} sheet", ""), ("Rows", str(other_rows)),
               ("Last edit", f"{r.randint(1, 28)}/{r.randint(1, 12)} {r.randint(8, 18)}:{r.choice(['05', '20', '42'])}")]
    if numeric:
        j = numeric[-1]
        vals = [float(row[j].replace(",", "")) for row in rows]
        mean = sum(vals) / len(vals)
        summary.insert(2, (f"Avg {headers[j].lower()}", f"{mean * r.choice([0.72, 0.8, 0.86, 1.15, 1.22, 1.3]):.1f}"))
        summary.insert(3, (f"Prev. {headers[j].lower()}", f"{r.randint(10, 400)}"))
    comments = [(r.choice(COMMENTERS), r.choice(COMMENTS).format(r=r.randint(2, 30), c=r.choice(headers).lower()),
                 f"{r.randint(1, 12)}:{r.randint(0, 59):02d} {r.choice(['AM', 'PM'])}") for _ in range(2 + lv)]
    for name, value in summary:
        if value:
            ctx.distractors.append(f"{name} {value}")
    for who, text, _ in comments:
        ctx.distractors.append(text)
    z = SHRINK.get(lv, 1.0)  # the boxes in the delivered image's pixels
    doc_box = [round(v * z) for v in doc_box]
    cell_boxes = [[round(v * z) for v in b] for b in cell_boxes]
    facts = {**f, "frame": [round(W * z), round(H * z)], "doc_box": doc_box, "cell_boxes": cell_boxes, "selected": selected,
             "file_name": file_name, "sheet": sheet, "tabs": tabs}
    if drafting():
        return Image.new("RGB", (W, H), (128, 128, 128)), facts

    img = Image.new("RGB", (W, H), pal["bg"])
    d = ImageDraw.Draw(img)
    text, muted, line = pal["text"], pal["muted"], pal["line"]
    # title bar and menus
    d.rectangle((0, 0, W, title_h), fill=pal["chrome"])
    d.text((round(14 * k), title_h // 2), file_name + "  -  Sheets", font=small, fill=muted, anchor="lm")
    for i, c in enumerate([(237, 106, 94), (245, 191, 79), (98, 197, 84)]):
        cx = W - round((20 + 22 * i) * k)
        d.ellipse((cx - 6 * k, title_h / 2 - 6 * k, cx + 6 * k, title_h / 2 + 6 * k), fill=c)
    y = title_h
    x = round(14 * k)
    for m in MENUS:
        d.text((x, y + menu_h // 2), m, font=small, fill=text, anchor="lm")
        x += small.getlength(m) + round(18 * k)
    d.text((W - round(14 * k), y + menu_h // 2), f"Last edit was {r.randint(2, 50)} minutes ago", font=small, fill=muted, anchor="rm")
    y += menu_h
    # two toolbar rows of small buttons
    for band in range(2):
        d.rectangle((0, y, W, y + tool_h), fill=pal["chrome"])
        x = round(12 * k)
        for t in (TOOLS if band == 0 else list(reversed(TOOLS))[: len(TOOLS) // 2]):
            if t == "sep":
                d.line((x + 4, y + 8 * k, x + 4, y + tool_h - 8 * k), fill=line)
                x += round(12 * k)
                continue
            if t in ("font", "size"):
                label = r.choice(FONTS) if t == "font" else str(r.choice([10, 11, 12]))
                w = small.getlength(label) + round(26 * k)
                d.rounded_rectangle((x, y + 7 * k, x + w, y + tool_h - 7 * k), radius=3, outline=line)
                d.text((x + 6 * k, y + tool_h / 2), label, font=small, fill=text, anchor="lm")
                x += w + round(8 * k)
                continue
            w = round(26 * k)
            d.rounded_rectangle((x, y + 6 * k, x + w, y + tool_h - 6 * k), radius=4, outline=line if band else None)
            if len(t) <= 3:
                d.text((x + w / 2, y + tool_h / 2), t, font=small, fill=muted, anchor="mm")
            else:  # the tool's glyph (GLYPHS), in the button's inner square
                g0, g1 = (x + 7 * k, y + 11 * k), (x + w - 7 * k, y + tool_h - 11 * k)
                for kind, pts in GLYPHS[t]:
                    xy = [(g0[0] + u * (g1[0] - g0[0]), g0[1] + v * (g1[1] - g0[1])) for u, v in pts]
                    if kind == "line":
                        d.line(xy, fill=muted, width=2)
                    elif kind == "box":
                        d.rectangle(xy, outline=muted, width=1)
                    else:  # "dot": a filled box
                        d.rectangle(xy, fill=muted)
            x += w + round(4 * k)
            if x > W - round(200 * k):
                break
        y += tool_h
    # the formula bar
    d.rectangle((0, y, W, y + formula_h), fill=pal["bg"], outline=line)
    d.rectangle((round(8 * k), y + 4, round(96 * k), y + formula_h - 4), outline=line)
    d.text((round(14 * k), y + formula_h / 2), selected["cell"], font=small, fill=text, anchor="lm")
    d.text((round(110 * k), y + formula_h / 2), "fx", font=small, fill=muted, anchor="lm")
    d.text((round(140 * k), y + formula_h / 2), selected["text"], font=font, fill=text, anchor="lm")
    y += formula_h
    # column letters and row numbers
    d.rectangle((0, y, grid_right, y + colhead_h), fill=pal["head"])
    for i in range(len(col_w)):
        d.text(((xs[i] + xs[i + 1]) / 2, y + colhead_h / 2), _col(i), font=small, fill=muted, anchor="mm")
        d.line((xs[i], y, xs[i], H - tabs_h - status_h), fill=line)
    d.rectangle((0, grid_top, rownum_w, H - tabs_h - status_h), fill=pal["head"])
    for n in range(1, n_visible + 1):
        yy = row_y(n)
        d.line((0, yy, grid_right, yy), fill=line)
        d.text((rownum_w / 2, yy + row_h / 2), str(n), font=small, fill=muted, anchor="mm")
    # the table: title, header row, data rows (numbers right-aligned, as a spreadsheet does)
    d.text((t_x0 + 6, row_y(first_row) + row_h / 2), f["title"], font=title_font, fill=text, anchor="lm")
    d.rectangle((t_x0, row_y(head_row), t_x1, row_y(head_row + 1)), fill=pal["header_fill"])
    for j, h in enumerate(headers):
        x0, x1 = xs[lead + j], xs[lead + j + 1]
        if right[j]:
            d.text((x1 - 8, row_y(head_row) + row_h / 2), h, font=bold, fill=text, anchor="rm")
        else:
            d.text((x0 + 8, row_y(head_row) + row_h / 2), h, font=bold, fill=text, anchor="lm")
    band = lv >= 1
    for i, row in enumerate(rows):
        yy = row_y(head_row + 1 + i)
        if band and i % 2:
            d.rectangle((t_x0 + 1, yy + 1, t_x1 - 1, yy + row_h - 1), fill=pal["band"])
        for j, cell in enumerate(row):
            x0, x1 = xs[lead + j], xs[lead + j + 1]
            if right[j]:
                d.text((x1 - 8, yy + row_h / 2), cell, font=font, fill=text, anchor="rm")
            else:
                d.text((x0 + 8, yy + row_h / 2), cell, font=font, fill=text, anchor="lm")
    d.rectangle((t_x0, row_y(head_row), t_x1, row_y(head_row + 1 + len(rows))), outline=muted)
    # the selected cell
    sx0, sy0 = xs[lead + sel_j], row_y(head_row + 1 + sel_i)
    d.rectangle((sx0, sy0, xs[lead + sel_j + 1], sy0 + row_h), outline=pal["accent"], width=2)
    # the summary block beside the table
    if sx + 1 < len(col_w):
        for i, (name, value) in enumerate(summary):
            yy = row_y(head_row + i)
            d.text((xs[sx] + 8, yy + row_h / 2), name, font=font, fill=muted, anchor="lm")
            d.text((xs[sx + 2] - 8 if sx + 2 < len(xs) else xs[sx + 1] - 8, yy + row_h / 2), value, font=font, fill=text, anchor="rm")
    # the comments panel
    d.rectangle((grid_right, title_h + menu_h + 2 * tool_h + formula_h, W, H - status_h), fill=pal["chrome"], outline=line)
    py = title_h + menu_h + 2 * tool_h + formula_h + round(14 * k)
    d.text((grid_right + round(16 * k), py), "Comments", font=bold, fill=text)
    py += round(34 * k)
    for who, body, when in comments:
        d.rounded_rectangle((grid_right + round(12 * k), py, W - round(12 * k), py + round(70 * k)), radius=6, fill=pal["bg"], outline=line)
        d.text((grid_right + round(22 * k), py + round(10 * k)), who, font=bold, fill=text)
        d.text((W - round(22 * k), py + round(10 * k)), when, font=small, fill=muted, anchor="ra")
        d.text((grid_right + round(22 * k), py + round(36 * k)), body[:44], font=small, fill=text)
        py += round(82 * k)
    # sheet tabs and the status bar
    ty = H - tabs_h - status_h
    d.rectangle((0, ty, W, ty + tabs_h), fill=pal["chrome"], outline=line)
    x = round(60 * k)
    for i, t in enumerate(tabs):
        w = bold.getlength(t) + round(30 * k)
        if i == 0:
            d.rectangle((x, ty, x + w, ty + tabs_h), fill=pal["bg"])
            d.line((x, ty + tabs_h - 2, x + w, ty + tabs_h - 2), fill=pal["accent"], width=2)
        d.text((x + w / 2, ty + tabs_h / 2), t, font=bold if i == 0 else small, fill=text if i == 0 else muted, anchor="mm")
        x += w + round(4 * k)
    d.rectangle((0, H - status_h, W, H), fill=pal["chrome"])
    d.text((W - round(16 * k), H - status_h / 2), f"{r.choice([90, 100, 100, 110])}%", font=small, fill=muted, anchor="rm")
    d.text((round(16 * k), H - status_h / 2), "Ready", font=small, fill=muted, anchor="lm")
    if lv in SHRINK:  # area averaging (OpenCV: a fifth of Pillow's Lanczos on this frame)
        small = cv2.resize(np.asarray(img), (round(W * SHRINK[lv]), round(H * SHRINK[lv])), interpolation=cv2.INTER_AREA)
        img = Image.fromarray(small)
    if lv in QUALITY:
        img = jpeg(img, QUALITY[lv])
    return img, facts


FAMILY = Family("spreadsheet_screen", FIELDS, draw_spreadsheet_screen, check=_table)
