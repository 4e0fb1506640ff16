"""``mail_client``: a desktop mail application open on a message signed by a contact (UI).

The same content (and facts) as ``business_card``, shown the way a contact's details often
arrive: a full-screen desktop mail client (:mod:`._desktop`: 1,920 px wide, 11-12 px text) with a
folder tree (two accounts at level 1 and up, unread counts), a toolbar and search box, a message
list of 22-34 rows (sender, subject, received; newest first, unread in bold, flags) with the
contact's message selected, and a reading pane: the subject, the sender's name and address, the
date, the message and the signature (name, title, company, phone, email). A careful reader crops
the reading pane (``doc_box``) and zooms; the list's other senders are distractors.

Levels: :mod:`._desktop`'s (0 light, PNG; 1 more rows, a second account and a quoted earlier
message; 2 the dark theme; 3 the 2,560 px screen sent at 1,920 px as JPEG).

Facts: ``business_card``'s (name, title, company, phone, email...) plus ``subject``,
``received`` (the reading pane's date line), ``received_date`` (ISO), ``received_time``
(HH:MM), ``folder``, ``messages`` (every list row: sender, subject, date as shown, unread),
``selected`` (the message's row), ``frame``, ``doc_box`` (the reading pane's message),
``list_box`` and ``row_boxes`` (each list row).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from PIL import Image

from ._common import Ctx, drafting, wrap
from ._desktop import Desktop, clip
from ._family import Family
from ._phone import record
from .business_card import COMPANIES, FAMILY as BUSINESS_CARD, FIELDS, PEOPLE_FIRST, PEOPLE_LAST
from ..fonts import get_font

SUBJECTS = ["Following up on today", "Nice to meet you", "Our conversation this morning", "Next steps",
            "Great chatting at the meetup", "Details as promised", "Quick intro", "Thanks for your time"]
BODIES = [
    "Thanks for taking the time to talk today. As promised, here are my details so we can stay in touch.",
    "Good to meet you earlier. I am sending my contact details below; call or write whenever suits you.",
    "Thanks again for the chat. My number and address are in the signature if anything comes up.",
]
OTHER_SUBJECTS = ["Your order has shipped", "Re: Saturday plans", "Invoice for March", "Weekly team update",
                  "Reminder: dentist appointment", "Fwd: photos from the trip", "Your statement is ready",
                  "Re: quote for the kitchen", "Lunch on Thursday?", "Password reset requested",
                  "Newsletter: spring edition", "Re: project timeline", "Booking confirmation", "Parking permit renewal",
                  "Re: draft slides", "New sign-in to your account", "Library hold ready for pickup", "Re: rent receipt",
                  "Your subscription renews soon", "Minutes from Monday", "Re: school trip form", "Delivery rescheduled",
                  "Quarterly report draft", "Re: bike for sale", "Webinar recording", "Re: catering numbers"]
SERVICES = ["Riverside Library", "Pay-n-Park", "Team Calendar", "Hometown Gym", "City Utilities", "Parcel Express",
            "First Harbor Bank", "Greenway Transit", "Mailbox Support", "Cloudbox"]
FOLDERS = [("Inbox", True), ("Drafts", False), ("Sent Items", False), ("Archive", False), ("Junk Email", True),
           ("Deleted Items", False), ("Receipts", False), ("Travel", False), ("Projects", False), ("Newsletters", True)]
TOOLBAR = ["New mail", "Reply", "Reply all", "Forward", "Delete", "Archive", "Move to", "Flag", "Mark unread",
           "Categorize", "Rules"]
ROWS = {0: 22, 1: 28, 2: 30, 3: 34}


def _shown(when: datetime, now: datetime) -> str:
    """A list row's date, as mail clients print it: today's time, this week's day, else the date."""
    if when.date() == now.date():
        return when.strftime("%I:%M %p").lstrip("0")
    if (now.date() - when.date()).days < 7:
        return f"{when:%a} {when.month}/{when.day}"
    return f"{when.month}/{when.day}/{when.year}"


def draw_mail_client(ctx: Ctx):
    """A desktop mail client open on a message signed by the contact: the business card's facts."""
    f = record(ctx, BUSINESS_CARD)
    lv = ctx.difficulty
    s = Desktop(lv)
    W, H, px, pal = s.W, s.H, s.px, s.pal
    r = ctx.rng("screen")
    first = f["name"].split()[0]
    subject, body = r.choice(SUBJECTS), r.choice(BODIES)
    now = datetime(2026, r.randint(1, 12), r.randint(1, 28), r.randint(14, 18), r.choice([5, 20, 41, 52]))
    n = ROWS[lv]
    target = r.randint(0, 3) if lv == 0 else r.randint(2, n // 2)
    times, when = [], now
    for _ in range(n):
        when -= timedelta(minutes=r.randint(9, 20 * 60))
        times.append(when)
    received_at = times[target]
    messages = []
    for i, t in enumerate(times):
        if i == target:
            sender, subj = f["name"], subject
        elif r.random() < 0.35:
            sender, subj = r.choice(SERVICES), r.choice(OTHER_SUBJECTS)
        else:
            sender = f"{r.choice(PEOPLE_FIRST)} {r.choice(PEOPLE_LAST)}"
            subj = r.choice(OTHER_SUBJECTS)
        messages.append({"sender": sender, "subject": subj, "date": _shown(t, now), "unread": i != target and r.random() < 0.3,
                         "flagged": r.random() < 0.12})
    received = f"{received_at:%a} {received_at.month}/{received_at.day}/{received_at.year} {received_at:%I:%M %p}".replace(" 0", " ")
    owner = f"{r.choice(PEOPLE_FIRST)} {r.choice(PEOPLE_LAST)}"
    owner_mail = f"{owner.split()[0].lower()}.{owner.split()[1].lower()}@{r.choice(['mailbox.com', 'homemail.net', 'inbox.org'])}"
    work = "".join(ch for ch in r.choice([c for c in COMPANIES if c != f["company"]]).lower() if ch.isalnum())
    accounts = [owner_mail] + ([f"{owner.split()[0].lower()}@{work}.com"] if lv >= 1 else [])
    counts = {name: r.randint(1, 40) for name, unread in FOLDERS if unread}
    quoted = lv >= 1
    for m in messages:
        if m["sender"] != f["name"]:
            ctx.distractors.append(f"{m['sender']}: {m['subject']}")

    # the layout: folder tree | message list | reading pane
    title_h = px(30)
    tool_h = px(44)
    top = title_h + tool_h
    status_h = px(24)
    tree_w, list_w = px(250), px(620)
    list_x0, list_x1 = tree_w, tree_w + list_w
    head_h = s.row_h + px(6)
    search_h = px(40)
    rows_top = top + search_h + head_h
    row_boxes = s.row_boxes(list_x0, list_x1, rows_top, n)
    pane_x0, pane_x1 = list_x1 + px(24), W - px(24)
    pane_w = pane_x1 - pane_x0
    lh = round(s.font.size * 1.7)
    subject_font = get_font("sans-bold", 15)
    body_lines = wrap(body, s.font, min(pane_w - px(60), px(760)))
    sign = [(f["name"], True), (f["title"], False), (f["company"], False), (f"Phone: {f['phone']}", False), (f"Email: {f['email']}", False)]
    old_lines = wrap(f"On {times[min(n - 1, target + 3)]:%a %b} {times[min(n - 1, target + 3)].day}, {owner} wrote: Lovely to meet you "
                     "at the session, could you send your details when you get a chance? Thanks!", s.font, min(pane_w - px(80), px(740)))
    at = s.on_rows(rows_top)  # the pane's lines sit on the list's rows

    hy = top + search_h
    n_body = len(body_lines)
    sign_row = 4 + n_body
    msg_bottom = rows_top + (sign_row + len(sign)) * s.row_h + px(4)
    doc_box = [pane_x0 - px(8), top + px(4), min(W, pane_x1), msg_bottom]
    facts = {**f, "subject": subject, "received": received, "received_date": received_at.date().isoformat(),
             "received_time": f"{received_at:%H:%M}", "folder": "Inbox", "messages": messages, "selected": target,
             "frame": s.frame, "doc_box": s.box(doc_box), "list_box": s.box([list_x0, rows_top, list_x1, rows_top + n * s.row_h]),
             "row_boxes": [s.box(b) for b in row_boxes], "app": "mail"}
    if drafting():
        return Image.new("RGB", (W, H), (128, 128, 128)), facts

    img, d = s.canvas()
    text, muted, line = pal["text"], pal["muted"], pal["line"]
    s.title_bar(d, f"Inbox - {owner_mail} - Mail")
    # the toolbar: buttons, then the search box at the right
    d.rectangle((0, title_h, W, top), fill=pal["chrome"])
    d.line((0, top, W, top), fill=line)
    x = px(12)
    for label in TOOLBAR[: 8 + lv]:
        x = s.button(d, x, title_h + px(9), tool_h - px(18), label) + px(6)
    sb = (W - px(380), title_h + px(9), W - px(16), top - px(9))
    d.rounded_rectangle(sb, radius=5, fill=pal["bg"], outline=line)
    d.text((sb[0] + px(10), (sb[1] + sb[3]) / 2), "Search mail and people", font=s.small, fill=muted, anchor="lm")
    # the folder tree
    d.rectangle((0, top, tree_w, H), fill=pal["side"])
    d.line((tree_w, top, tree_w, H), fill=line)
    y = top + px(14)
    for a, account in enumerate(accounts):
        d.text((px(12), y), "v " + account, font=s.bold, fill=text)
        y += lh
        for name, unread in (FOLDERS if a == 0 else FOLDERS[:6]):
            if a == 0 and name == "Inbox":
                d.rectangle((0, y - px(4), tree_w - 1, y + lh - px(6)), fill=pal["select"])
            d.text((px(30), y), name, font=s.font, fill=text)
            if unread and a == 0:
                d.text((tree_w - px(14), y), str(counts[name]), font=s.bold, fill=pal["accent"], anchor="ra")
            y += lh
        y += px(10)
    d.text((px(12), H - status_h - px(34)), "Mail   Calendar   People   Tasks", font=s.small, fill=muted)
    # the message list: a filter row, the column heads, the rows
    d.text((list_x0 + px(14), top + search_h / 2), "Focused     Other", font=s.bold, fill=text, anchor="lm")
    d.text((list_x1 - px(14), top + search_h / 2), "Filter  v", font=s.small, fill=muted, anchor="rm")
    hy = top + search_h
    d.rectangle((list_x0, hy, list_x1, hy + head_h), fill=pal["chrome"])
    c_from, c_subj, c_date = list_x0 + px(34), list_x0 + px(210), list_x1 - px(14)
    s.column_heads(d, hy + head_h / 2, [("From", c_from, "lm"), ("Subject", c_subj, "lm"), ("Received", c_date, "rm")])
    date_w = s.font.getlength("Wed 12/28/2026") + px(8)
    for i, (m, b) in enumerate(zip(messages, row_boxes)):
        if i == target:
            d.rectangle(b, fill=pal["select"])
        d.line((b[0], b[3], b[2], b[3]), fill=pal["hover"])
        font = s.bold if m["unread"] else s.font
        cy = (b[1] + b[3]) / 2
        if m["unread"]:
            d.rectangle((b[0], b[1] + 2, b[0] + px(3), b[3] - 2), fill=pal["accent"])
        if m["flagged"]:
            d.polygon([(b[0] + px(14), cy - 5), (b[0] + px(22), cy - 2), (b[0] + px(14), cy + 1)], fill=(214, 64, 56))
        d.text((c_from, cy), clip(m["sender"], font, c_subj - c_from - px(10)), font=font, fill=text, anchor="lm")
        d.text((c_subj, cy), clip(m["subject"], font, c_date - date_w - c_subj), font=font, fill=text, anchor="lm")
        d.text((c_date, cy), m["date"], font=font, fill=text if m["unread"] else muted, anchor="rm")
    d.line((list_x1, top, list_x1, H), fill=line)
    # the reading pane: subject, sender and date, the message, the signature, an earlier message
    d.text((pane_x0, top + search_h / 2), subject, font=subject_font, fill=text, anchor="lm")
    d.ellipse((pane_x0, hy + px(2), pane_x0 + px(38), hy + px(40)), fill=pal["accent"])
    d.text((pane_x0 + px(19), hy + px(21)), first[0] + f["name"].split()[-1][0], font=s.bold, fill=(255, 255, 255), anchor="mm")
    hx = pane_x0 + px(52)
    d.text((hx, hy + head_h / 2), f"{f['name']} <{f['email']}>", font=s.bold, fill=text, anchor="lm")
    d.text((pane_x1, hy + head_h / 2), received, font=s.font, fill=text, anchor="rm")
    d.text((hx, at(0)), f"To: {owner} <{owner_mail}>", font=s.font, fill=muted, anchor="lm")
    for label, dx in [("Reply", 0), ("Forward", 1)]:
        d.text((pane_x1 - px(60) * dx, at(0)), label, font=s.small, fill=pal["accent"], anchor="rm")
    d.text((pane_x0, at(2)), f"Hi {owner.split()[0]},", font=s.font, fill=text, anchor="lm")
    for j, part in enumerate(body_lines):
        d.text((pane_x0, at(3 + j)), part, font=s.font, fill=text, anchor="lm")
    d.line((pane_x0, at(sign_row) - s.row_h / 2, pane_x0 + px(40), at(sign_row) - s.row_h / 2), fill=muted)
    for i, (part, strong) in enumerate(sign):
        d.text((pane_x0, at(sign_row + i)), part, font=s.bold if strong else s.font, fill=text, anchor="lm")
    if quoted:
        q = sign_row + len(sign) + 2
        d.line((pane_x0, at(q - 1), pane_x1, at(q - 1)), fill=line)
        for j, part in enumerate(old_lines):
            d.text((pane_x0 + px(14), at(q + j)), part, font=s.font, fill=muted, anchor="lm")
        d.line((pane_x0 + px(4), at(q) - s.row_h / 2, pane_x0 + px(4), at(q + len(old_lines) - 1) + s.row_h / 2), fill=line, width=2)
    s.status_bar(d, f"Items: {n + r.randint(40, 900)}   Unread: {sum(m['unread'] for m in messages)}",
                 "All folders are up to date.   Connected")
    return s.send(img), facts


FAMILY = Family("mail_client", FIELDS, draw_mail_client)
