# Derives qipan's ECCO table from a corpus of games and measures it.
#
# Reference codes: xqbase's ECCO classifier as vschess transcribes it
# (ref.js). Every game's line is mirrored left-right when its first move
# starts on red's left half (as the classifier itself mirrors it), then
# each position along its first 20 plies where the code of the line so far
# changes becomes an entry, keyed by the first two moves and the position.
import pickle, collections, sys
from build import board, wxf_line, classify
corpus, rows, codes = pickle.load(open('corpus.pkl', 'rb'))
mir = lambda m: ''.join([chr(ord('a') + ord('i') - ord(m[0])), m[1], chr(ord('a') + ord('i') - ord(m[2])), m[3]])
per = collections.defaultdict(list); wx = {}
for (g, k, w), c in zip(rows, codes):
    per[id(g)].append((k, c[0]))
    if len(w) >= len(wx.get(id(g), [])): wx[id(g)] = w
def norm(g):
    w = wx[id(g)]
    return [mir(m) for m in g] if w and w[0][1] > '5' else list(g)
lines = {id(g): norm(g) for g in corpus}
fens = {}
def fen(g, k):
    key = (id(g), k)
    if key not in fens: fens[key] = board(lines[id(g)][:k])
    return fens[key]
def key(g, k):
    return (' '.join(lines[id(g)][:min(k, 2)]), fen(g, k))
def table(indices):
    votes = collections.defaultdict(collections.Counter); line_of = {}
    for i in indices:
        g = corpus[i]; seq = sorted(per[id(g)])
        for (k0, c0), (k1, c1) in zip(seq, seq[1:]):
            if c1 != c0:
                kk = key(g, k1); votes[kk][c1] += 1
                if kk not in line_of or len(line_of[kk]) > k1: line_of[kk] = lines[id(g)][:k1]
    return {f: (v.most_common(1)[0][0], line_of[f]) for f, v in votes.items()}
def guess(t, g):
    best = 'A00'
    for k in range(1, min(20, len(g)) + 1):
        c = t.get(key(g, k))
        if c: best = c[0]
    return best
truth = lambda g: max(per[id(g)])[1]
tot = fam = 0
for split in range(5):
    test = [i for i in range(len(corpus)) if i % 5 == split]
    t = table([i for i in range(len(corpus)) if i % 5 != split])
    tot += sum(guess(t, corpus[i]) == truth(corpus[i]) for i in test)
    fam += sum(guess(t, corpus[i])[:2] == truth(corpus[i])[:2] for i in test)
print('5-fold held out: exact', tot, 'family', fam, 'of', len(corpus))
full = table(range(len(corpus)))
print('seen', sum(guess(full, g) == truth(g) for g in corpus), 'entries', len(full))
pickle.dump(full, open('table.pkl', 'wb'))
