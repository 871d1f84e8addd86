// Tetris: the well as SVG with the ghost piece, hold and next queue; the
// keyboard plays the API's inputs, and a timer sends `tick` (gravity).
// `?gravity=<ms>` sets the gravity period at level 1 (0 pauses it).
// By touch: drag sideways to move a column per column dragged, tap to turn,
// swipe down to drop, swipe up to hold; or the buttons under the well.

import { s, h } from './dom.js';
import { t } from './i18n.js';

const CELL = 26;
const COLORS = {
  I: '#4fb3bf', O: '#e8c547', T: '#9b6fc2', S: '#6db36a', Z: '#d9614c', J: '#4f7cc9', L: '#e3944a', X: '#8d9098',
};
const SHAPES = {
  I: [[0, 0], [1, 0], [2, 0], [3, 0]],
  O: [[1, 0], [2, 0], [1, 1], [2, 1]],
  T: [[1, 0], [0, 1], [1, 1], [2, 1]],
  S: [[1, 0], [2, 0], [0, 1], [1, 1]],
  Z: [[0, 0], [1, 0], [1, 1], [2, 1]],
  J: [[0, 0], [0, 1], [1, 1], [2, 1]],
  L: [[2, 0], [0, 1], [1, 1], [2, 1]],
};
const KEYS = {
  ArrowLeft: 'left', ArrowRight: 'right', ArrowDown: 'soft', ' ': 'hard', ArrowUp: 'cw',
  x: 'cw', X: 'cw', z: 'ccw', Z: 'ccw', c: 'hold', C: 'hold', Shift: 'hold',
};
// Inputs that start a new piece get their own history entry; moving the
// falling piece only replaces the current one.
const PUSHES = new Set(['hard', 'hold']);

function mini(kind, label) {
  const svg = s('svg', { viewBox: '0 0 100 56', width: 80, height: 45, role: 'img', 'aria-label': label });
  if (!kind) return svg;
  const cells = SHAPES[kind];
  const w = Math.max(...cells.map((c) => c[0])) + 1;
  const hgt = Math.max(...cells.map((c) => c[1])) + 1;
  const size = 20;
  const ox = (100 - w * size) / 2;
  const oy = (56 - hgt * size) / 2;
  for (const [x, y] of cells) s('rect', { x: ox + x * size + 1, y: oy + y * size + 1, width: size - 2, height: size - 2, rx: 3, fill: COLORS[kind] }, svg);
  return svg;
}

export function mount(host, ctx) {
  let view = null;
  let timer = null;
  const well = h('div', { class: 'well', tabindex: '0', role: 'application', 'aria-label': t('tt.well') });
  const holdBox = h('div', {});
  const nextBox = h('div', {});
  const side = h('div', { class: 'side-box' }, h('div', {}, t('tt.hold')), holdBox, h('div', {}, t('tt.next')), nextBox);
  const pad = h('div', { class: 'tetris-pad', role: 'group', 'aria-label': t('tt.controls') },
    ...[['left', '←'], ['cw', '↻'], ['ccw', '↺'], ['right', '→'], ['soft', '↓'], ['hard', '⤓'], ['hold', t('tt.hold')]].map(([a, text]) =>
      h('button', { type: 'button', 'aria-label': t(`tt.${a}`), title: t(`tt.${a}`), 'data-input': a, onclick: () => input(a) }, text)));
  host.replaceChildren(h('div', {}, h('div', { class: 'tetris' }, well, side), pad));

  // Gestures on the well: a column's width dragged sideways is a move that
  // way (as many as dragged), a tap turns, a swipe down drops, up holds.
  let touch = null;
  well.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse') return;
    const column = well.getBoundingClientRect().width / 10;
    touch = { id: e.pointerId, x: e.clientX, y: e.clientY, x0: e.clientX, at: Date.now(), column, moved: false };
    well.setPointerCapture?.(e.pointerId);
  });
  well.addEventListener('pointermove', (e) => {
    if (!touch || touch.id !== e.pointerId) return;
    const dx = e.clientX - touch.x;
    if (Math.abs(e.clientY - touch.y) > Math.abs(e.clientX - touch.x0) + touch.column) return;
    while (Math.abs(e.clientX - touch.x) >= touch.column) {
      const step = dx > 0 ? touch.column : -touch.column;
      touch.x += step;
      touch.moved = true;
      input(step > 0 ? 'right' : 'left');
    }
  });
  well.addEventListener('pointerup', (e) => {
    if (!touch || touch.id !== e.pointerId) return;
    const dx = e.clientX - touch.x0;
    const dy = e.clientY - touch.y;
    const { moved, column } = touch;
    touch = null;
    if (moved) return;
    if (Math.abs(dy) > 2 * column && Math.abs(dy) > Math.abs(dx)) input(dy > 0 ? 'hard' : 'hold');
    else if (Math.abs(dx) < column / 2 && Math.abs(dy) < column / 2) input('cw');
  });
  well.addEventListener('pointercancel', () => { touch = null; });

  function input(action, quiet = false) {
    const why = ctx.cannotMove(view);
    if (why) {
      if (!quiet) ctx.say(why, 'error');
      return;
    }
    ctx.play([action], {
      label: action,
      quiet: true,
      illegal: null,
      replace: (next) => !(PUSHES.has(action) || (next && next.last_lock)),
      queue: 4,
    });
  }

  function schedule() {
    clearTimeout(timer);
    timer = null;
    const base = ctx.gravity();
    if (!base || !view || view.status.state !== 'ongoing' || ctx.cannotMove(view)) return;
    const period = Math.max(60, base * Math.pow(0.85, view.level - 1));
    timer = setTimeout(() => {
      timer = null;
      if (document.hidden || ctx.busy()) return schedule();
      input('tick', true);
    }, period);
  }

  function draw() {
    const W = 10 * CELL;
    const H = 20 * CELL;
    const svg = s('svg', { viewBox: `0 0 ${W + 4} ${H + 4}`, width: W + 4, height: H + 4, 'aria-hidden': 'true' });
    s('rect', { width: W + 4, height: H + 4, rx: 6, fill: '#1f2329' }, svg);
    const g = s('g', { transform: 'translate(2 2)' }, svg);
    for (let x = 1; x < 10; x++) s('line', { x1: x * CELL, y1: 0, x2: x * CELL, y2: H, stroke: '#2b3038' }, g);
    for (let y = 1; y < 20; y++) s('line', { x1: 0, y1: y * CELL, x2: W, y2: y * CELL, stroke: '#2b3038' }, g);
    const occupied = new Set();
    view.board.forEach((row, r) => row.forEach((v, c) => { if (v) occupied.add(`${c},${r}`); }));
    if (view.ghost && view.piece) {
      for (const [x, y] of view.ghost) {
        const r = 19 - y;
        if (r < 0 || occupied.has(`${x},${r}`)) continue;
        s('rect', { x: x * CELL + 2, y: r * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 3, fill: 'none', stroke: COLORS[view.piece.kind], 'stroke-width': 2, opacity: 0.7, class: 'ghost' }, g);
      }
    }
    view.board.forEach((row, r) => row.forEach((v, c) => {
      if (!v) return;
      s('rect', { x: c * CELL + 1, y: r * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 3, fill: COLORS[v], class: v === 'X' ? 'stack' : 'piece' }, g);
    }));
    if (view.status.state === 'over') {
      s('rect', { y: H / 2 - 30, width: W, height: 60, fill: '#000a' }, g);
      s('text', { x: W / 2, y: H / 2 + 8, 'text-anchor': 'middle', fill: '#fff', 'font-size': 24, text: t('status.over') }, g);
    }
    well.replaceChildren(svg);
    well.setAttribute('aria-label', t('tt.well_state', { piece: view.piece ? view.piece.kind : '—', score: view.score, lines: view.lines }));
    holdBox.replaceChildren(mini(view.hold, view.hold ? t(view.can_hold ? 'tt.held' : 'tt.held_used', { kind: view.hold }) : t('tt.no_hold')));
    holdBox.style.opacity = view.can_hold ? '1' : '.5';
    nextBox.replaceChildren(...view.queue.slice(0, 5).map((k, i) => mini(k, t(i === 0 ? 'tt.next_piece' : 'tt.then', { kind: k }))));
  }

  return {
    get hint() { return t('tt.hint'); },
    key(e) {
      const action = KEYS[e.key];
      if (!action) return false;
      input(action);
      return true;
    },
    update(v) {
      view = v;
      draw();
      schedule();
    },
    destroy() {
      clearTimeout(timer);
      timer = null;
      host.replaceChildren();
    },
  };
}
