// What the browser tests share: Debian's Chromium, started once per test file, and the server's
// address (from `cargo test`, crates/ludo-server/tests/browser.rs).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

/** The server under test. */
export const url = process.env.LUDO_URL;

/**
 * Starts Chromium with the flags this machine needs (no sandbox as root, no background network).
 * Its pages have seen the first-game guide already (most tests play at once), unless the context
 * is asked for with `guide: true` (`browser.newContext({ guide: true })`, `person(…, { guide: true })`).
 * Its contexts run no service worker unless asked for with `serviceWorkers: 'allow'`: installing
 * it fetches and stores every file of the page, a fifth of a test's time in a fresh context, and
 * only the tests of offline play and of what is cached need it (offline.test.mjs, the rules
 * pages offline, the expert's network kept in cpu-worker.test.mjs).
 */
export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // `browser.newPage` opens its page in a new context through `newContext` too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async ({ guide = false, ...options } = {}) => {
    options = { serviceWorkers: 'block', ...options };
    const context = await newContext(options);
    if (!guide) await context.addInitScript(() => localStorage.setItem('ludo.guide', 'seen'));
    return context;
  };
  return browser;
}

/**
 * A person on their own device (a fresh browser context) with `path` open and the page ready;
 * `errors` collects every console error and uncaught exception. `pace` is the table's speed (0:
 * every event shown at once, as whole games played in tests want; 1: as people see it); `guide`:
 * whether the first-game guide is still to be seen (it is marked seen otherwise, see `launch`);
 * other `options` are the browser context's (a locale, a viewport).
 */
export async function person(browser, path = '/', { pace = 0, guide = false, ...options } = {}) {
  const context = await browser.newContext({ acceptDownloads: true, guide, ...options });
  // Whole games are played here: every throw and move is shown at once, in order.
  await context.addInitScript((value) => localStorage.setItem('ludo.pace', String(value)), pace);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(url + path);
  await page.waitForSelector('body[data-ready=true]');
  return { page, errors };
}

/**
 * One step for a player: throws or moves if the page is waiting for them now, else nothing. Once
 * the page waits for a person, only that person's action changes it, so a failed click is a
 * failure of the page and fails the test.
 */
export async function step(page) {
  const turn = await page.evaluate(() => {
    if (document.querySelector('#board .piece.legal')) return 'move';
    return document.getElementById('roll').getAttribute('aria-disabled') === 'true' ? null : 'throw';
  });
  if (turn) await page.click(turn === 'move' ? '#board .piece.legal' : '#roll', { timeout: 5000 });
}

/**
 * Waits until the table waits for a person on this device, and says for what: `throw`, `move` (a
 * piece to pick) or `over` (the end screen shows).
 */
export async function personsTurn(page) {
  const turn = await page.waitForFunction(() => {
    if (!document.getElementById('end').hidden) return 'over';
    if (document.querySelector('#board .piece.legal')) return 'move';
    return document.getElementById('roll').getAttribute('aria-disabled') !== 'true' && 'throw';
  });
  return turn.jsonValue();
}

/**
 * Plays the person's turns on each of `pages` at once (throw, then the first legal piece) until
 * each shows the end of the game, and returns how many actions each played. Every page waits for
 * its own turns, so the people of one online game can play it together.
 *
 * The page taps for itself (a click on the control, as a screen reader's activation makes one):
 * a whole game is hundreds of taps, and Playwright's checks before each (the element still over
 * two frames, then hit-tested) took longer than the game's own work. Real taps are tested where
 * they are the point (table.test.mjs); here the game is. A page that waits `stuck` ms with nothing
 * to do and no end fails the test.
 */
export async function playToTheEnd(...pages) {
  return Promise.all(pages.map((page) => page.evaluate(playsItself, { limit: 3000, stuck: 30_000 })));
}

/** `playToTheEnd` in the page. */
async function playsItself({ limit, stuck }) {
  const next = () => {
    if (!document.getElementById('end').hidden) return 'over';
    const piece = document.querySelector('#board .piece.legal');
    if (piece) return piece;
    const roll = document.getElementById('roll');
    return roll.getAttribute('aria-disabled') !== 'true' && !roll.hidden && roll;
  };
  const moment = () => new Promise((resolve) => setTimeout(resolve, 5));
  for (let played = 0; played < limit; played++) {
    let now;
    for (const since = Date.now(); !(now = next()); await moment()) {
      if (Date.now() - since > stuck) throw new Error(`the page waited ${stuck} ms with nothing to play`);
    }
    if (now === 'over') return played;
    now.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await moment();
  }
  throw new Error(`the game did not end in ${limit} actions`);
}

/** Whether the page shows a game that is over (its end screen). */
export const over = async (page) => page.isVisible('#end');

/**
 * A page in `context` whose saved hot-seat game is `position`, resumed, shown as people see it
 * (pace 1), with moves that have no choice left to the person unless `autoplay`.
 */
export async function resume(context, position, { autoplay = false, path = '/?cpu-delay=0',
  players = { yellow: 'human', red: 'human' } } = {}) {
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url + path);
  await page.waitForSelector('body[data-ready=true]');
  await page.evaluate(({ key, game, autoplay }) => {
    localStorage.setItem(key, JSON.stringify([game]));
    localStorage.setItem('ludo.autoplay', autoplay ? 'yes' : 'no');
  }, { key: SAVES_KEY, game: { position, players, log: [], id: 'test', saved_at: Date.now() }, autoplay });
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  await page.click(CONTINUE);
  return { page, errors };
}

/**
 * Opens, on the home screen, the sheet of a way to play, where its options are: `vs-cpu` (Play's
 * "Change"), `friends`, `ranked` or `hot-seat`; the first, second and fourth show the rules and
 * house rules too.
 */
export async function openWay(page, way) {
  // Another sheet open is closed first, as a person would close it.
  const other = await page.$(`dialog.sheet[open]:not(#${way}-sheet) .sheet-close`);
  if (other) await other.click();
  if (await page.$(`#${way}-sheet[open]`)) return;
  await page.click(`#open-${way}`);
  await page.waitForSelector(`#${way}-sheet[open]`);
}

/** Where the page keeps its saved local games (static/home/saves.js): a list, the one played last first. */
export const SAVES_KEY = 'ludo.games';

/** The Continue button of the saved game played last, on the home screen. */
export const CONTINUE = '#saved-games li:first-child .continue';

/** The local game played last on `page` (the one being played), as saved; null if none is. */
export function savedGame(page) {
  return page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]')[0] ?? null, SAVES_KEY);
}

/** Yellow to move with a throw of `roll` (3), its pieces `yellow`, red's `red`. */
export function yellowToMove(from, red, roll = [3], rest = ['base', 'base', 'base']) {
  return {
    rules: 'qdan',
    seats: ['yellow', 'red'],
    pieces: { yellow: [from, ...rest], red: [red, 'base', 'base', 'base'] },
    // A six is qdan's bonus throw.
    turn: { seat: 'yellow', phase: 'move', roll, bonus_streak: roll.includes(6) ? 1 : 0, throws: 1 },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Axe-core's serious and critical violations on the page as it is now. Axe is evaluated in the
 * page (as a browser extension would be), not added as a script, which the page's Content
 * Security Policy rightly refuses.
 */
export async function accessibilityViolations(page) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
