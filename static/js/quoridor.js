// Quoridor: 9×9 squares with grooves between them. Click a highlighted square
// to move the pawn; hover a groove to preview a wall, click to place it.
// Only walls listed in legal_actions are placed.

import { s, PointGrid, hasFocus } from './dom.js';

const FILES = 'abcdefghi';
const C = 48;
const G = 12;
const M = 30;
const STEP = C + G;
const COLORS = ['#b23a2e', '#2c5a8c'];

const cellX = (f) => M + f * STEP;
const cellY = (rank) => M + (9 - rank) * STEP;

function wallRect(w) {
  const f = FILES.indexOf(w[0]);
  const k = Number(w[1]);
  if (w[2] === 'h') return { x: cellX(f), y: cellY(k) - G, width: 2 * C + G, height: G };
  return { x: cellX(f) + C, y: cellY(k + 1), width: G, height: 2 * C + G };
}

export function mount(host, ctx) {
  let view = null;
  let preview = null;
  let orient = 'h';
  let svg = null;
  let previewEl = null;
  const grid = new PointGrid(9, 9, (c, r) => {
    const sq = `${FILES[c]}${9 - r}`;
    if (preview && preview.keyboard) return placeWall(preview.wall);
    moveTo(sq);
  });

  const legalWalls = () => new Set(view.legal_actions.filter((a) => a.kind === 'wall').map((a) => a.action));
  const legalMoves = () => new Set(view.legal_actions.filter((a) => a.kind === 'move').map((a) => a.action));
  const mover = () => Number(view.to_move) - 1;

  function moveTo(sq) {
    const why = ctx.cannotMove(view);
    if (why) return ctx.say(why, 'error');
    if (legalMoves().has(sq)) return ctx.play([sq], { label: `pawn to ${sq}` });
    if (view.pawns[mover()] === sq) return ctx.say(`Player ${view.to_move}'s pawn is on ${sq}; pick a highlighted square.`);
    ctx.say(`Player ${view.to_move}'s pawn cannot move to ${sq}.`, 'error');
  }

  function placeWall(w) {
    const why = ctx.cannotMove(view);
    if (why) return ctx.say(why, 'error');
    if (view.walls_left[mover()] === 0) return ctx.say(`Player ${view.to_move} has no walls left.`, 'error');
    if (!legalWalls().has(w)) return ctx.say(`A wall at ${w} is not allowed here (it overlaps, crosses, or cuts a pawn off).`, 'error');
    setPreview(null);
    ctx.play([w], { label: `wall ${w}` });
  }

  function setPreview(p) {
    preview = p;
    if (!previewEl) return;
    if (!p) {
      previewEl.setAttribute('visibility', 'hidden');
      return;
    }
    const r = wallRect(p.wall);
    const ok = legalWalls().has(p.wall);
    for (const [k, v] of Object.entries(r)) previewEl.setAttribute(k, v);
    previewEl.setAttribute('fill', ok ? '#8a6a3c' : '#c0392b');
    previewEl.setAttribute('opacity', ok ? 0.6 : 0.35);
    previewEl.setAttribute('visibility', 'visible');
    previewEl.setAttribute('data-wall', p.wall);
    previewEl.setAttribute('data-legal', ok ? 'true' : 'false');
  }

  // Which wall a point over the board stands for, or null inside a square.
  function wallAt(x, y) {
    const u = x - M;
    const v = y - M;
    if (u < 0 || v < 0 || u > 9 * STEP - G || v > 9 * STEP - G) return null;
    const i = Math.floor(u / STEP);
    const j = Math.floor(v / STEP);
    const fx = u - i * STEP;
    const fy = v - j * STEP;
    const inV = fx > C && i < 8;
    const inH = fy > C && j < 8;
    const clamp = (n) => Math.min(7, Math.max(0, n));
    let w = null;
    if (inH && inV) w = `${FILES[i]}${8 - j}${orient}`;
    else if (inH) w = `${FILES[clamp(fx < C / 2 ? i - 1 : i)]}${8 - j}h`;
    else if (inV) w = `${FILES[i]}${clamp((fy < C / 2 ? 9 - j : 8 - j) - 1) + 1}v`;
    return w;
  }

  function svgPoint(e) {
    const pt = svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  }

  function draw() {
    const focused = hasFocus(host);
    host.replaceChildren();
    const W = 9 * STEP - G + 2 * M;
    svg = s('svg', {
      viewBox: `0 0 ${W} ${W}`, width: W, height: W, class: 'quoridor',
      role: 'group', 'aria-label': `Quoridor board, player ${view.to_move} to move`,
    }, host);
    s('rect', { x: 2, y: 2, width: W - 4, height: W - 4, rx: 12, fill: '#5b4630' }, svg);
    const moves = legalMoves();
    const cells = s('g', {}, svg);
    for (let r = 0; r < 9; r++) {
      for (let f = 0; f < 9; f++) {
        const rank = 9 - r;
        const sq = `${FILES[f]}${rank}`;
        const pawn = view.pawns.indexOf(sq);
        const legal = moves.has(sq);
        let label = sq;
        if (pawn >= 0) label += `, player ${pawn + 1}'s pawn`;
        if (legal) label += ', legal move';
        const g = s('g', {
          class: 'pt', role: 'button', 'data-square': sq, 'aria-label': label,
          transform: `translate(${cellX(f)} ${cellY(rank)})`, style: legal ? 'cursor:pointer' : '',
          onclick: () => moveTo(sq),
        }, cells);
        grid.add(f, r, g);
        const goal = rank === 9 ? '#f3e1d2' : rank === 1 ? '#dbe6f2' : '#efe4cf';
        s('rect', { width: C, height: C, rx: 5, fill: goal }, g);
        if (legal) s('circle', { cx: C / 2, cy: C / 2, r: 8, fill: COLORS[mover()], opacity: 0.45, class: 'target' }, g);
        if (pawn >= 0) {
          s('circle', { cx: C / 2, cy: C / 2, r: 16, fill: COLORS[pawn], stroke: '#fff', 'stroke-width': 2, class: `pawn p${pawn + 1}` }, g);
          s('text', { x: C / 2, y: C / 2 + 5, 'text-anchor': 'middle', fill: '#fff', 'font-size': 14, 'font-weight': 700, text: String(pawn + 1), 'aria-hidden': 'true' }, g);
        }
        s('rect', { x: -2, y: -2, width: C + 4, height: C + 4, rx: 6, class: 'focus-ring' }, g);
      }
    }
    const labels = s('g', { fill: '#e9dcc4', 'font-size': 11, 'text-anchor': 'middle', 'aria-hidden': 'true' }, svg);
    for (let f = 0; f < 9; f++) s('text', { x: cellX(f) + C / 2, y: W - 10, text: FILES[f] }, labels);
    for (let k = 1; k <= 9; k++) s('text', { x: 14, y: cellY(k) + C / 2 + 4, text: String(k) }, labels);
    const walls = s('g', { 'aria-label': `walls: ${view.walls.join(', ') || 'none'}`, role: 'img' }, svg);
    for (const w of view.walls) s('rect', { ...wallRect(w), rx: 3, fill: '#e8b04b', class: 'wall', 'data-wall': w }, walls);
    previewEl = s('rect', { rx: 3, visibility: 'hidden', class: 'wall-preview', 'pointer-events': 'none' }, svg);

    svg.addEventListener('pointermove', (e) => {
      const p = svgPoint(e);
      const w = wallAt(p.x, p.y);
      if (w !== (preview && preview.wall)) setPreview(w ? { wall: w } : null);
      svg.style.cursor = w ? 'pointer' : '';
    });
    svg.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse') setPreview(null); });
    svg.addEventListener('click', (e) => {
      const p = svgPoint(e);
      const w = wallAt(p.x, p.y);
      if (!w) return;
      e.stopPropagation();
      // With a mouse the preview already shows; a touch needs a second tap.
      if (e.pointerType && e.pointerType !== 'mouse' && !(preview && preview.wall === w && preview.tapped)) {
        setPreview({ wall: w, tapped: true });
        return ctx.say(`Wall ${w}: tap again to place it.`);
      }
      placeWall(w);
    });
    grid.restore(focused);
  }

  return {
    hint: 'Click a highlighted square to move. Hover the grooves to preview a wall and click to place it (R turns a wall at a crossing). Keyboard: arrows pick a square, Enter moves; H or V previews the wall at that square, Enter places it, Esc cancels.',
    key(e) {
      if (!hasFocus(host)) {
        if ((e.key === 'r' || e.key === 'R') && preview) {
          orient = orient === 'h' ? 'v' : 'h';
          setPreview({ wall: preview.wall.slice(0, 2) + orient });
          return true;
        }
        return false;
      }
      const sq = `${FILES[grid.col]}${9 - grid.row}`;
      const f = FILES.indexOf(sq[0]);
      const k = Number(sq[1]);
      if ((e.key === 'h' || e.key === 'v' || e.key === 'r' || e.key === 'R') && f < 8 && k < 9) {
        const o = e.key === 'h' || e.key === 'v' ? e.key : (preview && preview.wall[2] === 'h' ? 'v' : 'h');
        const w = `${sq}${o}`;
        setPreview({ wall: w, keyboard: true });
        ctx.say(`Wall ${w}${legalWalls().has(w) ? '' : ' (not allowed)'}: Enter places it, Esc cancels.`);
        return true;
      }
      if (e.key === 'Escape' && preview) {
        setPreview(null);
        ctx.say('');
        return true;
      }
      return false;
    },
    update(v) {
      view = v;
      preview = null;
      draw();
    },
    destroy() { host.replaceChildren(); },
  };
}
