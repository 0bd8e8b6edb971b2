// The end of a game won on this device is celebrated: a fanfare and confetti in the winner's
// colour, gone after a moment and catching no tap. Not under reduced motion (the fanfare still
// plays), not for a CPU's win, and not again for a game opened already over.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, resume, yellowToMove } from './browser.mjs';

const browser = await launch();
after(() => browser.close());

/** Yellow one throw of 3 from winning; red, one of 3 from winning when it is red's turn. */
const nearTheEnd = (seat = 'yellow') => {
  const position = yellowToMove(53, 53, [3], [56, 56, 56]);
  position.pieces.red = [53, 56, 56, 56];
  position.turn.seat = seat;
  return position;
};

/** How many wins the page played the fanfare for. */
const fanfares = (page) => page.evaluate(async () => (await import('/game/sound.js')).played.win ?? 0);

/** The confetti on the page now: how many pieces, and their colours. */
const confetti = (page) => page.$$eval('.celebration i', (pieces) =>
  pieces.map((piece) => getComputedStyle(piece).backgroundColor));

test('a person who wins sees confetti in their colour, hears a fanfare, and can still tap the page', async () => {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
  const { page, errors } = await resume(context, nearTheEnd());
  await page.click('.piece.legal');
  await page.waitForSelector('.celebration i');
  assert.equal(await page.getAttribute('.celebration', 'aria-hidden'), 'true');
  const colours = await confetti(page);
  assert.ok(colours.length >= 40, `${colours.length} pieces of confetti`);
  assert.ok(colours.includes('rgb(242, 194, 0)'), `yellow's confetti: ${[...new Set(colours)]}`);
  assert.ok(!colours.includes('rgb(211, 50, 47)'), 'none in the colour of the loser');
  assert.equal(await fanfares(page), 1);
  // On a phone the places are below the board: the page goes down to them; nothing is left to throw.
  await page.waitForFunction(() => {
    const box = document.querySelector('#end h2').getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight;
  }, null, { timeout: 5000 });
  assert.ok(await page.isHidden('#roll'), 'no throw button at the end');
  // The confetti lies over the buttons and catches nothing: the end's buttons still work.
  await page.click('#play-again-local', { timeout: 2000 });
  await page.waitForSelector('#end', { state: 'hidden' });
  await page.waitForSelector('.celebration', { state: 'detached', timeout: 5000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('with reduced motion the fanfare plays and nothing falls', async () => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const { page, errors } = await resume(context, nearTheEnd());
  await page.click('.piece.legal');
  await page.waitForSelector('#end:not([hidden])');
  await page.waitForFunction(async () => ((await import('/game/sound.js')).played.win ?? 0) === 1);
  assert.equal(await page.$('.celebration'), null);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a CPU's win is not celebrated, nor a game opened already over", async () => {
  const context = await browser.newContext();
  const { page, errors } = await resume(context, nearTheEnd('red'),
    { players: { yellow: 'human', red: 'random' } });
  // Red, a CPU, throws and wins; the person only watches.
  await page.waitForSelector('#end:not([hidden])', { timeout: 20000 });
  await page.waitForTimeout(500);
  assert.equal(await page.$('.celebration'), null);
  assert.equal(await fanfares(page), 0);
  assert.deepEqual(errors, []);
  // A game the person won, opened again once over.
  const wonBefore = { ...nearTheEnd(), places: { yellow: 1, red: 2 } };
  wonBefore.pieces.yellow = [56, 56, 56, 56];
  wonBefore.turn = { seat: 'yellow', phase: 'over', roll: null, bonus_streak: 0, throws: 0 };
  wonBefore.done = ['yellow'];
  const again = await resume(context, wonBefore);
  await again.page.waitForSelector('#end:not([hidden])');
  await again.page.waitForTimeout(500);
  assert.equal(await again.page.$('.celebration'), null);
  assert.deepEqual(again.errors, []);
  await context.close();
});
