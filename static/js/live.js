// Matches and live play: create, join (invite links), play over the match
// WebSocket (HTTP when the socket is down), takebacks, draw offers, claims,
// resign, fork, the kept history, presence, clocks, and the lobby of open
// seeks.
//
// Seat tokens live in localStorage under `qipan.seat.<match id>`; they are
// sent only in the socket's auth message or an Authorization header. The
// player's name lives under `qipan.name`.
//
// Clocks tick here, but the server keeps the time: the page counts the
// running side down from `remaining` as of `since`, and a flag falls when
// the server says so (a `timeout` event).

import { api, ApiError, readEventStream } from './api.js';
import { h } from './dom.js';

const $ = (id) => document.getElementById(id);
const KEY = (id) => `qipan.seat.${id}`;

function loadSeat(id) {
  try {
    return JSON.parse(localStorage.getItem(KEY(id))) || null;
  } catch {
    return null;
  }
}

function saveSeat(id, seat) {
  try {
    localStorage.setItem(KEY(id), JSON.stringify(seat));
  } catch { /* storage off: the seat lasts as long as the page */ }
}

// The name the player gave (the same one for every match and seek).
function playerName() {
  const field = $('player-name');
  const name = field ? field.value.trim() : '';
  try {
    localStorage.setItem('qipan.name', name);
  } catch { /* storage off */ }
  return name || null;
}

// The clock chosen for a duel or a seek: `300+3` (Fischer, seconds) or
// `d3` (days a move); none when empty.
function chosenClock() {
  const v = $('duel-clock') ? $('duel-clock').value : '';
  if (!v) return null;
  if (v.startsWith('d')) return { days: Number(v.slice(1)) };
  const [base, increment] = v.split('+').map(Number);
  return { base, increment };
}

// Time left as players read it (as the match picture shows it): `1d 04h`,
// `1:02:03`, `4:05`, and tenths under ten seconds (`0:09.4`).
export function clockText(seconds) {
  const ms = Math.max(0, Math.floor(seconds * 1000));
  const s = Math.floor(ms / 1000);
  const pad = (n) => String(n).padStart(2, '0');
  const [d, h, m, sec] = [Math.floor(s / 86400), Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60];
  if (d > 0) return `${d}d ${pad(h)}h`;
  if (s >= 3600) return `${h}:${pad(m)}:${pad(sec)}`;
  if (s >= 10) return `${m}:${pad(sec)}`;
  return `0:${pad(sec)}.${Math.floor(ms / 100) % 10}`;
}

export class Live {
  constructor(shell) {
    this.shell = shell;
    this.id = null;
    this.match = null;
    this.view = null;
    this.seat = null; // { token, seat, invite? }
    this.moves = [];
    this.ws = null;
    this.wsReady = false;
    this.lastEventId = null;
    this.refs = new Map();
    this.nextRef = 1;
    this.waiters = [];
    this.renderSeq = 0;
    this.seeks = new Map();
    this.mySeek = null;
    this.ticking = null;
    try {
      const name = localStorage.getItem('qipan.name');
      if (name && $('player-name')) $('player-name').value = name;
    } catch { /* storage off */ }
  }

  // ---- opening and closing -------------------------------------------------

  // `autoJoin`: the match's share page sent the visitor here with its
  // "Join this match" button (`?join=1`), so that click was the one click.
  async open(id, invite, autoJoin = false) {
    this.close();
    this.id = id;
    this.invite = invite || null;
    this.seat = loadSeat(id);
    $('match-create').hidden = true;
    $('match-info').hidden = false;
    $('match-info').replaceChildren(h('p', { class: 'small' }, 'Loading the match…'));
    const match = await api.match(id);
    if (this.id !== id) return;
    if (this.seat && this.invite) {
      // Already seated here: the invite is spent, keep it out of the address.
      history.replaceState(history.state, '', `/play/matches/${id}`);
      this.invite = null;
    }
    await this.apply(match, { history: true });
    this.connect();
    const open = match.seats.some((s) => !s.taken);
    if (autoJoin && this.invite && !this.seat && open) {
      await this.join().catch(this.shell.fail);
    }
  }

  close() {
    this.id = null;
    this.match = null;
    this.view = null;
    this.moves = [];
    this.lastEventId = null;
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close(1000, 'leaving');
    }
    this.ws = null;
    this.wsReady = false;
    clearTimeout(this.retry);
    clearInterval(this.ticking);
    this.ticking = null;
    for (const [, p] of this.refs) p.reject(new ApiError(0, { detail: 'left the match' }));
    this.refs.clear();
    $('match-create').hidden = false;
    $('match-info').hidden = true;
    $('match-info').replaceChildren();
  }

  pageLink() {
    return `${location.origin}/play/matches/${this.id}`;
  }

  // ---- the socket ------------------------------------------------------------

  connect() {
    const id = this.id;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = this.lastEventId ? `?last_event_id=${encodeURIComponent(this.lastEventId)}` : '';
    const ws = new WebSocket(`${proto}//${location.host}/v1/matches/${id}/ws${q}`);
    this.ws = ws;
    this.wsReady = false;
    ws.onopen = () => {
      this.backoff = 500;
      if (this.seat && this.seat.token) ws.send(JSON.stringify({ type: 'auth', token: this.seat.token, ref: 'auth' }));
      else this.wsReady = true;
      this.renderPanel();
    };
    ws.onmessage = (m) => {
      let msg;
      try { msg = JSON.parse(m.data); } catch { return; }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.wsReady = false;
      for (const [, p] of this.refs) p.reject(new ApiError(0, { detail: 'the connection to the match was lost; try again' }));
      this.refs.clear();
      this.renderPanel();
      this.backoff = Math.min((this.backoff || 500) * 2, 8000);
      this.retry = setTimeout(() => { if (this.id === id) this.connect(); }, this.backoff);
    };
  }

  onMessage(msg) {
    if (msg.type === 'event') {
      if (msg.id != null) this.lastEventId = msg.id;
      // One event at a time, in order: each may wait for a view.
      this.events = (this.events || Promise.resolve())
        .then(() => this.onEvent(msg.event, msg.data))
        .catch(this.shell.fail);
      return;
    }
    if (msg.ref === 'auth') {
      if (msg.type === 'ack') {
        this.wsReady = true;
        this.renderPanel();
      } else {
        this.shell.say(`This page's seat token was refused: ${msg.problem.detail}`, 'error');
        this.wsReady = true;
      }
      return;
    }
    const p = this.refs.get(msg.ref);
    if (!p) return;
    this.refs.delete(msg.ref);
    if (msg.type === 'ack') p.resolve(msg);
    else p.reject(new ApiError(msg.problem.status, msg.problem));
  }

  async onEvent(name, data) {
    if (name === 'sync') return this.apply(data, { history: true });
    if (name === 'presence') {
      if (!this.match) return;
      for (const s of this.match.seats) if (s.seat === data.seat) s.online = data.online;
      this.renderPanel();
      return;
    }
    if (!this.match || data.version <= this.match.version) return;
    const m = { ...this.match };
    m.version = data.version;
    m.ply = data.ply;
    m.to_move = data.to_move;
    m.status = data.status;
    m.undo_offer = data.kind === 'takeback-offered' ? data.undo_offer : null;
    // A draw offer stands until it is answered, a move or a takeback is
    // made, or the match ends.
    if (data.kind === 'draw-offered') m.draw_offer = { seat: data.seat };
    else if (['move', 'undo', 'draw-declined'].includes(data.kind) || data.status.state !== 'ongoing') m.draw_offer = null;
    if (data.clock) m.clock = { ...m.clock, ...data.clock };
    if (data.kind === 'joined' || data.kind === 'invited' || data.kind === 'invite-withdrawn' || data.kind === 'invite-declined') {
      const fresh = await api.match(this.id);
      if (!this.match) return;
      Object.assign(m, { seats: fresh.seats });
    }
    const others = data.seat && this.seat && data.seat !== this.seat.seat;
    if (data.kind === 'invite-declined') this.shell.say(`The invitation was declined${data.note ? `: ${data.note}` : ''}.`);
    else if (data.kind === 'takeback-offered' && others) this.shell.say(`${this.shell.label(data.seat, m.game)} asks to take back their last move.`);
    else if (data.kind === 'takeback-declined' && others) this.shell.say('The takeback was declined.');
    else if (data.kind === 'undo') this.shell.say('A move was taken back.');
    else if (data.kind === 'resigned') this.shell.say(`${this.shell.label(data.seat, m.game)} resigned.`);
    else if (data.kind === 'joined' && others) this.shell.say(`${this.shell.label(data.seat, m.game)}${data.name ? ` (${data.name})` : ''} joined.`);
    else if (data.kind === 'timeout') this.shell.say('A flag fell: the match is over on time.');
    else if (data.kind === 'draw-offered' && others) this.shell.say(`${this.shell.label(data.seat, m.game)} offers a draw.`);
    else if (data.kind === 'draw-agreed') this.shell.say('The match is drawn by agreement.');
    else if (data.kind === 'draw-declined' && others) this.shell.say('The draw offer was declined.');
    else if (data.kind === 'claimed') this.shell.say(`${this.shell.label(data.seat, m.game)} claimed the game: the other side left.`);
    const view = data.code === this.view.code ? this.view : await api.view(m.game, data.code);
    await this.apply({ ...m, state: view }, { history: data.kind !== 'move' && data.kind !== 'over', moves: data.moves });
  }

  // Takes a match view (with its state view) as the current one and draws it.
  async apply(match, { history = false, moves = [] } = {}) {
    const seq = ++this.renderSeq;
    if (history) {
      try {
        const hist = await api.history(match.id);
        if (seq !== this.renderSeq) return;
        this.moves = hist.moves;
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
      }
    } else {
      const before = this.moves.filter((mv) => mv.ply < (moves[0] ? moves[0].ply : match.ply + 1));
      this.moves = [...before, ...moves.map((mv) => ({ ...mv, code: null }))];
    }
    if (!this.id || match.id !== this.id) return;
    this.match = match;
    this.view = match.state;
    const lastMove = this.moves.filter((mv) => mv.ply === match.ply).pop();
    const flip = match.game === 'xiangqi' && this.seat && this.seat.seat === 'black';
    this.shell.showView(match.state, {
      lastAction: lastMove ? lastMove.action : null,
      lastLabel: lastMove ? `${this.shell.label(lastMove.side, match.game)}: ${lastMove.action}` : null,
      matchStatus: match.status,
      flip,
      extra: [['Match', `${match.mode}, ply ${match.ply}`]],
    });
    this.renderPanel();
    this.waiters = this.waiters.filter((w) => {
      if (match.version >= w.version) { w.resolve(); return false; }
      return true;
    });
  }

  // Resolves once the match has reached a version (its event arrived).
  reach(version) {
    if (this.match && this.match.version >= version) return Promise.resolve();
    return new Promise((resolve) => {
      const w = { version, resolve };
      this.waiters.push(w);
      setTimeout(async () => {
        if (!this.waiters.includes(w)) return;
        this.waiters = this.waiters.filter((x) => x !== w);
        try { if (this.id) await this.apply(await api.match(this.id), { history: true }); } catch { /* shown elsewhere */ }
        resolve();
      }, 4000);
    });
  }

  // Sends a seat command over the socket, or over HTTP when it is down.
  async command(type, extra, http) {
    if (!this.seat || !this.seat.token) throw new ApiError(401, { detail: 'You have no seat in this match.' });
    if (this.ws && this.wsReady && this.ws.readyState === WebSocket.OPEN) {
      const ref = this.nextRef++;
      const answer = new Promise((resolve, reject) => this.refs.set(ref, { resolve, reject }));
      this.ws.send(JSON.stringify({ type, ...extra, ref }));
      const ack = await answer;
      if (ack.version) await this.reach(ack.version);
      return ack;
    }
    const match = await http();
    await this.apply(match, { history: true });
    return match;
  }

  // ---- moves and commands ------------------------------------------------

  cannotMove(view) {
    const m = this.match;
    if (!m || view !== this.view) return 'The match is loading…';
    if (m.status.state !== 'ongoing') return 'This match is over. Fork it to practice from any kept move.';
    if (!this.seat) return this.invite ? 'Join the match first (the Join button on the right).' : 'You are watching this match; only its players move.';
    if (m.mode === 'duel' && this.seat.seat !== m.to_move) return `Waiting for ${this.shell.label(m.to_move, m.game)} to move.`;
    return null;
  }

  async play(actions, opts) {
    const view = this.view;
    const why = view ? this.cannotMove(view) : 'The match is loading…';
    if (why) {
      if (!opts.quiet) this.shell.say(why, 'error');
      return;
    }
    if (!view.legal_actions.some((a) => a.action === actions[0])) {
      if (opts.illegal !== null) this.shell.say(opts.illegal || `${actions[0]} is not a legal action here.`, 'error');
      return;
    }
    const version = this.match.version;
    await this.command('play', { actions, version }, () => api.matchPlay(this.id, this.seat.token, actions, version));
    if (!opts.quiet) this.shell.say('');
  }

  async undo() {
    const m = this.match;
    if (!m) return;
    if (m.mode === 'solo') {
      await this.command('undo', {}, () => api.undo(this.id, this.seat.token));
      return;
    }
    await this.command('undo', {}, () => api.undo(this.id, this.seat.token));
    this.shell.say('Takeback offered: waiting for an answer.');
  }

  async answer(accept) {
    const tok = this.seat && this.seat.token;
    if (accept) await this.command('accept', {}, () => api.acceptUndo(this.id, tok));
    else await this.command('decline', {}, () => api.declineUndo(this.id, tok));
  }

  // The first press arms the button for a few seconds; the second resigns.
  async resign() {
    if (!this.resignArmed) {
      this.resignArmed = true;
      this.renderPanel();
      this.shell.say('Press “Really resign?” to confirm.');
      setTimeout(() => { this.resignArmed = false; this.renderPanel(); }, 4000);
      return;
    }
    this.resignArmed = false;
    await this.command('resign', {}, () => api.resign(this.id, this.seat.token));
  }

  async offerDraw() {
    const ack = await this.command('draw', {}, () => api.offerDraw(this.id, this.seat.token));
    if (this.match && this.match.status.state === 'ongoing') this.shell.say('Draw offered: waiting for an answer.');
    return ack;
  }

  async answerDraw(accept) {
    const tok = this.seat && this.seat.token;
    if (accept) await this.command('draw-accept', {}, () => api.acceptDraw(this.id, tok));
    else await this.command('draw-decline', {}, () => api.declineDraw(this.id, tok));
  }

  async claim(result) {
    await this.command('claim', { result }, () => api.claim(this.id, this.seat.token, result));
  }

  // Whether this seat may claim against the side to move: it is away
  // (offline) in a duel without a correspondence clock. The server checks
  // the rest (how long it has been away) and says from when.
  claimable() {
    const m = this.match;
    const mine = this.seat && this.seat.seat;
    if (!m || !mine || m.mode !== 'duel' || m.status.state !== 'ongoing' || m.to_move === mine) return false;
    if (m.clock && m.clock.control && m.clock.control.type === 'correspondence') return false;
    const away = m.seats.find((s) => s.seat === m.to_move);
    return !!away && away.taken && !away.online;
  }

  // Seconds left to `side` now, counting the running side down from
  // `since`.
  secondsLeft(side) {
    const c = this.match && this.match.clock;
    if (!c) return 0;
    const left = c.remaining[side];
    if (c.running !== side || !c.since) return left;
    return Math.max(0, left - (Date.now() - Date.parse(c.since)) / 1000);
  }

  // Redraws the clocks' times (every tenth of a second while one runs).
  renderClocks() {
    const m = this.match;
    if (!m || !m.clock) return;
    for (const row of document.querySelectorAll('#match-info .clock-row')) {
      const side = row.dataset.side;
      const left = this.secondsLeft(side);
      row.querySelector('.time').textContent = clockText(left);
      row.classList.toggle('running', m.clock.running === side);
      row.classList.toggle('low', m.clock.running === side && left < 10);
    }
  }

  async fork(ply) {
    const token = this.seat && this.seat.token;
    const m = await api.fork(this.id, token, ply);
    saveSeat(m.id, { token: m.token, seat: m.seat });
    this.shell.navigate(`/play/matches/${m.id}`);
    this.shell.say(`Forked at ply ${m.ply}: a solo sandbox to practice in.`);
  }

  async join() {
    const m = await api.join(this.id, this.invite, playerName());
    saveSeat(m.id, { token: m.token, seat: m.seat });
    this.shell.navigate(`/play/matches/${m.id}`, 'replace');
    this.shell.say(`You joined as ${this.shell.label(m.seat, m.game)}.`);
  }

  async decline() {
    await api.declineInvite(this.id, this.invite, 'busy');
    this.invite = null;
    history.replaceState(history.state, '', `/play/matches/${this.id}`);
    this.shell.say('Invitation declined.');
    this.renderPanel();
  }

  async create(mode, side) {
    const view = this.shell.state.view;
    if (!view) return;
    const body = { game: view.game, from: view.code, mode };
    if (mode === 'duel' && side) body.seat = side;
    const name = playerName();
    if (name) body.name = name;
    const clock = mode === 'duel' ? chosenClock() : null;
    if (clock) body.clock = clock;
    const m = await api.createMatch(body);
    const invite = m.invites && m.invites[0];
    saveSeat(m.id, { token: m.token, seat: m.seat, invite: invite ? { seat: invite.seat, invite: invite.invite } : null });
    this.shell.navigate(`/play/matches/${m.id}`);
    this.shell.say(mode === 'solo' ? 'Solo sandbox created: undo is immediate here.' : 'Duel created: send the invite link to your opponent.');
  }

  leave() {
    const v = this.view;
    this.shell.navigate(v ? this.shell.pageUrl(v.game, v.code) : '/');
  }

  // ---- the panel ---------------------------------------------------------

  renderPanel() {
    const box = $('match-info');
    const m = this.match;
    if (!m) return;
    const { label } = this.shell;
    const mine = this.seat && this.seat.seat;
    const act = (text, fn, attrs = {}) => h('button', { type: 'button', ...attrs, onclick: () => fn().catch(this.shell.fail) }, text);
    const parts = [];
    parts.push(h('p', { class: 'small' },
      `${this.shell.names[m.game]} · ${m.mode === 'solo' ? 'solo sandbox' : 'duel'} · `,
      h('span', { class: 'conn' }, this.wsReady ? 'live' : 'connecting…'),
      mine ? ` · you play ${m.mode === 'solo' ? 'every side' : label(mine, m.game)}` : ' · watching'));
    if (m.parent) {
      parts.push(h('p', { class: 'small' }, 'Forked from ', h('a', { href: `/play/matches/${m.parent.id}`, onclick: (e) => { e.preventDefault(); this.shell.navigate(`/play/matches/${m.parent.id}`); } }, 'this match'), ` at ply ${m.parent.ply}.`));
    }
    parts.push(h('ul', { class: 'seats', 'aria-label': 'Seats' }, ...m.seats.map((s) => h('li', { 'data-seat': s.seat, 'data-online': String(s.online) },
      h('span', { class: `online${s.online ? ' on' : ''}`, 'aria-hidden': 'true' }),
      `${m.mode === 'solo' ? 'Player' : label(s.seat, m.game)}${s.name ? ` · ${s.name}` : ''}${s.seat === mine ? ' (you)' : ''} — ${s.taken ? (s.online ? 'online' : 'offline') : 'open seat'}`))));
    if (m.mode === 'duel') {
      // The seat below is this page's (or the first player's, watching).
      const seats = m.seats.slice();
      if (mine && seats[0].seat === mine) seats.reverse();
      else if (!mine) seats.reverse();
      parts.push(h('div', { class: 'clocks', 'aria-label': 'Players and clocks' }, ...seats.map((s) => h('div', {
        class: `clock-row${m.clock && m.clock.running === s.seat ? ' running' : ''}`,
        'data-side': s.seat,
      },
      h('span', { class: 'dot', style: `background:${this.shell.colors[s.seat] || '#888'}`, 'aria-hidden': 'true' }),
      h('span', { class: 'who' }, s.name ? `${s.name} (${label(s.seat, m.game)})` : label(s.seat, m.game)),
      m.clock ? h('span', { class: 'time', id: `clock-${s.seat}`, 'aria-label': `${label(s.seat, m.game)}'s time` }, clockText(this.secondsLeft(s.seat))) : null))));
      if (m.clock) parts.push(h('p', { class: 'small' }, m.clock.control.type === 'fischer'
        ? `Clock: ${m.clock.control.base / 60} min + ${m.clock.control.increment} s; each side's first move is free.`
        : `Clock: ${m.clock.control.days} day${m.clock.control.days === 1 ? '' : 's'} a move.`));
    }
    if (m.draw_offer && m.status.state === 'ongoing') {
      if (m.draw_offer.seat === mine) {
        parts.push(h('p', { class: 'offer', id: 'draw-offer' }, 'You offered a draw.'));
        parts.push(h('div', { class: 'buttons' }, act('Withdraw draw offer', () => this.answerDraw(false), { id: 'draw-withdraw-btn' })));
      } else {
        parts.push(h('p', { class: 'offer', id: 'draw-offer' }, `${label(m.draw_offer.seat, m.game)} offers a draw.`));
        if (mine) {
          parts.push(h('div', { class: 'buttons' },
            act('Accept draw', () => this.answerDraw(true), { class: 'primary', id: 'draw-accept-btn' }),
            act('Decline draw', () => this.answerDraw(false), { id: 'draw-decline-btn' })));
        }
      }
    }
    if (this.claimable()) {
      parts.push(h('p', { class: 'offer', id: 'claim-note' }, `${label(m.to_move, m.game)} is away. Once they have been gone long enough, you may end the match.`));
      parts.push(h('div', { class: 'buttons' },
        act('Claim the win', () => this.claim('win'), { id: 'claim-win-btn' }),
        act('Claim a draw', () => this.claim('draw'), { id: 'claim-draw-btn' })));
    }
    const open = m.seats.find((s) => !s.taken);
    if (open && this.seat && this.seat.invite) {
      const link = `${location.origin}/play/matches/${m.id}?invite=${encodeURIComponent(this.seat.invite.invite)}`;
      parts.push(h('p', { class: 'small' }, `Invite for ${label(open.seat, m.game)}:`));
      parts.push(h('p', { class: 'invite' }, h('a', { href: link, id: 'invite-link' }, link)));
      parts.push(h('div', { class: 'buttons' }, act('Copy invite', async () => this.shell.copyText(link, 'Invite link'))));
    }
    if (!this.seat && this.invite && open) {
      parts.push(h('p', { class: 'offer' }, `You are invited to play ${label(open.seat, m.game)}.`));
      parts.push(h('div', { class: 'buttons' },
        act(`Join as ${label(open.seat, m.game)}`, () => this.join(), { class: 'primary', id: 'join-btn' }),
        act('Decline (busy)', () => this.decline())));
    }
    if (m.undo_offer) {
      if (m.undo_offer.seat === mine) {
        parts.push(h('p', { class: 'offer' }, 'You offered to take back your last move.'));
        parts.push(h('div', { class: 'buttons' }, act('Withdraw offer', () => this.answer(false))));
      } else {
        parts.push(h('p', { class: 'offer', id: 'takeback-offer' }, `${label(m.undo_offer.seat, m.game)} asks to take back their last move.`));
        if (mine) {
          parts.push(h('div', { class: 'buttons' },
            act('Accept takeback', () => this.answer(true), { class: 'primary', id: 'accept-btn' }),
            act('Decline', () => this.answer(false), { id: 'decline-btn' })));
        }
      }
    }
    const ongoing = m.status.state === 'ongoing';
    const buttons = [];
    if (mine && ongoing) {
      buttons.push(act(m.mode === 'solo' ? 'Undo' : 'Offer takeback', () => this.undo(), { id: 'takeback-btn', disabled: m.ply === 0 || !!m.undo_offer }));
      if (m.mode === 'duel' && !m.draw_offer) buttons.push(act('Offer draw', () => this.offerDraw(), { id: 'draw-btn' }));
      if (m.mode === 'duel') buttons.push(act(this.resignArmed ? 'Really resign?' : 'Resign', () => this.resign(), { id: 'resign-btn' }));
    }
    if (mine || !ongoing) buttons.push(act('Fork to practice', () => this.fork(null), { id: 'fork-btn' }));
    buttons.push(act('Leave', async () => this.leave()));
    parts.push(h('div', { class: 'buttons' }, ...buttons));
    if (this.moves.length) {
      const canFork = mine || !ongoing;
      parts.push(h('p', { class: 'small' }, 'Kept moves', canFork ? ' (practice from any of them):' : ':'));
      parts.push(h('ol', { class: 'history', 'aria-label': 'Moves' }, ...this.moves.slice().reverse().map((mv) => h('li', { 'data-ply': mv.ply },
        h('span', {}, `${mv.ply}. ${label(mv.side, m.game)} ${mv.action}`),
        canFork ? act('Practice', () => this.fork(mv.ply), { 'aria-label': `Practice from ply ${mv.ply}`, class: 'fork-at' }) : null))));
    }
    box.replaceChildren(...parts);
    $('undo-btn').disabled = !(mine && ongoing && m.mode === 'solo' && m.ply > 0);
    const runs = !!(m.clock && m.clock.running && ongoing);
    if (runs && !this.ticking) this.ticking = setInterval(() => this.renderClocks(), 100);
    if (!runs && this.ticking) {
      clearInterval(this.ticking);
      this.ticking = null;
    }
  }

  // ---- the lobby ---------------------------------------------------------

  startLobby() {
    if (!window.EventSource) return;
    const es = new EventSource('/v1/lobby/events');
    this.lobby = es;
    es.addEventListener('sync', (e) => {
      this.seeks = new Map(JSON.parse(e.data).seeks.map((s) => [s.id, s]));
      this.renderLobby();
    });
    es.addEventListener('seek', (e) => {
      const s = JSON.parse(e.data);
      this.seeks.set(s.id, s);
      this.renderLobby();
    });
    es.addEventListener('seek-gone', (e) => {
      const s = JSON.parse(e.data);
      this.seeks.delete(s.id);
      this.renderLobby();
    });
    es.onerror = () => {
      if (es.readyState === EventSource.CLOSED) $('seek-state').textContent = 'The lobby is not available on this server.';
    };
  }

  renderLobby() {
    const list = $('seek-list');
    const { label, names } = this.shell;
    const items = [...this.seeks.values()].map((s) => {
      const own = this.mySeek && this.mySeek.id === s.id;
      const side = s.side === 'random' ? 'random side' : `seeker plays ${label(s.side, s.game)}`;
      const clock = !s.clock ? 'no clock' : s.clock.type === 'fischer'
        ? `${s.clock.base / 60}+${s.clock.increment}` : `${s.clock.days} d/move`;
      const who = s.name ? `${s.name} · ` : '';
      return h('li', { 'data-seek': s.id },
        h('span', {}, `${who}${names[s.game]}${s.variant && s.variant !== 'standard' ? ` ${s.variant}` : ''}${s.size ? ` ${s.size}×${s.size}` : ''} · ${side} · ${clock}`),
        own ? h('span', { class: 'small' }, 'yours') : h('button', { type: 'button', class: 'take', onclick: () => this.take(s).catch(this.shell.fail) }, 'Take'));
    });
    list.replaceChildren(...(items.length ? items : [h('li', { class: 'empty' }, 'No open games. Post one!')]));
  }

  async take(seek) {
    const m = await api.take(seek.id, playerName());
    saveSeat(m.id, { token: m.token, seat: m.seat });
    this.shell.navigate(`/play/matches/${m.id}`);
    this.shell.say(`You took the game: you play ${this.shell.label(m.seat, m.game)}.`);
  }

  async postSeek() {
    const view = this.shell.state.view;
    if (!view || this.mySeek) return;
    const body = { game: view.game, side: $('duel-side').value || 'random' };
    const name = playerName();
    if (name) body.name = name;
    const clock = chosenClock();
    if (clock) body.clock = clock;
    if (view.variant && view.variant !== 'standard') body.variant = view.variant;
    if (view.game === 'gomoku' && view.size !== 15) body.size = view.size;
    const seek = await api.seek(body);
    const abort = new AbortController();
    this.mySeek = { id: seek.id, token: seek.token, abort };
    $('seek-btn').hidden = true;
    $('seek-withdraw').hidden = false;
    $('seek-state').textContent = `Waiting for someone to take your ${this.shell.names[view.game]} game…`;
    this.renderLobby();
    readEventStream(seek.events_url, {
      token: seek.token,
      signal: abort.signal,
      onEvent: (name, data) => {
        if (name !== 'matched') return;
        saveSeat(data.id, { token: seek.token, seat: data.seat });
        this.endSeek('Your game was taken: play!');
        this.shell.navigate(`/play/matches/${data.id}`);
      },
    }).catch((e) => {
      if (e.name !== 'AbortError' && this.mySeek && this.mySeek.id === seek.id) {
        this.endSeek('The seek stream closed.');
      }
    });
  }

  async withdrawSeek() {
    const s = this.mySeek;
    if (!s) return;
    this.endSeek('Seek withdrawn.');
    await api.withdrawSeek(s.id, s.token).catch(() => {});
  }

  endSeek(text) {
    if (this.mySeek) this.mySeek.abort.abort();
    this.mySeek = null;
    $('seek-btn').hidden = false;
    $('seek-withdraw').hidden = true;
    $('seek-state').textContent = text;
    this.renderLobby();
  }
}
