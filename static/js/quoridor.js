// Quoridor: 9×9 squares with grooves between them. Click a highlighted square
// to move the pawn; hover a groove to preview a wall, click to place it.
// By touch, the Wall button turns taps into walls: a tap anywhere picks the
// nearest groove crossing (a target one square wide, 40 px on a phone) and
// previews the wall there, a second tap on it (or Place) places it, Turn
// turns it. Only walls listed in legal_actions are placed.

import { s, h, PointGrid, hasFocus } from './dom.js';
import { t } from './i18n.js';

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
  // The move a hint shows.
  let marked = null;
  // 'move' (taps move the pawn) or 'wall' (taps choose a wall).
  let mode = 'move';
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
    if (legalMoves().has(sq)) return ctx.play([sq], { label: sq });
    if (view.pawns[mover()] === sq) return ctx.say(t('qd.own_square', { n: view.to_move, sq }));
    ctx.say(t('qd.cannot_move', { n: view.to_move, sq }), 'error');
  }

  function placeWall(w) {
    const why = ctx.cannotMove(view);
    if (why) return ctx.say(why, 'error');
    if (view.walls_left[mover()] === 0) return ctx.say(t('qd.no_walls', { n: view.to_move }), 'error');
    if (!legalWalls().has(w)) return ctx.say(t('qd.wall_refused', { wall: w }), 'error');
    setPreview(null);
    mode = 'move';
    ctx.play([w], { label: w });
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

  // The wall at the groove crossing nearest a point, in the chosen
  // orientation: every point of the board is near one of the 8×8.
  function anchorAt(x, y) {
    const clamp = (n, lo, hi) => Math.min(hi, Math.max(lo, n));
    const f = clamp(Math.round((x - M - C - G / 2) / STEP), 0, 7);
    const k = clamp(9 - Math.round((y - M + G / 2) / STEP), 1, 8);
    return `${FILES[f]}${k}${orient}`;
  }

  // The row under the board: Move or Wall, and, choosing a wall, Turn and
  // Place.
  function controls() {
    if (!view || view.status.state !== 'ongoing') return ctx.controls();
    const walling = mode === 'wall';
    const left = view.walls_left[mover()];
    const button = (id, text, onclick, attrs = {}) => h('button', { type: 'button', id, onclick, ...attrs }, text);
    const setMode = (m) => {
      mode = m;
      setPreview(null);
      controls();
      ctx.say(m === 'wall' ? t('qd.wall_mode') : '');
    };
    const turn = () => {
      orient = orient === 'h' ? 'v' : 'h';
      if (preview) {
        setPreview({ wall: preview.wall.slice(0, 2) + orient, tapped: true });
        ctx.say(t(legalWalls().has(preview.wall) ? 'qd.wall_preview' : 'qd.wall_preview_refused', { wall: preview.wall }));
      }
      controls();
    };
    ctx.controls(
      h('div', { class: 'segmented', role: 'group', 'aria-label': t('qd.mode') },
        button('mode-move-btn', t('qd.mode_move'), () => setMode('move'), { 'aria-pressed': String(!walling) }),
        button('mode-wall-btn', t('qd.mode_wall', { n: left }), () => setMode('wall'), { 'aria-pressed': String(walling), disabled: left === 0 })),
      walling ? button('turn-btn', orient === 'h' ? t('qd.turn_h') : t('qd.turn_v'), turn) : null,
      walling && preview ? button('place-wall-btn', t('qd.place', { wall: preview.wall }), () => placeWall(preview.wall), { class: 'primary' }) : null,
    );
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
      role: 'group', 'aria-label': t('qd.board', { n: view.to_move }),
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
        if (pawn >= 0) label += `, ${t('qd.pawn_of', { n: pawn + 1 })}`;
        if (legal) label += `, ${t('pt.legal')}`;
        const g = s('g', {
          class: 'pt', role: 'button', 'data-square': sq, 'aria-label': label,
          transform: `translate(${cellX(f)} ${cellY(rank)})`, style: legal ? 'cursor:pointer' : '',
          onclick: () => { if (mode === 'move') moveTo(sq); },
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
    const walls = s('g', { 'aria-label': t('qd.walls', { walls: view.walls.join(', ') || t('fact.none') }), role: 'img' }, svg);
    for (const w of view.walls) s('rect', { ...wallRect(w), rx: 3, fill: '#e8b04b', class: 'wall', 'data-wall': w }, walls);
    if (marked && marked.length === 3) s('rect', { ...wallRect(marked), rx: 3, class: 'hint-wall', 'data-hint': marked }, svg);
    if (marked && marked.length === 2) {
      const f = FILES.indexOf(marked[0]);
      const k = Number(marked[1]);
      s('circle', { cx: cellX(f) + C / 2, cy: cellY(k) + C / 2, r: C * 0.4, class: 'hint-mark', 'data-hint': marked }, svg);
    }
    previewEl = s('rect', { rx: 3, visibility: 'hidden', class: 'wall-preview', 'pointer-events': 'none' }, svg);

    svg.addEventListener('pointermove', (e) => {
      if (mode === 'wall' || e.pointerType !== 'mouse') return;
      const p = svgPoint(e);
      const w = wallAt(p.x, p.y);
      if (w !== (preview && preview.wall)) setPreview(w ? { wall: w } : null);
      svg.style.cursor = w ? 'pointer' : '';
    });
    svg.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse') setPreview(null); });
    svg.addEventListener('click', (e) => {
      const p = svgPoint(e);
      if (mode === 'wall') {
        e.stopPropagation();
        const w = anchorAt(p.x, p.y);
        if (preview && preview.wall === w && preview.tapped) return placeWall(w);
        setPreview({ wall: w, tapped: true });
        controls();
        return ctx.say(t(legalWalls().has(w) ? 'qd.wall_preview' : 'qd.wall_preview_refused', { wall: w }));
      }
      const w = wallAt(p.x, p.y);
      if (!w) return;
      e.stopPropagation();
      // With a mouse the preview already shows; a touch needs a second tap.
      if (e.pointerType && e.pointerType !== 'mouse' && !(preview && preview.wall === w && preview.tapped)) {
        setPreview({ wall: w, tapped: true });
        return ctx.say(t('qd.wall_preview', { wall: w }));
      }
      placeWall(w);
    });
    grid.restore(focused);
  }

  return {
    hint: t('qd.hint'),
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
        ctx.say(t(legalWalls().has(w) ? 'qd.wall_key' : 'qd.wall_key_refused', { wall: w }));
        return true;
      }
      if (e.key === 'Escape' && preview) {
        setPreview(null);
        ctx.say('');
        return true;
      }
      return false;
    },
    // Shows (or, with null, hides) a hint's move: a square or a wall.
    mark(action) {
      marked = action;
      if (view) draw();
    },
    update(v) {
      if (!view || v.code !== view.code) marked = null;
      view = v;
      preview = null;
      draw();
      controls();
    },
    destroy() {
      ctx.controls();
      host.replaceChildren();
    },
  };
}
