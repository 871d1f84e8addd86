// Game records in the page: a record file imported through the record
// box opens as a match, and its replay bar steps through every ply of the
// record (back past the 100 moves the history keeps) and forks a practice
// match from the ply on screen.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  TIMEOUT, launch, open, phone, clickPoint, screenshot, inFirstScreen,
} from './helpers.mjs';

// 相眼竞技 v 天机, CCGC 2006 round 23 (GBK PGN, 221 plies; its source and
// licence: crates/records/tests/data/xiangqi/README.md).
const CCGC_19 = path.resolve('crates/records/tests/data/xiangqi/eleeye/ccgc-19.pgn');

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const at = (page) => page.locator('#replay-at');

async function importCcgc(page, last = 'Move 221 of 221') {
  await page.locator('#record-box summary').click();
  await page.locator('#record-file').setInputFiles(CCGC_19);
  await page.locator('#record-btn').click();
  await page.waitForURL(/\/play\/matches\/[0-9a-f-]{36}$/);
  await at(page).filter({ hasText: last }).waitFor();
}

describe('records in the playground', { timeout: TIMEOUT }, () => {
  test('the replay bar steps through a whole imported record and forks', async () => {
    const page = await open(browser, '/play/xiangqi');
    await importCcgc(page);
    const id = page.url().split('/').pop();
    assert.equal(await page.locator('#replay-forward').isDisabled(), true);
    assert.equal(await page.locator('#replay-last').isDisabled(), true);

    // The first ply: the standard start, 121 moves before the history's.
    await page.locator('#replay-first').click();
    await at(page).filter({ hasText: 'Start (of 221)' }).waitFor();
    assert.match(await page.locator('[data-square="h2"]').getAttribute('aria-label'), /red cannon/);
    assert.equal(await page.locator('#replay-back').isDisabled(), true);
    // The board takes no move while an earlier ply is shown.
    await clickPoint(page, 'h2');
    await clickPoint(page, 'e2');
    await page.locator('#message', { hasText: 'looking back' }).waitFor();

    // Forward: the file's first move, named as Chinese players write it.
    await page.locator('#replay-forward').click();
    await at(page).filter({ hasText: 'Move 1 of 221' }).waitFor();
    await page.locator('#facts', { hasText: '炮二平五' }).waitFor();
    assert.match(await page.locator('[data-square="e2"]').getAttribute('aria-label'), /red cannon/);
    // Keys step too, with the bar focused.
    await page.locator('#replay-forward').focus();
    await page.keyboard.press('ArrowRight');
    await at(page).filter({ hasText: 'Move 2 of 221' }).waitFor();
    await page.keyboard.press('End');
    await at(page).filter({ hasText: 'Move 221 of 221' }).waitFor();

    // Two back, then practice from there: a new match at ply 219.
    await page.locator('#replay-back').click();
    await at(page).filter({ hasText: 'Move 220 of 221' }).waitFor();
    await page.locator('#replay-back').click();
    await at(page).filter({ hasText: 'Move 219 of 221' }).waitFor();
    await page.locator('#replay-fork').click();
    await page.waitForURL((url) => /\/play\/matches\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(id));
    await at(page).filter({ hasText: 'Move 219 of 219' }).waitFor();
    assert.deepEqual(page.errors, []);
  });

  test('the replay bar on a phone, in Chinese', async () => {
    const page = await open(browser, '/play/xiangqi', { context: await phone(browser) });
    await importCcgc(page, '第 221 步，共 221 步');
    await page.locator('#replay-back').click();
    await at(page).filter({ hasText: '第 220 步，共 221 步' }).waitFor();
    assert.ok(await inFirstScreen(page.locator('#replay-bar')), 'the bar is in the first screen');
    await screenshot(page, 'replay-bar-phone', { fullPage: false });
    assert.deepEqual(page.errors, []);
  });
});
