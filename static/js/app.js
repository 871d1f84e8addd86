// The playground's shell: routing between /play/{game}/{code} addresses,
// the position panel, new game / import / export / undo / share, and the
// dispatch of moves to the stateless API (or, in a match, to live.js).

import { api, ApiError } from './api.js';
import { h } from './dom.js';
import * as xiangqi from './xiangqi.js';
import * as gomoku from './gomoku.js';
import * as twenty48 from './twenty48.js';
import * as quoridor from './quoridor.js';
import * as tetris from './tetris.js';
import { Live } from './live.js';

const BOARDS = { xiangqi, gomoku, 2048: twenty48, quoridor, tetris };
const ORDER = ['xiangqi', 'gomoku', '2048', 'quoridor', 'tetris'];
const NAMES = { xiangqi: 'Xiangqi 象棋', gomoku: 'Gomoku 五子棋', 2048: '2048', quoridor: 'Quoridor', tetris: 'Tetris' };
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
  lastLabel: null,
  undo: [],
  board: null,
  boardGame: null,
  chain: Promise.resolve(),
  pending: 0,
  routeSeq: 0,
};

// ---- messages -------------------------------------------------------------

function say(text, kind = 'info') {
  const m = $('message');
  m.textContent = text || '';
  m.className = `message${kind === 'error' && text ? ' error' : ''}`;
}

function fail(e) {
  if (e instanceof ApiError) say(e.detail, 'error');
  else {
    console.error(e);
    say(String(e && e.message ? e.message : e), 'error');
  }
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

function label(side, game) {
  if (game === 'quoridor') return `Player ${side}`;
  if (side === 'player') return 'You';
  return side ? side[0].toUpperCase() + side.slice(1) : '';
}

const ctx = {
  play: (actions, opts) => play(actions, opts),
  say,
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
    if (view.status.state !== 'ongoing') return 'The game is over: start a new game, or undo.';
    return null;
  },
};

function ensureBoard(game) {
  if (state.boardGame === game && state.board) return;
  if (state.board) state.board.destroy();
  state.board = BOARDS[game].mount($('board'), ctx);
  state.boardGame = game;
  $('hint').textContent = state.board.hint || '';
}

// How the reasons a match can end for read after "Red wins — ".
const REASONS = {
  timeout: 'on time',
  agreement: 'by agreement',
  abandoned: 'the other side left (claimed)',
  resigned: 'by resignation',
};

function describeStatus(view, matchStatus) {
  const st = matchStatus || view.status;
  const reason = st.reason ? (REASONS[st.reason] || st.reason.replace(/-/g, ' ')) : '';
  if (st.state === 'won') return { text: `${label(st.winner, view.game)} ${st.winner === 'player' ? 'win' : 'wins'}${reason ? ` — ${reason}` : ''}`, over: true };
  if (st.state === 'drawn') return { text: `Draw${reason ? ` — ${reason}` : ''}`, over: true };
  if (st.state === 'over') return { text: `Game over${reason ? ` — ${reason}` : ''}`, over: true };
  return { text: view.check ? 'Check!' : '', over: false };
}

function renderStatus(view, matchStatus) {
  const turn = $('turn');
  const st = describeStatus(view, matchStatus);
  turn.replaceChildren();
  if (!st.over) {
    const side = view.to_move;
    if (side === 'player') turn.append('Your move');
    else {
      turn.append(h('span', { class: 'dot', style: `background:${SIDE_COLORS[side] || '#888'}`, 'aria-hidden': 'true' }));
      turn.append(`${label(side, view.game)} to move`);
    }
  }
  const out = $('outcome');
  out.textContent = st.text;
  out.className = `outcome${st.over ? ' over' : ''}`;
}

function facts(view, info) {
  const rows = [];
  const add = (k, v) => rows.push(h('dt', {}, k), h('dd', {}, v));
  add('Game', `${NAMES[view.game]}${view.variant && view.variant !== 'standard' ? ` (${view.variant})` : ''}`);
  const lastMove = info.lastLabel || view.last_move || null;
  add('Last move', lastMove || '—');
  switch (view.game) {
    case 'xiangqi':
      add('Legal moves', String(view.legal_actions.length));
      break;
    case 'gomoku':
      add('Board', `${view.size}×${view.size}`);
      add('Stones', String(view.board.flat().filter(Boolean).length));
      if (view.variant === 'renju') add('Forbidden', view.forbidden.length ? view.forbidden.map((f) => `${f.point} (${f.reason})`).join(', ') : 'none');
      break;
    case '2048':
      add('Score', String(view.score));
      add('Best tile', String(view.max_tile));
      if (view.won) add('2048', 'reached — keep going!');
      break;
    case 'quoridor':
      add('Walls left', `P1 ${view.walls_left[0]} · P2 ${view.walls_left[1]}`);
      add('Path to goal', `P1 ${view.shortest_path[0]} · P2 ${view.shortest_path[1]}`);
      break;
    case 'tetris':
      add('Score', String(view.score));
      add('Lines', String(view.lines));
      add('Level', String(view.level));
      if (view.last_lock && view.last_lock.lines) add('Cleared', `${view.last_lock.lines} line${view.last_lock.lines > 1 ? 's' : ''} (+${view.last_lock.points})`);
      break;
    default:
  }
  if (info.extra) for (const [k, v] of info.extra) add(k, v);
  $('facts').replaceChildren(...rows);
}

// Draws a view: the board, the status line and the panel. info carries what
// the code does not hold (the last move) and, in a match, its status.
function showView(view, info = {}) {
  state.view = view;
  state.lastAction = info.lastAction || null;
  state.lastLabel = info.lastLabel || null;
  if (info.undo) state.undo = info.undo;
  ensureBoard(view.game);
  state.board.update(view, { lastAction: info.lastAction || view.last_move, flip: !!info.flip });
  renderStatus(view, info.matchStatus);
  facts(view, info);
  $('code').textContent = view.code;
  $('undo-btn').disabled = state.mode === 'match' ? false : state.undo.length === 0;
  syncForm(view.game, view.variant);
  for (const a of document.querySelectorAll('#game-tabs a')) {
    if (a.dataset.game === view.game) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  document.title = `${NAMES[view.game]} · qipan`;
  try { sessionStorage.setItem(`qipan.last.${view.game}`, view.code); } catch { /* storage off */ }
}

function commit(view, info, how) {
  setEntry(how, { game: view.game, code: view.code, lastAction: info.lastAction || null, lastLabel: info.lastLabel || null, undo: info.undo || [] }, pageUrl(view.game, view.code));
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

async function playLocal(actions, opts) {
  const view = state.view;
  if (!view) return;
  if (view.status.state !== 'ongoing') {
    if (!opts.quiet) say('The game is over: start a new game, or undo.', 'error');
    return;
  }
  if (!isLegal(view, actions[0])) {
    if (opts.illegal !== null) say(opts.illegal || `${actions[0]} is not a legal action here.`, 'error');
    return;
  }
  const next = await api.play(view.game, view.code, actions);
  if (state.view !== view || state.mode !== 'local') return;
  const replace = typeof opts.replace === 'function' ? opts.replace(next) : !!opts.replace;
  const undo = replace ? state.undo : [...state.undo, { code: view.code, lastAction: state.lastAction, lastLabel: state.lastLabel }].slice(-100);
  commit(next, { lastAction: actions[actions.length - 1], lastLabel: opts.label || actions.join(' '), undo }, replace ? 'replace' : 'push');
  if (!opts.quiet) say('');
}

async function undoLocal() {
  if (state.mode === 'match') return live.undo();
  const prev = state.undo[state.undo.length - 1];
  if (!prev) return say('Nothing to undo on this page.', 'error');
  const game = state.view.game;
  const view = await api.view(game, prev.code);
  commit(view, { lastAction: prev.lastAction, lastLabel: prev.lastLabel, undo: state.undo.slice(0, -1) }, 'push');
  say('Took the last move back.');
}

async function startGame(game, opts = {}, how = 'push') {
  const view = await api.start(game, opts);
  const undo = state.view && how === 'push' ? [...state.undo, { code: state.view.code, lastAction: state.lastAction, lastLabel: state.lastLabel }].slice(-100) : [];
  if (state.view && state.view.game !== game) undo.length = 0;
  commit(view, { undo }, how);
}

// ---- routing --------------------------------------------------------------

async function route() {
  const seq = ++state.routeSeq;
  const { game, code } = parsePath(location.pathname);
  const q = new URLSearchParams(location.search);
  if (game === 'matches' && code) {
    state.mode = 'match';
    document.body.classList.add('in-match');
    return live.open(code, q.get('invite'), q.get('join') === '1');
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
  const info = { lastAction: hs.lastAction, lastLabel: hs.lastLabel, undo: hs.undo || [] };
  if (how) commit(view, info, how);
  else showView(view, info);
}

function routeSafely() {
  route().catch((e) => {
    fail(e);
    if (e instanceof ApiError && !state.view) {
      const { game } = parsePath(location.pathname);
      $('board').replaceChildren(h('p', { class: 'hint' }, 'This address holds no position qipan can read. ', h('a', { href: `/play/${BOARDS[game] ? game : 'xiangqi'}` }, 'Start a new game')));
    }
  });
}

// ---- the panel ------------------------------------------------------------

function syncForm(game, variant) {
  const info = state.games[game];
  const sel = $('variant-select');
  const variants = info ? info.variants : ['standard'];
  if (sel.dataset.game !== game) {
    sel.replaceChildren(...variants.map((v) => h('option', { value: v }, v)));
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
    side.replaceChildren(...players.map((p) => h('option', { value: p }, label(p, game))));
    side.dataset.game = game;
  }
  const duel = players.length > 1;
  $('duel-btn').hidden = !duel;
  side.hidden = !duel;
  document.querySelector('label[for="duel-side"]').hidden = !duel;
  $('duel-clock').hidden = !duel;
  document.querySelector('label[for="duel-clock"]').hidden = !duel;
  $('seek-btn').disabled = !duel;
  $('seek-btn').title = duel ? `Post an open ${NAMES[game]} game to the lobby` : 'The lobby has two-player games only';
  if (info) $('action-input').placeholder = `e.g. ${info.action_syntax.examples.join(', ')}`;
  const fmt = FORMATS[game];
  $('import-label').textContent = fmt === 'fen' ? 'Xiangqi FEN' : fmt === 'rows' ? 'Rows (15 or 19 lines of . x o, top row first); the variant above applies' : fmt === 'grid' ? '2048 JSON: {"board": [[…4 rows…]], "score", "seed"}' : `${NAMES[game]} JSON, as export writes it`;
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
  if (last) commit(await api.view(game, last), { undo: [] }, 'push');
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
  if (seed && !/^\d{1,20}$/.test(seed)) return say('The seed is a whole number (digits only).', 'error');
  const size = game === 'gomoku' && variant === 'freestyle' ? $('size-select').value : null;
  await startGame(game, { variant: state.games[game]?.variants.length > 1 ? variant : null, seed: seed || null, size: size === '15' ? null : size }, 'push');
  say(`New ${NAMES[game]} game.`);
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
  say('Exported: edit it and Import, or copy it.');
}

async function importPosition() {
  const game = state.view.game;
  const text = $('import-text').value.trim();
  if (!text) return say('Paste a position to import first.', 'error');
  let body;
  if (text.startsWith('{')) {
    try { body = JSON.parse(text); } catch (e) { return say(`That is not valid JSON: ${e.message}`, 'error'); }
    body.format ||= FORMATS[game];
  } else if (game === 'xiangqi') body = { format: 'fen', text };
  else if (game === 'gomoku') body = { format: 'rows', text: `${text}\n`.replace(/\r/g, '').replace(/\n+$/, '\n'), variant: $('variant-select').value };
  else return say(`${NAMES[game]} positions are imported as JSON.`, 'error');
  const view = await api.importState(game, body);
  if (state.mode === 'match') live.close();
  state.mode = 'local';
  commit(view, { undo: [...state.undo, { code: state.view.code, lastAction: state.lastAction, lastLabel: state.lastLabel }], lastLabel: 'imported' }, 'push');
  say('Imported.');
}

async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    say(`${what} copied: ${text}`);
  } catch {
    say(`Copy this ${what.toLowerCase()}: ${text}`);
  }
}

function shareLink() {
  const v = state.view;
  return `${location.origin}/p/${encodeURIComponent(v.game)}/${encodeURIComponent(v.code)}`;
}

function onKey(e) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t && (t.closest('input, textarea, select, [contenteditable]') || (t.closest('button, a, summary') && (e.key === ' ' || e.key === 'Enter')))) return;
  if (state.board && state.board.key && state.board.key(e)) e.preventDefault();
}

// ---- wiring ---------------------------------------------------------------

const live = new Live({ say, fail, showView, copyText, pageUrl, label, names: NAMES, colors: SIDE_COLORS, navigate, state });

function wire() {
  renderTabs();
  $('new-form').addEventListener('submit', (e) => newGame(e).catch(fail));
  $('variant-select').addEventListener('change', () => syncForm(state.view ? state.view.game : 'xiangqi'));
  $('undo-btn').addEventListener('click', () => undoLocal().catch(fail));
  $('copy-btn').addEventListener('click', () => copyText(state.mode === 'match' ? live.pageLink() : shareLink(), 'Link'));
  $('export-btn').addEventListener('click', () => exportPosition().catch(fail));
  $('import-btn').addEventListener('click', () => importPosition().catch(fail));
  $('action-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const a = $('action-input').value.trim();
    if (!a || !state.view) return;
    const why = ctx.cannotMove(state.view);
    if (why) return say(why, 'error');
    play([a], { label: a });
    $('action-input').value = '';
  });
  $('solo-btn').addEventListener('click', () => live.create('solo').catch(fail));
  $('duel-btn').addEventListener('click', () => live.create('duel', $('duel-side').value).catch(fail));
  $('seek-btn').addEventListener('click', () => live.postSeek().catch(fail));
  $('seek-withdraw').addEventListener('click', () => live.withdrawSeek().catch(fail));
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

// Moves the page to another of its addresses and draws it.
function navigate(url, how = 'push') {
  setEntry(how, null, url);
  routeSafely();
}
