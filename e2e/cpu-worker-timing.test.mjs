// The page's own thread while a CPU thinks long in its worker: the table keeps drawing. It times
// what it sees, so it runs alone (crates/ludo-server/tests/browser.rs); the worker's other tests
// are in cpu-worker.test.mjs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './browser.mjs';
import { BLUE_TO_MOVE, before, continueGame, marks, open as openWith, saved } from './workers.mjs';

const browser = await launch();
after(() => browser.close());
const open = (path, options) => openWith(browser, path, options);

test('the page keeps drawing while a CPU thinks long, and the CPU moves once it has chosen', async () => {
  // Each choice takes the worker 400 ms of solid work, more than the strongest level may think.
  const slow = before(`const send = self.postMessage.bind(self);
    self.postMessage = (message) => {
      const end = performance.now() + 400;
      while (performance.now() < end);
      send(message);
    };`);
  const { context, page, errors } = await open('/?cpu-delay=0', { worker: slow, pace: 1 });
  await page.evaluate(() => localStorage.setItem('ludo.autoplay', 'no'));
  await continueGame(page, BLUE_TO_MOVE);
  // The page's own thread: the longest it went without running a timer, while CPUs played.
  await page.evaluate(() => {
    globalThis.longest = 0;
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      globalThis.longest = Math.max(globalThis.longest, now - last);
      last = now;
    }, 10);
  });
  await page.waitForFunction(() => performance.getEntriesByName('ludo.cpu.worker').length >= 3, null,
    { timeout: 30_000 });
  const longest = await page.evaluate(() => globalThis.longest);
  assert.ok(longest < 200, `the page's thread was never held for long (longest gap ${longest.toFixed(0)} ms)`);
  const game = await saved(page, 'old');
  assert.ok(game.actions.filter((action) => 'move' in action).length >= 3, 'the CPUs\' moves were played');
  assert.equal((await marks(page)).page, 0);
  assert.deepEqual(errors, []);
  await context.close();
});
