// Gomoku and Renju: a goban-like grid as SVG; click a point to place a
// stone. Renju's forbidden points for Black are marked and refused.

import { s, PointGrid, hasFocus } from './dom.js';

const COLS = 'abcdefghijklmnopqrs';

export function mount(host, ctx) {
  let view = null;
  let grid = null;

  const point = (c, r) => `${COLS[c]}${view.size - r}`;

  function click(pt) {
    const why = ctx.cannotMove(view);
    if (why) return ctx.say(why, 'error');
    const c = COLS.indexOf(pt[0]);
    const r = view.size - Number(pt.slice(1));
    const stone = view.board[r][c];
    if (stone) return ctx.say(`${pt} already holds a ${stone} stone.`, 'error');
    const forbidden = (view.forbidden || []).find((f) => f.point === pt);
    if (forbidden) return ctx.say(`${pt} is forbidden for Black under Renju rules (${forbidden.reason.replace(/-/g, ' ')}).`, 'error');
    if (!view.legal_actions.some((a) => a.action === pt)) return ctx.say(`${pt} is not a legal point now.`, 'error');
    ctx.play([pt], { label: pt });
  }

  function draw() {
    const focused = hasFocus(host);
    const N = view.size;
    const S = N > 15 ? 28 : 34;
    const M = 34;
    if (!grid || grid.cols !== N) grid = new PointGrid(N, N, (c, r) => click(point(c, r)));
    host.replaceChildren();
    const W = (N - 1) * S + 2 * M;
    const svg = s('svg', {
      viewBox: `0 0 ${W} ${W}`, width: W, height: W, class: 'gomoku',
      role: 'group', 'aria-label': `Gomoku board ${N}×${N}, ${view.to_move} to move`,
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
    const labels = s('g', { fill: '#6e5330', 'font-size': 11, 'text-anchor': 'middle', 'aria-hidden': 'true' }, svg);
    for (let i = 0; i < N; i++) {
      s('text', { x: px(i), y: W - 9, text: COLS[i] }, labels);
      s('text', { x: 12, y: px(i) + 4, text: String(N - i) }, labels);
    }
    const win = new Set(view.winning_line || []);
    const forbidden = new Map((view.forbidden || []).map((f) => [f.point, f.reason]));
    const legal = new Set(view.legal_actions.map((a) => a.action));
    const pts = s('g', {}, svg);
    for (let r = 0; r < N; r++) {
      for (let c = 0; c < N; c++) {
        const pt = point(c, r);
        const stone = view.board[r][c];
        let label = stone ? `${pt}, ${stone} stone` : `${pt}, empty`;
        if (pt === view.last_move) label += ', last move';
        if (win.has(pt)) label += ', winning line';
        if (forbidden.has(pt)) label += `, forbidden for black (${forbidden.get(pt)})`;
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
            r: S * 0.44, fill: black ? '#1d1f22' : '#fbfaf6', stroke: black ? '#000' : '#8b8578', 'stroke-width': 1,
            class: `stone ${stone}`,
          }, g);
          if (pt === view.last_move) s('circle', { r: S * 0.12, fill: black ? '#fff' : '#1d1f22' }, g);
          if (win.has(pt)) s('circle', { r: S * 0.47, fill: 'none', stroke: '#c0392b', 'stroke-width': 3, class: 'win' }, g);
        } else if (forbidden.has(pt)) {
          const k = S * 0.2;
          s('path', { d: `M${-k},${-k}L${k},${k}M${k},${-k}L${-k},${k}`, stroke: '#c0392b', 'stroke-width': 2.5, class: 'forbidden' }, g);
          s('title', { text: `forbidden for black: ${forbidden.get(pt)}` }, g);
        }
        s('circle', { r: S * 0.48, class: 'focus-ring' }, g);
      }
    }
    grid.restore(focused);
  }

  return {
    hint: 'Click a point to place a stone. Keyboard: Tab to the board, arrows to move, Enter to place.',
    update(v) {
      view = v;
      draw();
    },
    destroy() { host.replaceChildren(); },
  };
}
