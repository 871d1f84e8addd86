// 2048: a 4×4 grid of tiles; arrow keys or WASD, swipes, or the arrow pad.

import { h } from './dom.js';
import { t } from './i18n.js';

const KEYS = {
  ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
  w: 'up', s: 'down', a: 'left', d: 'right', W: 'up', S: 'down', A: 'left', D: 'right',
};
const ARROWS = { up: '↑', down: '↓', left: '←', right: '→' };

function tileColors(v) {
  if (!v) return ['#d8cebf', '#5d5348'];
  const e = Math.log2(v);
  const palette = [
    null, ['#eee4da', '#5d5348'], ['#ede0c8', '#5d5348'], ['#f2b179', '#fff'], ['#f59563', '#fff'],
    ['#f67c5f', '#fff'], ['#f65e3b', '#fff'], ['#edcf72', '#fff'], ['#edcc61', '#fff'],
    ['#edc850', '#fff'], ['#edc53f', '#fff'], ['#edc22e', '#fff'],
  ];
  return palette[e] || ['#3c3a32', '#fff'];
}

export function mount(host, ctx) {
  let view = null;
  let start = null;

  function move(dir) {
    const why = ctx.cannotMove(view);
    if (why) return ctx.say(why, 'error');
    // Legality is checked when the move is sent, against the position it
    // is sent from (keys pressed quickly queue up).
    ctx.play([dir], { label: dir, illegal: t('t48.nothing_moves', { dir: t(`t48.${dir}`) }) });
  }

  const board = h('div', { class: 't48', role: 'grid', 'aria-label': t('t48.board'), tabindex: '0' });
  board.addEventListener('pointerdown', (e) => {
    start = { x: e.clientX, y: e.clientY, id: e.pointerId };
  });
  board.addEventListener('pointerup', (e) => {
    if (!start || start.id !== e.pointerId) return;
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    start = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
    move(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'right' : 'left') : (dy > 0 ? 'down' : 'up'));
  });
  board.addEventListener('pointercancel', () => { start = null; });
  const pad = h('div', { class: 't48-pad', role: 'group', 'aria-label': t('t48.pad') },
    ...['up', 'left', 'down', 'right'].map((d) =>
      h('button', { type: 'button', class: d, 'aria-label': t('t48.slide', { dir: t(`t48.${d}`) }), title: t('t48.slide', { dir: t(`t48.${d}`) }), onclick: () => move(d) }, ARROWS[d])));
  const wrap = h('div', { class: 't48-wrap' }, board, pad);
  host.replaceChildren(wrap);

  function draw() {
    const sp = view.spawned;
    board.replaceChildren();
    view.board.forEach((row, r) => {
      const tr = h('div', { role: 'row', style: 'display:contents' });
      row.forEach((v, c) => {
        const [bg, fg] = tileColors(v);
        const spawned = sp && sp.row === r && sp.column === c;
        const size = v >= 1024 ? 'font-size:clamp(.9rem,4.5vw,1.5rem);' : '';
        tr.appendChild(h('div', {
          class: `tile${spawned ? ' spawned' : ''}`, role: 'gridcell',
          'aria-label': t(v ? (spawned ? 't48.tile_new' : 't48.tile') : 't48.tile_empty', { row: r + 1, col: c + 1, v }),
          'data-value': v, style: `background:${bg};color:${fg};${size}`,
        }, v ? String(v) : ''));
      });
      board.appendChild(tr);
    });
  }

  return {
    get hint() { return t('t48.hint'); },
    key(e) {
      const dir = KEYS[e.key];
      if (!dir) return false;
      move(dir);
      return true;
    },
    update(v) {
      view = v;
      draw();
    },
    destroy() { host.replaceChildren(); },
  };
}
