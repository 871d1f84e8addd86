// How moves are written and read: the reader's choices (notation, piece
// style, confirm-before-place), kept in localStorage under `qipan.prefs`;
// a move as the move list shows it; and typed text resolved against the
// names the state view gives every legal move (ICCS `h2e2`, WXF `C2.5`,
// Chinese `炮二平五`), so that 炮二平五, 炮2平5, 砲二平五, 马８进７, c2.5
// and h2e2 all play the same move.

const KEY = 'qipan.prefs';
const DEFAULTS = { notation: 'chinese', pieces: 'simplified', confirm: 'auto' };

export function prefs() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || '{}') };
  } catch {
    return { ...DEFAULTS };
  }
}

export function setPref(name, value) {
  const next = { ...prefs(), [name]: value };
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch { /* storage off: the choice lasts as long as the page */ }
  return next;
}

// Whether a tap only chooses a point and a second tap (or the confirm
// button) places: on by default where the pointer is a finger.
export function confirmFirst() {
  const c = prefs().confirm;
  if (c === 'on') return true;
  if (c === 'off') return false;
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
}

// The glyphs of the two piece styles, by side and role.
const GLYPHS = {
  simplified: {
    red: { general: '帅', advisor: '仕', elephant: '相', horse: '马', chariot: '车', cannon: '炮', soldier: '兵' },
    black: { general: '将', advisor: '士', elephant: '象', horse: '马', chariot: '车', cannon: '炮', soldier: '卒' },
  },
  traditional: {
    red: { general: '帥', advisor: '仕', elephant: '相', horse: '傌', chariot: '俥', cannon: '炮', soldier: '兵' },
    black: { general: '將', advisor: '士', elephant: '象', horse: '馬', chariot: '車', cannon: '砲', soldier: '卒' },
  },
};

export function glyph(side, role) {
  const style = GLYPHS[prefs().pieces] || GLYPHS.simplified;
  return style[side][role];
}

// The API writes Chinese names with simplified glyphs; in the traditional
// style they take the side's own glyphs (and 進/後), as the board does.
const TO_TRADITIONAL = {
  red: { 车: '俥', 马: '傌', 帅: '帥', 进: '進', 后: '後' },
  black: { 车: '車', 马: '馬', 炮: '砲', 将: '將', 进: '進', 后: '後' },
};

export function chineseStyled(name, side) {
  if (prefs().pieces !== 'traditional' || !TO_TRADITIONAL[side]) return name;
  return [...name].map((c) => TO_TRADITIONAL[side][c] || c).join('');
}

// A kept move as the list shows it, in the chosen notation: `rec` has the
// ICCS `action` and, for xiangqi, `wxf` and `chinese` when they are known.
export function moveText(rec) {
  const n = prefs().notation;
  if (n === 'wxf' && rec.wxf) return rec.wxf;
  if (n === 'chinese' && rec.chinese) return chineseStyled(rec.chinese, rec.side);
  return rec.action;
}

// What typed text is compared as: digits and letters half-width, Chinese
// numerals as digits, traditional glyphs simplified, WXF's other letters
// (B for the elephant, N for the horse) and `=` for `.`, no spaces.
const FOLD = {
  俥: '车', 車: '车', 伡: '车', 傌: '马', 馬: '马', 砲: '炮', 包: '炮', 帥: '帅', 將: '将',
  進: '进', 後: '后', 仕: '士', 相: '象', 兵: '卒',
  一: '1', 二: '2', 三: '3', 四: '4', 五: '5', 六: '6', 七: '7', 八: '8', 九: '9',
};

export function fold(text) {
  let out = '';
  for (const ch of text.normalize('NFKC')) {
    if (/\s/.test(ch)) continue;
    out += FOLD[ch] || ch;
  }
  out = out.toUpperCase().replace(/=/g, '.');
  // WXF (`C2.5`, `H+.3`): other books write B for the elephant, N for the
  // horse. (ICCS, `b0c2`, has a letter where WXF has its direction.)
  if (/^[A-Z][1-9+-][.+-][1-9]$/.test(out)) out = out.replace(/^B/, 'E').replace(/^N/, 'H');
  return out;
}

// The legal action typed `text` names, or why none: `{ action }` or
// `{ error: 'unknown' | 'ambiguous', matches }`.
export function resolve(view, text) {
  const typed = text.trim();
  if (!typed) return { error: 'unknown', matches: [] };
  const exact = view.legal_actions.find((a) => a.action === typed || a.action === typed.toLowerCase());
  if (exact) return { action: exact.action };
  if (view.game !== 'xiangqi') return { action: typed };
  const want = fold(typed);
  const matches = view.legal_actions.filter((a) => [a.action, a.wxf, a.chinese].some((n) => n && fold(n) === want));
  if (matches.length === 1) return { action: matches[0].action };
  return { error: matches.length ? 'ambiguous' : 'unknown', matches };
}
