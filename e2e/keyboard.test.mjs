// Playing with the keyboard alone, as a screen-reader user would: focus follows the game, every
// throw and move is announced in a live region, and focus is visible.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, url } from './browser.mjs';

const browser = await launch();
after(() => browser.close());

const focused = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return { id: a?.id, legal: a?.matches?.('.piece.legal') ?? false,
    visible: a?.matches?.(':focus-visible') ?? false, label: a?.getAttribute?.('aria-label') };
});

test('a game against the CPU is started and played with the keyboard alone', async () => {
  const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${url}/?cpu-delay=0&pace=0`);
  await page.waitForSelector('body[data-ready=true]');
  // Tab to the first form's start button; every control passed on the way shows its focus.
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => document.activeElement.matches('#vs-cpu button[type=submit]'));
    assert.ok((await focused(page)).visible, 'focus is visible');
    if (at) break;
  }
  await page.keyboard.press('Enter');
  await page.waitForSelector('#play:not([hidden])');
  let moves = 0;
  let throws = 0;
  for (let i = 0; i < 400 && moves < 4; i++) {
    const now = await focused(page);
    if (now.id === 'roll') {
      await page.keyboard.press('Enter');
      throws++;
      assert.match(await page.textContent('#announce'), /(threw \d|brings a piece out|moves \d)/);
    } else if (now.legal) {
      assert.ok(now.visible, 'the piece to move shows its focus');
      assert.match(now.label, /^Move yellow ○ piece \d: (square \d+|finished)$/);
      // The arrow keys step between the pieces that can move, then Enter plays.
      await page.keyboard.press('ArrowRight');
      assert.ok((await focused(page)).legal);
      await page.keyboard.press('Enter');
      moves++;
      assert.match(await page.textContent('#announce'), /(moves \d|brings a piece out|threw \d)/);
    } else {
      await page.waitForTimeout(20);
    }
  }
  assert.ok(moves >= 4, `four moves made by keyboard (${moves} in ${throws} throws)`);
  assert.deepEqual(errors, []);
  await page.close();
});
