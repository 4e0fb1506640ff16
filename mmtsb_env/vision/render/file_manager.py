"""``file_manager``: a desktop file manager with an invoice's PDF selected and previewed (UI).

The same content (and facts) as ``invoice``, found the way invoices are kept: a full-screen file
manager (:mod:`._desktop`: 1,920 px wide, 11-12 px text) with a ribbon of commands, an address bar
(the folder's path) and search box, a navigation tree (quick access, the disk's folders expanded
down to the open one), a detail view of 22-34 entries (folders first, then files by name; name,
date modified, type, size) with the invoice's file selected, and a preview pane showing the
invoice page (letterhead, number, dates, bill-to, line items, subtotal, tax, total). A careful
reader crops the preview (``doc_box``) and zooms; the other invoices in the list are distractors.

Levels: :mod:`._desktop`'s (0 light, PNG; 1 more entries and a longer path; 2 the dark theme;
3 the 2,560 px screen sent at 1,920 px as JPEG).

Facts: ``invoice``'s (company, invoice_number, dates, items, total...) plus ``file_name``,
``file_size``, ``modified`` (the file's date modified as shown: the invoice's date),
``folder``, ``path``, ``files`` (every entry: name, modified, type, size), ``selected`` (the
file's row), ``frame``, ``doc_box`` (the preview's page), ``list_box`` and ``row_boxes``.
"""

from __future__ import annotations

from datetime import date

from PIL import Image

from ._common import Ctx, drafting, money, wrap
from ._desktop import Desktop, clip
from ._family import Family
from ._phone import record
from .invoice import FAMILY as INVOICE, FIELDS
from .business_card import COMPANIES
from ..fonts import get_font

RIBBON = ["New", "Cut", "Copy", "Paste", "Rename", "Share", "Delete", "Sort", "View", "Filter", "Properties", "Select all"]
QUICK = ["Desktop", "Downloads", "Documents", "Pictures", "Music", "Videos"]
FOLDER_NAMES = ["Invoices {y}", "Invoices", "Bills", "Accounts", "Home office", "Paperwork"]
SUBFOLDERS = ["Paid", "Scans", "To file", "Old", "Receipts", "Contracts", "Tax"]
OTHER_FILES = [("Budget {y}", "xlsx"), ("Bank statement {m}", "pdf"), ("Receipt scan {n}", "jpg"), ("Tax letter {y}", "pdf"),
               ("Contract - signed", "pdf"), ("Quote {n}", "pdf"), ("Insurance renewal", "pdf"), ("Expenses {m}", "xlsx"),
               ("Notes for accountant", "docx"), ("Utility bill {m}", "pdf"), ("Payment confirmation {n}", "pdf"),
               ("Mileage log", "xlsx"), ("Lease agreement", "pdf"), ("Warranty card", "jpg"), ("Pay slip {m}", "pdf")]
TYPES = {"pdf": "PDF Document", "xlsx": "Microsoft Excel Worksheet", "docx": "Microsoft Word Document", "jpg": "JPEG image",
         "folder": "File folder"}
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
ROWS = {0: 22, 1: 28, 2: 30, 3: 34}


def _modified(iso: str, hour: int, minute: int) -> str:
    d = date.fromisoformat(iso)
    return f"{d.month}/{d.day}/{d.year} {(hour - 1) % 12 + 1}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def _size(kb: int) -> str:
    return f"{kb:,} KB"


def draw_file_manager(ctx: Ctx):
    """A desktop file manager previewing an invoice's PDF: the invoice's facts and the file's entry."""
    f = record(ctx, INVOICE)
    lv = ctx.difficulty
    s = Desktop(lv)
    W, H, px, pal = s.W, s.H, s.px, s.pal
    r = ctx.rng("screen")
    cur = f.get("currency", "$")
    year = int(f["invoice_date"][:4])
    folder = r.choice(FOLDER_NAMES).format(y=year)
    path = ["This PC", "Documents"] + (["Finance"] if lv >= 1 else []) + [folder]
    file_name = f"Invoice {f['invoice_number']} - {f['company'].rstrip('.')}.pdf"
    file_size = _size(r.randint(60, 900))
    modified = _modified(f["invoice_date"], r.randint(8, 19), r.randint(0, 59))
    n = ROWS[lv]
    n_dirs = r.randint(2, 4)
    entries = [{"name": name, "modified": _modified(f"{year}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}", r.randint(8, 19), r.randint(0, 59)),
                "type": TYPES["folder"], "size": ""} for name in sorted(r.sample(SUBFOLDERS, n_dirs))]
    names = {file_name}
    files = [{"name": file_name, "modified": modified, "type": TYPES["pdf"], "size": file_size}]
    while len(files) < n - n_dirs:
        if r.random() < 0.45:  # another invoice: the same kind of name, another number and company
            name = f"Invoice INV-{r.randint(2024, 2026)}-{r.randint(1, 9999):04d} - {r.choice(COMPANIES).rstrip('.')}.pdf"
            ext = "pdf"
        else:
            stem, ext = r.choice(OTHER_FILES)
            name = stem.format(y=r.choice([year - 1, year]), m=r.choice(MONTHS), n=r.randint(100, 9999)) + "." + ext
        if name in names:
            continue
        names.add(name)
        iso = f"{year}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"
        files.append({"name": name, "modified": _modified(iso, r.randint(8, 21), r.randint(0, 59)), "type": TYPES[ext],
                      "size": _size(r.randint(12, 4800))})
    files.sort(key=lambda e: e["name"].lower())
    entries += files
    target = next(i for i, e in enumerate(entries) if e["name"] == file_name)
    for e in entries:
        if e["name"] != file_name and e["name"].startswith("Invoice"):
            ctx.distractors.append(e["name"])

    # the layout: navigation tree | detail view | preview pane
    title_h, ribbon_h, addr_h, status_h = px(30), px(44), px(40), px(24)
    top = title_h + ribbon_h + addr_h
    nav_w = px(260)
    pane_w = px(660)
    list_x0, list_x1 = nav_w, W - pane_w
    head_h = s.row_h + px(6)
    rows_top = top + head_h
    row_boxes = s.row_boxes(list_x0, list_x1, rows_top, len(entries))
    # the preview's page and its lines (measured before anything is drawn), on the list's rows
    lh = round(s.font.size * 1.6)  # the navigation tree's pitch
    at = s.on_rows(rows_top)

    page = [list_x1 + px(30), top + px(8), W - px(30), 0]
    pw = page[2] - page[0]
    pad = px(34)
    desc_w = pw - 2 * pad - px(250)
    item_lines = [wrap(it["description"], s.font, desc_w - 8) for it in f["items"]]
    bill = f["bill_to"].split("\n")
    meta_row = 3
    table_row = meta_row + max(len(bill) + 1, 3) + 1
    totals_row = table_row + 1 + sum(len(x) for x in item_lines) + 1
    page[3] = min(H - status_h - px(20), round(at(totals_row + 5)))
    doc_box = [page[0], page[1], page[2], page[3]]
    facts = {**f, "file_name": file_name, "file_size": file_size, "modified": modified, "folder": folder,
             "path": " > ".join(path), "files": entries, "selected": target, "frame": s.frame, "doc_box": s.box(doc_box),
             "list_box": s.box([list_x0, rows_top, list_x1, rows_top + len(entries) * s.row_h]),
             "row_boxes": [s.box(b) for b in row_boxes]}
    if drafting():
        return Image.new("RGB", (W, H), (128, 128, 128)), facts

    img, d = s.canvas()
    text, muted, line = pal["text"], pal["muted"], pal["line"]
    s.title_bar(d, f"{folder} - File Explorer")
    # the ribbon, the address bar and the search box
    d.rectangle((0, title_h, W, title_h + ribbon_h), fill=pal["chrome"])
    x = px(12)
    for label in RIBBON[: 9 + lv]:
        x = s.button(d, x, title_h + px(9), ribbon_h - px(18), label) + px(6)
    ay = title_h + ribbon_h
    d.line((0, ay, W, ay), fill=line)
    for i, arrow in enumerate(["<", ">", "^"]):
        d.text((px(20 + 28 * i), ay + addr_h / 2), arrow, font=s.bold, fill=muted, anchor="mm")
    ab = (px(100), ay + px(7), W - px(420), ay + addr_h - px(7))
    d.rectangle(ab, fill=pal["bg"], outline=line)
    d.text((ab[0] + px(10), (ab[1] + ab[3]) / 2), "  >  ".join(path), font=s.font, fill=text, anchor="lm")
    sb = (W - px(400), ab[1], W - px(16), ab[3])
    d.rectangle(sb, fill=pal["bg"], outline=line)
    d.text((sb[0] + px(10), (sb[1] + sb[3]) / 2), f"Search {folder}", font=s.small, fill=muted, anchor="lm")
    d.line((0, top, W, top), fill=line)
    # the navigation tree
    d.rectangle((0, top, nav_w, H), fill=pal["side"])
    d.line((nav_w, top, nav_w, H), fill=line)
    y = top + px(12)
    tree = [(0, "Quick access", True)] + [(1, q, False) for q in QUICK[: 4 + (lv >= 1)]] + [(0, "This PC", True)]
    for q in QUICK:
        tree.append((1, q, q == "Documents"))
        if q == "Documents":
            depth = 2
            for part in path[2:]:
                tree.append((depth, part, True))
                depth += 1
            tree += [(depth, sub, False) for sub in sorted(e["name"] for e in entries if e["type"] == TYPES["folder"])]
    tree += [(1, "Local Disk (C:)", False), (1, "Data (D:)", False), (0, "Network", False)]
    s.tree(d, [(depth, ("v " if open_ else "> ") + name, name == folder) for depth, name, open_ in tree],
           0, y, lh, 12, 16, (0, nav_w - 1, 3, 5))
    # the detail view: column heads, then the entries
    cols = [list_x0 + px(16), list_x0 + px(470), list_x0 + px(650), list_x1 - px(16)]  # name | modified | type | size (right)
    d.rectangle((list_x0, top, list_x1, rows_top), fill=pal["bg"])
    s.column_heads(d, top + head_h / 2, [("Name", cols[0], "lm"), ("Date modified", cols[1], "lm"), ("Type", cols[2], "lm"),
                                         ("Size", cols[3], "rm")])
    for cx in cols[1:3]:
        d.line((cx - px(8), top + px(4), cx - px(8), rows_top - px(4)), fill=line)
    d.line((list_x0, rows_top, list_x1, rows_top), fill=line)
    for i, (e, b) in enumerate(zip(entries, row_boxes)):
        if i == target:
            d.rectangle(b, fill=pal["select"], outline=pal["accent"])
        cy = (b[1] + b[3]) / 2
        is_dir = e["type"] == TYPES["folder"]
        d.rectangle((cols[0], cy - px(6), cols[0] + px(12), cy + px(6)), fill=(232, 190, 80) if is_dir else None,
                    outline=(200, 150, 40) if is_dir else muted)
        d.text((cols[0] + px(20), cy), clip(e["name"], s.font, cols[1] - cols[0] - px(36)), font=s.font, fill=text, anchor="lm")
        d.text((cols[1], cy), e["modified"], font=s.font, fill=muted, anchor="lm")
        d.text((cols[2], cy), clip(e["type"], s.font, cols[3] - cols[2] - px(90)), font=s.font, fill=muted, anchor="lm")
        d.text((cols[3], cy), e["size"], font=s.font, fill=muted, anchor="rm")
    d.line((list_x1, top, list_x1, H), fill=line)
    # the preview pane: the invoice's page
    d.rectangle((list_x1 + 1, top + 1, W, H), fill=pal["desk"])
    d.rectangle((page[0] + 3, page[1] + 3, page[2] + 3, page[3] + 3), fill=(150, 152, 158))
    d.rectangle(page, fill=pal["page"], outline=(190, 192, 198))
    ink, grey = (30, 30, 35), (95, 95, 100)
    big, head = get_font("sans-bold", 18), get_font("sans-bold", 14)
    x0, x1 = page[0] + pad, page[2] - pad
    d.text((x0, at(0)), f["company"], font=head, fill=ink, anchor="lm")
    d.text((x1, at(0)), "INVOICE", font=big, fill=ink, anchor="rm")
    d.text((x0, at(1)), f["company_address"], font=s.small, fill=grey, anchor="lm")
    meta = [("Invoice No.", f["invoice_number"]), ("Invoice Date", f["invoice_date_text"]), ("Due Date", f["due_date_text"])]
    for i, (k, v) in enumerate(meta):
        d.text((x1 - px(150), at(meta_row + i)), k, font=s.bold, fill=grey, anchor="rm")
        d.text((x1, at(meta_row + i)), v, font=s.font, fill=ink, anchor="rm")
    d.text((x0, at(meta_row)), "BILL TO", font=s.bold, fill=grey, anchor="lm")
    for i, part in enumerate(bill):
        d.text((x0, at(meta_row + 1 + i)), part, font=s.bold if i == 0 else s.font, fill=ink, anchor="lm")
    c = [x0, x0 + desc_w, x0 + desc_w + px(50), x0 + desc_w + px(150), x1]  # desc | qty | unit | amount
    d.rectangle((x0, at(table_row) - s.row_h / 2, x1, at(table_row) + s.row_h / 2), fill=(225, 228, 234))
    for label, cx, anchor in [("Description", c[0] + 6, "lm"), ("Qty", c[2] - 6, "rm"), ("Unit Price", c[3] - 6, "rm"), ("Amount", c[4] - 6, "rm")]:
        d.text((cx, at(table_row)), label, font=s.bold, fill=ink, anchor=anchor)
    row = table_row + 1
    for it, lines in zip(f["items"], item_lines):
        for j, part in enumerate(lines):
            d.text((c[0] + 6, at(row + j)), part, font=s.font, fill=ink, anchor="lm")
        d.text((c[2] - 6, at(row)), str(it["qty"]), font=s.font, fill=ink, anchor="rm")
        d.text((c[3] - 6, at(row)), money(it["unit_price"], cur), font=s.font, fill=ink, anchor="rm")
        d.text((c[4] - 6, at(row)), money(it["amount"], cur), font=s.font, fill=ink, anchor="rm")
        row += len(lines)
    d.line((x0, at(row) - s.row_h / 2, x1, at(row) - s.row_h / 2), fill=grey)
    rate = f" ({f['tax_rate']:g}%)" if f.get("tax_rate") is not None else ""
    for i, (label, value, font) in enumerate([("Subtotal", f["subtotal"], s.font), (f"Tax{rate}", f["tax"], s.font),
                                              ("TOTAL DUE", f["total"], s.bold)]):
        d.text((c[3] - 6, at(totals_row + i)), label, font=font, fill=grey if font is s.font else ink, anchor="rm")
        d.text((c[4] - 6, at(totals_row + i)), money(value, cur), font=font, fill=ink, anchor="rm")
    d.text(((page[0] + page[2]) / 2, page[3] - px(24)), "Page 1 of 1", font=s.small, fill=grey, anchor="mm")
    s.status_bar(d, f"{len(entries)} items    1 item selected  {file_size}", "Details   Preview")
    return s.send(img), facts


FAMILY = Family("file_manager", FIELDS, draw_file_manager)
