# Writes the two data files of qipan-records' ECCO classifier:
#   ecco-names.tsv  code, opening, variation (vschess's eccoDir, xqbase's names)
#   ecco-lines.tsv  code, line in ICCS (the table derive.py builds)
import pickle, re, sys
src = open('main.js', encoding='utf-8').read()
out = open(sys.argv[1] + '/ecco-names.tsv', 'w', encoding='utf-8')
out.write('# ECCO codes and names: xqbase.com\'s ECCO 2004 opening classification, as the\n')
out.write('# eccoDir table of vschess (github.com/FastLight126/vschess, main.js, LGPL/GPL) lists it.\n')
out.write('# Codes the directory leaves blank are not listed. Columns: code, opening, variation.\n')
for letter in 'ABCDE':
    m = re.search(letter + r': "([^"]*)"\.split', src)
    names = m.group(1).split(' ')
    assert len(names) <= 100, (letter, len(names))
    for i, n in enumerate(names):
        if n:
            opening, _, variation = n.partition('#')
            out.write(f'{letter}{i:02d}\t{opening}\t{variation}\n')
out.close()
table = pickle.load(open('table.pkl', 'rb'))
rows = sorted((code, ' '.join(line)) for code, line in table.values())
out = open(sys.argv[1] + '/ecco-lines.tsv', 'w', encoding='utf-8')
out.write('# ECCO lines: where a line of the first 20 plies changes its ECCO code. Made by\n')
out.write('# scripts/ecco/ from 1125 master games (github.com/maksimKorzh/wukong-xiangqi,\n')
out.write('# apps/game_viewer/gui/pgn2js/games.pgn, MIT) classified by xqbase\'s ECCO rules as\n')
out.write('# vschess transcribes them (function.wxfToEcco.js). Lines start on red\'s right half\n')
out.write('# (mirror a game whose first move starts on the left). Columns: code, ICCS moves.\n')
for code, line in rows:
    out.write(f'{code}\t{line}\n')
out.close()
print(len(rows))
