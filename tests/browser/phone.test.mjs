// The people the seed articles write for: Chinese players on phones
// (390×844, touch, zh-CN), and the same flows on a desktop in English
// (1280×800). The invite flow from the playground's own link, a whole
// Gomoku duel placed with confirm, a Quoridor game whose every wall is
// placed by taps, Tetris by swipes, a share page's preview picture of the
// size it claims, and no English on a Chinese page.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TIMEOUT, launch, open, api, startCode, playedCode, screenshot, phone, desktop, inFirstScreen,
  englishWords, addressOf, waitForCode, BASE,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const matchPath = (id) => (url) => url.pathname === `/play/matches/${id}` && url.search === '';

// Taps on a phone, clicks on a desktop.
const press = (locator, touch) => (touch ? locator.tap() : locator.click());

// Every control a finger may have to hit, at least 32 px each way.
async function smallControls(page) {
  return page.evaluate(() => [...document.querySelectorAll('button, a[href], input:not([type="hidden"]), select, summary')]
    .filter((el) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && !el.closest('.skip');
    })
    .map((el) => ({ el: `${el.tagName.toLowerCase()}#${el.id || ''} ${(el.textContent || '').trim().slice(0, 20)}`, ...(({ width, height }) => ({ width, height }))(el.getBoundingClientRect()) }))
    .filter((c) => c.width < 32 || c.height < 32));
}

for (const [where, makeContext, touch, lang] of [
  ['a phone in Chinese', phone, true, 'zh'],
  ['a desktop in English', desktop, false, 'en'],
]) {
  describe(`the invite flow on ${where}`, { timeout: TIMEOUT * 2 }, () => {
    test('the playground hands out a link; Join is in the first screen; the seat is taken; names and clocks show without scrolling', async () => {
      const inviterName = lang === 'zh' ? '林' : 'Lin';
      const start = await startCode('xiangqi');
      const red = await open(browser, `/play/xiangqi/${start}`, { context: await makeContext(browser) });
      await red.locator('[data-square="h2"]').waitFor();
      await red.locator('#player-name').fill(inviterName);
      await red.locator('#duel-clock').selectOption('300+3');
      await red.locator('#duel-side').selectOption('red');
      await press(red.locator('#duel-btn'), touch);
      await red.waitForURL((url) => /^\/play\/matches\/[0-9a-f-]{36}$/.test(url.pathname));
      const id = new URL(red.url()).pathname.split('/').pop();
      // The inviter's first screen says who is awaited and offers to send.
      await red.locator('#waiting-note').waitFor();
      assert.ok(await inFirstScreen(red.locator('#send-invite-btn')), 'Send invitation in the first screen');
      const link = await red.locator('#invite-link').getAttribute('href');
      const created = await api('GET', `/v1/matches/${id}`);
      assert.equal(new URL(link).pathname, `/v1/matches/${id}/join`, 'the API\'s invites[].url');

      const black = await open(browser, link, { context: await makeContext(browser) });
      await black.waitForURL((url) => url.pathname === `/m/${id}` && url.searchParams.has('invite'));
      const join = black.locator('#join');
      assert.ok(await inFirstScreen(join), 'Join is in the first screen');
      const invitation = await black.locator('#invite .who').textContent();
      assert.ok(invitation.includes(inviterName), `the inviter's name: ${invitation}`);
      assert.equal(await black.evaluate(() => document.documentElement.lang), lang === 'zh' ? 'zh-Hans' : 'en');
      if (lang === 'zh') assert.deepEqual(await englishWords(black), [], 'no English on the Chinese invitation');
      await screenshot(black, `invite-${lang}`, { fullPage: false });

      await press(join, touch);
      await black.waitForURL(matchPath(id));
      const match = await api('GET', `/v1/matches/${id}`);
      assert.ok(match.seats.every((s) => s.taken), 'the seat is taken');
      assert.equal(match.version > created.version, true);
      // Both players' names and clocks, without scrolling: the opponent
      // above the board, the reader below; black sees the board turned.
      const top = black.locator('#bar-top .clock-row[data-side="red"]');
      const bottom = black.locator('#bar-bottom .clock-row[data-side="black"]');
      await top.locator('.name', { hasText: inviterName }).waitFor();
      await black.locator('.conn', { hasText: lang === 'zh' ? '已连线' : 'live' }).waitFor();
      for (const el of [top, bottom, black.locator('#clock-red'), black.locator('#clock-black'), black.locator('#turn')]) {
        assert.ok(await inFirstScreen(el), `${await el.evaluate((e) => e.id || e.className)} in the first screen`);
      }
      assert.equal(await black.locator('#clock-black').textContent(), '5:00');
      const general = await black.locator('[data-square="e9"]').boundingBox();
      const own = await black.locator('[data-square="e0"]').boundingBox();
      assert.ok(general.y > own.y, 'black\'s side of the board is at the bottom');

      // Red moves; black sees it named as players write it, and its
      // first screen says whose move it is.
      await red.locator('#bar-top .clock-row[data-online="true"]').waitFor();
      await press(red.locator('[data-square="h2"]'), touch);
      await press(red.locator('[data-square="e2"]'), touch);
      await black.locator('#move-list .mv', { hasText: '炮二平五' }).waitFor();
      await black.locator('#turn', { hasText: lang === 'zh' ? '黑方走棋' : 'Black to move' }).waitFor();
      if (touch) assert.deepEqual(await smallControls(black), [], 'no control under 32 px');
      if (lang === 'zh') assert.deepEqual(await englishWords(black), [], 'no English on the Chinese match screen');
      await screenshot(black, `duel-first-screen-${lang}`, { fullPage: false });
      await screenshot(red, `duel-inviter-${lang}`, { fullPage: false });
      assert.deepEqual(black.errors, []);
      assert.deepEqual(red.errors, []);
      await black.context().close();
      await red.context().close();
    });
  });
}

// Opens a match in a phone whose seat token is already in localStorage.
async function seated(id, seat) {
  const ctx = await phone(browser);
  await ctx.addInitScript(([key, value]) => localStorage.setItem(key, value), [`qipan.seat.${id}`, JSON.stringify(seat)]);
  return open(browser, `/play/matches/${id}`, { context: ctx });
}

describe('touch play on a phone, in Chinese', { timeout: TIMEOUT * 2 }, () => {
  test('a whole Gomoku duel, each stone chosen and then confirmed', async () => {
    const created = await api('POST', '/v1/matches', { game: 'gomoku', seat: 'black', name: '黑子' });
    const joined = await api('POST', `/v1/matches/${created.id}/join`, { invite: created.invites[0].invite, name: '白子' });
    const black = await seated(created.id, { token: created.token, seat: 'black' });
    const white = await seated(created.id, { token: joined.token, seat: 'white' });
    for (const page of [black, white]) await page.locator('.conn', { hasText: '已连线' }).waitFor();
    const moves = ['h8', 'h9', 'i8', 'i9', 'j8', 'j9', 'k8', 'k9', 'l8'];
    for (const [i, pt] of moves.entries()) {
      const [me, other] = i % 2 === 0 ? [black, white] : [white, black];
      const point = me.locator(`[data-point="${pt}"]`);
      await point.tap();
      // The first tap only chooses: the stone waits for its confirmation.
      await me.locator(`[data-point="${pt}"] .pending`).waitFor();
      assert.equal((await api('GET', `/v1/matches/${created.id}`)).ply, i, 'nothing placed yet');
      assert.ok(await inFirstScreen(me.locator('#place-btn')), 'Place is in the first screen');
      // Black confirms by tapping the point again, white with Place.
      if (i % 2 === 0) await point.tap();
      else await me.locator('#place-btn').tap();
      await other.locator(`[data-point="${pt}"] .stone`).waitFor();
      await other.locator(`[data-point="${pt}"] .last`).waitFor();
      assert.equal(await other.locator(`[data-point="${pt}"] .num`).textContent(), String(i + 1));
    }
    for (const page of [black, white]) {
      await page.locator('#now .result', { hasText: '黑方胜（五连）' }).waitFor();
      assert.equal(await page.locator('.win').count(), 5);
    }
    const match = await api('GET', `/v1/matches/${created.id}`);
    assert.deepEqual(match.status, { state: 'won', winner: 'black', reason: 'five-in-a-row' });
    assert.equal(match.state.code, await playedCode('gomoku', await startCode('gomoku'), moves));
    assert.deepEqual(await englishWords(white), []);
    await screenshot(white, 'gomoku-duel-white', { fullPage: false });
    assert.deepEqual(black.errors, []);
    assert.deepEqual(white.errors, []);
    await black.context().close();
    await white.context().close();
  });

  test('a phone that loses the network comes back to its game and hears what happened meanwhile', async () => {
    const created = await api('POST', '/v1/matches', { game: 'xiangqi', seat: 'red', name: '林' });
    const joined = await api('POST', `/v1/matches/${created.id}/join`, { invite: created.invites[0].invite });
    const page = await seated(created.id, { token: joined.token, seat: 'black' });
    await page.locator('.conn', { hasText: '已连线' }).waitFor();
    await page.context().setOffline(true);
    await page.waitForFunction(() => !navigator.onLine);
    const res = await fetch(`${BASE}/v1/matches/${created.id}/play`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${created.token}` },
      body: JSON.stringify({ actions: ['h2e2'] }),
    });
    assert.equal(res.status, 200);
    // Back online: the page reconnects after the last event it had and
    // says what it missed.
    await page.context().setOffline(false);
    // (A resumed feed brings the move itself; one too far behind, a sync.)
    await page.locator('#message', { hasText: /^你离开期间：(红方走了 炮二平五|对局有了新进展)。$/ }).waitFor();
    await page.locator('#turn', { hasText: '黑方走棋' }).waitFor();
    await page.locator('[data-square="e2"][aria-label*="红炮"]').waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('Quoridor: every wall placed by taps, pawns moved by taps, to the goal', async () => {
    const start = await startCode('quoridor');
    const page = await open(browser, '/play/quoridor', { context: await phone(browser) });
    let code = await waitForCode(page, 'quoridor');
    assert.equal(code, start);
    // Board geometry of quoridor.js: margin 30, squares 48, grooves 12.
    const box = await page.locator('svg.quoridor').boundingBox();
    const k = box.width / (9 * 60 - 12 + 60);
    assert.ok(60 * k >= 32, `a wall's tap target is ${60 * k} px`);
    const crossing = (wall) => {
      const f = 'abcdefghi'.indexOf(wall[0]);
      const rank = Number(wall[1]);
      return { x: box.x + (30 + f * 60 + 48 + 6) * k, y: box.y + (30 + (9 - rank) * 60 - 6) * k };
    };
    const actions = ['e2', 'a2h', 'e3', 'a4h', 'e4', 'a6h', 'e5', 'a8h', 'e6', 'h2h', 'e7', 'h4h', 'e8', 'h6h', 'd9'];
    for (const action of actions) {
      if (action.length === 2) {
        await page.locator(`[data-square="${action}"]`).tap();
      } else {
        await page.locator('#mode-wall-btn').tap();
        // A little off the crossing, as a finger lands.
        const { x, y } = crossing(action);
        await page.touchscreen.tap(x + 9 * k, y - 7 * k);
        await page.locator(`.wall-preview[data-wall="${action}"][data-legal="true"]`).waitFor({ state: 'visible' });
        await page.touchscreen.tap(x - 8 * k, y + 6 * k);
      }
      code = await waitForCode(page, 'quoridor', code);
    }
    assert.equal(code, await playedCode('quoridor', start, actions));
    const view = await api('GET', `/v1/quoridor/${code}`);
    assert.deepEqual(view.status, { state: 'won', winner: '1', reason: 'reached-goal' });
    assert.equal(await page.locator('.wall').count(), 7);
    await page.locator('#outcome', { hasText: '玩家 1胜' }).waitFor();
    assert.deepEqual(await smallControls(page), [], 'no control under 32 px');
    assert.deepEqual(await englishWords(page), []);
    await screenshot(page, 'quoridor-taps', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('Tetris by swipes: drag to move, tap to turn, swipe down to drop, up to hold', async () => {
    const start = await startCode('tetris', '?seed=7');
    const page = await open(browser, '/play/tetris?seed=7&gravity=0', { context: await phone(browser) });
    let code = await waitForCode(page, 'tetris');
    assert.equal(code, start);
    const cdp = await page.context().newCDPSession(page);
    const well = await page.locator('.tetris .well').boundingBox();
    const column = well.width / 10;
    const at = (cx, cy) => ({ x: well.x + cx * well.width, y: well.y + cy * well.height });
    const swipe = async (from, to, steps = 8) => {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
      for (let i = 1; i <= steps; i++) {
        await cdp.send('Input.dispatchTouchEvent', {
          type: 'touchMove', touchPoints: [{ x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps }],
        });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    const gestures = [
      [at(0.5, 0.5), { ...at(0.5, 0.5), x: at(0.5, 0.5).x - 2.3 * column }, ['left', 'left']],
      [at(0.5, 0.5), at(0.5, 0.5), ['cw']],
      [at(0.5, 0.3), at(0.5, 0.7), ['hard']],
      [at(0.4, 0.5), { ...at(0.4, 0.5), x: at(0.4, 0.5).x + 1.4 * column }, ['right']],
      [at(0.5, 0.7), at(0.5, 0.3), ['hold']],
      [at(0.5, 0.3), at(0.5, 0.8), ['hard']],
    ];
    const played = [];
    for (const [from, to, inputs] of gestures) {
      await swipe(from, to);
      played.push(...inputs);
      const expected = await playedCode('tetris', start, played);
      await page.waitForURL((url) => url.pathname === `/play/tetris/${expected}`);
    }
    code = addressOf(page).code;
    assert.equal(code, await playedCode('tetris', start, played));
    const view = await api('GET', `/v1/tetris/${code}`);
    assert.equal(view.hold !== null, true, 'a piece is held');
    assert.deepEqual(await englishWords(page), []);
    await screenshot(page, 'tetris-swipes', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('invitations answered, moves typed as players write them', { timeout: TIMEOUT * 2 }, () => {
  test('a decline with a reason; the inviter sees it and invites again in one tap; the old link says it is spent', async () => {
    const created = await api('POST', '/v1/matches', { game: 'xiangqi', name: '林' });
    const inviterCtx = await desktop(browser);
    const seat = { token: created.token, seat: created.seat, invite: { seat: 'black', invite: created.invites[0].invite, url: created.invites[0].url } };
    await inviterCtx.addInitScript(([key, value]) => localStorage.setItem(key, value), [`qipan.seat.${created.id}`, JSON.stringify(seat)]);
    const inviter = await open(browser, `/play/matches/${created.id}`, { context: inviterCtx });
    await inviter.locator('#waiting-note').waitFor();
    await inviter.locator('.conn', { hasText: 'live' }).waitFor();

    const invitee = await open(browser, created.invites[0].url, { context: await phone(browser) });
    await invitee.locator('#invite a.decline').tap();
    await invitee.waitForURL((url) => url.pathname === `/play/matches/${created.id}` && url.searchParams.get('decline') === '1');
    // The reasons, in the first screen.
    const later = invitee.locator('#decline-form [data-reason="later"]');
    assert.ok(await inFirstScreen(later), 'the reasons are in the first screen');
    assert.deepEqual(await englishWords(invitee), []);
    await later.tap();
    await invitee.locator('#invite-state', { hasText: '你已婉拒这个邀请' }).waitFor();
    await screenshot(invitee, 'invite-declined-zh', { fullPage: false });

    await inviter.locator('#declined-note', { hasText: 'The invitation was declined: Later.' }).waitFor();
    assert.ok(await inFirstScreen(inviter.locator('#reinvite-btn')), 'New invitation in the first screen');
    await inviter.locator('#reinvite-btn').click();
    await inviter.locator('#waiting-note').waitFor();
    const fresh = await inviter.locator('#invite-link').getAttribute('href');
    assert.notEqual(fresh, created.invites[0].url, 'a new link');
    await screenshot(inviter, 'reinvited-en', { fullPage: false });
    // The old link says it no longer works, first thing; the new one joins.
    const stale = await open(browser, created.invites[0].url, { context: await phone(browser) });
    const spent = stale.locator('#invite.spent');
    await spent.waitFor();
    assert.match(await spent.textContent(), /这个邀请已经失效/);
    assert.ok(await inFirstScreen(spent));
    assert.equal(await stale.locator('#join').count(), 0);
    const again = await open(browser, fresh, { context: await phone(browser) });
    await again.locator('#join').tap();
    await again.waitForURL(matchPath(created.id));
    assert.ok((await api('GET', `/v1/matches/${created.id}`)).seats.every((s) => s.taken));
    for (const page of [inviter, invitee, stale, again]) {
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  });

  test('the play box reads Chinese (full-width digits, traditional glyphs), WXF and ICCS', async () => {
    const start = await startCode('xiangqi');
    const page = await open(browser, `/play/xiangqi/${start}`, { context: await phone(browser) });
    let code = await waitForCode(page, 'xiangqi');
    const typed = [['炮二平五', 'h2e2'], ['马８进７', 'h9g7'], ['傌二進三', 'h0g2'], ['c2.5', 'b7e7'], ['i0h0', 'i0h0']];
    const played = [];
    for (const [text, iccs] of typed) {
      await page.locator('#action-input').fill(text);
      await page.locator('#action-form button[type="submit"]').tap();
      code = await waitForCode(page, 'xiangqi', code);
      played.push(iccs);
      assert.equal(code, await playedCode('xiangqi', start, played), text);
    }
    // Listed as Chinese players write them, in the chosen piece style.
    assert.deepEqual(await page.locator('#move-list .mv').allTextContents(), ['车一平二', '炮2平5', '马二进三', '马8进7', '炮二平五']);
    await page.locator('#pref-pieces').selectOption('traditional');
    assert.deepEqual(await page.locator('#move-list .mv').allTextContents(), ['俥一平二', '砲2平5', '傌二進三', '馬8進7', '炮二平五']);
    await page.locator('#pref-notation').selectOption('wxf');
    assert.deepEqual(await page.locator('#move-list .mv').allTextContents(), ['R1.2', 'C2.5', 'H2+3', 'H8+7', 'C2.5']);
    // What is no legal move is said so, and nothing is played.
    await page.locator('#action-input').fill('炮二进九');
    await page.locator('#action-form button[type="submit"]').tap();
    await page.locator('#message.error', { hasText: '不是这里能走的棋' }).waitFor();
    assert.equal(addressOf(page).code, code);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

// The width and height a PNG's header says.
function pngSize(bytes) {
  const b = Buffer.from(bytes);
  assert.equal(b.subarray(1, 4).toString('latin1'), 'PNG');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

describe('share pages in a chat', { timeout: TIMEOUT }, () => {
  test('the og:image a page names has the size its og:image:width and height claim', async () => {
    const code = await playedCode('xiangqi', await startCode('xiangqi'), ['h2e2']);
    const created = await api('POST', '/v1/matches', { game: 'xiangqi', name: '林' });
    for (const [path, description] of [
      [`/p/xiangqi/${code}?last=h2e2`, '黑方走棋 · 上一步 h2e2'],
      [`/m/${created.id}`, null],
    ]) {
      const res = await fetch(`${BASE}${path}`, { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
      assert.equal(res.status, 200);
      const html = await res.text();
      const meta = (name) => {
        const m = html.match(new RegExp(`<meta property="${name}" content="([^"]*)">`));
        return m ? m[1].replace(/&amp;/g, '&') : null;
      };
      assert.match(html, /<html lang="zh-Hans">/);
      if (description) assert.equal(meta('og:description'), description);
      const image = await fetch(meta('og:image'));
      assert.equal(image.status, 200);
      assert.equal(image.headers.get('content-type'), 'image/png');
      const [width, height] = pngSize(await image.arrayBuffer());
      assert.deepEqual([width, height], [Number(meta('og:image:width')), Number(meta('og:image:height'))], path);
    }
  });
});
