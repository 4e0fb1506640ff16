"""Every render family, in one explicit table: kind -> :class:`~._family.Family`.

A new family is a module defining its ``Family`` object, and one line here.
"""

from __future__ import annotations

from ._family import Family
from . import (
    bank_feed, business_card, calendar_day, chart_read, charts, chat_screen, event_poster, event_screen,
    file_manager, handwritten_note, ide_screen, inbox, infographic, invoice, mail_client, note_photo, object_scene, order_screen, playlist_screen,
    poster_photo, price_tag, product_photo, receipt, receipt_photo, settings_panel, settings_screen, sign, spreadsheet_screen, statement,
    table_document, tally_photo,
)

FAMILIES: dict[str, Family] = {family.kind: family for family in (
    bank_feed.FAMILY,
    charts.BAR_CHART,
    business_card.FAMILY,
    calendar_day.FAMILY,
    chart_read.FAMILY,
    chat_screen.FAMILY,
    event_poster.FAMILY,
    event_screen.FAMILY,
    file_manager.FAMILY,
    handwritten_note.FAMILY,
    ide_screen.FAMILY,
    inbox.FAMILY,
    infographic.FAMILY,
    invoice.FAMILY,
    charts.LINE_CHART,
    mail_client.FAMILY,
    note_photo.FAMILY,
    object_scene.FAMILY,
    order_screen.FAMILY,
    charts.PIE_CHART,
    playlist_screen.FAMILY,
    poster_photo.FAMILY,
    price_tag.FAMILY,
    product_photo.FAMILY,
    receipt.FAMILY,
    receipt_photo.FAMILY,
    settings_panel.FAMILY,
    settings_screen.FAMILY,
    sign.FAMILY,
    spreadsheet_screen.FAMILY,
    statement.FAMILY,
    table_document.FAMILY,
    tally_photo.FAMILY,
)}


def kinds() -> list[str]:
    return sorted(FAMILIES)
