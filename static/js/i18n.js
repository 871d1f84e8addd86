// The page's words: the catalogue of its language, which the server put in
// the page (`<script id="catalogue">`, from static/i18n/<lang>.json, the
// same file the server-rendered pages read), and the formatting of times in
// the reader's language and time zone.
//
// `t('key', {name: value})` fills `{name}` in the text of `key`. Problems
// from the API are shown by their kind (and reason) from the catalogue; the
// API's English `detail` is kept as the secondary line.

const element = document.getElementById('catalogue');
let words = {};
try {
  words = element ? JSON.parse(element.textContent) : {};
} catch {
  words = {};
}

// `zh-Hans`, `zh-Hant` or `en`: what `<html lang>` says.
export const lang = document.documentElement.lang || 'zh-Hans';
export const chinese = lang.startsWith('zh');

export function t(key, args) {
  let text = words[key];
  if (text === undefined) {
    console.warn(`no text for ${key} in the ${lang} catalogue`);
    text = key;
  }
  if (!args) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in args && args[k] != null ? String(args[k]) : m));
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(words, key);
}

// The kind of a problem (`/problems/illegal-action` → `illegal-action`).
export function problemKind(problem) {
  const type = problem && typeof problem.type === 'string' ? problem.type : '';
  const m = type.match(/\/problems\/([a-z0-9-]+)$/);
  return m ? m[1] : null;
}

// What a problem says to a person: the catalogue's message for its kind
// and reason, filled with its members; `null` when the catalogue has none.
export function problemText(problem) {
  const kind = problemKind(problem);
  if (!kind) return null;
  const args = { ...problem };
  if (problem.claimable_at) args.when = untilText(problem.claimable_at);
  if (problem.seat) args.seat = sideName(problem.seat);
  const keys = problem.reason ? [`problem.${kind}.${problem.reason}`, `problem.${kind}`] : [`problem.${kind}`];
  const key = keys.find(has);
  return key ? t(key, args) : null;
}

// A side as a sentence names it, in the page's language: 红方, Black, 玩家 1.
// The name a seat shows: its holder's, or the computer's (which has none of
// its own) in the page's language with its level.
export function seatName(seat) {
  if (seat.computer) {
    return seat.computer.level ? t('seat.computer_level', { level: seat.computer.level }) : t('seat.computer');
  }
  return seat.name || '';
}

export function sideName(side) {
  if (side === '1' || side === '2' || side === 1 || side === 2) return t('side.player_n', { n: side });
  if (side === 'player' || side === 'solo') return t('side.player');
  if (has(`side.${side}`)) return t(`side.${side}`);
  return String(side);
}

const relative = (() => {
  try {
    return new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  } catch {
    return null;
  }
})();

// How long until an RFC 3339 moment, as the reader says it ("3 分钟后",
// "in 3 minutes"), within the sentence of `claim.when`.
export function untilText(rfc3339) {
  const ms = Date.parse(rfc3339) - Date.now();
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (!relative) return clockTime(rfc3339);
  if (seconds < 60) return relative.format(seconds, 'second');
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return relative.format(minutes, 'minute');
  return relative.format(Math.round(minutes / 60), 'hour');
}

// A moment as the reader's clock shows it (their time zone): 14:05.
export function clockTime(rfc3339) {
  const d = new Date(rfc3339);
  try {
    return d.toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' });
  } catch {
    return d.toTimeString().slice(0, 5);
  }
}
