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

/**
 * From now on, every moment focus falls to the page itself is noted in `globalThis.focusLost`:
 * after any change to the page, on every frame, and whenever focus leaves an element for nowhere.
 */
async function noteFocusLost(page) {
  await page.evaluate(() => {
    const lost = [];
    globalThis.focusLost = lost;
    const look = (when) => {
      const at = document.activeElement;
      const entry = `${when}: ${document.getElementById('status').textContent}`;
      if ((!at || at === document.body) && !lost.includes(entry)) lost.push(entry);
    };
    new MutationObserver(() => look('change')).observe(document.body, { subtree: true, childList: true, attributes: true });
    document.addEventListener('focusout', (e) => e.relatedTarget === null && queueMicrotask(() => look('focusout')), true);
    const frame = () => {
      look('frame');
      requestAnimationFrame(frame);
    };
    frame();
  });
}

test('a game against the CPU is started and played with the keyboard alone', async () => {
  const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${url}/?cpu-delay=0&pace=0`);
  await page.waitForSelector('body[data-ready=true]');
  // Tab to Play; every control passed on the way shows its focus.
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => document.activeElement.matches('#play-now'));
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
      assert.match(now.label, /^Move yellow ○ piece \d, (in the base|\d+ squares? before the home column(, on a safe square)?) → /);
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

test('from anywhere on the page R throws, a digit moves that piece and W says where everyone is, and "your turn" is said', async () => {
  const { resume, yellowToMove } = await import('./browser.mjs');
  const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
  // Yellow to throw, one piece out on square 20.
  const position = yellowToMove(20, 'base');
  position.turn = { seat: 'yellow', phase: 'roll', roll: null, bonus_streak: 0, throws: 0 };
  const { page, errors } = await resume(context, position);
  const saved = () => page.evaluate(() => JSON.parse(localStorage.getItem('ludo.games'))[0].position);
  await page.waitForFunction(() => /your turn — throw/i.test(document.getElementById('announce').textContent));
  // Focus on the page itself, nowhere near the table's controls. W says where everyone is.
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('w');
  assert.equal(await page.textContent('#announce'),
    'yellow ○: 3 in the base, piece 1: 31 squares before the home column. red △: 4 in the base');
  await page.keyboard.press('r');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ludo.games'))[0].position.turn.throws >= 1
    || JSON.parse(localStorage.getItem('ludo.games'))[0].position.turn.seat !== 'yellow');
  // Playing on with the keys alone until a move is to be chosen: then "1" moves piece 1.
  for (let i = 0; i < 50; i++) {
    const p = await saved();
    if (p.turn.seat === 'yellow' && p.turn.phase === 'move') break;
    if (await page.isEnabled('#roll')) {
      await page.evaluate(() => document.activeElement?.blur());
      await page.keyboard.press('r');
    }
    await page.waitForTimeout(50);
  }
  const before = await saved();
  assert.deepEqual([before.turn.seat, before.turn.phase], ['yellow', 'move'], 'a move to choose');
  await page.waitForFunction(() => /your turn — choose a piece/i.test(document.getElementById('announce').textContent));
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('1');
  await page.waitForFunction((from) => JSON.parse(localStorage.getItem('ludo.games'))[0].position.pieces.yellow[0] !== from,
    before.pieces.yellow[0]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('focus stays on the table while a throw, a move and the CPU\'s turn are shown', async () => {
  const { resume, yellowToMove } = await import('./browser.mjs');
  const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
  // Yellow to throw, one piece out on square 20 (every throw moves it), against a CPU at red,
  // shown as people see it: the dice roll and the pieces walk.
  const position = yellowToMove(20, 'base');
  position.turn = { seat: 'yellow', phase: 'roll', roll: null, bonus_streak: 0, throws: 0 };
  const { page, errors } = await resume(context, position, { players: { yellow: 'human', red: 'easy' } });
  await page.waitForFunction(() => /your turn — throw/i.test(document.getElementById('announce').textContent));
  await page.focus('#roll');
  await noteFocusLost(page);
  const cpuPlayed = () => page.evaluate(() => /red △/.test(document.getElementById('log').textContent));
  let actions = 0;
  for (let i = 0; i < 600; i++) {
    const now = await focused(page);
    const ready = await page.evaluate(() => document.getElementById('roll').getAttribute('aria-disabled') !== 'true');
    if (now.legal || (now.id === 'roll' && ready)) {
      if (actions > 0 && await cpuPlayed()) break;
      // Space on the throw button throws, Enter on a piece moves it.
      await page.keyboard.press(now.legal ? 'Enter' : 'Space');
      actions++;
    } else {
      await page.waitForTimeout(20);
    }
  }
  assert.ok(await cpuPlayed(), 'the CPU played a turn');
  assert.ok(actions >= 2, `a throw and a move made by keyboard (${actions} actions)`);
  assert.deepEqual(await page.evaluate(() => globalThis.focusLost), [], 'focus never fell to the page');
  assert.deepEqual(errors, []);
  await context.close();
});

test('at the end of a game played by keyboard, focus goes to the end\'s first button, never to the page', async () => {
  const { resume, yellowToMove } = await import('./browser.mjs');
  for (const [locale, again] of [['en', 'Play again'], ['fr-FR', 'Rejouer']]) {
    const context = await browser.newContext({ locale, viewport: { width: 360, height: 640 } });
    // Yellow's last piece one throw of 3 from home, against a CPU at red.
    const { page, errors } = await resume(context, yellowToMove(53, 'base', [3], [56, 56, 56]),
      { players: { yellow: 'human', red: 'easy' } });
    await page.waitForSelector('#board .piece.legal');
    // Tab to the piece to move, as a keyboard player would, and play it.
    for (let i = 0; i < 40 && !(await focused(page)).legal; i++) await page.keyboard.press('Tab');
    assert.ok((await focused(page)).legal, 'the piece to move is reached by Tab');
    await noteFocusLost(page);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#end:not([hidden])');
    await page.waitForFunction(() => document.activeElement?.closest('#end') !== null);
    assert.equal(await page.evaluate(() => document.activeElement.textContent), again, locale);
    assert.ok((await focused(page)).visible, 'the button shows its focus');
    assert.deepEqual(await page.evaluate(() => globalThis.focusLost), [], 'focus never fell to the page');
    // Enter on it starts the next game.
    await page.keyboard.press('Enter');
    await page.waitForSelector('#end', { state: 'hidden' });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
