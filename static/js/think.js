// The playground's searches, in the page's own games: a hint (the best
// move drawn on the board and the three best lines with their scores), an
// analysis (more time, more lines) and the computer as the opponent, at a
// level, from whatever position is on the board. Matches have none of
// these: they are played between people.

import { api } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';

const HINT = { ms: 500, lines: 3 };
const ANALYSIS = { ms: 2000, lines: 5 };

const $ = (id) => document.getElementById(id);

// A score as a person reads it, in the page's language.
export function scoreText(score) {
  const v = score.value;
  const signed = (x, digits = 0) => `${x > 0 ? '+' : ''}${x.toFixed(digits)}`;
  switch (score.kind) {
    case 'forced-win': return t('score.forced-win', { n: v });
    case 'forced-loss': return t('score.forced-loss', { n: v });
    case 'evaluation': return t('score.evaluation', { v: signed(v) });
    case 'path-difference': return t('score.path-difference', { v: signed(v / 100, 2) });
    case 'centipawns': return t('score.centipawns', { v: signed(v / 100, 2) });
    case 'mate': return v > 0 ? t('score.mate', { n: v }) : t('score.mated', { n: -v });
    case 'expected': return t('score.expected', { v: v.toFixed(0) });
    default: return String(v);
  }
}

// env: { state, say, fail, run(fn) (queued with the page's moves),
// playLocal(actions, opts), actionText(game, rec) }
export function createThink(env) {
  // The side the computer plays, and its level; null when it plays none.
  let computer = null;
  // Answers to an older position are dropped.
  let seq = 0;
  let shownFor = null;

  function level() {
    return Number($('level-select').value) || 5;
  }

  function clear() {
    seq++;
    shownFor = null;
    $('lines-box').hidden = true;
    $('lines').replaceChildren();
    $('lines-stats').textContent = '';
    if (env.state.board && env.state.board.mark) env.state.board.mark(null);
  }

  function render(view, analysis) {
    const items = analysis.lines.map((line) => h('li', { class: 'line' },
      h('span', { class: 'pv' }, line.pv.map((a) => env.actionText(view.game, { action: a })).join(' ')),
      ' — ',
      h('span', { class: 'score', 'data-kind': line.score.kind }, scoreText(line.score))));
    $('lines').replaceChildren(...items);
    $('lines-stats').textContent = t('think.stats', { depth: analysis.depth, nodes: analysis.nodes, ms: analysis.ms });
    $('lines-box').hidden = false;
    shownFor = view.code;
    const best = analysis.lines[0];
    if (!best) return env.say(t('think.none'));
    if (env.state.board && env.state.board.mark) env.state.board.mark(best.actions[0]);
    env.say(t('think.best', { move: env.actionText(view.game, { action: best.pv[0] }) }));
  }

  async function search(opts) {
    const view = env.state.view;
    if (!view) return;
    if (env.state.mode !== 'local') return env.say(t('think.not_here'), 'error');
    if (view.status.state !== 'ongoing') return env.say(t('play.over_local'), 'error');
    const my = ++seq;
    env.say(t('think.thinking'));
    const analysis = await api.analysis(view.game, view.code, opts);
    if (my !== seq || env.state.view !== view) return;
    render(view, analysis);
  }

  // The computer's moves while it is to move: one in a two-player game,
  // every move of a one-player game until it ends or is stopped.
  async function reply() {
    let view = env.state.view;
    while (computer && view && env.state.mode === 'local' && view.status.state === 'ongoing' && view.to_move === computer.side) {
      const my = seq;
      env.say(t('think.thinking'));
      const chosen = await api.computerMove(view.game, view.code, computer.level);
      if (!computer || env.state.view !== view || my !== seq) return;
      await env.playLocal(chosen.actions, { computer: true, quiet: true });
      if (env.state.view === view) return;
      view = env.state.view;
      env.say(t('think.computer_moved', { move: env.actionText(view.game, { action: chosen.move }) }));
    }
  }

  function syncButton() {
    const b = $('computer-btn');
    b.setAttribute('aria-pressed', computer ? 'true' : 'false');
    b.textContent = computer ? t('think.computer_stop') : t('think.computer');
  }

  function toggle() {
    const view = env.state.view;
    if (!view) return;
    if (computer) {
      computer = null;
      syncButton();
      return env.say(t('think.computer_off'));
    }
    if (env.state.mode !== 'local') return env.say(t('think.not_here'), 'error');
    if (view.status.state !== 'ongoing') return env.say(t('play.over_local'), 'error');
    const players = (env.state.games[view.game] || {}).players || [];
    // You play the side to move; the computer the other (or, alone, every move).
    const side = players.length > 1 ? players.find((p) => p !== view.to_move) : view.to_move;
    computer = { side, level: level() };
    syncButton();
    env.say(t('think.computer_plays', { side: env.sideName(side), level: t('think.level_n', { n: computer.level }) }));
    if (side === view.to_move) env.run(reply);
  }

  function wire() {
    const sel = $('level-select');
    let saved = '5';
    try { saved = localStorage.getItem('qipan.level') || '5'; } catch { /* storage off */ }
    sel.replaceChildren(...Array.from({ length: 10 }, (_, i) => h('option', { value: String(i + 1) }, t('think.level_n', { n: i + 1 }))));
    sel.value = saved;
    sel.addEventListener('change', () => {
      try { localStorage.setItem('qipan.level', sel.value); } catch { /* storage off */ }
      if (computer) computer.level = level();
    });
    $('hint-btn').addEventListener('click', () => search(HINT).catch(env.fail));
    $('analyse-btn').addEventListener('click', () => search(ANALYSIS).catch(env.fail));
    $('computer-btn').addEventListener('click', toggle);
  }

  return {
    wire,
    reply,
    // A new position on the board: what was shown was about another one.
    viewChanged(view) {
      if (shownFor !== view.code) clear();
    },
    // Leaving the page's own game (a match) stops the computer.
    stop() {
      computer = null;
      syncButton();
      clear();
    },
    get playing() { return computer; },
  };
}
