// Matches from the page: a duel between two browsers (invite link, live
// moves, presence, takeback), fork to practice from a kept ply, a timed
// duel with names, ticking clocks and a draw by agreement, the lobby, a duel
// against the computer.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TIMEOUT, launch, open, api, startCode, playedCode, screenshot, clickPoint, BASE,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const matchId = (page) => {
  const m = new URL(page.url()).pathname.match(/^\/play\/matches\/([0-9a-f-]{36})$/);
  return m ? m[1] : null;
};

async function waitForMatch(page, not) {
  await page.waitForURL((url) => {
    const m = url.pathname.match(/^\/play\/matches\/([0-9a-f-]{36})$/);
    return !!m && m[1] !== not && url.search === '';
  });
  return matchId(page);
}

const piece = (page, square, text) => page.locator(`[data-square="${square}"][aria-label*="${text}"]`);

describe('matches in the page', { timeout: TIMEOUT * 2 }, () => {
  test('a duel between two browsers, live, with a takeback and a fork', async () => {
    const start = await startCode('xiangqi');
    const red = await open(browser, `/play/xiangqi/${start}`);
    await red.locator('[data-square="h2"]').waitFor();
    await red.locator('#duel-side').selectOption('red');
    await red.locator('#duel-btn').click();
    const id = await waitForMatch(red);
    const invite = await red.locator('#invite-link').getAttribute('href');
    // The link the page hands out is the API's invites[].url.
    assert.match(invite, new RegExp(`/v1/matches/${id}/join\\?invite=[A-Za-z0-9_-]{22}$`));
    const stored = await red.evaluate((key) => localStorage.getItem(key), `qipan.seat.${id}`);
    assert.match(JSON.parse(stored).token, /^[A-Za-z0-9_-]{43}$/, 'the seat token is kept in localStorage');
    assert.ok(!red.url().includes(JSON.parse(stored).token), 'and not in the address');

    // The other player opens the invite in another browser and joins from
    // the match's page.
    const black = await open(browser, invite);
    await black.locator('#join').click();
    assert.equal(await waitForMatch(black), id);
    await black.locator('.conn', { hasText: 'live' }).waitFor();
    await red.locator('#match-info [data-seat="black"][data-online="true"]').waitFor();
    await black.locator('#match-info [data-seat="red"][data-online="true"]').waitFor();

    // Red moves: black sees it without reloading, and the other way round.
    await red.locator('.conn', { hasText: 'live' }).waitFor();
    await clickPoint(red, 'h2');
    await clickPoint(red, 'e2');
    await piece(black, 'e2', 'red cannon').waitFor();
    await black.locator('#turn', { hasText: 'Black to move' }).waitFor();
    // Red may not move for black.
    await clickPoint(red, 'h9');
    await red.locator('#message', { hasText: 'Waiting for Black' }).waitFor();
    await clickPoint(black, 'h9');
    await clickPoint(black, 'g7');
    await piece(red, 'g7', 'black horse').waitFor();
    await red.locator('#turn', { hasText: 'Red to move' }).waitFor();
    let match = await api('GET', `/v1/matches/${id}`);
    assert.equal(match.ply, 2);
    assert.equal(match.state.code, await playedCode('xiangqi', start, ['h2e2', 'h9g7']));
    await screenshot(red, 'duel-red');
    await screenshot(black, 'duel-black');

    // Black asks for a takeback; red accepts; both boards go back.
    await black.locator('#takeback-btn').click();
    await red.locator('#takeback-offer').waitFor();
    await red.locator('#accept-btn').click();
    await piece(black, 'h9', 'black horse').waitFor();
    await piece(red, 'h9', 'black horse').waitFor();
    await black.locator('#turn', { hasText: 'Black to move' }).waitFor();
    match = await api('GET', `/v1/matches/${id}`);
    assert.equal(match.ply, 1);

    // Black plays on; then red forks to practice from ply 1.
    await clickPoint(black, 'b9');
    await clickPoint(black, 'c7');
    await piece(red, 'c7', 'black horse').waitFor();
    await red.locator('#move-list li[data-ply="2"]').waitFor();
    await red.locator('#move-list li[data-ply="1"] .fork-at').click();
    const fork = await waitForMatch(red, id);
    assert.notEqual(fork, id);
    await red.locator('.conn', { hasText: 'live' }).waitFor();
    await piece(red, 'e2', 'red cannon').waitFor();
    await piece(red, 'b9', 'black horse').waitFor();
    const forked = await api('GET', `/v1/matches/${fork}`);
    assert.equal(forked.mode, 'solo');
    assert.deepEqual([forked.parent.id, forked.parent.ply], [id, 1]);
    assert.equal(forked.state.code, await playedCode('xiangqi', start, ['h2e2']));
    // The sandbox plays every side; the duel goes on untouched.
    await clickPoint(red, 'h9');
    await clickPoint(red, 'i7');
    await piece(red, 'i7', 'black horse').waitFor();
    assert.equal((await api('GET', `/v1/matches/${fork}`)).ply, 2);
    assert.equal((await api('GET', `/v1/matches/${id}`)).ply, 2);
    // Undo in the sandbox is immediate.
    await red.locator('#takeback-btn').click();
    await piece(red, 'h9', 'black horse').waitFor();
    assert.equal((await api('GET', `/v1/matches/${fork}`)).ply, 1);

    // Back to the duel: its position is as black left it.
    await red.goBack();
    await red.waitForURL(`**/play/matches/${id}`);
    await piece(red, 'c7', 'black horse').waitFor();
    assert.deepEqual(red.errors, []);
    assert.deepEqual(black.errors, []);
    await red.context().close();
    await black.context().close();
  });

  test('a timed duel: names, ticking clocks, a draw offered and accepted', async () => {
    const start = await startCode('xiangqi');
    const red = await open(browser, `/play/xiangqi/${start}`);
    await red.locator('[data-square="h2"]').waitFor();
    await red.locator('#player-name').fill('Lin');
    await red.locator('#duel-clock').selectOption('180+2');
    await red.locator('#duel-side').selectOption('red');
    await red.locator('#duel-btn').click();
    const id = await waitForMatch(red);
    const invite = await red.locator('#invite-link').getAttribute('href');

    const black = await open(browser, invite);
    await black.locator('input[name="name"]').fill('Ada');
    await black.locator('#join').click();
    assert.equal(await waitForMatch(black), id);
    let match = await api('GET', `/v1/matches/${id}`);
    assert.deepEqual(match.seats.map((s) => s.name), ['Lin', 'Ada']);
    assert.deepEqual(match.clock.control, { type: 'fischer', base: 180, increment: 2 });

    // Both pages name both players, each with a clock; none runs yet.
    for (const page of [red, black]) {
      await page.locator('.conn', { hasText: 'live' }).waitFor();
      await page.locator('.clock-row[data-side="red"] .name', { hasText: 'Lin' }).waitFor();
      await page.locator('.clock-row[data-side="black"] .name', { hasText: 'Ada' }).waitFor();
      assert.equal(await page.locator('#clock-red').textContent(), '3:00');
      assert.equal(await page.locator('#clock-black').textContent(), '3:00');
      assert.equal(await page.locator('.clock-row.running').count(), 0);
    }

    // Each side's first move is free; then red's clock runs, on both pages.
    await clickPoint(red, 'h2');
    await clickPoint(red, 'e2');
    await piece(black, 'e2', 'red cannon').waitFor();
    await clickPoint(black, 'h9');
    await clickPoint(black, 'g7');
    await piece(red, 'g7', 'black horse').waitFor();
    for (const page of [red, black]) {
      await page.locator('.clock-row.running[data-side="red"]').waitFor();
    }
    await black.waitForFunction(() => {
      const t = document.querySelector('#clock-red').textContent;
      return t !== '3:00' && /^2:5\d$/.test(t);
    }, null, { timeout: 5_000 });
    assert.equal(await black.locator('#clock-black').textContent(), '3:00');
    await screenshot(black, 'timed-duel-black');

    // Red moves (its increment added); black's clock runs; black offers a
    // draw, red accepts it.
    await clickPoint(red, 'h0');
    await clickPoint(red, 'g2');
    await piece(black, 'g2', 'red horse').waitFor();
    await red.locator('.clock-row.running[data-side="black"]').waitFor();
    match = await api('GET', `/v1/matches/${id}`);
    assert.equal(match.clock.running, 'black');
    assert.ok(match.clock.remaining.red > 180, `the increment was added: ${match.clock.remaining.red}`);
    await black.locator('#draw-btn').click();
    await black.locator('#draw-offer', { hasText: 'You offered a draw' }).waitFor();
    await red.locator('#draw-offer', { hasText: 'Black offers a draw' }).waitFor();
    await screenshot(red, 'timed-duel-draw-offered');
    await red.locator('#draw-accept-btn').click();
    for (const page of [red, black]) {
      await page.locator('#outcome', { hasText: 'Draw — by agreement' }).waitFor();
      await page.locator('.clock-row[data-side="red"]').waitFor();
      assert.equal(await page.locator('.clock-row.running').count(), 0);
      assert.equal(await page.locator('#draw-btn').count(), 0);
    }
    match = await api('GET', `/v1/matches/${id}`);
    assert.deepEqual(match.status, { state: 'drawn', winner: null, reason: 'agreement' });
    assert.equal(match.clock.running, null);
    await screenshot(red, 'timed-duel-drawn');
    assert.deepEqual(red.errors, []);
    assert.deepEqual(black.errors, []);
    await red.context().close();
    await black.context().close();
  });

  test('the lobby: post a seek in one browser, take it in another', async () => {
    const seeker = await open(browser, '/play/gomoku');
    await seeker.locator('[data-point="h8"]').waitFor();
    await seeker.locator('#duel-side').selectOption('white');
    await seeker.locator('#player-name').fill('Mei');
    await seeker.locator('#duel-clock').selectOption('300+3');
    const taker = await open(browser, '/play/xiangqi');
    await taker.locator('[data-square="h2"]').waitFor();
    await seeker.locator('#seek-btn').click();
    await seeker.locator('#seek-state', { hasText: 'Waiting' }).waitFor();
    const lobby = await api('GET', '/v1/lobby');
    const seek = lobby.seeks.find((s) => s.game === 'gomoku' && s.side === 'white');
    assert.ok(seek, 'the seek is listed by the API');
    assert.equal(seek.name, 'Mei');
    assert.deepEqual(seek.clock, { type: 'fischer', base: 300, increment: 3 });
    // The lobby shows who seeks and with what clock.
    await taker.locator(`[data-seek="${seek.id}"]`, { hasText: 'Mei · Gomoku' }).waitFor();
    await taker.locator(`[data-seek="${seek.id}"]`, { hasText: '5+3' }).waitFor();
    await taker.locator('#player-name').fill('Jo');
    await taker.locator(`[data-seek="${seek.id}"] .take`).click();
    const id = await waitForMatch(taker);
    assert.equal(await waitForMatch(seeker), id);
    // The taker plays black and moves first; the seeker sees it.
    await taker.locator('.conn', { hasText: 'live' }).waitFor();
    await clickPoint(taker, 'h8');
    await seeker.locator('[data-point="h8"][aria-label*="black stone" i]').waitFor();
    await clickPoint(seeker, 'i9');
    await taker.locator('[data-point="i9"][aria-label*="white stone" i]').waitFor();
    const match = await api('GET', `/v1/matches/${id}`);
    assert.equal(match.state.code, await playedCode('gomoku', await startCode('gomoku'), ['h8', 'i9']));
    assert.deepEqual(match.seats.map((s) => [s.seat, s.name]), [['black', 'Jo'], ['white', 'Mei']]);
    assert.equal(match.clock.control.base, 300);
    await taker.locator('.clock-row[data-side="white"] .name', { hasText: 'Mei' }).waitFor();
    assert.ok(!(await api('GET', '/v1/lobby')).seeks.some((s) => s.id === seek.id), 'the seek is gone');
    await screenshot(seeker, 'lobby-match');
    assert.deepEqual(seeker.errors, []);
    assert.deepEqual(taker.errors, []);
    await seeker.context().close();
    await taker.context().close();
  });

  test('a duel against the computer: its seat is named with its level, its reply arrives live', async () => {
    const created = await api('POST', '/v1/matches', { game: 'gomoku', computer: { level: 2, ms: 50 } });
    const page = await open(browser, `/play/matches/${created.id}`);
    await page.locator('.conn', { hasText: 'live' }).waitFor();
    await page.locator('#bar-top .name', { hasText: 'Computer · level 2' }).waitFor();
    await page.locator('#match-info [data-seat="white"][data-online="true"]', { hasText: 'Computer · level 2' }).waitFor();
    const res = await fetch(`${BASE}/v1/matches/${created.id}/play`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${created.token}` },
      body: JSON.stringify({ actions: ['h8'] }),
    });
    assert.equal(res.status, 200);
    // Nobody clicked for white: the computer answered by itself.
    await page.locator('[aria-label*="White stone, move 2"]').waitFor();
    await screenshot(page, 'computer-duel');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('a spectator sees moves live but cannot play', async () => {
    const created = await api('POST', '/v1/matches', { game: 'quoridor', mode: 'solo' });
    const page = await open(browser, `/play/matches/${created.id}`);
    await page.locator('[data-square="e1"]').waitFor();
    await page.locator('.conn', { hasText: 'live' }).waitFor();
    await clickPoint(page, 'e2');
    await page.locator('#message', { hasText: 'watching' }).waitFor();
    const res = await fetch(`${BASE}/v1/matches/${created.id}/play`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${created.token}` },
      body: JSON.stringify({ actions: ['e2'] }),
    });
    assert.equal(res.status, 200);
    await page.locator('[data-square="e2"][aria-label*="pawn"]').waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
