// Pages for people: a shared position's page leads to the playground at
// that position, and an invite link opened in a browser joins the match
// with one click on the match's page.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TIMEOUT, launch, open, api, startCode, playedCode, screenshot, addressOf, BASE,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

describe('share pages', { timeout: TIMEOUT * 2 }, () => {
  test('a shared JSON link opens as the page, which plays on in the playground', async () => {
    const code = await playedCode('xiangqi', await startCode('xiangqi'), ['h2e2']);
    // The view's `url` is what gets shared; a browser opening it lands on
    // the page with the board drawn.
    const page = await open(browser, `/v1/xiangqi/${code}`);
    await page.waitForURL(`**/p/xiangqi/${code}`);
    await page.locator('h2', { hasText: 'Black to move' }).waitFor();
    const img = page.locator('figure img');
    await img.waitFor();
    const width = await img.evaluate((el) => el.complete && el.naturalWidth);
    assert.ok(width > 0, 'the board picture loaded');
    const preview = await page.locator('meta[property="og:image"]').getAttribute('content');
    // The preview is the chat card, in the page's language.
    assert.match(preview, new RegExp(`/v1/xiangqi/${code}/card\\.png\\?lang=en$`));
    await screenshot(page, 'share-page');
    await page.locator('a', { hasText: 'Play on from here' }).click();
    await page.waitForURL(`**/play/xiangqi/${code}`);
    assert.deepEqual(addressOf(page), { game: 'xiangqi', code });
    await page.locator('[data-square="e2"][aria-label*="red cannon"]').waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('an invite link opened in a browser joins with one click', async () => {
    const created = await api('POST', '/v1/matches', { game: 'gomoku', seat: 'black' });
    const link = new URL(created.invites[0].url);
    const page = await open(browser, `${link.pathname}${link.search}`);
    await page.waitForURL(`**/m/${created.id}?invite=*`);
    await page.locator('dd', { hasText: 'White: open' }).waitFor();
    await screenshot(page, 'match-page');
    await page.locator('#join').click();
    // One click: the playground takes the seat and drops the invite from
    // the address.
    await page.waitForURL((url) => url.pathname === `/play/matches/${created.id}` && url.search === '');
    const seat = await page.evaluate((key) => JSON.parse(localStorage.getItem(key)), `qipan.seat.${created.id}`);
    assert.equal(seat.seat, 'white');
    const match = await api('GET', `/v1/matches/${created.id}`);
    assert.ok(match.seats.every((s) => s.taken), 'both seats are taken');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('the API reference renders every operation, offline', async () => {
    const page = await open(browser, '/docs#/pictures/pictureSvg');
    await page.locator('.opblock').first().waitFor();
    const operations = await page.locator('.opblock').count();
    const documented = (await (await fetch(`${BASE}/openapi.yaml`)).text())
      .split('\n').filter((line) => /^      operationId: /.test(line)).length;
    assert.equal(operations, documented, 'one block per operation');
    // Every request the page made went to the service itself.
    const outside = await page.evaluate(() => performance.getEntriesByType('resource')
      .map((r) => r.name).filter((n) => !n.startsWith(location.origin)));
    assert.deepEqual(outside, []);
    await screenshot(page, 'docs');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
