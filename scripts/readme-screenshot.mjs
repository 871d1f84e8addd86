// The README's screenshot of the playground: a xiangqi duel between two
// browsers, a few moves in, as black sees it on a laptop-sized window.
//
//   node scripts/readme-screenshot.mjs http://127.0.0.1:8080 docs/images/playground.png

import { createRequire } from 'node:module';

const require = createRequire(new URL('../tests/browser/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const [base, out] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.QIPAN_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const context = () => browser.newContext({ viewport: { width: 1280, height: 820 }, baseURL: base });
  const red = await (await context()).newPage();
  await red.goto('/play/xiangqi');
  await red.locator('[data-square="h2"]').waitFor();
  await red.locator('#duel-side').selectOption('red');
  await red.locator('#duel-btn').click();
  await red.waitForURL((url) => /^\/play\/matches\/[0-9a-f-]{36}$/.test(url.pathname));
  const invite = await red.locator('#invite-link').getAttribute('href');
  const black = await (await context()).newPage();
  await black.goto(invite);
  await black.locator('#join-btn').click();
  await black.waitForURL((url) => /^\/play\/matches\/[0-9a-f-]{36}$/.test(url.pathname) && url.search === '');
  await red.locator('.conn', { hasText: 'live' }).waitFor();
  await black.locator('.conn', { hasText: 'live' }).waitFor();
  const moves = [[red, 'h2', 'e2'], [black, 'h9', 'g7'], [red, 'h0', 'g2'], [black, 'c6', 'c5']];
  for (const [page, from, to] of moves) {
    await page.locator(`[data-square="${from}"]`).click();
    await page.locator(`[data-square="${to}"]`).click();
    await black.locator(`[data-square="${to}"][aria-label*="${page === red ? 'red' : 'black'}"]`).waitFor();
  }
  await black.screenshot({ path: out });
} finally {
  await browser.close();
}
