#!/usr/bin/env bash
# Reproduces the fonts embedded in crates/picture (see crates/picture/fonts/README.md).
#
# Source: Debian's fonts-noto-cjk, version 1:20220127+repack1-1 (Noto Serif CJK 2.001,
# Noto Sans CJK 2.004; SIL Open Font License 1.1):
#   /usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc, face 3 (Noto Serif CJK TC Bold)
#     -> crates/picture/fonts/qipan-cjk.otf: the xiangqi piece and river glyphs only;
#   /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc, face 3 (Noto Sans CJK TC Bold)
#     -> crates/picture/fonts/qipan-latin.otf: printable ASCII only.
# Subsetting with fontTools' pyftsubset, pinned below, in a throw-away virtualenv. The
# output is byte-for-byte the same on every run (no timestamp is rewritten).
#
# Needs: apt-get install -y fonts-noto-cjk python3-venv
set -euo pipefail
cd "$(dirname "$0")/.."

FONTTOOLS=4.68.0
NOTO=/usr/share/fonts/opentype/noto
DEST=crates/picture/fonts
# Red then black pieces (general, advisor, elephant, horse, chariot, cannon, soldier), then
# the river's 楚河 漢界. Keep in step with the GLYPHS in crates/picture/src/games/xiangqi.rs.
CJK_TEXT='帥仕相傌俥炮兵將士象馬車砲卒楚河漢界'

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install --quiet "fonttools==$FONTTOOLS"

subset() {
  "$WORK/venv/bin/pyftsubset" "$1" --font-number="$2" --output-file="$3" \
    --layout-features='' --no-hinting --desubroutinize --name-IDs='*' \
    --notdef-outline "${@:4}"
}

mkdir -p "$DEST"
subset "$NOTO/NotoSerifCJK-Bold.ttc" 3 "$DEST/qipan-cjk.otf" --text="$CJK_TEXT"
subset "$NOTO/NotoSansCJK-Bold.ttc" 3 "$DEST/qipan-latin.otf" --unicodes='U+0020-007E'
ls -l "$DEST"/*.otf
sha256sum "$DEST"/*.otf
