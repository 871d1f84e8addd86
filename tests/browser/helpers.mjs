// Shared by the browser tests: the browser, the service's address, the
// API answers the page is compared with, and screenshots.
//
// QIPAN_BASE_URL  the running service (tests/api/browser.rs sets it)
// QIPAN_CHROMIUM  the browser (default /usr/bin/chromium)
// QIPAN_SCREENSHOTS  where screenshots go (default target/browser-screenshots)

import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const BASE = (process.env.QIPAN_BASE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
const SHOTS = process.env.QIPAN_SCREENSHOTS
  || path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'target', 'browser-screenshots');

export const TIMEOUT = 60_000;

export async function launch() {
  return chromium.launch({
    executablePath: process.env.QIPAN_CHROMIUM || '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

// A browser context as a phone held by a Chinese player: 390×844, touch,
// zh-CN (Accept-Language too).
export function phone(browser) {
  return browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
    locale: 'zh-CN', baseURL: BASE,
  });
}

// A desktop browser in English, 1280×800.
export function desktop(browser) {
  return browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', baseURL: BASE });
}

// A page on the service, with page errors collected so a test can assert
// none happened. Pages speak English unless a context says otherwise.
export async function open(browser, address, { viewport = { width: 1200, height: 900 }, context } = {}) {
  const ctx = context || await browser.newContext({ viewport, baseURL: BASE, locale: 'en-US' });
  const page = await ctx.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.setDefaultTimeout(20_000);
  if (address) await page.goto(address);
  return page;
}

export async function api(method, apiPath, body) {
  const res = await fetch(`${BASE}${apiPath}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${apiPath}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

export const startCode = async (game, query = '') => (await api('GET', `/v1/${game}/start${query}`)).code;

// The code the API gives for actions played from a code.
export const playedCode = async (game, code, actions) =>
  (await api('POST', `/v1/${game}/${code}/play`, { actions })).code;

// The game and code of a page's address (/play/{game}/{code}).
export function addressOf(page) {
  const url = new URL(page.url());
  const m = url.pathname.match(/^\/play\/([^/]+)\/([^/]+)$/);
  return m ? { game: decodeURIComponent(m[1]), code: decodeURIComponent(m[2]) } : { game: null, code: null };
}

// Waits until the address holds a position (and, if given, not `previous`).
export async function waitForCode(page, game, previous) {
  await page.waitForURL((url) => {
    const m = url.pathname.match(/^\/play\/([^/]+)\/([^/]+)$/);
    return !!m && m[1] === game && m[2] !== previous;
  });
  return addressOf(page).code;
}

export async function screenshot(page, name, { fullPage = true } = {}) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

// Whether an element is wholly inside the first screen (no scrolling).
export async function inFirstScreen(locator) {
  // The live panel redraws as events arrive: measure what is there now.
  let box = null;
  for (let i = 0; i < 20 && !box; i++) {
    await locator.waitFor();
    box = await locator.boundingBox();
  }
  const height = await locator.page().evaluate(() => window.innerHeight);
  const width = await locator.page().evaluate(() => window.innerWidth);
  return !!box && box.y >= 0 && box.y + box.height <= height && box.x >= 0 && box.x + box.width <= width;
}

// The visible text of a page that is in English letters, less what is not
// language (names of formats, codes, coordinates, the brand).
export async function englishWords(page) {
  const text = await page.evaluate(() => {
    // What a reader sees: the page less codes, board drawings, hidden
    // parts and the API's own (English) details behind "详情".
    const copy = document.body.cloneNode(true);
    for (const el of copy.querySelectorAll('code, svg, script, style, [hidden], details.detail, .visually-hidden, .skip')) el.remove();
    const parts = [copy.textContent];
    for (const el of copy.querySelectorAll('[placeholder], [aria-label], [title]')) {
      parts.push(el.getAttribute('placeholder') || '', el.getAttribute('aria-label') || '', el.getAttribute('title') || '');
    }
    return parts.join('\n');
  });
  // Key caps keep their English names (Tab, Esc, Shift); file formats are
  // named as their files are (PGN, XQF, GIF, RenLib .pos and .lib).
  const allowed = new Set(['qipan', 'API', 'JSON', 'PNG', 'GIF', 'PGN', 'XQF', 'PSQ', 'psq', 'RenLib', 'pos', 'lib', 'DhtmlXQ', 'fumen', 'WXF', 'ICCS', 'FEN', 'English', 'Tab', 'Esc', 'Shift']);
  return (text.match(/[A-Za-z]{3,}/g) || []).filter((w) => !allowed.has(w));
}

// Clicks the point or square of a board by its name (data-square / data-point).
export async function clickPoint(page, name) {
  await page.locator(`[data-square="${name}"], [data-point="${name}"]`).click();
}
