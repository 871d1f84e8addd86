#!/usr/bin/env bash
# Reproduces the fonts embedded in crates/picture (see crates/picture/fonts/README.md).
#
# Source: Debian's fonts-noto-cjk, version 1:20220127+repack1-1 (Noto Serif CJK 2.001,
# Noto Sans CJK 2.004; SIL Open Font License 1.1):
#   /usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc, face 3 (Noto Serif CJK TC Bold)
#     -> crates/picture/fonts/qipan-cjk.otf: the xiangqi piece and river glyphs only;
#   /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc, face 3 (Noto Sans CJK TC Bold)
#     -> crates/picture/fonts/qipan-latin.otf: printable ASCII only;
#   /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc, face 2 (Noto Sans CJK SC Bold)
#     -> crates/picture/fonts/qipan-text.otf: players' names and captions, in the blocks
#        of TEXT_RANGES and the character sets of text_chars below.
# Subsetting with fontTools' pyftsubset, pinned below, in a throw-away virtualenv. The
# output is byte-for-byte the same on every run (no timestamp is rewritten).
#
# Needs: apt-get install -y fonts-noto-cjk python3-venv
set -euo pipefail
cd "$(dirname "$0")/.."

FONTTOOLS=4.68.0
NOTO=/usr/share/fonts/opentype/noto
DEST=crates/picture/fonts
# Red then black traditional pieces (general, advisor, elephant, horse, chariot, cannon,
# soldier), the river's 楚河 漢界, then the simplified forms the traditional set lacks
# (帅 将 马 车). Keep in step with the GLYPHS in crates/picture/src/games/xiangqi.rs.
CJK_TEXT='帥仕相傌俥炮兵將士象馬車砲卒楚河漢界帅将马车'
# The text font's blocks, each kept as far as the font has it: printable ASCII, Latin-1
# and Latin Extended-A (accented Latin), the pinyin vowels with a caron (U+01CD-01DC),
# Greek, basic Cyrillic, general punctuation (dashes, quotes, ellipsis), CJK symbols and
# punctuation, hiragana and katakana, full-width and half-width forms.
TEXT_RANGES='U+0020-007E,U+00A0-017F,U+01CD-01DC,U+0370-03FF,U+0400-045F,U+2010-2027,U+3000-303F,U+3040-30FF,U+FF01-FF60,U+FFE0-FFE6'

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install --quiet "fonttools==$FONTTOOLS"

subset() {
  "$WORK/venv/bin/pyftsubset" "$1" --font-number="$2" --output-file="$3" \
    --layout-features='' --no-hinting --desubroutinize --name-IDs='*' \
    --notdef-outline "${@:4}"
}

# The ideographs and syllables of the text font, taken from the code tables of the
# national character sets as Python's own codecs hold them (every two-byte code of the
# ranges that decodes): GB 2312 levels 1 and 2 (6,763 hanzi, rows 16-87), the Big5
# common characters (5,401 hanzi, 0xA440-0xC67E: the traditional forms of Taiwan and
# Hong Kong), JIS X 0208 level 1 (2,965 kanji, rows 16-47) and the 2,350 hangul
# syllables of KS X 1001 (rows 16-40). Written once each, in code point order.
text_chars() {
  "$WORK/venv/bin/python" -c '
import sys

def table(codec, rows, cells):
    for hi in rows:
        for lo in cells:
            try:
                yield bytes([hi, lo]).decode(codec)
            except UnicodeDecodeError:
                pass

euc = range(0xA1, 0xFF)
big5 = [*range(0x40, 0x7F), *euc]
sets = {
    "GB 2312": set(table("gb2312", range(0xB0, 0xF8), euc)),
    "Big5 common": {c for c in table("big5", range(0xA4, 0xC7), big5)
                    if c.encode("big5") <= bytes([0xC6, 0x7E])},
    "JIS X 0208 level 1": set(table("euc_jp", range(0xB0, 0xD0), euc)),
    "KS X 1001 hangul": set(table("euc_kr", range(0xB0, 0xC9), euc)),
}
expected = {"GB 2312": 6763, "Big5 common": 5401, "JIS X 0208 level 1": 2965,
            "KS X 1001 hangul": 2350}
for name, chars in sets.items():
    if len(chars) != expected[name]:
        sys.exit(f"{name}: {len(chars)} characters, expected {expected[name]}")
sys.stdout.write("".join(sorted(set().union(*sets.values()))))
'
}

mkdir -p "$DEST"
subset "$NOTO/NotoSerifCJK-Bold.ttc" 3 "$DEST/qipan-cjk.otf" --text="$CJK_TEXT"
subset "$NOTO/NotoSansCJK-Bold.ttc" 3 "$DEST/qipan-latin.otf" --unicodes='U+0020-007E'
text_chars > "$WORK/text.txt"
subset "$NOTO/NotoSansCJK-Bold.ttc" 2 "$DEST/qipan-text.otf" --unicodes="$TEXT_RANGES" \
  --text-file="$WORK/text.txt"
ls -l "$DEST"/*.otf
sha256sum "$DEST"/*.otf
