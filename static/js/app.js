// The playground's shell: routing between /play/{game}/{code} addresses,
// the position panel, the move list, new game / import / export / undo /
// share, the reader's settings, and the dispatch of moves to the stateless
// API (or, in a match, to live.js).

import { api, ApiError } from './api.js';
import { h } from './dom.js';
import { t, sideName, problemText } from './i18n.js';
import { prefs, setPref, moveText, resolve } from './notation.js';
import * as xiangqi from './xiangqi.js';
import * as gomoku from './gomoku.js';
import * as twenty48 from './twenty48.js';
import * as quoridor from './quoridor.js';
import * as tetris from './tetris.js';
import { Live } from './live.js';
import { createThink } from './think.js';

const BOARDS = { xiangqi, gomoku, 2048: twenty48, quoridor, tetris };
const ORDER = ['xiangqi', 'gomoku', '2048', 'quoridor', 'tetris'];
const NAMES = Object.fromEntries(ORDER.map((g) => [g, t(`game.${g}`)]));
const FORMATS = { xiangqi: 'fen', gomoku: 'rows', 2048: 'grid', quoridor: 'json', tetris: 'json' };
const SIDE_COLORS = { red: '#b23a2e', black: '#1d1f22', white: '#fbfaf6', 1: '#b23a2e', 2: '#2c5a8c' };

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// Only this query parameter survives navigation: it configures the page.
const gravityParam = params.get('gravity');

const state = {
  games: {},
  mode: 'local', // or 'match'
  view: null,
  lastAction: null,
  undo: [],
  // The moves that led here, as far as this page knows them: { ply, side,
  // action, wxf?, chinese? }.
  moves: [],
  board: null,
  boardGame: null,
  chain: Promise.resolve(),
  pending: 0,
  routeSeq: 0,
};

// ---- messages -------------------------------------------------------------

function say(text, kind = 'info') {
  const m = $('message');
  m.replaceChildren(text || '');
  m.className = `message${kind === 'error' && text ? ' error' : ''}`;
}

// A refusal, in the reader's language; the API's own sentence (English)
// stays one tap away.
function fail(e) {
  if (e instanceof ApiError) {
    const text = problemText(e.problem) || (e.status === 0 ? t('error.offline') : t('error.refused'));
    const m = $('message');
    m.className = 'message error';
    m.replaceChildren(text);
    if (e.detail && e.detail !== text) {
      m.append(' ', h('details', { class: 'detail' }, h('summary', {}, t('error.details')), h('span', { lang: 'en' }, e.detail)));
    }
    return;
  }
  console.error(e);
  say(t('error.page'), 'error');
}

// ---- addresses ------------------------------------------------------------

function sticky() {
  return gravityParam !== null ? `?gravity=${encodeURIComponent(gravityParam)}` : '';
}

function pageUrl(game, code) {
  return `/play/${encodeURIComponent(game)}/${encodeURIComponent(code)}${sticky()}`;
}

function parsePath(pathname) {
  const m = pathname.match(/^\/play\/([^/]+)(?:\/([^/]+))?\/?$/);
  if (!m) return {};
  return { game: decodeURIComponent(m[1]), code: m[2] ? decodeURIComponent(m[2]) : null };
}

function setEntry(how, entry, url) {
  if (how === 'push') history.pushState(entry, '', url);
  else history.replaceState(entry, '', url);
}

// ---- the board ------------------------------------------------------------

const ctx = {
  play: (actions, opts) => play(actions, opts),
  say,
  // The row under the board that a game's own controls use (gomoku's
  // confirm, quoridor's wall mode).
  controls: (...nodes) => $('board-controls').replaceChildren(...nodes),
  busy: () => state.pending > 0,
  // Gravity runs in the page's own games only: in a match every tick would
  // be a kept move.
  gravity: () => {
    if (state.mode === 'match') return 0;
    if (gravityParam === null) return 800;
    const n = Number(gravityParam);
    return Number.isFinite(n) && n >= 0 ? n : 800;
  },
  cannotMove: (view) => {
    if (state.mode === 'match') return live.cannotMove(view);
    if (view.status.state !== 'ongoing') return t('play.over_local');
    return null;
  },
};

function ensureBoard(game) {
  if (state.boardGame === game && state.board) return;
  if (state.board) state.board.destroy();
  $('board-controls').replaceChildren();
  state.board = BOARDS[game].mount($('board'), ctx);
  state.boardGame = game;
  $('hint').textContent = state.board.hint || '';
}

// How a game stands, as the status line says it.
function describeStatus(view, matchStatus) {
  const st = matchStatus || view.status;
  const reason = st.reason ? t(`reason.${st.reason}`) : '';
  const suffix = reason ? t('status.because', { reason }) : '';
  if (st.state === 'won') {
    const text = st.winner === 'player' ? t('status.you_win') : t('status.wins', { side: sideName(st.winner) });
    return { text: `${text}${suffix}`, over: true };
  }
  if (st.state === 'drawn') return { text: `${t('status.drawn')}${suffix}`, over: true };
  if (st.state === 'over') return { text: `${t('status.over')}${suffix}`, over: true };
  return { text: view.check ? t('status.check') : '', over: false };
}

function renderStatus(view, matchStatus) {
  const turn = $('turn');
  const st = describeStatus(view, matchStatus);
  turn.replaceChildren();
  if (!st.over) {
    const side = view.to_move;
    if (side === 'player') turn.append(t('status.your_move'));
    else {
      turn.append(h('span', { class: 'dot', style: `background:${SIDE_COLORS[side] || '#888'}`, 'aria-hidden': 'true' }));
      turn.append(t('status.to_move', { side: sideName(side) }));
    }
  }
  const out = $('outcome');
  out.textContent = st.text;
  out.className = `outcome${st.over ? ' over' : ''}`;
}

function facts(view, info) {
  const rows = [];
  const add = (k, v) => rows.push(h('dt', {}, k), h('dd', {}, v));
  add(t('fact.game'), `${NAMES[view.game]}${view.variant && view.variant !== 'standard' ? ` (${t(`variant.${view.variant}`)})` : ''}`);
  const last = state.moves[state.moves.length - 1];
  const lastAction = last || (view.last_move ? { action: view.last_move } : null);
  add(t('fact.last_move'), lastAction ? actionText(view.game, lastAction) : (info.lastLabel || '—'));
  switch (view.game) {
    case 'xiangqi':
      add(t('fact.legal_moves'), String(view.legal_actions.length));
      break;
    case 'gomoku':
      add(t('fact.board'), `${view.size}×${view.size}`);
      add(t('fact.stones'), String(view.board.flat().filter(Boolean).length));
      if (view.variant === 'renju') add(t('fact.forbidden'), view.forbidden.length ? view.forbidden.map((f) => f.point).join(', ') : t('fact.none'));
      break;
    case '2048':
      add(t('fact.score'), String(view.score));
      add(t('fact.best_tile'), String(view.max_tile));
      if (view.won) add('2048', t('fact.reached'));
      break;
    case 'quoridor':
      add(t('fact.walls_left'), `P1 ${view.walls_left[0]} · P2 ${view.walls_left[1]}`);
      add(t('fact.path'), `P1 ${view.shortest_path[0]} · P2 ${view.shortest_path[1]}`);
      break;
    case 'tetris':
      add(t('fact.score'), String(view.score));
      add(t('fact.lines'), String(view.lines));
      add(t('fact.level'), String(view.level));
      if (view.last_lock && view.last_lock.lines) add(t('fact.cleared'), t('fact.cleared_lines', { n: view.last_lock.lines, points: view.last_lock.points }));
      break;
    default:
  }
  if (info.extra) for (const [k, v] of info.extra) add(k, v);
  $('facts').replaceChildren(...rows);
}

// A move as the list and the panel show it: xiangqi in the chosen
// notation, tetris' and 2048's inputs in the reader's words, points and
// squares as they are.
function actionText(game, rec) {
  if (game === 'tetris') return t(`tt.${rec.action}`);
  if (game === '2048') return t(`t48.${rec.action}`);
  return moveText(rec);
}

// Tetris' inputs and 2048's directions typed in the reader's words (左移,
// 上) are the actions they name.
const WORDS = { tetris: ['left', 'right', 'cw', 'ccw', 'soft', 'hard', 'hold', 'tick'], 2048: ['up', 'down', 'left', 'right'] };
function wordsToAction(game, text) {
  const actions = WORDS[game] || [];
  return actions.find((a) => actionText(game, { action: a }) === text.trim()) || text;
}

// The move list: the local game's moves, or the match's kept ones (with a
// "practice from here" per move where the reader may fork).
function renderMoves() {
  const list = $('move-list');
  const moves = state.mode === 'match' ? live.moves : state.moves;
  const fork = state.mode === 'match' ? live.forkable() : false;
  $('moves-empty').hidden = moves.length > 0;
  const items = moves.slice().reverse().map((mv) => h('li', { 'data-ply': mv.ply },
    h('span', { class: 'ply' }, `${mv.ply}.`),
    h('span', { class: 'who' }, sideName(mv.side)),
    h('span', { class: 'mv' }, actionText(state.view ? state.view.game : null, mv)),
    fork ? h('button', { type: 'button', class: 'fork-at', 'aria-label': t('moves.practice_from', { ply: mv.ply }), onclick: () => live.fork(mv.ply).catch(fail) }, t('moves.practice')) : null));
  list.replaceChildren(...items);
}

// Draws a view: the board, the status line and the panel. info carries what
// the code does not hold (the last move) and, in a match, its status.
function showView(view, info = {}) {
  state.view = view;
  state.lastAction = info.lastAction || null;
  if (info.moves) state.moves = info.moves;
  if (info.undo) state.undo = info.undo;
  ensureBoard(view.game);
  const moves = state.mode === 'match' ? live.moves : state.moves;
  state.board.update(view, { lastAction: info.lastAction || view.last_move, flip: !!info.flip, moves });
  renderStatus(view, info.matchStatus);
  facts(view, info);
  renderMoves();
  think.viewChanged(view);
  $('code').textContent = view.code;
  $('undo-btn').disabled = state.mode === 'match' ? false : state.undo.length === 0;
  syncForm(view.game, view.variant);
  for (const a of document.querySelectorAll('#game-tabs a')) {
    if (a.dataset.game === view.game) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  document.title = `${NAMES[view.game]} · ${t('brand.name')}`;
  try { sessionStorage.setItem(`qipan.last.${view.game}`, view.code); } catch { /* storage off */ }
}

function commit(view, info, how) {
  setEntry(how, { game: view.game, code: view.code, lastAction: info.lastAction || null, undo: info.undo || [], moves: info.moves || [] }, pageUrl(view.game, view.code));
  showView(view, info);
}

// ---- playing --------------------------------------------------------------

function play(actions, opts = {}) {
  if (opts.queue && state.pending >= opts.queue) return;
  state.pending++;
  state.chain = state.chain
    .then(() => (state.mode === 'match' ? live.play(actions, opts) : playLocal(actions, opts)))
    .catch(fail)
    .finally(() => { state.pending--; });
}

function isLegal(view, action) {
  return view.legal_actions.some((a) => a.action === action);
}

// What the list keeps of a move played from `view`: its names, when the
// view lists them.
function moveRecord(view, action, ply) {
  const legal = view.legal_actions.find((a) => a.action === action) || {};
  return { ply, side: view.to_move, action, wxf: legal.wxf, chinese: legal.chinese };
}

async function playLocal(actions, opts) {
  const view = state.view;
  if (!view) return;
  if (view.status.state !== 'ongoing') {
    if (!opts.quiet) say(t('play.over_local'), 'error');
    return;
  }
  if (!isLegal(view, actions[0])) {
    if (opts.illegal !== null) say(opts.illegal || t('play.illegal', { action: actions[0] }), 'error');
    return;
  }
  const next = await api.play(view.game, view.code, actions);
  if (state.view !== view || state.mode !== 'local') return;
  const replace = typeof opts.replace === 'function' ? opts.replace(next) : !!opts.replace;
  const undo = replace ? state.undo : [...state.undo, { code: view.code, lastAction: state.lastAction, moves: state.moves.length }].slice(-100);
  // Tetris' moves of the falling piece replace each other; the list keeps
  // what started a new entry.
  const moves = replace ? state.moves : [...state.moves, moveRecord(view, actions[0], state.moves.length + 1)].slice(-200);
  commit(next, { lastAction: actions[actions.length - 1], undo, moves }, replace ? 'replace' : 'push');
  if (!opts.quiet) say('');
  // Playing the computer: it answers each of your moves.
  if (!opts.computer && think.playing) await think.reply();
}

async function undoLocal() {
  if (state.mode === 'match') return live.undo();
  const prev = state.undo[state.undo.length - 1];
  if (!prev) return say(t('play.nothing_to_undo'), 'error');
  const game = state.view.game;
  const view = await api.view(game, prev.code);
  commit(view, { lastAction: prev.lastAction, undo: state.undo.slice(0, -1), moves: state.moves.slice(0, prev.moves) }, 'push');
  say(t('play.undone'));
}

async function startGame(game, opts = {}, how = 'push') {
  const view = await api.start(game, opts);
  const undo = state.view && how === 'push' ? [...state.undo, { code: state.view.code, lastAction: state.lastAction, moves: state.moves.length }].slice(-100) : [];
  if (state.view && state.view.game !== game) undo.length = 0;
  commit(view, { undo, moves: undo.length ? state.moves : [] }, how);
}

// ---- routing --------------------------------------------------------------

async function route() {
  const seq = ++state.routeSeq;
  const { game, code } = parsePath(location.pathname);
  const q = new URLSearchParams(location.search);
  if (game === 'matches' && code) {
    think.stop();
    state.mode = 'match';
    document.body.classList.add('in-match');
    return live.open(code, q.get('invite'), { join: q.get('join') === '1', decline: q.get('decline') === '1' });
  }
  if (state.mode === 'match') live.close();
  state.mode = 'local';
  document.body.classList.remove('in-match');
  if (!game || !BOARDS[game]) {
    let last = null;
    try { last = sessionStorage.getItem('qipan.last.xiangqi'); } catch { /* storage off */ }
    if (last) return openCode('xiangqi', last, 'replace', seq);
    return startGame('xiangqi', {}, 'replace');
  }
  if (!code) {
    return startGame(game, { variant: q.get('variant'), seed: q.get('seed'), size: q.get('size') }, 'replace');
  }
  return openCode(game, code, null, seq);
}

async function openCode(game, code, how, seq) {
  const view = await api.view(game, code);
  if (seq !== state.routeSeq) return;
  const hs = history.state && history.state.code === code ? history.state : {};
  const info = { lastAction: hs.lastAction, undo: hs.undo || [], moves: hs.moves || [] };
  if (how) commit(view, info, how);
  else showView(view, info);
}

function routeSafely() {
  route().catch((e) => {
    fail(e);
    if (e instanceof ApiError && !state.view) {
      const { game } = parsePath(location.pathname);
      $('board').replaceChildren(h('p', { class: 'hint' }, t('play.unreadable'), ' ', h('a', { href: `/play/${BOARDS[game] ? game : 'xiangqi'}` }, t('play.start_new'))));
    }
  });
}

// ---- the panel ------------------------------------------------------------

function syncForm(game, variant) {
  const info = state.games[game];
  const sel = $('variant-select');
  const variants = info ? info.variants : ['standard'];
  if (sel.dataset.game !== game) {
    sel.replaceChildren(...variants.map((v) => h('option', { value: v }, t(`variant.${v}`))));
    sel.dataset.game = game;
    $('seed-input').value = '';
  }
  if (variant && variants.includes(variant)) sel.value = variant;
  sel.disabled = variants.length < 2;
  for (const e of document.querySelectorAll('.for-size')) e.hidden = !(game === 'gomoku' && sel.value === 'freestyle');
  for (const e of document.querySelectorAll('.for-seed')) e.hidden = !(game === '2048' || game === 'tetris');
  const players = info ? info.players : [];
  const side = $('duel-side');
  if (side.dataset.game !== game) {
    side.replaceChildren(...players.map((p) => h('option', { value: p }, sideName(p))));
    side.dataset.game = game;
  }
  const duel = players.length > 1;
  $('duel-btn').hidden = !duel;
  side.hidden = !duel;
  document.querySelector('label[for="duel-side"]').hidden = !duel;
  $('duel-clock').hidden = !duel;
  document.querySelector('label[for="duel-clock"]').hidden = !duel;
  $('seek-btn').disabled = !duel;
  $('seek-btn').title = duel ? t('lobby.post_title', { game: NAMES[game] }) : t('lobby.two_players_only');
  $('notation-row').hidden = game !== 'xiangqi';
  if (info) $('action-input').placeholder = game === 'xiangqi' ? t('play.input_xiangqi') : t('play.input_example', { examples: info.action_syntax.examples.map((a) => actionText(game, { action: a })).join(', ') });
  const fmt = FORMATS[game];
  $('import-label').textContent = t(`import.${fmt}`, { game: NAMES[game] });
}

function renderTabs() {
  $('game-tabs').replaceChildren(...ORDER.map((g) => h('li', {},
    h('a', {
      href: `/play/${g}`, 'data-game': g,
      onclick: (e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        switchGame(g).catch(fail);
      },
    }, NAMES[g]))));
}

async function switchGame(game) {
  if (state.mode === 'match') live.close();
  state.mode = 'local';
  document.body.classList.remove('in-match');
  let last = null;
  try { last = sessionStorage.getItem(`qipan.last.${game}`); } catch { /* storage off */ }
  say('');
  if (last) commit(await api.view(game, last), { undo: [], moves: [] }, 'push');
  else await startGame(game, {}, 'push');
  $('board').focus({ preventScroll: true });
}

async function newGame(e) {
  e.preventDefault();
  const game = state.view ? state.view.game : 'xiangqi';
  if (state.mode === 'match') live.close();
  state.mode = 'local';
  document.body.classList.remove('in-match');
  const variant = $('variant-select').value;
  const seed = $('seed-input').value.trim();
  if (seed && !/^\d{1,20}$/.test(seed)) return say(t('new.seed_digits'), 'error');
  const size = game === 'gomoku' && variant === 'freestyle' ? $('size-select').value : null;
  await startGame(game, { variant: state.games[game]?.variants.length > 1 ? variant : null, seed: seed || null, size: size === '15' ? null : size }, 'push');
  say(t('new.started', { game: NAMES[game] }));
  // Keys go to the game, not to the button just pressed (Space would press it again).
  $('board').focus({ preventScroll: true });
}

async function exportPosition() {
  const v = state.view;
  const out = await api.exportState(v.game, v.code, FORMATS[v.game]);
  const ta = $('import-text');
  if (out.format === 'fen' || out.format === 'rows') ta.value = out.text;
  else {
    const { game: _g, code: _c, ...body } = out;
    ta.value = JSON.stringify(body, null, 1);
  }
  say(t('import.exported'));
}

async function importPosition() {
  const game = state.view.game;
  const text = $('import-text').value.trim();
  if (!text) return say(t('import.empty'), 'error');
  let body;
  if (text.startsWith('{')) {
    try { body = JSON.parse(text); } catch { return say(t('import.bad_json'), 'error'); }
    body.format ||= FORMATS[game];
  } else if (game === 'xiangqi') body = { format: 'fen', text };
  else if (game === 'gomoku') body = { format: 'rows', text: `${text}\n`.replace(/\r/g, '').replace(/\n+$/, '\n'), variant: $('variant-select').value };
  else return say(t('import.json_only', { game: NAMES[game] }), 'error');
  const view = await api.importState(game, body);
  if (state.mode === 'match') live.close();
  state.mode = 'local';
  commit(view, { undo: [...state.undo, { code: state.view.code, lastAction: state.lastAction, moves: state.moves.length }], moves: [] }, 'push');
  say(t('import.done'));
}

// ---- game records ---------------------------------------------------------

// The file a player picked or dropped on the record box, kept until Import.
let recordFile = null;

// The media type a record is sent as: by its file's name, or by what the
// pasted text looks like.
function recordType(game, name, text) {
  const ext = (name || '').toLowerCase().split('.').pop();
  if (game === 'gomoku' && ext === 'pos') return 'application/octet-stream';
  if (game === 'gomoku' && ext === 'lib') return 'application/x-renlib';
  if (game !== 'xiangqi') return 'text/plain';
  if (ext === 'xqf') return 'application/x-xqf';
  if (ext === 'pgn') return 'application/x-chess-pgn';
  if (text !== null && text.includes('[DhtmlXQ')) return 'text/plain';
  return ext === 'txt' ? 'text/plain' : 'application/x-chess-pgn';
}

// Sends a record file (or the pasted text) to POST /v1/{game}/records and
// opens the match it makes.
async function importRecord() {
  const game = state.view ? state.view.game : 'xiangqi';
  const text = $('record-text').value;
  let body;
  let type;
  if (recordFile) {
    body = await recordFile.arrayBuffer();
    type = recordType(game, recordFile.name, null);
  } else if (text.trim()) {
    body = text;
    type = `${recordType(game, '', text)}; charset=utf-8`;
  } else return say(t('record.empty'), 'error');
  const res = await fetch(`/v1/${game}/records`, {
    method: 'POST',
    headers: { 'content-type': type, accept: 'application/json, application/problem+json' },
    body,
  }).catch(() => { throw new ApiError(0, null); });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, json);
  try {
    localStorage.setItem(`qipan.seat.${json.id}`, JSON.stringify({ token: json.token, seat: json.seat }));
  } catch { /* storage off: the match opens without its seat */ }
  location.assign(`/play/matches/${json.id}`);
}

// The export links of the match on screen: its record formats and, once
// it is over, its animated replay.
function renderRecordLinks() {
  const out = $('record-export');
  const m = /^\/play\/matches\/([0-9a-f-]{36})/.exec(location.pathname);
  const game = state.view ? state.view.game : null;
  const formats = { xiangqi: ['pgn', 'xqf'], gomoku: ['psq', 'txt'], quoridor: ['txt'] }[game] || [];
  if (!m) {
    out.replaceChildren(t('record.export_none'));
    return;
  }
  const base = `/v1/matches/${m[1]}`;
  const links = formats.map((ext) => h('a', { href: `${base}/record.${ext}`, download: '' }, ext.toUpperCase()));
  if (game === 'xiangqi') links.push(h('a', { href: `${base}/record.pgn?charset=gbk`, download: '' }, 'PGN (GBK)'));
  links.push(h('a', { href: `${base}/replay.gif`, target: '_blank', rel: 'noopener' }, t('record.replay')));
  if (game === 'tetris' && state.view) links.push(h('a', { href: `/v1/tetris/${state.view.code}/fumen`, target: '_blank', rel: 'noopener' }, 'fumen'));
  const parts = [t('record.export'), ' '];
  links.forEach((a, i) => parts.push(...(i ? [' · ', a] : [a])));
  out.replaceChildren(...parts);
}

function wireRecordBox() {
  const box = $('record-box');
  const area = $('record-text');
  $('record-file').addEventListener('change', (e) => { recordFile = e.target.files[0] || null; });
  area.addEventListener('input', () => { recordFile = null; $('record-file').value = ''; });
  for (const target of [box, area]) {
    target.addEventListener('dragover', (e) => { e.preventDefault(); });
    target.addEventListener('drop', (e) => {
      e.preventDefault();
      const file = e.dataTransfer && e.dataTransfer.files[0];
      if (!file) return;
      recordFile = file;
      area.value = '';
      say(t('record.dropped', { name: file.name }));
    });
  }
  box.addEventListener('toggle', () => { if (box.open) renderRecordLinks(); });
  $('record-btn').addEventListener('click', () => importRecord().catch(fail));
}

// Shares a link the way the phone does (the system's share sheet), or
// copies it.
async function shareLink(url, title) {
  if (navigator.share && matchMedia('(pointer: coarse)').matches) {
    try {
      await navigator.share({ url, title });
      return;
    } catch (e) {
      if (e && e.name === 'AbortError') return;
    }
  }
  await copyText(url);
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    say(t('share.copied', { link: text }));
  } catch {
    say(t('share.copy_this', { link: text }));
  }
}

function positionLink() {
  const v = state.view;
  return v.page || `${location.origin}/p/${encodeURIComponent(v.game)}/${encodeURIComponent(v.code)}`;
}

function onKey(e) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  const tg = e.target;
  if (tg && (tg.closest('input, textarea, select, [contenteditable]') || (tg.closest('button, a, summary') && (e.key === ' ' || e.key === 'Enter')))) return;
  if (state.board && state.board.key && state.board.key(e)) e.preventDefault();
}

// The typed move: ICCS, WXF or Chinese for xiangqi (resolved here against
// the legal moves' names), the game's notation otherwise.
function playTyped(e) {
  e.preventDefault();
  const text = $('action-input').value.trim();
  if (!text || !state.view) return;
  const why = ctx.cannotMove(state.view);
  if (why) return say(why, 'error');
  const found = resolve(state.view, wordsToAction(state.view.game, text));
  if (found.error === 'ambiguous') return say(t('play.ambiguous', { text, moves: found.matches.map(moveText).join(' / ') }), 'error');
  if (found.error) return say(t('play.unknown_move', { text }), 'error');
  play([found.action], {});
  $('action-input').value = '';
}

// ---- settings ---------------------------------------------------------------

function wireSettings() {
  const p = prefs();
  for (const [id, name] of [['pref-notation', 'notation'], ['pref-pieces', 'pieces'], ['pref-confirm', 'confirm']]) {
    const sel = $(id);
    sel.value = p[name];
    sel.addEventListener('change', () => {
      setPref(name, sel.value);
      if (state.view) showView(state.view, { lastAction: state.lastAction });
      if (state.mode === 'match') live.renderPanel();
    });
  }
}

// The language links carry the address to come back to; the server sets
// the cookie that remembers the choice.
function wireLanguages() {
  for (const a of document.querySelectorAll('a[data-lang]')) {
    a.addEventListener('click', () => {
      a.href = `/lang/${a.dataset.lang}?to=${encodeURIComponent(location.pathname + location.search)}`;
    });
  }
}

// ---- wiring ---------------------------------------------------------------

const think = createThink({
  state,
  say,
  fail,
  sideName,
  actionText,
  playLocal,
  // Queued with the page's own moves, so a reply never overtakes one.
  run: (fn) => {
    state.pending++;
    state.chain = state.chain.then(fn).catch(fail).finally(() => { state.pending--; });
  },
});

const live = new Live({
  say, fail, showView, copyText, shareLink, pageUrl, names: NAMES, colors: SIDE_COLORS, navigate, state, moveRecord, renderMoves,
});

function wire() {
  renderTabs();
  wireSettings();
  think.wire();
  wireLanguages();
  $('new-form').addEventListener('submit', (e) => newGame(e).catch(fail));
  $('variant-select').addEventListener('change', () => syncForm(state.view ? state.view.game : 'xiangqi'));
  $('undo-btn').addEventListener('click', () => undoLocal().catch(fail));
  $('copy-btn').addEventListener('click', () => (state.mode === 'match' ? live.share() : shareLink(positionLink(), document.title)).catch(fail));
  $('export-btn').addEventListener('click', () => exportPosition().catch(fail));
  $('import-btn').addEventListener('click', () => importPosition().catch(fail));
  wireRecordBox();
  live.replay.wire();
  $('action-form').addEventListener('submit', playTyped);
  $('solo-btn').addEventListener('click', () => live.create('solo').catch(fail));
  $('duel-btn').addEventListener('click', () => live.create('duel', $('duel-side').value).catch(fail));
  $('seek-btn').addEventListener('click', () => live.postSeek().catch(fail));
  $('seek-withdraw').addEventListener('click', () => live.withdrawSeek().catch(fail));
  $('moves-btn').addEventListener('click', () => $('moves-panel').scrollIntoView({ behavior: 'smooth', block: 'start' }));
  $('share-btn').addEventListener('click', () => (state.mode === 'match' ? live.share() : shareLink(positionLink(), document.title)).catch(fail));
  $('fork-btn').addEventListener('click', () => live.fork(null).catch(fail));
  document.addEventListener('keydown', onKey);
  window.addEventListener('popstate', routeSafely);
}

async function main() {
  wire();
  try {
    const list = await api.games();
    for (const g of list.games) state.games[g.game] = g;
  } catch (e) {
    fail(e);
  }
  routeSafely();
  live.startLobby();
}

main();

// Moves the page to another of its addresses and draws it, from the top:
// a match's first screen is its players and board.
function navigate(url, how = 'push') {
  setEntry(how, null, url);
  window.scrollTo(0, 0);
  routeSafely();
}


