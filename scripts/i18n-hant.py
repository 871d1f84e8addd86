#!/usr/bin/env python3
"""Writes static/i18n/zh-Hant.json, the Traditional Chinese catalogue, from
static/i18n/zh-Hans.json with OpenCC's s2twp conversion (Simplified to
Traditional with Taiwan's usual phrasing).

OpenCC (github.com/BYVoid/OpenCC, Apache-2.0), through its pure-Python port
opencc-purepy (PyPI, Apache-2.0): `pip install opencc-purepy`, then run from
the repository root:

    python3 scripts/i18n-hant.py

Keys whose text must keep its simplified glyphs (the name of the
simplified piece style) are copied as they are. Run it again after every
change to zh-Hans.json; a test checks that the three catalogues have the
same keys.
"""

import json
from pathlib import Path

from opencc_purepy import OpenCC

KEEP = {"prefs.pieces_simplified"}

root = Path(__file__).resolve().parent.parent / "static" / "i18n"
hans = json.loads((root / "zh-Hans.json").read_text(encoding="utf-8"))
convert = OpenCC("s2twp").convert
hant = {key: text if key in KEEP else convert(text) for key, text in hans.items()}
with open(root / "zh-Hant.json", "w", encoding="utf-8") as out:
    json.dump(hant, out, ensure_ascii=False, indent=1)
    out.write("\n")
