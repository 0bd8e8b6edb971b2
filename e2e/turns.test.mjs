// How a turn looks: the dice roll, the moved piece walks, captures and finishes are marked on the
// board and in the log, and nothing moves when reduced motion is asked for.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openWay, resume, url, yellowToMove } from './browser.mjs';

const browser = await launch();
after(() => browser.close());

/**
 * Starts watching the table from now on, so that what is shown for a moment is seen whatever the
 * machine's speed: the seat whose base the dice first rolled in (a DOM change), the board's
 * flashes (DOM changes), and the most pieces walking at once (looked at on every frame).
 */
const watchTable = (page) => page.evaluate(() => {
  const seen = { rolledIn: null, flashes: new Set(), walking: 0 };
  globalThis.seenOnTable = seen;
  const look = () => {
    const die = document.querySelector('#die');
    if (die?.classList.contains('rolling')) seen.rolledIn ??= die.dataset.seat;
    for (const flash of document.querySelectorAll('#board .flash')) {
      for (const name of flash.classList) if (name !== 'flash') seen.flashes.add(name);
    }
  };
  new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true });
  const frame = () => {
    const walking = document.getAnimations()
      .filter((a) => a.effect?.target?.classList?.contains('piece')).length;
    seen.walking = Math.max(seen.walking, walking);
    requestAnimationFrame(frame);
  };
  frame();
});

/** What [`watchTable`] saw so far. */
const seenOnTable = (page) => page.evaluate(() => {
  const { rolledIn, flashes, walking } = globalThis.seenOnTable;
  return { rolledIn, flashes: [...flashes], walking };
});

test("a throw rolls the dice in the thrower's base, two dice for the Vietnamese rules", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}/?cpu-delay=0`);
  await page.waitForSelector('body[data-ready=true]');
  await openWay(page, 'hot-seat');
  await page.selectOption('select[name=preset]', 'vietnamese');
  await page.selectOption('#hot-seat select[name=people]', '2');
  await page.click('#hot-seat button[type=submit]');
  await watchTable(page);
  // The button names as many dice as are thrown: two here, one under Qdan.
  assert.equal(await page.textContent('#roll'), 'Throw the dice');
  assert.equal(await page.getAttribute('#die', 'aria-label'), 'Throw the dice');
  await page.click('#roll');
  await page.waitForSelector('#die[data-values*=","]');
  assert.equal((await seenOnTable(page)).rolledIn, 'yellow', "the dice roll first, in yellow's base");
  const shown = (await page.getAttribute('#die', 'data-values')).split(',').map(Number);
  assert.equal(shown.length, 2);
  assert.match(await page.textContent('#announce'), new RegExp(`${shown[0]} \\+ ${shown[1]}`));
  await page.goto(`${url}/?cpu-delay=0&lang=fr`);
  await page.waitForSelector('body[data-ready=true]');
  await openWay(page, 'hot-seat');
  await page.selectOption('select[name=preset]', 'qdan');
  await page.click('#hot-seat button[type=submit]');
  assert.equal(await page.textContent('#roll'), 'Lancer le dé');
  await context.close();
});

test('a capture walks the piece, sends the other home and is marked on the board and in the log', async () => {
  const context = await browser.newContext();
  // Red's piece 0 at progress 49 stands on track square 23, three squares ahead of yellow's.
  const { page, errors } = await resume(context, yellowToMove(20, 49));
  await watchTable(page);
  // Everything said aloud, in order: "your turn" follows the capture at once (it earns a throw).
  await page.evaluate(() => {
    window.said = [];
    const live = document.getElementById('announce');
    new MutationObserver(() => window.said.push(live.textContent)).observe(live, { childList: true, characterData: true, subtree: true });
  });
  await page.click('.piece.legal[data-piece="0"]');
  await page.waitForSelector('#log li.capture');
  const seen = await seenOnTable(page);
  assert.equal(seen.walking, 2, 'the capturing piece and the captured one walk');
  assert.ok(seen.flashes.includes('capture'), `flashes: ${seen.flashes}`);
  assert.equal(await page.textContent('#log li.capture'), 'yellow ○ moves 3 and captures red △');
  // However narrow the line, a seat's mark stays with the end of its word: here the line is made
  // narrower than "yellow ○" itself.
  const lines = await page.$$eval('#log li.capture .seat-words', (all) => {
    const line = all[0].closest('li');
    const range = document.createRange();
    range.setStart(line.firstChild, 0);
    range.setEndAfter(all[0]);
    line.style.width = `${range.getBoundingClientRect().width - 2}px`;
    // The line's first letter is a box of its own (it is capitalised): count the lines, not the boxes.
    const linesOf = (words) => new Set([...words.getClientRects()].map((box) => Math.round(box.bottom))).size;
    return all.map((words) => [words.textContent, linesOf(words)]);
  });
  assert.deepEqual(lines, [['w ○', 1], ['d △', 1]], 'each seat\'s mark on the line of its word\'s end');
  assert.ok((await page.evaluate(() => window.said)).some((text) => /captures/.test(text)), 'the capture is said');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a piece come home is marked, and with reduced motion nothing moves', async () => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const { page, errors } = await resume(context, yellowToMove(53, 'base'));
  await watchTable(page);
  await page.click('.piece.legal[data-piece="0"]');
  await page.waitForSelector('#log li.finish');
  assert.equal(await page.textContent('#log li.finish'), 'yellow ○ moves 3 and reaches the finish (1 of 4)');
  await page.waitForSelector('#roll:not([aria-disabled=true])');
  await page.click('#roll');
  await page.waitForSelector('#die:not([data-values=""])');
  const seen = await seenOnTable(page);
  assert.deepEqual(seen, { rolledIn: null, flashes: ['finish'], walking: 0 },
    'the finish is marked, nothing walks, and the dice show the throw at once');
  assert.equal(await page.$$eval('#die .die', (d) => d.length), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a throw that cannot bring a piece out says which throws can, in the reader’s language', async () => {
  const context = await browser.newContext({ locale: 'fr-FR' });
  // Every die shows 3 (the browser's random bytes are fixed): under Qdan no piece can come out.
  await context.addInitScript(() => {
    crypto.getRandomValues = (bytes) => bytes.fill(2);
  });
  const page = await context.newPage();
  await page.goto(`${url}/?cpu-delay=0`);
  await page.waitForSelector('body[data-ready=true]');
  await openWay(page, 'vs-cpu');
  await page.click('#vs-cpu button[type=submit]');
  const said = [];
  await page.exposeFunction('statusSaid', (text) => said.push(text));
  await page.evaluate(() => new MutationObserver(() => globalThis.statusSaid(document.getElementById('status')
    .textContent)).observe(document.getElementById('status'), { childList: true, characterData: true, subtree: true }));
  await page.click('#roll');
  await page.waitForSelector('#roll:not([aria-disabled=true])', { timeout: 30_000 });
  assert.ok(said.includes('Vous avez fait 3 — pas de coup. Seul un 6 fait sortir une pièce'),
    JSON.stringify(said));
  // The CPUs' throws are said as before: the hint is for the person playing.
  assert.ok(said.some((text) => /^(bleu|rouge|vert) .* : 3 — pas de coup$/.test(text)), JSON.stringify(said));
  await context.close();
});

/**
 * Yellow to throw in a hot-seat game where a 4 moves nothing: piece 1 is in the home column,
 * three from the finish, and piece 2 stands before red's blockade (red 38 is square 12).
 */
const stuckYellow = {
  rules: 'qdan',
  seats: ['yellow', 'red'],
  pieces: { yellow: [53, 10, 'base', 'base'], red: [38, 38, 'base', 'base'] },
  turn: { seat: 'yellow', phase: 'roll', roll: null, bonus_streak: 0, throws: 0 },
};

/**
 * Resumes `stuckYellow` on a 360×640 phone, every die showing 4, throws, and gives what the status
 * line said, its height in rows while the hint showed, and whether the board moved meanwhile.
 */
async function throwStuck(lang) {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
  await context.addInitScript(() => {
    crypto.getRandomValues = (bytes) => bytes.fill(3);
  });
  const { page, errors } = await resume(context, stuckYellow, { path: `/?cpu-delay=0&lang=${lang}`,
    players: { yellow: 'human', red: 'random' } });
  await page.waitForSelector('#roll:not([aria-disabled=true])');
  const board = async () => JSON.stringify(await page.locator('#board').boundingBox());
  const before = await board();
  await page.click('#roll');
  await page.waitForSelector('#status .hint');
  const status = await page.textContent('#status');
  const rows = await page.evaluate(() => {
    const line = document.getElementById('status');
    return line.getBoundingClientRect().height / parseFloat(getComputedStyle(line).lineHeight);
  });
  const moved = (await board()) !== before;
  await page.screenshot({ path: `${process.env.LUDO_SHOTS ?? '/tmp/ludo-shots'}/no-move-${lang}.png` });
  assert.deepEqual(errors, []);
  await context.close();
  return { status, rows, moved };
}

test('a throw that moves no piece on the board says why, piece by piece, in the reader’s language', async () => {
  const english = await throwStuck('en');
  assert.equal(english.status,
    'You threw 4 — no move. Piece 1 needs exactly 3 to finish; a blockade stops piece 2');
  assert.ok(english.rows <= 2.05, `the status keeps to two rows on a phone: ${english.rows}`);
  assert.equal(english.moved, false, 'the board does not move');
  const russian = await throwStuck('ru');
  assert.equal(russian.status, 'Вы выбросили 4 — хода нет. Фишке 1 нужно точно 3; фишку 2 держит блокада');
  assert.ok(russian.rows <= 2.05, `the status keeps to two rows on a phone: ${russian.rows}`);
  assert.equal(russian.moved, false, 'the board does not move');
  // French and Portuguese say "no move" short enough for the reasons to keep to the two rows too.
  for (const [lang, start] of [['fr', 'Vous avez fait 4 — pas de coup. '], ['pt', 'Tiraste 4 — sem jogada. ']]) {
    const shown = await throwStuck(lang);
    assert.ok(shown.status.startsWith(start), shown.status);
    assert.ok(shown.rows <= 2.05, `${lang}: the status keeps to two rows on a phone: ${shown.rows} (${shown.status})`);
    assert.equal(shown.moved, false, `${lang}: the board does not move`);
  }
});
