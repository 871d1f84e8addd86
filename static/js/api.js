// The HTTP client of the playground: every call the page makes to qipan's
// public API goes through here. Refusals become ApiError carrying the
// RFC 9457 problem; the page says it in its own words from the problem's
// `type` (i18n.js), with the English `detail` second.

export class ApiError extends Error {
  constructor(status, problem) {
    const detail = (problem && (problem.detail || problem.title)) || `HTTP ${status}`;
    super(detail);
    this.status = status;
    this.problem = problem || {};
    this.detail = detail;
  }
}

async function request(method, path, { body, token, version, fresh } = {}) {
  const headers = { accept: 'application/json, application/problem+json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  if (version != null) headers['if-match'] = `"${version}"`;
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: fresh ? 'no-cache' : 'default',
    });
  } catch (e) {
    throw new ApiError(0, { detail: `the service cannot be reached (${e.message})` });
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { detail: text.slice(0, 300) };
    }
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

const get = (path, opts) => request('GET', path, opts);
const post = (path, body, opts = {}) => request('POST', path, { ...opts, body });
const enc = encodeURIComponent;

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

export const api = {
  games: () => get('/v1/games'),
  start: (game, { variant, seed, size } = {}) =>
    get(`/v1/${enc(game)}/start${query({ variant, seed, size })}`, { fresh: seed == null || seed === '' }),
  view: (game, code) => get(`/v1/${enc(game)}/${enc(code)}`),
  play: (game, code, actions) => post(`/v1/${enc(game)}/${enc(code)}/play`, { actions }),
  importState: (game, body) => post(`/v1/${enc(game)}/import`, body),
  exportState: (game, code, format) => get(`/v1/${enc(game)}/${enc(code)}/export${query({ format })}`),
  analysis: (game, code, { ms, lines, nodes } = {}) =>
    get(`/v1/${enc(game)}/${enc(code)}/analysis${query({ ms, lines, nodes })}`, { fresh: true }),
  computerMove: (game, code, level, ms) =>
    get(`/v1/${enc(game)}/${enc(code)}/move${query({ level, ms })}`, { fresh: true }),

  createMatch: (body) => post('/v1/matches', body),
  match: (id) => get(`/v1/matches/${enc(id)}`, { fresh: true }),
  history: (id) => get(`/v1/matches/${enc(id)}/history`, { fresh: true }),
  record: (id) => get(`/v1/matches/${enc(id)}/record.json`, { fresh: true }),
  join: (id, invite, name) => post(`/v1/matches/${enc(id)}/join`, name ? { invite, name } : { invite }),
  reinvite: (id, token) => post(`/v1/matches/${enc(id)}/invite`, undefined, { token }),
  declineInvite: (id, invite, reason) => post(`/v1/matches/${enc(id)}/invite/decline`, { invite, reason }),
  matchPlay: (id, token, actions, version) => post(`/v1/matches/${enc(id)}/play`, { actions }, { token, version }),
  undo: (id, token) => post(`/v1/matches/${enc(id)}/undo`, undefined, { token }),
  acceptUndo: (id, token) => post(`/v1/matches/${enc(id)}/undo/accept`, undefined, { token }),
  declineUndo: (id, token) => post(`/v1/matches/${enc(id)}/undo/decline`, undefined, { token }),
  resign: (id, token) => post(`/v1/matches/${enc(id)}/resign`, undefined, { token }),
  offerDraw: (id, token) => post(`/v1/matches/${enc(id)}/draw`, undefined, { token }),
  acceptDraw: (id, token) => post(`/v1/matches/${enc(id)}/draw/accept`, undefined, { token }),
  declineDraw: (id, token) => post(`/v1/matches/${enc(id)}/draw/decline`, undefined, { token }),
  claim: (id, token, result) => post(`/v1/matches/${enc(id)}/claim`, { result }, { token }),
  fork: (id, token, ply) => post(`/v1/matches/${enc(id)}/fork`, ply == null ? {} : { ply }, { token }),

  lobby: () => get('/v1/lobby', { fresh: true }),
  seek: (body) => post('/v1/lobby/seeks', body),
  take: (seekId, name) => post(`/v1/lobby/seeks/${enc(seekId)}/take`, name ? { name } : undefined),
  withdrawSeek: (seekId, token) => post(`/v1/lobby/seeks/${enc(seekId)}/withdraw`, undefined, { token }),
};

// Reads a Server-Sent Events stream with fetch, so that it may carry an
// Authorization header (EventSource cannot). Calls onEvent(name, data, id)
// per event; resolves when the stream ends; abort with the signal.
export async function readEventStream(url, { token, signal, onEvent }) {
  const headers = { accept: 'text/event-stream' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(url, { headers, signal, cache: 'no-store' });
  if (!res.ok) {
    let problem = null;
    try { problem = await res.json(); } catch { /* not JSON */ }
    throw new ApiError(res.status, problem);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let name = 'message';
  let data = [];
  let id = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (line === '') {
        if (data.length) {
          let parsed = data.join('\n');
          try { parsed = JSON.parse(parsed); } catch { /* keep text */ }
          onEvent(name, parsed, id);
        }
        name = 'message';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const val = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') name = val;
      else if (field === 'data') data.push(val);
      else if (field === 'id') id = val;
    }
  }
}
