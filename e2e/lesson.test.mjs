// "Learn by playing": a first game against one easy CPU whose dice are arranged for teaching,
// coached in words on the table as each thing comes up, and never kept among the saved games.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { accessibilityViolations, launch, person } from './browser.mjs';

const shots = process.env.LUDO_SHOTS ?? '/tmp/ludo-shots';
mkdirSync(shots, { recursive: true });
const browser = await launch();
after(() => browser.close());

/** The piece the coach speaks of, if one is on offer: the one that captures, finishes, leaves the base, enters the home column. */
async function followTheCoach(page) {
  const offered = await page.$$eval('#board .piece.legal', (pieces) => pieces
    .map((p) => [p.dataset.piece, p.getAttribute('aria-label')]));
  const to = (said) => said.split('→')[1];
  const pick = offered.find(([, said]) => /(captures|finished)/.test(to(said)))
    ?? offered.find(([, said]) => /in the base →/.test(said))
    ?? offered.find(([, said]) => /of the home column/.test(to(said)) && !/of the home column/.test(said.split('→')[0]))
    ?? offered.find(([, said]) => /safe square$/.test(to(said)))
    ?? offered[0];
  await page.click(`#board .piece.legal[data-piece="${pick[0]}"]`);
}

test('Learn by playing teaches leaving the base, a capture, a safe square, the home column and the exact count, in that order', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { viewport: { width: 360, height: 640 } });
  await page.click('#how-to-play');
  await page.waitForSelector('#coach');
  assert.equal(await page.$('#guide'), null, 'the lesson coaches on its own, without the tour');
  const said = [];
  for (let i = 0; i < 200 && !said.at(-1)?.startsWith('That is Ludo'); i++) {
    const now = await page.textContent('#coach');
    if (now !== said.at(-1)) said.push(now);
    const turn = await page.evaluate(() => (document.querySelector('#board .piece.legal') ? 'move'
      : document.getElementById('roll').getAttribute('aria-disabled') === 'true' ? null : 'throw'));
    if (turn === 'throw') await page.click('#roll');
    else if (turn === 'move') await followTheCoach(page);
    else await page.waitForTimeout(20);
    if (i === 2) {
      // The coaching sits under the controls: the board does not move for it.
      const coach = await page.$eval('#coach', (c) => c.getBoundingClientRect().toJSON());
      const board = await page.$eval('#board', (b) => b.getBoundingClientRect().toJSON());
      assert.ok(coach.top >= board.bottom, 'under the board');
      assert.deepEqual(await accessibilityViolations(page), []);
      await page.screenshot({ path: `${shots}/lesson-360x640-en.png` });
    }
  }
  assert.deepEqual(said.map((text) => text.split(/[:.]/)[0]), [
    'Your first game',
    'A 6 brings a piece out of your base onto your start',
    'Land exactly on another colour’s piece to capture it',
    'Starts and stars are safe squares',
    'Your home column, in your colour',
    'A piece in the home column needs the exact count to reach the finish',
    'The exact count',
    'That is Ludo',
  ]);
  assert.equal(await page.getAttribute('#coach', 'role'), 'status', 'said to screen readers too');
  assert.equal(await page.evaluate(() => localStorage.getItem('ludo.games')), null, 'not kept among the games');
  assert.deepEqual(errors, []);
  await page.context().close();
});
