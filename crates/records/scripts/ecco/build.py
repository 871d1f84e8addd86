# Derives the ECCO table: every position along the first 20 plies of a
# corpus of games where the ECCO code of the line so far (as xqbase's
# classifier, in vschess's transcription, gives it) changes.
import re, sys, subprocess, collections, pyffish as sf

def games(path):
    text = open(path, encoding='utf-8').read()
    for block in re.split(r'\n(?=\[Event )', text):
        moves = re.findall(r'\b([a-i][0-9][a-i][0-9])\b', block.split('\n\n', 1)[-1])
        if moves:
            yield moves

START = sf.start_fen('xiangqi')
uci = lambda m: m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)

def wxf_line(moves):
    done, out = [], []
    for m in moves[:20]:
        fen = sf.get_fen('xiangqi', START, done)
        w = sf.get_san('xiangqi', fen, uci(m), False, sf.NOTATION_XIANGQI_WXF)
        w = w.replace('=', '.').replace('H', 'N').replace('E', 'B')
        out.append(w)
        done.append(uci(m))
    return out

def board(moves):
    fen = sf.get_fen('xiangqi', START, [uci(m) for m in moves])
    return ' '.join(fen.split()[:2])

def classify(lines):
    inp = '\n'.join(' '.join(l) if l else '-' for l in lines) + '\n'
    out = subprocess.run(['node', 'ref.js'], input=inp, capture_output=True, text=True, check=True).stdout
    return [l.split('\t') for l in out.strip('\n').split('\n')]

if __name__ == '__main__':
    corpus = [g for p in sys.argv[1:] for g in games(p)]
    print(len(corpus), 'games', file=sys.stderr)
    rows = []
    for g in corpus:
        w = wxf_line(g)
        for k in range(0, len(w) + 1):
            rows.append((g, k, w[:k]))
    codes = classify([r[2] for r in rows])
    import pickle
    pickle.dump((corpus, rows, codes), open('corpus.pkl', 'wb'))
