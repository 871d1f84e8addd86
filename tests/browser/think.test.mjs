// Hint, analysis and the computer in the playground: a hint drawn on a
// gomoku board with its lines, and a short game against the computer
// played to its end.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TIMEOUT, launch, open, startCode, playedCode, waitForCode, screenshot, clickPoint,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

describe('thinking in the playground', { timeout: TIMEOUT }, () => {
  test('gomoku: a hint draws the winning point and lists the best lines', async () => {
    const start = await startCode('gomoku');
    // Black to move with an open four h8–k8: g8 and l8 win at once.
    const code = await playedCode('gomoku', start, ['h8', 'h9', 'i8', 'i9', 'j8', 'j9', 'k8', 'a1']);
    const page = await open(browser, `/play/gomoku/${code}`);
    await page.locator('[data-point="h8"]').waitFor();
    await page.locator('#hint-btn').click();
    const first = page.locator('#lines .line').first();
    await first.waitFor();
    const lines = await page.locator('#lines .line').allTextContents();
    assert.ok(lines.length >= 1 && lines.length <= 3, `${lines}`);
    assert.match(lines[0], /^(g8|l8) — forced win in 1$/);
    const mark = page.locator('[data-point] .hint-mark');
    await mark.waitFor();
    const point = await page.locator('[data-point]:has(.hint-mark)').getAttribute('data-point');
    assert.ok(['g8', 'l8'].includes(point), point);
    assert.match(await page.locator('#message').textContent(), new RegExp(`Hint: ${point}`));
    assert.match(await page.locator('#lines-stats').textContent(), /depth \d+ · \d+ nodes · \d+ ms/);
    await screenshot(page, 'gomoku-hint');
    // The hint is about this position: a move takes it away.
    await clickPoint(page, point);
    await waitForCode(page, 'gomoku', code);
    assert.equal(await page.locator('.hint-mark').count(), 0);
    assert.equal(await page.locator('#lines-box').isHidden(), true);
    assert.deepEqual(page.errors, []);
  });

  test('gomoku: a game against the computer, to its end', async () => {
    const start = await startCode('gomoku');
    // Black (you) has an open three h8–j8; white's stones are far away.
    const from = await playedCode('gomoku', start, ['h8', 'a1', 'i8', 'a3', 'j8', 'a5']);
    const page = await open(browser, `/play/gomoku/${from}`);
    await page.locator('[data-point="h8"]').waitFor();
    await page.locator('#level-select').selectOption('1');
    await page.locator('#computer-btn').click();
    assert.equal(await page.locator('#computer-btn').getAttribute('aria-pressed'), 'true');
    assert.match(await page.locator('#message').textContent(), /The computer plays White at Level 1/);

    // An open four: the computer answers on its own, and can block one end only.
    await clickPoint(page, 'k8');
    await page.locator('#move-list li').nth(1).waitFor();
    await page.locator('#turn').filter({ hasText: 'Black to move' }).waitFor();
    const reply = (await page.locator('#move-list li').first().locator('.mv').textContent()).trim();
    assert.match(await page.locator('#message').textContent(), new RegExp(`The computer played ${reply}`));
    const five = reply === 'l8' ? 'g8' : 'l8';
    await clickPoint(page, five);
    await page.locator('#outcome').filter({ hasText: 'Black wins' }).waitFor();
    // The page's moves are the API's: the address holds the code they give.
    const code = await waitForCode(page, 'gomoku', from);
    assert.equal(code, await playedCode('gomoku', from, ['k8', reply, five]));
    // The computer does not move after the end.
    assert.equal(await page.locator('#move-list li').count(), 3);
    await screenshot(page, 'gomoku-computer');
    assert.deepEqual(page.errors, []);
  });
});
