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
    "spreadsheet_screen": "ui", "mail_client": "ui", "file_manager": "ui", "ide_screen": "ui", "settings_panel": "ui",
}


# the paper's share of scenarios holding at least one image of each group (Table 12, of 258)
PAPER_SHARES = {"natural_text_rich": 0.39, "natural_less_text": 0.28, "documents_charts": 0.47, "ui": 0.17}


def group_of(kind: str) -> str:
    """The Table 12 group of render family ``kind``; ValueError for an unknown family."""
    try:
        return GROUPS[kind]
    except KeyError:
        raise ValueError(f"unknown render kind {kind!r}; known: {', '.join(sorted(GROUPS))}") from None


def group_shares(scenarios) -> dict[str, float]:
    """The share of ``scenarios`` holding at least one image of each group (Table 12's measure)."""
    scenarios = list(scenarios)
    counts = dict.fromkeys(GROUP_NAMES, 0)
    for s in scenarios:
        for g in {group_of(im.render["kind"]) for im in s.images if im.render}:
            counts[g] += 1
    return {g: counts[g] / max(1, len(scenarios)) for g in GROUP_NAMES}


def main(argv=None) -> int:
    """``python -m mmtsb_env.vision.render.groups [SUITE]``: a suite's group shares beside the paper's."""
    import sys

    from ... import load_suite

    args = sys.argv[1:] if argv is None else argv
    suite = load_suite(args[0] if args else "nominal")
    print(f"{'group':<20} {'scenarios':>10} {'paper':>6}")
    for g, share in group_shares(suite).items():
        print(f"{g:<20} {share:>9.1%} {PAPER_SHARES[g]:>6.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
