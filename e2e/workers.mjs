// What the tests of the CPU worker share: a page whose worker's script can be changed, the marks
// that count who chose, and a saved game handed to three hard CPUs.
import { CONTINUE, SAVES_KEY, url } from './browser.mjs';

/**
 * A page at `path` in a context of its own in `browser`, every event shown at once unless `pace`,
 * and `file` (`cpu-worker.js`) answered by `worker(body)` from its real `body` when given (a
 * string; null: a 404), with no service worker then (it would answer the worker's script before
 * `route` could). `errors`: the console's errors and uncaught exceptions; `warnings`: its
 * warnings, but for the service worker's being blocked.
 */
export async function open(browser, path, { worker, file = 'cpu-worker.js', pace = 0, viewport = { width: 360, height: 640 } } = {}) {
  const context = await browser.newContext({ serviceWorkers: worker === undefined ? 'allow' : 'block', viewport });
  await context.addInitScript((value) => localStorage.setItem('ludo.pace', String(value)), pace);
  if (worker !== undefined) {
    await context.route(`**/${file}`, async (route) => {
      try {
        const real = await route.fetch();
        const body = worker(await real.text());
        if (body === null) await route.fulfill({ status: 404, body: 'not found' });
        else await route.fulfill({ response: real, body });
      } catch (error) {
        // Asked for as the test closes its context (a game's end card loads the analysis, which
        // asks the worker again): nothing is left to answer.
        if (!/disposed|closed/i.test(String(error?.message))) throw error;
      }
    });
  }
  const page = await context.newPage();
  const errors = [];
  const warnings = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (/blocked by Playwright/.test(m.text())) return;
    if (m.type() === 'error') errors.push(m.text());
    if (m.type() === 'warning') warnings.push(m.text());
  });
  await page.goto(url + path);
  await page.waitForSelector('body[data-ready=true]');
  return { context, page, errors, warnings };
}

/** The worker's script with `code` put before it: run in the worker, before the worker's own code. */
export const before = (code) => (body) => `${code}\n${body}`;

/** How many choices the worker made, the page's thread made, and answers dropped. */
export const marks = (page) => page.evaluate(() => Object.fromEntries(['worker', 'page', 'stale']
  .map((where) => [where, performance.getEntriesByName(`ludo.cpu.${where}`).length])));

/** Three hard CPUs with pieces out and the person (yellow), blue to move a throw of 4. */
export const BLUE_TO_MOVE = {
  rules: 'qdan', seats: ['yellow', 'blue', 'red', 'green'],
  pieces: { yellow: [5, 'base', 'base', 'base'], blue: [10, 20, 'base', 'base'],
    red: [15, 30, 'base', 'base'], green: [8, 25, 'base', 'base'] },
  turn: { seat: 'blue', phase: 'move', roll: [4], bonus_streak: 0, throws: 1 },
};
export const CPUS = { yellow: 'human', blue: 'hard', red: 'hard', green: 'hard' };

/** Puts `position` among `page`'s saved games (as the game played last, id `old`) and continues it. */
export async function continueGame(page, position, players = CPUS) {
  await page.evaluate(({ key, game }) => localStorage.setItem(key, JSON.stringify([game])),
    { key: SAVES_KEY, game: { position, players, log: [], actions: [], id: 'old', saved_at: Date.now() } });
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  await page.click(CONTINUE);
}

/** The saved game of id `id`, as stored. */
export const saved = (page, id) => page.evaluate(({ key, id }) =>
  JSON.parse(localStorage.getItem(key) ?? '[]').find((game) => game.id === id) ?? null, { key: SAVES_KEY, id });
