// Matches and live play: create, join (invite links), play over the match
// WebSocket (HTTP when the socket is down), takebacks, draw offers, claims,
// resign, fork, the kept history, presence, clocks, invitations answered
// and reissued, and the lobby of open seeks.
//
// The first screen of a match, on a phone: the opponent's bar above the
// board, the reader's below (name, presence, clock), whose move it is, and
// the actions of the moment (#now): Join, an offer to answer, a claim, the
// result. The rest (seats, invite link, the move list) is in the side
// panel, one tap away.
//
// Seat tokens live in localStorage under `qipan.seat.<match id>`; they are
// sent only in the socket's auth message or an Authorization header. The
// player's name lives under `qipan.name`.
//
// Clocks tick here, but the server keeps the time: the page counts the
// running side down from `remaining` as of `since`, and a flag falls when
// the server says so (a `timeout` event). A page that comes back (the
// phone woke, the network returned) reconnects at once, resuming after the
// last event it had, and says what happened meanwhile.

import { api, ApiError, readEventStream } from './api.js';
import { h } from './dom.js';
import { t, sideName, seatName, problemKind, untilText } from './i18n.js';
import { moveText } from './notation.js';
import { Replay } from './replay.js';

const $ = (id) => document.getElementById(id);
const KEY = (id) => `qipan.seat.${id}`;
const REASONS = ['busy', 'later', 'no-thanks'];

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
  const [d, hr, m, sec] = [Math.floor(s / 86400), Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60];
  if (d > 0) return t('clock.days', { d, h: pad(hr) });
  if (s >= 3600) return `${hr}:${pad(m)}:${pad(sec)}`;
  if (s >= 10) return `${m}:${pad(sec)}`;
  return `0:${pad(sec)}.${Math.floor(ms / 100) % 10}`;
}

function controlText(c) {
  if (!c) return t('clock.none');
  return c.type === 'fischer'
    ? t('clock.fischer', { min: c.base / 60, inc: c.increment })
    : t('clock.correspondence', { days: c.days });
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
    this.replay = new Replay(this);
    this.seeks = new Map();
    this.mySeek = null;
    this.ticking = null;
    this.hiddenAt = null;
    this.catchup = null;
    try {
      const name = localStorage.getItem('qipan.name');
      if (name && $('player-name')) $('player-name').value = name;
    } catch { /* storage off */ }
    // A phone that slept, or a network that came back: reconnect now, not
    // after the back-off, and resume after the last event seen.
    document.addEventListener('visibilitychange', () => {
      if (document.hidden) {
        this.hiddenAt = Date.now();
        return;
      }
      const away = this.hiddenAt ? Date.now() - this.hiddenAt : 0;
      this.hiddenAt = null;
      if (this.id && (away > 15_000 || !this.live())) this.reconnect();
    });
    window.addEventListener('online', () => { if (this.id) this.reconnect(); });
    // The device says it lost the network: the socket is as good as dead
    // (a browser may keep it open and deliver nothing, or deliver what
    // arrives while it says offline); drop it and wait for 'online'.
    window.addEventListener('offline', () => { if (this.id) this.drop('offline'); });
  }

  live() {
    return !!(this.ws && this.ws.readyState === WebSocket.OPEN && this.wsReady);
  }

  // ---- opening and closing -------------------------------------------------

  // `join`: the match's page sent the visitor here with its Join button
  // (`?join=1`), so that tap was the one tap; `decline`: with its
  // Decline, to pick a reason. An invite link with neither goes to the
  // match's page, where every invite lands.
  async open(id, invite, { join = false, decline = false } = {}) {
    this.close();
    this.seat = loadSeat(id);
    if (invite && !this.seat && !join && !decline) {
      location.replace(`/m/${encodeURIComponent(id)}?invite=${encodeURIComponent(invite)}`);
      return;
    }
    this.id = id;
    this.invite = invite || null;
    this.inviteState = null;
    this.declineOpen = decline;
    $('match-create').hidden = true;
    $('match-info').hidden = false;
    $('match-info').replaceChildren(h('p', { class: 'small' }, t('match.loading')));
    const name = new URLSearchParams(location.search).get('name');
    if (name && $('player-name')) $('player-name').value = name.slice(0, 32);
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
    if (join && this.invite && !this.seat && open) {
      await this.join().catch((e) => this.refused(e));
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
    for (const id of ['bar-top', 'bar-bottom']) {
      $(id).hidden = true;
      $(id).replaceChildren();
    }
    $('now').replaceChildren();
    $('fork-btn').hidden = true;
    this.replay.hide();
  }

  pageLink() {
    return (this.match && this.match.page) || `${location.origin}/m/${this.id}`;
  }

  // ---- the socket ------------------------------------------------------------

  connect() {
    const id = this.id;
    const base = this.match && this.match.ws_url;
    if (!base) return;
    const q = this.lastEventId ? `?last_event_id=${encodeURIComponent(this.lastEventId)}` : '';
    const ws = new WebSocket(`${base}${q}`);
    this.ws = ws;
    this.wsReady = false;
    ws.onopen = () => {
      this.backoff = 500;
      // What the events resumed after the last one seen bring in the
      // next moments is told as one message.
      if (this.catchup) {
        clearTimeout(this.catchupTimer);
        this.catchupTimer = setTimeout(() => this.endCatchup(), 1500);
      }
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

  // Drops the socket (which may be dead without knowing it, after a sleep)
  // and opens another at once, resuming after the last event; what the
  // events bring meanwhile is told in one message.
  reconnect() {
    this.drop('reconnecting');
    this.catchup = [];
    clearTimeout(this.catchupTimer);
    this.connect();
  }

  // Closes the socket without the retry its loss would start; requests
  // waiting on it are told it was lost.
  drop(reason) {
    clearTimeout(this.retry);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close(1000, reason);
    }
    this.ws = null;
    this.wsReady = false;
    for (const [, p] of this.refs) p.reject(new ApiError(0, { detail: 'the connection to the match was lost; try again' }));
    this.refs.clear();
    this.renderPanel();
  }

  endCatchup() {
    const seen = this.catchup;
    this.catchup = null;
    if (seen && seen.length) this.shell.say(t('live.meanwhile', { what: seen.join(t('live.list_sep')) }));
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
        this.shell.say(t('live.token_refused'), 'error');
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

  // Says what an event did (the other seat's doing; one's own is seen).
  tell(text) {
    if (this.catchup) this.catchup.push(text);
    else this.shell.say(text);
  }

  async onEvent(name, data) {
    if (name === 'sync') {
      if (this.catchup) this.catchup.push(t('live.updated'));
      return this.apply(data, { history: true });
    }
    if (name === 'presence') {
      if (!this.match) return;
      for (const s of this.match.seats) if (s.seat === data.seat) s.online = data.online;
      this.renderPanel();
      return;
    }
    if (!this.match || data.version <= this.match.version) return;
    const before = this.view;
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
    if (['joined', 'invited', 'invite-withdrawn', 'invite-declined'].includes(data.kind)) {
      const fresh = await api.match(this.id);
      if (!this.match) return;
      Object.assign(m, { seats: fresh.seats });
    }
    const mine = this.seat && this.seat.seat;
    const others = data.seat && data.seat !== mine;
    const who = data.seat ? sideName(data.seat) : '';
    // Moves are named from the view they were played in, when it is the
    // one this page has.
    const named = (data.moves || []).map((mv, i) => (i === 0 && before
      ? this.shell.moveRecord(before, mv.action, mv.ply) : { ...mv }));
    switch (data.kind) {
      case 'invite-declined':
        this.declined = { note: data.note || null };
        this.tell(data.note ? t('live.declined_because', { reason: this.reasonText(data.note) }) : t('live.declined'));
        break;
      case 'invited': this.declined = null; break;
      case 'takeback-offered': if (others) this.tell(t('live.takeback_offered', { side: who })); break;
      case 'takeback-declined': if (others) this.tell(t('live.takeback_declined')); break;
      case 'undo': this.tell(t('live.undone')); break;
      case 'resigned': this.tell(t('live.resigned', { side: who })); break;
      case 'joined': if (others) this.tell(data.name ? t('live.joined_named', { side: who, name: data.name }) : t('live.joined', { side: who })); break;
      case 'timeout': this.tell(t('live.timeout')); break;
      case 'draw-offered': if (others) this.tell(t('live.draw_offered', { side: who })); break;
      case 'draw-agreed': this.tell(t('live.draw_agreed')); break;
      case 'draw-declined': if (others) this.tell(t('live.draw_declined')); break;
      case 'claimed': this.tell(t('live.claimed', { side: who })); break;
      case 'move':
      case 'over':
        if (others || this.catchup) for (const mv of named) this.tell(t('live.moved', { side: sideName(mv.side), move: moveText(mv) }));
        break;
      default:
    }
    const view = data.code === this.view.code ? this.view : await api.view(m.game, data.code);
    // A move whose name this page could not read from its own view (a
    // batch, a missed event) comes with the kept history instead.
    const played = data.kind === 'move' || data.kind === 'over';
    const complete = named.every((mv) => mv.chinese || m.game !== 'xiangqi');
    await this.apply({ ...m, state: view }, { history: !played || !complete, moves: named });
  }

  // A decline's reason as the inviter reads it: one of the offered
  // reasons in their language, or the invitee's own words.
  reasonText(note) {
    return REASONS.includes(note) ? t(`decline.${note}`) : note;
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
    // A replayed ply stays on screen until the match moves on.
    const moved = !this.match || this.match.id !== match.id || this.match.version !== match.version;
    this.match = match;
    this.view = match.state;
    if (moved) this.replay.sync();
    if (!this.replay.viewing) this.draw();
    this.replay.render();
    this.renderPanel();
    this.waiters = this.waiters.filter((w) => {
      if (match.version >= w.version) { w.resolve(); return false; }
      return true;
    });
  }

  // Draws the match's current position.
  draw() {
    const match = this.match;
    const lastMove = this.moves.filter((mv) => mv.ply === match.ply).pop();
    this.drawAt(match.state, lastMove || null, match.ply);
  }

  // Draws a position of the match's record: the current one, or an
  // earlier ply the replay bar shows (`move` led to it).
  drawAt(view, move, ply = move ? move.ply : 0) {
    const match = this.match;
    const flip = match.game === 'xiangqi' && this.seat && this.seat.seat === 'black';
    this.shell.showView(view, {
      lastAction: move ? move.action : null,
      lastLabel: move ? moveText(move) : null,
      matchStatus: ply === match.ply ? match.status : { state: 'ongoing' },
      flip,
      extra: [[t('fact.match'), t('match.kind_ply', { mode: t(`mode.${match.mode}`), ply })]],
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
    if (!this.seat || !this.seat.token) throw new ApiError(401, { type: '/problems/unauthorized' });
    if (this.live()) {
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
    if (m && this.replay.viewing) return t('replay.viewing', { ply: this.replay.shownPly() });
    if (!m || view !== this.view) return t('match.loading');
    if (m.status.state !== 'ongoing') return t('match.over_fork');
    if (!this.seat) return this.invite ? t('match.join_first') : t('match.watching');
    if (m.mode === 'duel' && this.seat.seat !== m.to_move) return t('match.waiting_for', { side: sideName(m.to_move) });
    return null;
  }

  async play(actions, opts) {
    const view = this.view;
    const why = view ? this.cannotMove(view) : t('match.loading');
    if (why) {
      if (!opts.quiet) this.shell.say(why, 'error');
      return;
    }
    if (!view.legal_actions.some((a) => a.action === actions[0])) {
      if (opts.illegal !== null) this.shell.say(opts.illegal || t('play.illegal', { action: actions[0] }), 'error');
      return;
    }
    const version = this.match.version;
    await this.command('play', { actions, version }, () => api.matchPlay(this.id, this.seat.token, actions, version));
    if (!opts.quiet) this.shell.say('');
  }

  async undo() {
    const m = this.match;
    if (!m) return;
    await this.command('undo', {}, () => api.undo(this.id, this.seat.token));
    if (m.mode === 'duel') this.shell.say(t('live.takeback_sent'));
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
      this.shell.say(t('live.resign_confirm'));
      setTimeout(() => { this.resignArmed = false; this.renderPanel(); }, 4000);
      return;
    }
    this.resignArmed = false;
    await this.command('resign', {}, () => api.resign(this.id, this.seat.token));
  }

  async offerDraw() {
    const ack = await this.command('draw', {}, () => api.offerDraw(this.id, this.seat.token));
    if (this.match && this.match.status.state === 'ongoing') this.shell.say(t('live.draw_sent'));
    return ack;
  }

  async answerDraw(accept) {
    const tok = this.seat && this.seat.token;
    if (accept) await this.command('draw-accept', {}, () => api.acceptDraw(this.id, tok));
    else await this.command('draw-decline', {}, () => api.declineDraw(this.id, tok));
  }

  async claim(result) {
    try {
      await this.command('claim', { result }, () => api.claim(this.id, this.seat.token, result));
    } catch (e) {
      // Too soon: say when, in the reader's words and time zone.
      if (e instanceof ApiError && e.problem && e.problem.claimable_at) {
        this.claimableAt = e.problem.claimable_at;
        this.renderPanel();
      }
      throw e;
    }
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
    for (const row of document.querySelectorAll('.clock-row')) {
      const side = row.dataset.side;
      const left = this.secondsLeft(side);
      const time = row.querySelector('.time');
      if (time) time.textContent = clockText(left);
      row.classList.toggle('running', m.clock.running === side);
      row.classList.toggle('low', m.clock.running === side && left < 10);
    }
  }

  // Whether the reader may practise from this match's moves.
  forkable() {
    const m = this.match;
    return !!m && (!!(this.seat && this.seat.token) || m.status.state !== 'ongoing');
  }

  async fork(ply) {
    const token = this.seat && this.seat.token;
    const m = await api.fork(this.id, token, ply);
    saveSeat(m.id, { token: m.token, seat: m.seat });
    this.shell.navigate(`/play/matches/${m.id}`);
    this.shell.say(t('live.forked', { ply: m.ply }));
  }

  async join() {
    const m = await api.join(this.id, this.invite, playerName());
    saveSeat(m.id, { token: m.token, seat: m.seat });
    this.shell.navigate(`/play/matches/${m.id}`, 'replace');
    this.shell.say(t('live.you_joined', { side: sideName(m.seat) }));
  }

  // A refused join or decline: a spent invite is said in the first screen.
  refused(e) {
    const kind = e instanceof ApiError ? problemKind(e.problem) : null;
    if (kind === 'invalid-invite' || kind === 'seat-taken' || kind === 'game-over') {
      this.inviteState = kind;
      this.renderPanel();
    }
    this.shell.fail(e);
  }

  async decline(reason) {
    try {
      await api.declineInvite(this.id, this.invite, reason);
    } catch (e) {
      this.refused(e);
      return;
    }
    this.invite = null;
    this.declineOpen = false;
    this.inviteState = 'declined';
    history.replaceState(history.state, '', `/play/matches/${this.id}`);
    this.shell.say(t('invite.declined_done'));
    this.renderPanel();
  }

  // New invites for the open seat (the old link stops working): after a
  // decline, one tap.
  async reinvite() {
    const m = await api.reinvite(this.id, this.seat.token);
    const invite = m.invites && m.invites[0];
    if (invite) this.seat = { ...this.seat, invite: { seat: invite.seat, invite: invite.invite, url: invite.url } };
    saveSeat(this.id, this.seat);
    this.declined = null;
    await this.apply(m, { history: false, moves: [] });
    if (invite) await this.shell.shareLink(invite.url, t('invite.share_title'));
  }

  inviteLink() {
    const inv = this.seat && this.seat.invite;
    if (!inv) return null;
    return inv.url || `${location.origin}/m/${this.id}?invite=${encodeURIComponent(inv.invite)}`;
  }

  async share() {
    const invite = this.match && this.match.seats.some((s) => !s.taken) ? this.inviteLink() : null;
    await this.shell.shareLink(invite || this.pageLink(), document.title);
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
    saveSeat(m.id, { token: m.token, seat: m.seat, invite: invite ? { seat: invite.seat, invite: invite.invite, url: invite.url } : null });
    this.shell.navigate(`/play/matches/${m.id}`);
    this.shell.say(mode === 'solo' ? t('live.solo_created') : t('live.duel_created'));
  }

  leave() {
    const v = this.view;
    this.shell.navigate(v ? this.shell.pageUrl(v.game, v.code) : '/');
  }

  // ---- drawing -------------------------------------------------------------

  renderPanel() {
    const m = this.match;
    if (!m) return;
    this.renderBars();
    this.renderNow();
    this.renderSide();
    this.shell.renderMoves();
    $('fork-btn').hidden = !this.forkable();
    $('undo-btn').disabled = !(this.seat && m.status.state === 'ongoing' && m.mode === 'solo' && m.ply > 0);
    const runs = !!(m.clock && m.clock.running && m.status.state === 'ongoing');
    if (runs && !this.ticking) this.ticking = setInterval(() => this.renderClocks(), 100);
    if (!runs && this.ticking) {
      clearInterval(this.ticking);
      this.ticking = null;
    }
  }

  // The two players' bars: the opponent above the board, the reader (or,
  // watching, the first player) below.
  renderBars() {
    const m = this.match;
    const top = $('bar-top');
    const bottom = $('bar-bottom');
    if (m.mode !== 'duel') {
      top.hidden = true;
      bottom.hidden = true;
      return;
    }
    const mine = this.seat && this.seat.seat;
    const [first, second] = m.seats;
    const below = mine ? m.seats.find((s) => s.seat === mine) : first;
    const above = below === first ? second : first;
    const bar = (s) => {
      const you = s.seat === mine;
      const turn = m.status.state === 'ongoing' && m.to_move === s.seat;
      const name = seatName(s) || (s.taken ? sideName(s.seat) : t('bar.open_seat'));
      return [h('div', {
        class: `clock-row${turn ? ' turn' : ''}${m.clock && m.clock.running === s.seat ? ' running' : ''}`,
        'data-side': s.seat,
        'data-seat': s.seat,
        'data-online': String(s.online),
      },
      h('span', { class: 'dot', style: `background:${this.shell.colors[s.seat] || '#888'}`, 'aria-hidden': 'true' }),
      h('span', { class: 'who' }, h('span', { class: 'name' }, name), h('span', { class: 'side' }, you ? t('bar.you_side', { side: sideName(s.seat) }) : sideName(s.seat))),
      h('span', { class: `online${s.online ? ' on' : ''}`, title: s.online ? t('bar.online') : t('bar.offline'), 'aria-label': s.online ? t('bar.online') : t('bar.offline') }),
      m.clock ? h('span', { class: 'time', id: `clock-${s.seat}`, 'aria-label': t('bar.time_of', { side: sideName(s.seat) }) }, clockText(this.secondsLeft(s.seat))) : null)];
    };
    top.replaceChildren(...bar(above));
    bottom.replaceChildren(...bar(below));
    top.hidden = false;
    bottom.hidden = false;
  }

  // The actions of the moment, under the board.
  renderNow() {
    const m = this.match;
    const mine = this.seat && this.seat.seat;
    const act = (text, fn, attrs = {}) => h('button', { type: 'button', ...attrs, onclick: () => fn().catch(this.shell.fail) }, text);
    const parts = [];
    const ongoing = m.status.state === 'ongoing';
    const open = m.seats.find((s) => !s.taken);
    const inviter = m.seats.find((s) => s.taken);
    if (!this.seat && this.inviteState) {
      parts.push(h('p', { class: 'offer', id: 'invite-state' }, t(`invite.state.${this.inviteState}`)));
    } else if (!this.seat && this.invite && open && ongoing) {
      const from = inviter && inviter.name ? t('invite.from_named', { name: inviter.name, game: this.shell.names[m.game] }) : t('invite.from', { game: this.shell.names[m.game] });
      parts.push(h('p', { class: 'offer', id: 'invite-note' }, from, ' ', t('invite.your_side', { side: sideName(open.seat) })));
      if (this.declineOpen) parts.push(this.declineForm());
      else {
        parts.push(h('div', { class: 'buttons' },
          act(t('invite.join'), () => this.join().catch((e) => this.refused(e)), { class: 'primary', id: 'join-btn' }),
          act(t('invite.decline'), async () => { this.declineOpen = true; this.renderPanel(); }, { id: 'decline-open-btn' })));
      }
    }
    if (!ongoing) {
      parts.push(h('p', { class: 'result', id: 'result' }, $('outcome').textContent));
    }
    if (ongoing && mine && m.mode === 'duel' && open) {
      if (this.declined) {
        parts.push(h('p', { class: 'offer', id: 'declined-note' }, this.declined.note ? t('live.declined_because', { reason: this.reasonText(this.declined.note) }) : t('live.declined')));
        parts.push(h('div', { class: 'buttons' }, act(t('invite.new'), () => this.reinvite(), { class: 'primary', id: 'reinvite-btn' })));
      } else {
        parts.push(h('p', { class: 'offer', id: 'waiting-note' }, t('invite.waiting', { side: sideName(open.seat) })));
        const link = this.inviteLink();
        parts.push(h('div', { class: 'buttons' },
          link ? act(t('invite.send'), () => this.shell.shareLink(link, t('invite.share_title')), { class: 'primary', id: 'send-invite-btn' }) : null,
          act(t('invite.new'), () => this.reinvite(), { id: 'reinvite-btn' })));
      }
    }
    if (m.draw_offer && ongoing) {
      if (m.draw_offer.seat === mine) {
        parts.push(h('p', { class: 'offer', id: 'draw-offer' }, t('offer.you_draw')));
        parts.push(h('div', { class: 'buttons' }, act(t('offer.withdraw'), () => this.answerDraw(false), { id: 'draw-withdraw-btn' })));
      } else {
        parts.push(h('p', { class: 'offer', id: 'draw-offer' }, t('offer.draw', { side: sideName(m.draw_offer.seat) })));
        if (mine) {
          parts.push(h('div', { class: 'buttons' },
            act(t('offer.accept_draw'), () => this.answerDraw(true), { class: 'primary', id: 'draw-accept-btn' }),
            act(t('offer.decline'), () => this.answerDraw(false), { id: 'draw-decline-btn' })));
        }
      }
    }
    if (m.undo_offer) {
      if (m.undo_offer.seat === mine) {
        parts.push(h('p', { class: 'offer' }, t('offer.you_takeback')));
        parts.push(h('div', { class: 'buttons' }, act(t('offer.withdraw'), () => this.answer(false))));
      } else {
        parts.push(h('p', { class: 'offer', id: 'takeback-offer' }, t('offer.takeback', { side: sideName(m.undo_offer.seat) })));
        if (mine) {
          parts.push(h('div', { class: 'buttons' },
            act(t('offer.accept_takeback'), () => this.answer(true), { class: 'primary', id: 'accept-btn' }),
            act(t('offer.decline'), () => this.answer(false), { id: 'decline-btn' })));
        }
      }
    }
    if (this.claimable()) {
      const when = this.claimableAt && Date.parse(this.claimableAt) > Date.now()
        ? t('claim.when', { when: untilOrNow(this.claimableAt) }) : t('claim.away', { side: sideName(m.to_move) });
      parts.push(h('p', { class: 'offer', id: 'claim-note' }, when));
      parts.push(h('div', { class: 'buttons' },
        act(t('claim.win'), () => this.claim('win'), { id: 'claim-win-btn' }),
        act(t('claim.draw'), () => this.claim('draw'), { id: 'claim-draw-btn' })));
    }
    if (mine && ongoing) {
      const buttons = [act(m.mode === 'solo' ? t('action.undo') : t('action.takeback'), () => this.undo(), { id: 'takeback-btn', disabled: m.ply === 0 || !!m.undo_offer })];
      if (m.mode === 'duel' && !m.draw_offer) buttons.push(act(t('action.draw'), () => this.offerDraw(), { id: 'draw-btn' }));
      if (m.mode === 'duel') buttons.push(act(this.resignArmed ? t('action.resign_really') : t('action.resign'), () => this.resign(), { id: 'resign-btn', class: this.resignArmed ? 'danger' : '' }));
      parts.push(h('div', { class: 'buttons match-actions' }, ...buttons));
    }
    $('now').replaceChildren(...parts);
  }

  // The decline, with a reason picked or written.
  declineForm() {
    const text = h('input', { id: 'decline-text', maxlength: '200', placeholder: t('decline.own'), 'aria-label': t('decline.own') });
    return h('div', { class: 'decline', id: 'decline-form' },
      h('p', { class: 'small' }, t('decline.why')),
      h('div', { class: 'buttons' }, ...REASONS.map((r) => h('button', {
        type: 'button', 'data-reason': r, onclick: () => this.decline(r).catch(this.shell.fail),
      }, t(`decline.${r}`)))),
      h('form', {
        class: 'inline-form',
        onsubmit: (e) => {
          e.preventDefault();
          const why = text.value.trim();
          this.decline(why || 'busy').catch(this.shell.fail);
        },
      }, text, h('button', { type: 'submit', id: 'decline-send-btn' }, t('decline.send'))));
  }

  // The side panel: what the match is, its seats, the invite link.
  renderSide() {
    const m = this.match;
    const mine = this.seat && this.seat.seat;
    const act = (text, fn, attrs = {}) => h('button', { type: 'button', ...attrs, onclick: () => fn().catch(this.shell.fail) }, text);
    const parts = [];
    parts.push(h('p', { class: 'small' },
      `${this.shell.names[m.game]} · ${t(`mode.${m.mode}`)} · `,
      h('span', { class: 'conn' }, this.live() ? t('match.live') : t('match.connecting')),
      ' · ', mine ? (m.mode === 'solo' ? t('match.you_play_all') : t('match.you_play', { side: sideName(mine) })) : t('match.watching_short')));
    if (m.parent) {
      parts.push(h('p', { class: 'small' }, t('match.forked_from'), ' ', h('a', { href: `/play/matches/${m.parent.id}`, onclick: (e) => { e.preventDefault(); this.shell.navigate(`/play/matches/${m.parent.id}`); } }, t('match.this_match')), ' ', t('match.at_ply', { ply: m.parent.ply })));
    }
    parts.push(h('ul', { class: 'seats', 'aria-label': t('match.seats') }, ...m.seats.map((s) => h('li', { 'data-seat': s.seat, 'data-online': String(s.online) },
      h('span', { class: `online${s.online ? ' on' : ''}`, 'aria-hidden': 'true' }),
      `${m.mode === 'solo' ? t('side.player') : sideName(s.seat)}${seatName(s) ? ` · ${seatName(s)}` : ''}${s.seat === mine ? ` ${t('match.you_mark')}` : ''} — ${s.taken ? (s.online ? t('bar.online') : t('bar.offline')) : t('bar.open_seat')}`))));
    if (m.mode === 'duel') parts.push(h('p', { class: 'small' }, controlText(m.clock && m.clock.control)));
    const open = m.seats.find((s) => !s.taken);
    const link = this.inviteLink();
    if (open && link && m.status.state === 'ongoing') {
      parts.push(h('p', { class: 'small' }, t('invite.link_for', { side: sideName(open.seat) })));
      parts.push(h('p', { class: 'invite' }, h('a', { href: link, id: 'invite-link' }, link)));
      parts.push(h('div', { class: 'buttons' }, act(t('invite.copy'), async () => this.shell.copyText(link))));
    }
    parts.push(h('div', { class: 'buttons' }, act(t('match.leave'), async () => this.leave(), { id: 'leave-btn' })));
    $('match-info').replaceChildren(...parts);
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
      if (es.readyState === EventSource.CLOSED) $('seek-state').textContent = t('lobby.unavailable');
    };
  }

  renderLobby() {
    const list = $('seek-list');
    const { names } = this.shell;
    const items = [...this.seeks.values()].map((s) => {
      const own = this.mySeek && this.mySeek.id === s.id;
      const side = s.side === 'random' ? t('lobby.random_side') : t('lobby.seeker_plays', { side: sideName(s.side) });
      const clock = !s.clock ? t('clock.none') : s.clock.type === 'fischer'
        ? `${s.clock.base / 60}+${s.clock.increment}` : t('clock.correspondence', { days: s.clock.days });
      const who = s.name ? `${s.name} · ` : '';
      return h('li', { 'data-seek': s.id },
        h('span', {}, `${who}${names[s.game]}${s.variant && s.variant !== 'standard' ? ` ${t(`variant.${s.variant}`)}` : ''}${s.size ? ` ${s.size}×${s.size}` : ''} · ${side} · ${clock}`),
        own ? h('span', { class: 'small' }, t('lobby.yours')) : h('button', { type: 'button', class: 'take', onclick: () => this.take(s).catch(this.shell.fail) }, t('lobby.take')));
    });
    list.replaceChildren(...(items.length ? items : [h('li', { class: 'empty' }, t('lobby.empty'))]));
  }

  async take(seek) {
    const m = await api.take(seek.id, playerName());
    saveSeat(m.id, { token: m.token, seat: m.seat });
    this.shell.navigate(`/play/matches/${m.id}`);
    this.shell.say(t('lobby.taken', { side: sideName(m.seat) }));
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
    $('seek-state').textContent = t('lobby.waiting', { game: this.shell.names[view.game] });
    this.renderLobby();
    readEventStream(seek.events_url, {
      token: seek.token,
      signal: abort.signal,
      onEvent: (name, data) => {
        if (name !== 'matched') return;
        saveSeat(data.id, { token: seek.token, seat: data.seat });
        this.endSeek(t('lobby.matched'));
        this.shell.navigate(`/play/matches/${data.id}`);
      },
    }).catch((e) => {
      if (e.name !== 'AbortError' && this.mySeek && this.mySeek.id === seek.id) {
        this.endSeek(t('lobby.stream_closed'));
      }
    });
  }

  async withdrawSeek() {
    const s = this.mySeek;
    if (!s) return;
    this.endSeek(t('lobby.withdrawn'));
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

// How long until a moment, or "now" once it passed.
function untilOrNow(rfc3339) {
  return Date.parse(rfc3339) > Date.now() ? untilText(rfc3339) : t('claim.now');
}
