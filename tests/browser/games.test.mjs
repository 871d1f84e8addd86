// Each game played in the page by clicks and keys; the code in the address
// bar must be the code the API gives for the same actions.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TIMEOUT, launch, open, api, startCode, playedCode, addressOf, waitForCode, screenshot, clickPoint,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

describe('the playground', { timeout: TIMEOUT }, () => {
  test('xiangqi: moves by clicking pieces and highlighted points', async () => {
    const start = await startCode('xiangqi');
    const page = await open(browser, '/play/xiangqi');
    let code = await waitForCode(page, 'xiangqi');
    assert.equal(code, start, 'the start position is in the address bar');
    assert.match(await page.locator('#turn').textContent(), /Red to move/);
    const h2 = page.locator('[data-square="h2"]');
    assert.match(await h2.getAttribute('aria-label'), /red cannon 炮/);

    await clickPoint(page, 'h2');
    // Its legal targets are highlighted, and only they.
    await page.locator('[data-square="e2"] .target').waitFor();
    assert.equal(await page.locator('.target').count(), 12);
    await clickPoint(page, 'e2');
    code = await waitForCode(page, 'xiangqi', code);
    await clickPoint(page, 'h9');
    await clickPoint(page, 'g7');
    code = await waitForCode(page, 'xiangqi', code);
    await clickPoint(page, 'h0');
    await clickPoint(page, 'g2');
    code = await waitForCode(page, 'xiangqi', code);

    assert.equal(code, await playedCode('xiangqi', start, ['h2e2', 'h9g7', 'h0g2']));
    assert.match(await page.locator('#turn').textContent(), /Black to move/);
    // The last move as Chinese players write it (the default notation).
    assert.match(await page.locator('#facts').textContent(), /马二进三/);
    assert.deepEqual(await page.locator('#move-list .mv').allTextContents(), ['马二进三', '马8进7', '炮二平五']);
    assert.match(await page.locator('[data-square="g2"]').getAttribute('aria-label'), /red horse/);
    await screenshot(page, 'xiangqi');
    assert.deepEqual(page.errors, []);
  });

  test('xiangqi: an illegal move is refused in the page', async () => {
    const page = await open(browser, '/play/xiangqi');
    const code = await waitForCode(page, 'xiangqi');
    const before = page.url();
    await clickPoint(page, 'b0');
    await clickPoint(page, 'b1');
    const message = page.locator('#message');
    await message.filter({ hasText: 'b0b1 is not a legal move' }).waitFor();
    assert.equal(await message.getAttribute('class'), 'message error');
    assert.equal(page.url(), before, 'the address did not change');
    assert.equal(addressOf(page).code, code);
    assert.match(await page.locator('[data-square="b0"]').getAttribute('aria-label'), /red horse/);

    // A problem from the server is shown with its detail.
    await page.locator('#import-box summary').click();
    await page.locator('#import-text').fill('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w');
    await page.locator('#import-btn').click();
    await message.filter({ hasText: 'cannot be imported' }).waitFor();
    assert.equal(await message.getAttribute('class'), 'message error');
    assert.equal(page.url(), before);
    assert.deepEqual(page.errors, []);
  });

  test('reload and back/forward restore the position; undo takes a move back', async () => {
    const start = await startCode('xiangqi');
    const page = await open(browser, `/play/xiangqi/${start}`);
    await page.locator('[data-square="h2"]').waitFor();
    await clickPoint(page, 'h2');
    await clickPoint(page, 'e2');
    const one = await waitForCode(page, 'xiangqi', start);
    await clickPoint(page, 'h9');
    await clickPoint(page, 'g7');
    const two = await waitForCode(page, 'xiangqi', one);
    assert.equal(two, await playedCode('xiangqi', start, ['h2e2', 'h9g7']));

    await page.reload();
    assert.equal(addressOf(page).code, two);
    await page.locator('[data-square="g7"][aria-label*="black horse"]').waitFor();
    assert.match(await page.locator('#turn').textContent(), /Red to move/);

    await page.goBack();
    await page.waitForURL(`**/play/xiangqi/${one}`);
    await page.locator('[data-square="g7"][aria-label$="empty"]').waitFor();
    await page.locator('[data-square="h9"][aria-label*="black horse"]').waitFor();
    assert.match(await page.locator('#turn').textContent(), /Black to move/);

    await page.goBack();
    await page.waitForURL(`**/play/xiangqi/${start}`);
    await page.locator('[data-square="h2"][aria-label*="red cannon"]').waitFor();

    await page.goForward();
    await page.goForward();
    await page.waitForURL(`**/play/xiangqi/${two}`);
    await page.locator('[data-square="g7"][aria-label*="black horse"]').waitFor();

    await page.locator('#undo-btn').click();
    await page.waitForURL(`**/play/xiangqi/${one}`);
    await page.locator('[data-square="g7"][aria-label$="empty"]').waitFor();
    assert.deepEqual(page.errors, []);
  });

  test('gomoku (renju): stones by clicks, forbidden points refused', async () => {
    const start = await startCode('gomoku', '?variant=renju');
    const page = await open(browser, '/play/gomoku?variant=renju');
    let code = await waitForCode(page, 'gomoku');
    assert.equal(code, start);
    const moves = ['h8', 'a1', 'j8', 'a2', 'h10', 'a3', 'j10', 'a4'];
    for (const pt of moves) {
      await clickPoint(page, pt);
      code = await waitForCode(page, 'gomoku', code);
    }
    assert.equal(code, await playedCode('gomoku', start, moves));
    // i9 would make a double three for Black.
    await page.locator('[data-point="i9"] .forbidden').waitFor();
    await clickPoint(page, 'i9');
    await page.locator('#message', { hasText: 'forbidden' }).waitFor();
    assert.equal(addressOf(page).code, code);
    assert.match(await page.locator('[data-point="a4"]').getAttribute('aria-label'), /White stone, move 8, last move/);
    await screenshot(page, 'gomoku');
    assert.deepEqual(page.errors, []);
  });

  test('gomoku (free-style): five in a row wins and is shown', async () => {
    const start = await startCode('gomoku');
    const page = await open(browser, `/play/gomoku/${start}`);
    let code = start;
    const moves = ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8'];
    for (const pt of moves) {
      await page.locator(`[data-point="${pt}"]`).click();
      code = await waitForCode(page, 'gomoku', code);
    }
    assert.equal(code, await playedCode('gomoku', start, moves));
    await page.locator('#outcome', { hasText: 'Black wins' }).waitFor();
    assert.equal(await page.locator('.win').count(), 5);
    assert.deepEqual(page.errors, []);
  });

  test('2048: arrow keys, WASD and a swipe', async () => {
    const start = await startCode('2048', '?seed=42');
    const page = await open(browser, '/play/2048?seed=42');
    let code = await waitForCode(page, '2048');
    assert.equal(code, start);
    const played = [];
    for (const [key, action] of [['ArrowLeft', 'left'], ['ArrowUp', 'up'], ['d', 'right'], ['s', 'down']]) {
      await page.keyboard.press(key);
      code = await waitForCode(page, '2048', code);
      played.push(action);
    }
    // A swipe to the left on the board.
    const view = await api('GET', `/v1/2048/${code}`);
    assert.ok(view.legal_actions.some((a) => a.action === 'left'), 'left is legal in this position');
    const box = await page.locator('.t48').boundingBox();
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.8, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, y, { steps: 4 });
    await page.mouse.move(box.x + box.width * 0.2, y, { steps: 4 });
    await page.mouse.up();
    code = await waitForCode(page, '2048', code);
    played.push('left');
    assert.equal(code, await playedCode('2048', start, played));
    const after = await api('GET', `/v1/2048/${code}`);
    assert.equal(await page.locator('.t48 .tile[data-value]:not([data-value="0"])').count(), after.board.flat().filter(Boolean).length);
    assert.match(await page.locator('#facts').textContent(), new RegExp(`Score${after.score}`));
    await screenshot(page, '2048');
    assert.deepEqual(page.errors, []);
  });

  test('quoridor: pawn moves by clicks, walls from the groove preview', async () => {
    const start = await startCode('quoridor');
    const page = await open(browser, '/play/quoridor');
    let code = await waitForCode(page, 'quoridor');
    assert.equal(code, start);
    assert.equal(await page.locator('.target').count(), 3, 'player 1 has three pawn moves');
    await clickPoint(page, 'e2');
    code = await waitForCode(page, 'quoridor', code);
    await clickPoint(page, 'e8');
    code = await waitForCode(page, 'quoridor', code);

    // Board geometry of quoridor.js: margin 30, squares 48, grooves 12.
    const svg = page.locator('svg.quoridor');
    const box = await svg.boundingBox();
    const k = box.width / (9 * 60 - 12 + 60);
    const at = (x, y) => [box.x + x * k, box.y + y * k];
    const cellX = (f) => 30 + f * 60;
    const cellY = (rank) => 30 + (9 - rank) * 60;
    // The groove above e3, over the right half of e: the wall e3h.
    await page.mouse.move(...at(cellX(4) + 40, cellY(3) - 6));
    await page.locator('.wall-preview[data-wall="e3h"][data-legal="true"]').waitFor({ state: 'visible' });
    await page.mouse.click(...at(cellX(4) + 40, cellY(3) - 6));
    code = await waitForCode(page, 'quoridor', code);
    await page.locator('.wall[data-wall="e3h"]').waitFor();
    // The groove right of d6, upper half: the wall d6v.
    await page.mouse.move(...at(cellX(3) + 54, cellY(6) + 10));
    await page.locator('.wall-preview[data-wall="d6v"]').waitFor({ state: 'visible' });
    await page.mouse.click(...at(cellX(3) + 54, cellY(6) + 10));
    code = await waitForCode(page, 'quoridor', code);

    assert.equal(code, await playedCode('quoridor', start, ['e2', 'e8', 'e3h', 'd6v']));
    assert.match(await page.locator('#facts').textContent(), /Walls leftP1 9 · P2 9/);
    // A wall crossing e3h is refused in the page.
    await page.mouse.move(...at(cellX(4) + 54, cellY(3) + 10));
    await page.locator('.wall-preview[data-wall="e3v"][data-legal="false"]').waitFor({ state: 'visible' });
    await page.mouse.click(...at(cellX(4) + 54, cellY(3) + 10));
    await page.locator('#message', { hasText: 'not allowed' }).waitFor();
    assert.equal(addressOf(page).code, code);
    await page.mouse.move(...at(cellX(4) + 40, cellY(4) - 6));
    await screenshot(page, 'quoridor');
    assert.deepEqual(page.errors, []);
  });

  test('tetris: keyboard inputs, hold and next queue, paused gravity', async () => {
    const start = await startCode('tetris', '?seed=7');
    const page = await open(browser, '/play/tetris?seed=7&gravity=0');
    let code = await waitForCode(page, 'tetris');
    assert.equal(code, start);
    const keys = [
      ['ArrowLeft', 'left'], ['ArrowLeft', 'left'], ['Space', 'hard'], ['x', 'cw'], ['ArrowRight', 'right'],
      ['Space', 'hard'], ['c', 'hold'], ['ArrowDown', 'soft'], ['z', 'ccw'], ['ArrowUp', 'cw'], ['Space', 'hard'],
    ];
    const played = [];
    for (const [key, action] of keys) {
      await page.keyboard.press(key);
      code = await waitForCode(page, 'tetris', code);
      played.push(action);
    }
    assert.equal(code, await playedCode('tetris', start, played));
    assert.ok(new URL(page.url()).search.includes('gravity=0'), 'the gravity setting stays in the address');
    const view = await api('GET', `/v1/tetris/${code}`);
    assert.equal(await page.locator('.side-box [aria-label^="held piece"]').getAttribute('aria-label'), `held piece ${view.hold}`);
    assert.equal(await page.locator('.side-box svg[aria-label^="next piece"]').getAttribute('aria-label'), `next piece ${view.queue[0]}`);
    assert.ok(await page.locator('.ghost').count() > 0, 'the ghost piece is drawn');
    await screenshot(page, 'tetris');
    assert.deepEqual(page.errors, []);
  });

  test('tetris: gravity ticks on its timer', async () => {
    const start = await startCode('tetris', '?seed=11');
    const page = await open(browser, `/play/tetris/${start}?gravity=40`);
    const code = await waitForCode(page, 'tetris', start);
    let expected = start;
    const seen = [];
    for (let i = 0; i < 40 && expected !== code; i++) {
      expected = await playedCode('tetris', expected, ['tick']);
      seen.push(expected);
    }
    assert.ok(seen.includes(code), 'the address holds the code of some number of ticks');
    assert.deepEqual(page.errors, []);
  });

  test('import and export in the page', async () => {
    const page = await open(browser, '/play/2048?seed=5');
    let code = await waitForCode(page, '2048');
    await page.locator('#import-box summary').click();
    const body = { format: 'grid', board: [[2, 2, 4, 0], [0, 0, 0, 0], [0, 8, 0, 0], [0, 0, 0, 2]], seed: 42 };
    await page.locator('#import-text').fill(JSON.stringify(body));
    await page.locator('#import-btn').click();
    code = await waitForCode(page, '2048', code);
    assert.equal(code, (await api('POST', '/v1/2048/import', body)).code);
    await page.locator('.t48 .tile[data-value="8"]').waitFor();

    // Export writes the readable form back into the box.
    await page.locator('#export-btn').click();
    // The export, not the import body still in the box: only it has a score.
    await page.waitForFunction(() => document.getElementById('import-text').value.includes('"score"'));
    const exported = JSON.parse(await page.locator('#import-text').inputValue());
    assert.deepEqual(exported.board, body.board);
    assert.equal(exported.seed, '42');

    // Xiangqi FEN, the text form.
    await page.goto('/play/xiangqi');
    code = await waitForCode(page, 'xiangqi');
    await page.locator('#import-box summary').click();
    const fen = '4k4/9/9/9/4R4/9/9/9/9/3K5 b';
    await page.locator('#import-text').fill(fen);
    await page.locator('#import-btn').click();
    code = await waitForCode(page, 'xiangqi', code);
    assert.equal(code, (await api('POST', '/v1/xiangqi/import', { format: 'fen', text: fen })).code);
    await page.locator('#outcome', { hasText: 'Check' }).waitFor();
    assert.deepEqual(page.errors, []);
  });

  test('keyboard: board points take focus, arrows move, Enter plays', async () => {
    const start = await startCode('xiangqi');
    const page = await open(browser, `/play/xiangqi/${start}`);
    const first = page.locator('svg.xiangqi [tabindex="0"]');
    await first.focus();
    assert.equal(await first.getAttribute('data-square'), 'e0');
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowUp']) await page.keyboard.press(key);
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'h2, red cannon 炮');
    await page.keyboard.press('Enter');
    await page.locator('[data-square="e2"] .target').waitFor();
    for (const key of ['ArrowLeft', 'ArrowLeft', 'ArrowLeft']) await page.keyboard.press(key);
    assert.match(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), /^e2, empty, legal move$/);
    await page.keyboard.press('Enter');
    const code = await waitForCode(page, 'xiangqi', start);
    assert.equal(code, await playedCode('xiangqi', start, ['h2e2']));
    // Focus stays on the board after the move is drawn.
    await page.locator('[data-square="e2"][aria-label*="red cannon"]').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('data-square')), 'e2');
    assert.deepEqual(page.errors, []);
  });

  test('a phone-sized screen', async () => {
    const page = await open(browser, '/play/xiangqi', { viewport: { width: 390, height: 844 } });
    await waitForCode(page, 'xiangqi');
    const box = await page.locator('svg.xiangqi').boundingBox();
    assert.ok(box.width <= 390, `the board fits the screen (${box.width}px)`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `nothing scrolls sideways (${width}px)`);
    await screenshot(page, 'phone-xiangqi');
  });
});
