// Runs vschess's transcription of xqbase's ECCO classifier on WXF lines
// read from stdin (one line of space-separated moves each) and prints
// "code<TAB>opening<TAB>variation" for each.
const fs = require('fs');
const src = fs.readFileSync(__dirname + '/main.js', 'utf8');
const dirStart = src.indexOf('eccoDir: {');
let depth = 0, i = src.indexOf('{', dirStart), j = i;
for (; j < src.length; j++) { if (src[j] === '{') depth++; else if (src[j] === '}') { depth--; if (depth === 0) break; } }
const vs = { defaultFen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1" };
vs.eccoDir = eval('(' + src.slice(i, j + 1) + ')');
const fn = fs.readFileSync(__dirname + '/function.js', 'utf8');
const t = fn.indexOf('vs.turnWXF = function');
let k = fn.indexOf('{', t), d = 0, e = k;
for (; e < fn.length; e++) { if (fn[e] === '{') d++; else if (fn[e] === '}') { d--; if (d === 0) break; } }
eval(fn.slice(t, e + 1));
eval(fs.readFileSync(__dirname + '/wxfToEcco.js', 'utf8'));
const lines = fs.readFileSync(0, 'utf8').split('\n');
const out = [];
for (const line of lines) {
  if (line === '') continue;
  const moves = line === '-' ? [] : line.trim().split(/\s+/);
  const r = vs.WXF2ECCO(moves);
  out.push(r.ecco + '\t' + r.opening + '\t' + r.variation);
}
process.stdout.write(out.join('\n') + '\n');
