// Gomoku and Renju: a goban-like grid as SVG. A tap (or click) on a point
// places a stone; with confirm-before-place (on by default where the
// pointer is a finger, see notation.js) the first tap only shows the stone
// where it would go, and a second tap on it, or the Place button, puts it
// there. Stones carry their move numbers where the page knows them, the
// last one a red mark. Renju's forbidden points for Black are marked and
// refused.

import { s, h, PointGrid, hasFocus } from './dom.js';
import { t } from './i18n.js';
import { confirmFirst } from './notation.js';

const COLS = 'abcdefghijklmnopqrs';

export function mount(host, ctx) {
  let view = null;
  let grid = null;
  let numbers = new Map();
  // The point a first tap chose, waiting for its confirmation.
  let pending = null;
  // The point a hint shows.
  let marked = null;

  const point = (c, r) => `${COLS[c]}${view.size - r}`;

  function refusal(pt) {
    const why = ctx.cannotMove(view);
    if (why) return why;
    const c = COLS.indexOf(pt[0]);
    const r = view.size - Number(pt.slice(1));
    const stone = view.board[r][c];
    if (stone) return t('go.taken', { pt, stone: t(`side.${stone}`) });
    const forbidden = (view.forbidden || []).find((f) => f.point === pt);
    if (forbidden) return t('go.forbidden', { pt, reason: t(`renju.${forbidden.reason}`) });
    if (!view.legal_actions.some((a) => a.action === pt)) return t('go.not_legal', { pt });
    return null;
  }

  function place(pt) {
    pending = null;
    ctx.controls();
    ctx.play([pt], { label: pt });
  }

  function click(pt, confirm = confirmFirst()) {
    const why = refusal(pt);
    if (why) return ctx.say(why, 'error');
    if (!confirm || pending === pt) return place(pt);
    pending = pt;
    draw();
    ctx.say(t('go.confirm_hint', { pt }));
    ctx.controls(
      h('button', { type: 'button', class: 'primary', id: 'place-btn', onclick: () => { if (pending) place(pending); } }, t('go.place', { pt })),
      h('button', { type: 'button', id: 'place-cancel-btn', onclick: () => { pending = null; ctx.controls(); ctx.say(''); draw(); } }, t('go.cancel')),
    );
  }

  function draw() {
    const focused = hasFocus(host);
    const N = view.size;
    const S = N > 15 ? 28 : 34;
    const M = 26;
    // Keyboard and mouse place at once; a touch confirms.
    if (!grid || grid.cols !== N) grid = new PointGrid(N, N, (c, r) => click(point(c, r), false));
    host.replaceChildren();
    const W = (N - 1) * S + 2 * M;
    const svg = s('svg', {
      viewBox: `0 0 ${W} ${W}`, width: W, height: W, class: 'gomoku',
      role: 'group', 'aria-label': t('go.board', { n: N, side: t(`side.${view.to_move}`) }),
    }, host);
    s('rect', { x: 2, y: 2, width: W - 4, height: W - 4, rx: 10, fill: '#e7c48a' }, svg);
    const px = (i) => M + i * S;
    const lines = s('g', { stroke: '#6e5330', 'stroke-width': 1 }, svg);
    for (let i = 0; i < N; i++) {
      s('line', { x1: px(0), y1: px(i), x2: px(N - 1), y2: px(i) }, lines);
      s('line', { x1: px(i), y1: px(0), x2: px(i), y2: px(N - 1) }, lines);
    }
    const stars = N === 15 ? [3, 7, 11] : [3, 9, 15];
    for (const a of stars) for (const b of stars) s('circle', { cx: px(a), cy: px(b), r: 3.2, fill: '#6e5330' }, lines);
    const labels = s('g', { fill: '#6e5330', 'font-size': 10, 'text-anchor': 'middle', 'aria-hidden': 'true' }, svg);
    for (let i = 0; i < N; i++) {
      s('text', { x: px(i), y: W - 6, text: COLS[i] }, labels);
      s('text', { x: 10, y: px(i) + 3.5, text: String(N - i) }, labels);
    }
    const win = new Set(view.winning_line || []);
    const forbidden = new Map((view.forbidden || []).map((f) => [f.point, f.reason]));
    const legal = new Set(view.legal_actions.map((a) => a.action));
    const pts = s('g', {}, svg);
    for (let r = 0; r < N; r++) {
      for (let c = 0; c < N; c++) {
        const pt = point(c, r);
        const stone = view.board[r][c];
        let label = stone ? `${pt}, ${t('go.stone', { stone: t(`side.${stone}`) })}` : `${pt}, ${t('pt.empty')}`;
        if (numbers.has(pt)) label += `, ${t('go.move_n', { n: numbers.get(pt) })}`;
        if (pt === view.last_move) label += `, ${t('pt.last_move')}`;
        if (win.has(pt)) label += `, ${t('go.winning_line')}`;
        if (forbidden.has(pt)) label += `, ${t('go.forbidden_mark', { reason: t(`renju.${forbidden.get(pt)}`) })}`;
        if (pt === pending) label += `, ${t('go.pending')}`;
        const g = s('g', {
          class: 'pt', 'data-point': pt, role: 'button', 'aria-label': label,
          transform: `translate(${px(c)} ${px(r)})`, style: legal.has(pt) ? 'cursor:pointer' : '',
          onclick: () => click(pt),
        }, pts);
        grid.add(c, r, g);
        s('rect', { x: -S / 2, y: -S / 2, width: S, height: S, fill: 'transparent' }, g);
        if (stone) {
          const black = stone === 'black';
          s('circle', {
            r: S * 0.45, fill: black ? '#1d1f22' : '#fbfaf6', stroke: black ? '#000' : '#8b8578', 'stroke-width': 1,
            class: `stone ${stone}`,
          }, g);
          const ink = black ? '#fff' : '#1d1f22';
          if (numbers.has(pt)) {
            const n = String(numbers.get(pt));
            s('text', {
              'text-anchor': 'middle', 'dominant-baseline': 'central', y: 0.5, 'font-size': n.length > 2 ? S * 0.32 : S * 0.4,
              'font-weight': 600, fill: pt === view.last_move ? '#e0392b' : ink, class: 'num', text: n, 'aria-hidden': 'true',
            }, g);
          }
          if (pt === view.last_move) {
            s('rect', { x: -S * 0.5, y: -S * 0.5, width: S, height: S, fill: 'none', stroke: '#e0392b', 'stroke-width': 2.2, rx: 3, class: 'last' }, g);
          }
          if (win.has(pt)) s('circle', { r: S * 0.48, fill: 'none', stroke: '#c0392b', 'stroke-width': 3, class: 'win' }, g);
        } else if (pt === pending) {
          const black = view.to_move === 'black';
          s('circle', { r: S * 0.45, fill: black ? '#1d1f22' : '#fbfaf6', stroke: '#e0392b', 'stroke-width': 2, opacity: 0.6, class: 'pending' }, g);
        } else if (forbidden.has(pt)) {
          const k = S * 0.2;
          s('path', { d: `M${-k},${-k}L${k},${k}M${k},${-k}L${-k},${k}`, stroke: '#c0392b', 'stroke-width': 2.5, class: 'forbidden' }, g);
          s('title', { text: t('go.forbidden_mark', { reason: t(`renju.${forbidden.get(pt)}`) }) }, g);
        }
        if (pt === marked && !stone) s('circle', { r: S * 0.42, class: 'hint-mark' }, g);
        s('circle', { r: S * 0.48, class: 'focus-ring' }, g);
      }
    }
    grid.restore(focused);
  }

  return {
    get hint() { return confirmFirst() ? t('go.hint_confirm') : t('go.hint'); },
    update(v, info = {}) {
      if (!view || v.code !== view.code) {
        pending = null;
        marked = null;
        ctx.controls();
      }
      view = v;
      numbers = new Map((info.moves || []).map((mv) => [mv.action, mv.ply]));
      draw();
    },
    // Shows (or, with null, hides) a hint's point.
    mark(action) {
      marked = action;
      if (view) draw();
    },
    destroy() {
      ctx.controls();
      host.replaceChildren();
    },
  };
}
