// The replay bar of a match: steps through every ply of its record
// (GET /v1/matches/{id}/record.json, which reaches back past the 100 moves
// `/history` keeps) to the first, the previous, the next or the last, and
// forks a practice match from the ply on screen.
//
// The record is fetched on the first step and again once the match has
// moved on. While an earlier ply is shown the board takes no move; a
// change of the match (a new version) brings the bar back to its last ply.

import { api } from './api.js';
import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);

export class Replay {
  constructor(live) {
    this.live = live;
    this.record = null;
    // The ply on screen, or null for the match's current one.
    this.at = null;
    this.seq = 0;
  }

  wire() {
    $('replay-first').addEventListener('click', () => this.step('first').catch((e) => this.live.shell.fail(e)));
    $('replay-back').addEventListener('click', () => this.step('back').catch((e) => this.live.shell.fail(e)));
    $('replay-forward').addEventListener('click', () => this.step('forward').catch((e) => this.live.shell.fail(e)));
    $('replay-last').addEventListener('click', () => this.step('last').catch((e) => this.live.shell.fail(e)));
    $('replay-fork').addEventListener('click', () => this.live.fork(this.shownPly()).catch((e) => this.live.shell.fail(e)));
    $('replay-bar').addEventListener('keydown', (e) => {
      const to = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'first', End: 'last' }[e.key];
      if (!to) return;
      e.preventDefault();
      this.step(to).catch((err) => this.live.shell.fail(err));
    });
  }

  // Whether an earlier ply than the match's is on screen.
  get viewing() {
    return this.at !== null;
  }

  shownPly() {
    const m = this.live.match;
    return this.at === null ? (m ? m.ply : 0) : this.at;
  }

  // The first ply the record reaches: 0, or where a match kept before
  // full records starts.
  firstPly() {
    return this.record ? this.record.start_ply : 0;
  }

  // The match moved on: back to its current ply.
  sync() {
    this.at = null;
  }

  hide() {
    this.record = null;
    this.at = null;
    $('replay-bar').hidden = true;
  }

  render() {
    const m = this.live.match;
    const bar = $('replay-bar');
    if (!m || m.ply === 0) {
      bar.hidden = true;
      return;
    }
    bar.hidden = false;
    const ply = this.shownPly();
    const first = this.firstPly();
    $('replay-at').textContent = ply === 0 ? t('replay.start', { last: m.ply }) : t('replay.at', { ply, last: m.ply });
    $('replay-first').disabled = ply <= first;
    $('replay-back').disabled = ply <= first;
    $('replay-forward').disabled = ply >= m.ply;
    $('replay-last').disabled = ply >= m.ply;
    $('replay-fork').hidden = !this.live.forkable();
  }

  async load() {
    const m = this.live.match;
    if (this.record && this.record.id === m.id && this.record.version === m.version) return this.record;
    const record = await api.record(m.id);
    this.record = record;
    return record;
  }

  async step(to) {
    const m = this.live.match;
    if (!m) return;
    const seq = ++this.seq;
    const record = await this.load();
    if (seq !== this.seq || this.live.match !== m) return;
    const now = this.shownPly();
    const first = record.start_ply;
    const target = {
      first,
      back: Math.max(first, now - 1),
      forward: Math.min(m.ply, now + 1),
      last: m.ply,
    }[to];
    if (target === m.ply) {
      this.at = null;
      this.live.draw();
      this.render();
      return;
    }
    const index = target - first;
    const move = index > 0 ? record.moves[index - 1] : null;
    const code = move ? move.code : record.start_code;
    const view = await api.view(m.game, code);
    if (seq !== this.seq || this.live.match !== m) return;
    this.at = target;
    this.live.drawAt(view, move);
    this.render();
  }
}
