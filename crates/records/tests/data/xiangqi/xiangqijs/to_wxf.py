# Writes a WXF PGN of an ICCS PGN's moves with pyffish (Fairy-Stockfish's
# WXF writer), for the records crate's test data.
import re, sys, pyffish as sf
src = open(sys.argv[1], encoding='utf-8').read()
tags = [l for l in src.splitlines() if l.startswith('[') and not l.startswith('[Format')]
body = '\n'.join(l for l in src.splitlines() if not l.startswith('['))
moves = [t for t in body.split() if re.fullmatch(r'[a-i][0-9][a-i][0-9]', t)]
result = body.split()[-1]
uci = lambda m: m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)
start = sf.start_fen('xiangqi')
done, out = [], []
for m in moves:
    fen = sf.get_fen('xiangqi', start, done)
    out.append(sf.get_san('xiangqi', fen, uci(m), False, sf.NOTATION_XIANGQI_WXF))
    done.append(uci(m))
lines = []
for i in range(0, len(out), 2):
    lines.append(f"{i // 2 + 1}. " + ' '.join(out[i:i + 2]))
print('\n'.join(tags + ['[Format "WXF"]', ''] + lines + [result]))
