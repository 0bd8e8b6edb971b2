// The table's speed: "Fast", chosen in the table's settings, shortens every pause of the timeline
// and the CPU players' wait, and is remembered in this browser. Every die here shows 3 (the
// browser's random bytes are fixed), so that under Qdan nobody can leave the base and each round
// is the same: the person's throw and the three CPUs' throws, none with a move.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openWay, url } from './browser.mjs';

const browser = await launch();
after(() => browser.close());

/** A page against three random CPUs in `locale`, every die showing 3, the game started. */
async function game(locale) {
  const context = await browser.newContext({ locale });
  await context.addInitScript(() => {
    crypto.getRandomValues = (bytes) => bytes.fill(2);
  });
  const page = await context.newPage();
  await page.goto(`${url}/`);
  await page.waitForSelector('body[data-ready=true]');
  await openWay(page, 'vs-cpu');
  await page.selectOption('select[name=level]', 'random');
  await page.click('#vs-cpu button[type=submit]');
  await page.waitForSelector('#roll:not([aria-disabled=true])');
  return page;
}

/** Milliseconds from the person's throw until the table waits for their next one. */
async function round(page) {
  const began = Date.now();
  await page.click('#roll');
  await page.waitForSelector('#roll[aria-disabled=true]');
  await page.waitForSelector('#roll:not([aria-disabled=true])', { timeout: 30_000 });
  return Date.now() - began;
}

test('Fast in the table\'s settings makes a round of throws quicker, and is remembered', async () => {
  const normal = await game('fr');
  assert.equal(await normal.inputValue('#speed'), '1', 'normal speed unless chosen');
  const normalMs = await round(normal);
  await normal.context().close();

  const fast = await game('ru');
  await fast.click('#table-settings summary');
  await fast.selectOption('#speed', '0.4');
  assert.equal(await fast.textContent('#speed option:checked'), 'Быстрая');
  const fastMs = await round(fast);
  assert.ok(normalMs > 4000, `a round at normal speed shows each throw (${normalMs} ms)`);
  assert.ok(fastMs < normalMs * 0.6, `a round takes ${fastMs} ms fast, ${normalMs} ms at normal speed`);
  // Remembered: the next page plays fast too.
  await fast.reload();
  await fast.waitForSelector('body[data-ready=true]');
  assert.equal(await fast.inputValue('#speed'), '0.4');
  await fast.context().close();
});
