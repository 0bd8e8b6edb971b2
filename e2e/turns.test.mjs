// How a turn looks: the dice roll, the moved piece walks, captures and finishes are marked on the
// board and in the log, and nothing moves when reduced motion is asked for.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, resume, url, yellowToMove } from './browser.mjs';

const browser = await launch();
after(() => browser.close());

test("a throw rolls the dice in the thrower's base, two dice for the Vietnamese rules", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}/?cpu-delay=0`);
  await page.waitForSelector('body[data-ready=true]');
  await page.selectOption('select[name=preset]', 'vietnamese');
  await page.selectOption('#hot-seat select[name=people]', '2');
  await page.click('#hot-seat button[type=submit]');
  await page.click('#roll');
  assert.ok(await page.$('#die.rolling[data-seat="yellow"]'), "the dice roll first, in yellow's base");
  await page.waitForSelector('#die[data-values*=","]');
  const shown = (await page.getAttribute('#die', 'data-values')).split(',').map(Number);
  assert.equal(shown.length, 2);
  assert.match(await page.textContent('#announce'), new RegExp(`${shown[0]} \\+ ${shown[1]}`));
  await context.close();
});

test('a capture walks the piece, sends the other home and is marked on the board and in the log', async () => {
  const context = await browser.newContext();
  // Red's piece 0 at progress 49 stands on track square 23, three squares ahead of yellow's.
  const { page, errors } = await resume(context, yellowToMove(20, 49));
  await page.click('.piece.legal[data-piece="0"]');
  await page.waitForFunction(() => document.getAnimations()
    .filter((a) => a.effect?.target?.classList?.contains('piece')).length === 2);
  assert.ok(await page.$('#board .flash.capture'));
  await page.waitForSelector('#log li.capture');
  assert.equal(await page.textContent('#log li.capture'), 'yellow ○ moves 3 and captures red △');
  assert.match(await page.textContent('#announce'), /captures/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a piece come home is marked, and with reduced motion nothing moves', async () => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const { page, errors } = await resume(context, yellowToMove(53, 'base'));
  await page.click('.piece.legal[data-piece="0"]');
  assert.equal(await page.evaluate(() => document.getAnimations().length), 0);
  assert.ok(await page.$('#board .flash.finish'));
  await page.waitForSelector('#log li.finish');
  assert.equal(await page.textContent('#log li.finish'), 'yellow ○ moves 3 and reaches the finish (1 of 4)');
  await page.waitForSelector('#roll:not([disabled])');
  await page.click('#roll');
  assert.equal(await page.$('#die.rolling'), null, 'the dice show the throw at once');
  assert.equal(await page.$$eval('#die .die', (d) => d.length), 1);
  assert.notEqual(await page.getAttribute('#die', 'data-values'), '');
  assert.deepEqual(errors, []);
  await context.close();
});
