// The web client's budgets, measured in Chromium: the first load's transfer size, the time until
// a local game can be played, and how long the strongest CPU takes to move in the browser.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, url } from './browser.mjs';

const browser = await launch();
after(() => browser.close());

test('the first load is small, a local game is ready fast, and hard moves quickly', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const began = Date.now();
  await page.goto(`${url}/`);
  await page.waitForSelector('body[data-ready=true]');
  await page.click('#vs-cpu button[type=submit]');
  await page.waitForSelector('#board rect');
  const ready = Date.now() - began;
  const bytes = await page.evaluate(() => {
    const entries = [...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource')];
    return entries.reduce((sum, e) => sum + e.transferSize, 0);
  });
  const micros = await page.evaluate(async () => {
    const { loadEngine } = await import('/engine.js');
    const engine = await loadEngine();
    let position = engine.newGame('qdan', ['yellow', 'blue', 'red', 'green']);
    const times = [];
    for (let i = 0; position.turn.phase !== 'over' && times.length < 300; i++) {
      if (position.turn.phase === 'move') {
        const moves = engine.legal(position);
        const t0 = performance.now();
        const choice = engine.bot(position, 'hard', i);
        if (moves.length > 1) times.push(performance.now() - t0);
        position = engine.move(position, choice.piece).position;
      } else {
        position = engine.roll(position, [1 + (i * 7919) % 6]);
      }
    }
    times.sort((a, b) => a - b);
    return { median: times[times.length >> 1], p99: times[Math.floor(times.length * 0.99)], n: times.length };
  });
  console.log(`first load: ${(bytes / 1024).toFixed(1)} KiB transferred`);
  console.log(`local game ready ${ready} ms after opening`);
  console.log(`hard in the browser: median ${micros.median.toFixed(2)} ms, p99 ${micros.p99.toFixed(2)} ms over ${micros.n} decisions`);
  assert.ok(bytes <= 300 * 1024, `first load ${bytes} bytes`);
  assert.ok(ready <= 1000 * 3, `ready in ${ready} ms (the budget is 1 s; 3 s allowed under CI load)`);
  assert.ok(micros.median <= 50, `hard median ${micros.median} ms`);
  await context.close();
});
