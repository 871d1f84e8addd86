// Xiangqi: the board as SVG, pieces in the chosen style (simplified 车马炮
// or traditional 俥傌砲, the same as the move list), select a piece then a
// highlighted point (targets come from legal_actions).

import { s, PointGrid, hasFocus } from './dom.js';
import { t } from './i18n.js';
import { glyph, chineseStyled } from './notation.js';

const FILES = 'abcdefghi';
const S = 56;
const M = 50;

// A piece as labels name it: `red cannon 炮` in English, `红炮` in Chinese.
export function pieceName(p) {
  return t('xq.piece', { side: t(`xq.side.${p.side}`), role: t(`role.${p.role}`), glyph: glyph(p.side, p.role) });
}

// board[row][file], row 0 at black's back rank (rank 9).
const square = (file, row) => `${FILES[file]}${9 - row}`;

export function mount(host, ctx) {
  let view = null;
  let selected = null;
  let last = null;
  let flip = false;
  const grid = new PointGrid(9, 10, (c, r) => {
    const [file, row] = flip ? [8 - c, 9 - r] : [c, r];
    click(square(file, row));
  });

  function pieceAt(sq) {
    const file = FILES.indexOf(sq[0]);
    const row = 9 - Number(sq.slice(1));
    return view.board[row][file];
  }

  function click(sq) {
    const why = ctx.cannotMove(view);
    if (why) return ctx.say(why, 'error');
    const piece = pieceAt(sq);
    if (selected) {
      if (sq === selected) {
        selected = null;
        draw();
        return ctx.say('');
      }
      const mv = view.legal_actions.find((a) => a.from === selected && a.to === sq);
      if (mv) {
        selected = null;
        ctx.play([mv.action], { label: chineseStyled(mv.chinese, view.to_move) });
        return;
      }
      if (piece && piece.side === view.to_move) return select(sq);
      const mover = pieceAt(selected);
      ctx.say(t('xq.illegal', { move: `${selected}${sq}`, piece: pieceName(mover), from: selected, to: sq }), 'error');
      return;
    }
    if (!piece) return ctx.say(t('xq.empty', { sq, side: t(`side.${view.to_move}`) }), 'error');
    if (piece.side !== view.to_move) {
      return ctx.say(t('xq.not_their_turn', { side: t(`side.${view.to_move}`), piece: pieceName(piece), sq }), 'error');
    }
    select(sq);
  }

  function select(sq) {
    const moves = view.legal_actions.filter((a) => a.from === sq);
    const p = pieceAt(sq);
    if (!moves.length) {
      selected = null;
      draw();
      return ctx.say(t('xq.no_moves', { piece: pieceName(p), sq }), 'error');
    }
    selected = sq;
    draw();
    ctx.say(t('xq.selected', { piece: pieceName(p), sq, n: moves.length, moves: moves.map((m) => chineseStyled(m.chinese, view.to_move)).join(' ') }));
  }

  function draw() {
    const focused = hasFocus(host);
    host.replaceChildren();
    const W = 8 * S + 2 * M;
    const H = 9 * S + 2 * M;
    const svg = s('svg', {
      viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'xiangqi',
      role: 'group', 'aria-label': t('xq.board', { side: t(`side.${view.to_move}`) }),
    }, host);
    s('rect', { x: 4, y: 4, width: W - 8, height: H - 8, rx: 12, fill: 'var(--wood)' }, svg);
    const lines = s('g', { stroke: 'var(--wood-line)', 'stroke-width': 1.4, fill: 'none' }, svg);
    const px = (c) => M + c * S;
    for (let r = 0; r < 10; r++) s('line', { x1: px(0), y1: px(r), x2: px(8), y2: px(r) }, lines);
    for (let c = 0; c < 9; c++) {
      if (c === 0 || c === 8) s('line', { x1: px(c), y1: px(0), x2: px(c), y2: px(9) }, lines);
      else {
        s('line', { x1: px(c), y1: px(0), x2: px(c), y2: px(4) }, lines);
        s('line', { x1: px(c), y1: px(5), x2: px(c), y2: px(9) }, lines);
      }
    }
    for (const [a, b] of [[0, 2], [7, 9]]) {
      s('line', { x1: px(3), y1: px(a), x2: px(5), y2: px(b) }, lines);
      s('line', { x1: px(5), y1: px(a), x2: px(3), y2: px(b) }, lines);
    }
    s('rect', { x: px(0) - 5, y: px(0) - 5, width: 8 * S + 10, height: 9 * S + 10, 'stroke-width': 2.4 }, lines);
    const river = s('g', { fill: 'var(--wood-line)', 'font-size': 26, 'text-anchor': 'middle', 'dominant-baseline': 'central', opacity: 0.75, 'aria-hidden': 'true' }, svg);
    s('text', { x: px(2), y: px(4.5), text: flip ? '漢 界' : '楚 河' }, river);
    s('text', { x: px(6), y: px(4.5), text: flip ? '楚 河' : '漢 界' }, river);
    const labels = s('g', { fill: 'var(--wood-line)', 'font-size': 13, 'text-anchor': 'middle', 'aria-hidden': 'true' }, svg);
    for (let c = 0; c < 9; c++) s('text', { x: px(c), y: H - 10, text: FILES[flip ? 8 - c : c] }, labels);
    for (let r = 0; r < 10; r++) s('text', { x: 14, y: px(r) + 5, text: String(flip ? r : 9 - r) }, labels);

    const targets = new Map();
    if (selected) for (const a of view.legal_actions) if (a.from === selected) targets.set(a.to, a);
    const lastFrom = last && /^[a-i]\d[a-i]\d$/.test(last) ? last.slice(0, 2) : null;
    const lastTo = lastFrom ? last.slice(2, 4) : null;
    let checked = null;
    if (view.check) {
      view.board.forEach((row, r) => row.forEach((p, f) => {
        if (p && p.role === 'general' && p.side === view.to_move) checked = square(f, r);
      }));
    }

    const pts = s('g', {}, svg);
    for (let r = 0; r < 10; r++) {
      for (let c = 0; c < 9; c++) {
        const [file, row] = flip ? [8 - c, 9 - r] : [c, r];
        const sq = square(file, row);
        const p = view.board[row][file];
        const x = px(c);
        const y = px(r);
        const target = targets.get(sq);
        let label = p ? `${sq}, ${pieceName(p)}` : `${sq}, ${t('pt.empty')}`;
        if (sq === selected) label += `, ${t('pt.selected')}`;
        if (target) label += target.capture ? `, ${t('pt.capture', { role: t(`role.${target.capture}`) })}` : `, ${t('pt.legal')}`;
        if (sq === checked) label += `, ${t('pt.in_check')}`;
        const g = s('g', {
          class: 'pt', 'data-square': sq, role: 'button', 'aria-label': label,
          transform: `translate(${x} ${y})`, style: 'cursor:pointer',
          onclick: () => click(sq),
        }, pts);
        grid.add(c, r, g);
        s('title', { text: p ? `${pieceName(p)} (${sq})` : sq }, g);
        s('circle', { r: S / 2, fill: 'transparent' }, g);
        if (sq === lastFrom || sq === lastTo) {
          s('rect', { x: -S / 2 + 6, y: -S / 2 + 6, width: S - 12, height: S - 12, rx: 6, fill: '#2f6f6233', stroke: '#2f6f62', 'stroke-dasharray': '4 3' }, g);
        }
        if (p) {
          const color = p.side === 'red' ? 'var(--red)' : '#1e2226';
          s('circle', { r: 24, fill: '#fbf4e4', stroke: color, 'stroke-width': 2, class: 'piece' }, g);
          s('circle', { r: 20, fill: 'none', stroke: color, 'stroke-width': 0.8 }, g);
          s('text', {
            'text-anchor': 'middle', 'dominant-baseline': 'central', y: 1, 'font-size': 25,
            fill: color, 'font-weight': 600, text: glyph(p.side, p.role), 'aria-hidden': 'true',
          }, g);
        }
        if (sq === checked) s('circle', { r: 27, fill: 'none', stroke: '#d43', 'stroke-width': 3 }, g);
        if (sq === selected) s('circle', { r: 27, fill: 'none', stroke: 'var(--accent)', 'stroke-width': 3.5, class: 'sel' }, g);
        if (target) {
          if (target.capture) s('circle', { r: 27, fill: 'none', stroke: '#2f6f62', 'stroke-width': 3, 'stroke-dasharray': '6 4', class: 'target' }, g);
          else s('circle', { r: 8, fill: '#2f6f62', opacity: 0.75, class: 'target' }, g);
        }
        s('circle', { r: 28, class: 'focus-ring' }, g);
      }
    }
    grid.restore(focused);
  }

  return {
    hint: t('xq.hint'),
    update(v, info = {}) {
      if (!view || v.code !== view.code) selected = null;
      view = v;
      last = info.lastAction || null;
      flip = !!info.flip;
      draw();
    },
    destroy() { host.replaceChildren(); },
  };
}
