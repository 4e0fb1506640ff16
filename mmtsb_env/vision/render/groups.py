"""The paper's image groups (its Table 12) and which render family belongs to which.

* ``natural_text_rich`` -- photos of scenes with text in them (HierText-like): signs, shelf tags,
  and documents photographed in place;
* ``natural_less_text`` -- photos whose content is objects, colours and logos (WorldVQA-like);
* ``documents_charts`` -- flat documents, dense pages, infographics and charts (DocVQA,
  OmniDocBench, InfographicVQA, ChartQA-Pro, ChartMuseum-like);
* ``ui`` -- screenshots of the phone's own apps and of desktop applications (ScreenSpot-Pro-like).
"""

from __future__ import annotations

GROUP_NAMES = ("natural_text_rich", "natural_less_text", "documents_charts", "ui")

GROUPS = {
    "receipt_photo": "natural_text_rich", "poster_photo": "natural_text_rich", "note_photo": "natural_text_rich",
    "sign": "natural_text_rich", "price_tag": "natural_text_rich",
    "object_scene": "natural_less_text", "product_photo": "natural_less_text", "tally_photo": "natural_less_text",
    "receipt": "documents_charts", "invoice": "documents_charts", "statement": "documents_charts",
    "business_card": "documents_charts", "event_poster": "documents_charts", "table_document": "documents_charts",
    "handwritten_note": "documents_charts", "bar_chart": "documents_charts", "line_chart": "documents_charts",
    "pie_chart": "documents_charts", "chart_read": "documents_charts", "infographic": "documents_charts",
    "order_screen": "ui", "event_screen": "ui", "chat_screen": "ui",
    "bank_feed": "ui", "calendar_day": "ui", "inbox": "ui", "playlist_screen": "ui", "settings_screen": "ui",
    "spreadsheet_screen": "ui",
}


def group_of(kind: str) -> str:
    """The Table 12 group of render family ``kind``; ValueError for an unknown family."""
    try:
        return GROUPS[kind]
    except KeyError:
        raise ValueError(f"unknown render kind {kind!r}; known: {', '.join(sorted(GROUPS))}") from None
