"""Write the render-family gallery into docs/images/: ``family_<kind>_d<level>.png``.

Usage: python docs/images/make_gallery.py [--levels 0 3] [--seed 2]
Images wider than 900 px are scaled down (the files are for reading the docs, not for OCR).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PIL import Image  # noqa: E402

from mmtsb_env.vision.render import render  # noqa: E402

NEW = ["receipt_photo", "poster_photo", "note_photo", "object_scene", "product_photo", "chart_read", "statement",
       "order_screen", "event_screen", "chat_screen", "infographic", "tally_photo", "bank_feed", "calendar_day", "inbox",
       "playlist_screen", "settings_screen", "spreadsheet_screen", "mail_client", "file_manager", "ide_screen", "settings_panel"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", type=int, nargs="*", default=[0, 3])
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--kinds", nargs="*", default=NEW)
    args = ap.parse_args()
    out = Path(__file__).resolve().parent
    for kind in args.kinds:
        for d in args.levels:
            image = render({"kind": kind, "seed": args.seed, "difficulty": d}).image
            if image.width > 900:
                image = image.resize((900, round(image.height * 900 / image.width)), Image.Resampling.LANCZOS)
            path = out / f"family_{kind}_d{d}.png"
            image.save(path, optimize=True)
            print(path.name, image.size)


if __name__ == "__main__":
    main()
