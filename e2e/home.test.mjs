// The home screen: Play starts a game against the CPU at once (three medium CPUs the first time,
// under the rules of the page's language; the last settings after that), the saved games come
// first, several are kept, each continues where it was and can be deleted (and brought back);
// the three rulesets show a picture of their board and link to their rules page; and the
// first-game guide shows once, steps through, can be skipped or closed with Escape, and is there
// again on asking. Screenshots go to LUDO_SHOTS when it is set.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import {
  CONTINUE, SAVES_KEY, accessibilityViolations, launch, openWay, person, personsTurn, savedGame, step, url,
} from './browser.mjs';

const shots = process.env.LUDO_SHOTS;
if (shots) mkdirSync(shots, { recursive: true });

const browser = await launch();
after(() => browser.close());

const PHONE = { width: 360, height: 640 };
const DESKTOP = { width: 1280, height: 800 };

/** Back to the home screen from a game. */
async function home(page) {
  await page.click('#back');
  // The home screen is drawn afresh (the table's page had it hidden).
  await page.waitForSelector('body[data-ready=true] #home:not([hidden])');
}

/** Throws once as the person (the table waits for them to throw). */
async function throwOnce(page) {
  await page.waitForSelector('#roll:not([aria-disabled=true])');
  await page.click('#roll');
}

/** The saved games' lines as the home screen shows them. */
const lines = (page) => page.$$eval('#saved-games li .what', (items) => items.map((n) => n.textContent));

test('Play starts a game against three medium CPUs at once, then with the last settings used', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { viewport: PHONE });
  assert.ok(await page.isHidden('#saved'), 'no saved games yet');
  assert.equal(await page.textContent('#play-now-what'), 'Standard rules · you + 3 CPUs · Medium');
  await page.click('#play-now');
  await page.waitForSelector('#play:not([hidden])');
  await throwOnce(page);
  let game = await savedGame(page);
  assert.deepEqual(game.players, { yellow: 'human', blue: 'medium', red: 'medium', green: 'medium' });
  assert.deepEqual(game.rules, { preset: 'qdan' });
  await home(page);
  // A game against the CPU with other settings: Play starts that one next time.
  await openWay(page, 'vs-cpu');
  await page.selectOption('#vs-cpu select[name=opponents]', '1');
  await page.selectOption('#vs-cpu select[name=level]', 'hard');
  await page.selectOption('#rules-choice select[name=preset]', 'classic');
  await page.click('#vs-cpu button[type=submit]');
  await page.waitForSelector('#play:not([hidden])');
  await home(page);
  assert.equal((await lines(page)).length, 1, 'a game left before the person acted in it is not offered');
  assert.equal(await page.textContent('#play-now-what'), 'Classic · you + 1 CPU · Hard');
  assert.equal(await page.inputValue('#vs-cpu select[name=level]'), 'hard', 'the form shows them too');
  await page.click('#play-now');
  await page.waitForSelector('#play:not([hidden])');
  await throwOnce(page);
  game = await savedGame(page);
  assert.deepEqual(game.players, { yellow: 'human', red: 'hard' });
  assert.deepEqual(game.rules, { preset: 'classic' });
  await home(page);
  // The game left before the person acted in it made way for the next one.
  assert.equal((await lines(page)).length, 2, 'every game the person acted in is kept, and only those');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('Play says and starts what its sheet and the rules are changed to', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { viewport: PHONE, locale: 'fr-FR' });
  assert.equal(await page.textContent('#play-now-what'), 'Règles standard · vous + 3 CPU · Moyen');
  await openWay(page, 'vs-cpu');
  await page.selectOption('#vs-cpu select[name=level]', 'hard');
  await page.selectOption('#rules-choice select[name=preset]', 'classic');
  assert.equal(await page.textContent('#play-now-what'), 'Classique · vous + 3 CPU · Difficile');
  // Closed, the sheet leaves Play saying what it starts.
  await page.keyboard.press('Escape');
  await page.click('#play-now');
  await throwOnce(page);
  const game = await savedGame(page);
  assert.deepEqual(game.rules, { preset: 'classic' });
  assert.deepEqual(Object.values(game.players).filter((p) => p !== 'human'), ['hard', 'hard', 'hard']);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a Vietnamese browser plays the Vietnamese rules by default', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { locale: 'vi-VN', viewport: PHONE });
  assert.equal(await page.getAttribute('html', 'lang'), 'vi');
  assert.equal(await page.inputValue('#rules-choice select[name=preset]'), 'vietnamese');
  await page.click('#play-now');
  await page.waitForSelector('#play:not([hidden])');
  const game = await savedGame(page);
  assert.deepEqual(game.rules, { preset: 'vietnamese' });
  assert.equal(Object.values(game.players).filter((p) => p === 'medium').length, 3);
  // Its lists mark the rules it offers first as the default, the ranked game's too.
  await home(page);
  const chosen = (select) => page.$eval(select, (s) => s.selectedOptions[0].textContent);
  assert.equal(await chosen('#rules-choice select[name=preset]'), 'Cờ cá ngựa Việt Nam (mặc định)');
  assert.equal(await chosen('#ranked select[name=rules]'), 'Cờ cá ngựa Việt Nam (mặc định)');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('one choice of rules, in the sheet of each way to play but ranked, is what a game on this device plays too', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { viewport: DESKTOP });
  // In the sheet of the way being set, saying which games it is for; the CPU's form reads it.
  assert.equal(await page.$('#vs-cpu select[name=preset]:not([form])'), null);
  assert.equal(await page.getAttribute('#rules-choice select[name=preset]', 'form'), 'vs-cpu');
  assert.equal(await page.textContent('#rules-for'),
    'The same rules for games against the CPU, on this device and with friends. Ranked games play their own rules.');
  await openWay(page, 'hot-seat');
  assert.ok(await page.isVisible('#hot-seat-sheet #rules-choice'), 'the rules come with the sheet opened');
  await page.selectOption('#rules-choice select[name=preset]', 'vietnamese');
  await openWay(page, 'friends');
  assert.equal(await page.inputValue('#friends-sheet #rules-choice select[name=preset]'), 'vietnamese', 'one choice');
  await openWay(page, 'ranked');
  assert.equal(await page.$('#ranked-sheet #rules-choice'), null, 'ranked games play their own rules');
  await openWay(page, 'hot-seat');
  await page.selectOption('#hot-seat select[name=people]', '2');
  await page.click('#hot-seat button[type=submit]');
  await throwOnce(page);
  const game = await savedGame(page);
  assert.deepEqual(game.rules, { preset: 'vietnamese' });
  assert.deepEqual(game.players, { yellow: 'human', red: 'human' });
  if (shots) {
    await home(page);
    await openWay(page, 'hot-seat');
    await page.screenshot({ path: `${shots}/home-rules-choice-en.png` });
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a table with friends has no ranked box: the ranked sheet says how to play a ranked game with a friend', async () => {
  const { page, errors } = await person(browser, '/', { viewport: PHONE });
  await openWay(page, 'friends');
  assert.equal(await page.$('#friends input[name=ranked]'), null, 'ranked is the ranked sheet\'s, or the table\'s');
  assert.equal(await page.inputValue('#friends select[name=clock]'), '');
  await openWay(page, 'ranked');
  // The ranked sheet says how it differs: strangers near one's rating, found for you, never two
  // from one network (the server's rule), so a family on one Wi-Fi knows where to go instead;
  // and that a table with friends is made ranked in its settings.
  assert.equal(await page.textContent('#ranked .hint'), 'Against people rated close to you, found for you. '
    + 'Two devices on the same network are never matched: to play someone beside you, use “Play with friends”.');
  assert.equal(await page.textContent('#ranked-friend'), 'A ranked game with a friend: open a table with '
    + '“Play with friends”, then tick “Ranked” in its settings.');
  // Both sheets ask for the person's name: it is one name, typed in either.
  await page.fill('#ranked input[name=name]', 'Ana B.');
  await openWay(page, 'friends');
  assert.equal(await page.inputValue('#friends input[name=name]'), 'Ana B.');
  await page.fill('#friends input[name=name]', 'Ana');
  assert.equal(await page.inputValue('#ranked input[name=name]'), 'Ana');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('two games started one after the other are both kept, continue each where it was, and one can be deleted', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { viewport: PHONE });
  // A: two people on this device, one throw. B: against the CPU, one throw.
  await openWay(page, 'hot-seat');
  await page.selectOption('#hot-seat select[name=people]', '2');
  await page.click('#hot-seat button[type=submit]');
  await throwOnce(page);
  const a = await savedGame(page);
  await home(page);
  await page.click('#play-now');
  await throwOnce(page);
  // The CPUs play their turns (thought in a worker) until the table waits for the person again:
  // left in the middle of them, B would go on playing when continued, and be played last.
  await page.waitForFunction((key) => {
    const game = JSON.parse(localStorage.getItem(key) ?? '[]')[0];
    return game?.actions.length > 0 && game.position.turn.seat === 'yellow';
  }, SAVES_KEY);
  const b = await savedGame(page);
  assert.notEqual(a.id, b.id);
  await home(page);
  // Continue first: the saved games come before Play, the one played last first.
  const first = await page.$eval('#home', (h) => [...h.querySelectorAll('button')].find((n) => n.offsetParent)?.className);
  assert.equal(first, 'continue', 'Continue is the first button of the home screen');
  const shown = await lines(page);
  assert.equal(shown.length, 2);
  assert.match(shown[0], /^Standard rules · you \+ 3 CPUs · (now|1 minute ago)$/);
  assert.match(shown[1], /^Standard rules · 2 people · (now|1 minute ago)$/);
  // A continues from its own position: its next action is saved after its own.
  await page.click('#saved-games li:nth-child(2) .continue');
  assert.equal(await page.$$eval('#players li', (seats) => seats.length), 2, 'A has two seats');
  const position = await page.evaluate(() => document.getElementById('status').textContent);
  assert.ok(position.length > 0);
  await page.waitForSelector('#board .piece.legal, #roll:not([aria-disabled=true])');
  await page.click((await page.$('#board .piece.legal')) ? '#board .piece.legal' : '#roll');
  await page.waitForFunction(({ key, id, n }) => {
    const game = JSON.parse(localStorage.getItem(key))[0];
    return game.id === id && game.actions.length > n;
  }, { key: SAVES_KEY, id: a.id, n: a.actions.length });
  const continued = await savedGame(page);
  assert.deepEqual(continued.actions.slice(0, a.actions.length), a.actions, 'A went on from where it was');
  await home(page);
  // A, played last, comes first now; B continues from its own position.
  assert.match((await lines(page))[0], /2 people/);
  await page.click('#saved-games li:nth-child(2) .continue');
  assert.equal(await page.$$eval('#players li', (seats) => seats.length), 4, 'B has four seats');
  assert.deepEqual(await page.$$eval('#board .piece[data-colour=yellow]', (p) => p.length), 4);
  await home(page);
  // Delete B, bring it back, delete it for good.
  await page.click('#saved-games li:nth-child(2) .delete');
  assert.equal((await lines(page)).length, 1);
  assert.equal(await page.textContent('#saved-undo span'), 'Game deleted.');
  await page.click('#saved-undo .undo');
  assert.equal((await lines(page)).length, 2, 'Undo brings it back');
  await page.click('#saved-games li:nth-child(2) .delete');
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  const ids = await page.$$eval('#saved-games li', (items) => items.map((li) => li.dataset.id));
  assert.deepEqual(ids, [a.id], 'only A is left');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a game saved by the version that kept one game joins the list', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0');
  await page.click('#play-now');
  await throwOnce(page);
  // Once the game waits for the person (its CPUs have played and saved), and away from it, the
  // save is put back as the old version kept it.
  await personsTurn(page);
  await page.goto(`${url}/replay`);
  await page.waitForSelector('body[data-ready=true]');
  const game = await savedGame(page);
  await page.evaluate(({ key, game }) => {
    const { id, saved_at: _, ...old } = game;
    localStorage.removeItem(key);
    localStorage.setItem('ludo.local.v1', JSON.stringify(old));
  }, { key: SAVES_KEY, game });
  await page.goto(`${url}/?cpu-delay=0`);
  await page.waitForSelector('body[data-ready=true]');
  assert.equal((await lines(page)).length, 1);
  assert.equal(await page.evaluate(() => localStorage.getItem('ludo.local.v1')), null, 'the old save is moved');
  await page.click(CONTINUE);
  assert.deepEqual((await savedGame(page)).position, game.position);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the home screen shows before the engine is loaded, and Play tapped then starts the game once it is', async () => {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // The engine arrives only when the test lets it.
  let letThrough;
  const held = new Promise((resolve) => { letThrough = resolve; });
  await page.route('**/engine.wasm', async (route) => { await held; await route.continue(); });
  await page.goto(`${url}/?cpu-delay=0`);
  await page.waitForSelector('body[data-drawn=true] #play-now');
  assert.equal(await page.getAttribute('body', 'data-ready'), null, 'the engine is still loading');
  assert.equal(await page.textContent('#play-now-what'), 'Standard rules · you + 3 CPUs · Medium');
  assert.equal(await page.locator('#rulesets svg.ruleset-board rect').count(), 0, 'the pictures wait for the engine');
  await page.click('#play-now');
  assert.ok(await page.isHidden('#play'), 'no game before the engine is there');
  letThrough();
  // The tap is played once the engine is loaded: the game starts, and the pictures are drawn.
  await page.waitForSelector('#play:not([hidden]) #board rect');
  assert.ok(await page.locator('#rulesets svg.ruleset-board rect').count() > 150, 'the pictures are drawn');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the three rulesets each show a picture of their board and link to their rules page', async () => {
  const { page, errors } = await person(browser, '/', { viewport: PHONE });
  const rulesets = await page.$$eval('#rulesets li', (items) => items.map((li) => ({
    href: li.querySelector('a').getAttribute('href'),
    picture: li.querySelectorAll('svg.ruleset-board rect').length > 50,
    text: li.textContent,
  })));
  assert.deepEqual(rulesets.map((r) => r.href), ['/rules/qdan', '/rules/classic', '/rules/vietnamese']);
  assert.ok(rulesets.every((r) => r.picture), 'a board drawn in each');
  // What the standard rules are, in words a newcomer knows: how a piece comes out first.
  assert.match(rulesets[0].text, /The Ludo most people know: a 6 brings a piece out/, 'what the standard rules are');
  await page.click('#rulesets a[href="/rules/vietnamese"]');
  await page.waitForSelector('#rules-page:not([hidden]) h2');
  assert.equal(await page.getAttribute('#rules-page', 'data-preset'), 'vietnamese');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('beside the guided first game, "Read the rules" opens the page of the rules chosen', async () => {
  const { page, errors } = await person(browser, '/', { viewport: PHONE });
  assert.equal(await page.textContent('#how-to-play'), 'Learn by playing', 'says it starts a game');
  await openWay(page, 'vs-cpu');
  await page.selectOption('#rules-choice select[name=preset]', 'vietnamese');
  await page.keyboard.press('Escape');
  await page.click('#read-rules');
  await page.waitForSelector('#rules-page:not([hidden]) h2');
  assert.equal(await page.getAttribute('#rules-page', 'data-preset'), 'vietnamese');
  assert.equal(new URL(page.url()).pathname, '/rules/vietnamese');
  assert.ok(await page.isHidden('#home'), 'the home screen makes way for the page');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('on a phone the rules compared side by side fit the screen, in the language with the longest names', async () => {
  const { page, errors } = await person(browser, '/', { viewport: PHONE, locale: 'ru-RU' });
  await page.click('#compare summary');
  const cells = await page.$$eval('#rules th, #rules td', (all) => all.filter((c) => c.offsetParent)
    .map((c) => { const box = c.getBoundingClientRect(); return { text: c.textContent, left: box.left, right: box.right }; }));
  const past = cells.filter((c) => c.left < 0 || c.right > PHONE.width);
  assert.deepEqual(past, [], 'no value hides past the screen\'s edge');
  assert.ok(cells.some((c) => c.text === 'Вьетнамские (cờ cá ngựa)'), 'the third ruleset is there');
  // A house rule's name takes its own line above the values: it is read before them.
  const [name, ...values] = await page.$$eval('#rules tbody tr:nth-child(3) > *', (row) =>
    row.map((c) => c.getBoundingClientRect()));
  assert.ok(values.every((v) => v.top >= name.bottom - 1), 'the values are under the name');
  if (shots) await page.screenshot({ path: `${shots}/compare-ru-phone.png` });
  assert.deepEqual(errors, []);
  await page.context().close();
});

/** Waits until the guide stopped moving (its card and ring slide from one step to the next). */
const settled = (page) => page.waitForFunction(() => !document.getAnimations()
  .some((a) => a instanceof CSSTransition && a.playState === 'running'));

/** Whether two boxes on screen overlap. */
const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('on a touch screen the guide says one tap moves a piece, and pressing and holding shows where it goes', async () => {
  for (const [locale, touch, words] of [
    ['en', true, /tap it to move it by your throw, or press and hold it to see where it would land\.$/],
    ['vi', true, /chạm vào để đi đúng số đã gieo, hoặc giữ ngón tay lên (quân|ngựa) để xem (quân|ngựa) sẽ đến đâu\.$/],
    ['en', false, /tap it to move it by your throw\.$/],
  ]) {
    const { page, errors } = await person(browser, '/?cpu-delay=0',
      { guide: true, locale, viewport: PHONE, hasTouch: touch, isMobile: touch });
    await page.click('#play-now');
    await page.locator('#guide').waitFor();
    await page.click('.guide-next');
    assert.match(await page.textContent('#guide-text'), words, `${locale}, touch ${touch}`);
    if (shots) await page.screenshot({ path: `${shots}/guide-pieces-${locale}-${touch ? 'touch' : 'mouse'}.png` });
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test('the guide says at the start what brings a piece out under the game\'s rules', async () => {
  for (const [locale, words] of [
    ['en', /clockwise\. A piece leaves the base only on a 6\.$/],
    // Vietnamese rules on a Vietnamese page: either die showing 1 or 6, or a double.
    ['vi', /Ngựa ra khỏi chuồng khi một xúc xắc ra 1 hoặc 6, hoặc khi gieo đôi\.$/],
    ['ru', /С базы выводит только 6\.$/],
  ]) {
    const { page, errors } = await person(browser, '/?cpu-delay=0', { guide: true, locale, viewport: PHONE });
    await page.click('#play-now');
    await page.locator('#guide').waitFor();
    await page.click('.guide-next');
    await page.click('.guide-next');
    assert.match(await page.textContent('#guide-text'), words, locale);
    if (shots) await page.screenshot({ path: `${shots}/guide-start-${locale}.png` });
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test('the guide shows on a first game, points at each thing beside it, and not again', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { guide: true, viewport: PHONE });
  await page.click('#play-now');
  const guide = page.locator('[role=dialog]#guide');
  await guide.waitFor();
  assert.equal(await page.textContent(`#${await guide.getAttribute('aria-labelledby')}`), 'Throw');
  const titles = [];
  for (let i = 0; i < 5; i++) {
    titles.push(await page.textContent('#guide-title'));
    assert.equal(await page.textContent('.guide-count'), `${i + 1} of 5`);
    // The card beside what the step points at, not over it.
    await settled(page);
    const ring = await page.locator('.guide-ring').boundingBox();
    const card = await guide.boundingBox();
    assert.ok(!overlap(ring, card), `step ${i + 1}: the card leaves what it points at visible`);
    assert.ok(card.y >= 0 && card.y + card.height <= PHONE.height, `step ${i + 1}: the card is on screen`);
    assert.equal(await page.evaluate(() => document.activeElement.className), 'guide-next');
    await page.click('.guide-next');
  }
  assert.deepEqual(titles, ['Throw', 'Your pieces', 'Your start', 'A safe square', 'Your home column']);
  assert.ok(await page.isHidden('#guide'), 'the last step closes it');
  await throwOnce(page);
  await home(page);
  await page.click('#play-now');
  await page.waitForSelector('#play:not([hidden])');
  assert.equal(await page.$('#guide'), null, 'shown once');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the guide can be skipped, and closed with Escape on a first game', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { guide: true });
  await page.click('#play-now');
  await page.waitForSelector('#guide');
  assert.deepEqual(await accessibilityViolations(page), []);
  // The table stays usable while the guide shows.
  await page.click('.guide-next');
  await page.click('.guide-skip');
  assert.equal(await page.$('#guide'), null, 'skipped');
  await throwOnce(page);
  await home(page);
  // On a device that has not seen it (as on a first visit), the next game shows it again.
  await page.evaluate(() => localStorage.removeItem('ludo.guide'));
  await page.click('#play-now');
  await page.waitForSelector('#guide');
  await page.keyboard.press('Escape');
  assert.equal(await page.$('#guide'), null, 'closed with Escape');
  assert.notEqual(await page.evaluate(() => document.activeElement.tagName), 'BODY', 'focus goes back to the table');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('playing on moves the guide along, then out of the way', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { guide: true, viewport: PHONE });
  await page.click('#play-now');
  await page.waitForSelector('#guide');
  assert.equal(await page.textContent('.guide-count'), '1 of 5');
  // A throw on "Throw" is the step done: the guide points at the pieces (or, when a six's only
  // move played itself, already at the start), leaving the focus alone.
  await page.click('#roll');
  await page.waitForFunction(() => ['2 of 5', '3 of 5'].includes(document.querySelector('.guide-count')?.textContent));
  assert.notEqual(await page.evaluate(() => document.activeElement.className), 'guide-next');
  // Playing on (a move on "Your pieces" goes one step further; a throw elsewhere closes it).
  const until = Date.now() + 30_000;
  while (await page.$('#guide')) {
    assert.ok(Date.now() < until, 'the guide stepped aside within 30 s of play');
    await step(page);
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the home screen has no serious accessibility problems', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0');
  await page.click('#play-now');
  await home(page);
  assert.deepEqual(await accessibilityViolations(page), []);
  assert.deepEqual(errors, []);
  await page.context().close();
});

/** Three games kept on `page`, as if played in (two people, Yellow to move), and the page drawn again. */
async function threeSavedGames(page) {
  await page.evaluate((key) => {
    const base = ['base', 'base', 'base', 'base'];
    const position = { rules: 'qdan', seats: ['yellow', 'red'], pieces: { yellow: base, red: base },
      turn: { seat: 'yellow', phase: 'roll', roll: [], bonus_streak: 0, throws: 0 } };
    const game = (i) => ({ id: `kept-${i}`, saved_at: Date.now() - i * 60_000, touched: true, rules: { preset: 'qdan' },
      players: { yellow: 'human', red: 'human' }, log: [], actions: [], position });
    localStorage.setItem(key, JSON.stringify([0, 1, 2].map(game)));
  }, SAVES_KEY);
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
}

test('on a phone the home screen is at most two screens tall, every way to play in the first, '
  + 'Play one tap from the first throw', async () => {
  for (const viewport of [{ width: 390, height: 844 }, PHONE]) {
    for (const saved of [0, 3]) {
      const { page, errors } = await person(browser, '/?cpu-delay=0', { viewport });
      if (saved) await threeSavedGames(page);
      assert.equal(await page.$$eval('#saved-games li', (rows) => rows.length), saved);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      console.log(`home at ${viewport.width}×${viewport.height}, ${saved} saved games: ${height} px`
        + ` (${(height / viewport.height).toFixed(2)} screens)`);
      assert.ok(height <= 2 * viewport.height, `${height} px is at most two screens`);
      // Play, the other ways and the way to the rules, in the first screen, each a thumb's target.
      const ways = ['#play-now', '#open-vs-cpu', '#open-friends', '#open-ranked', '#open-hot-seat', '#how-to-play', '#read-rules'];
      for (const way of ways) {
        const box = await page.locator(way).boundingBox();
        assert.ok(box.y + box.height <= viewport.height, `${way} in the first screen (${viewport.width}, ${saved} saved)`);
        assert.ok(box.height >= 44 && box.width >= 44, `${way} is a 44 px target`);
      }
      if (shots) await page.screenshot({ path: `${shots}/home-${viewport.width}-${saved}-saved.png`, fullPage: true });
      // From the home screen: one tap on Play, then the throw.
      let taps = 0;
      await page.click('#play-now');
      taps++;
      await page.waitForSelector('#roll:not([aria-disabled=true])');
      await page.click('#roll');
      taps++;
      await page.waitForFunction(() => /threw/.test(document.getElementById('announce').textContent)
        || document.querySelector('#log li'));
      console.log(`taps from the home screen to the first throw: ${taps}`);
      assert.equal(taps, 2);
      assert.deepEqual(errors, []);
      await page.context().close();
    }
  }
});

test('each way\'s sheet opens from its button, keeps the focus, closes with Escape or its ×, '
  + 'and has no serious accessibility problem', async () => {
  const { page, errors } = await person(browser, '/', { viewport: PHONE });
  assert.deepEqual(await accessibilityViolations(page), [], 'the home screen');
  for (const way of ['vs-cpu', 'friends', 'ranked', 'hot-seat']) {
    const sheet = `#${way}-sheet`;
    await page.click(`#open-${way}`);
    await page.waitForSelector(`${sheet}[open]`);
    assert.ok(await page.evaluate((s) => document.querySelector(s).matches(':modal'), sheet), `${way}: a modal sheet`);
    // The whole width of a phone, scrolling inside itself, never past the screen.
    const box = await page.locator(sheet).boundingBox();
    assert.ok(box.width >= PHONE.width - 1 && box.height <= PHONE.height, `${way}: ${box.width}×${box.height}`);
    const close = await page.locator(`${sheet} .sheet-close`).boundingBox();
    assert.ok(close.width >= 44 && close.height >= 44, 'a visible close button, a 44 px target');
    // Tab and Shift+Tab go round the sheet's controls, never out of it.
    for (const key of [...Array(14).fill('Tab'), ...Array(14).fill('Shift+Tab')]) {
      await page.keyboard.press(key);
      assert.ok(await page.evaluate((s) => document.querySelector(s).contains(document.activeElement), sheet),
        `${way}: ${key} keeps the focus in the sheet`);
    }
    if (way === 'friends') {
      await page.click('#house-rules summary');
      assert.deepEqual(await accessibilityViolations(page), [], `the ${way} sheet with its house rules`);
    } else {
      assert.deepEqual(await accessibilityViolations(page), [], `the ${way} sheet`);
    }
    await page.keyboard.press('Escape');
    await page.waitForSelector(`${sheet}[open]`, { state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement.id), `open-${way}`, 'the focus goes back to its button');
    // Its × closes it too.
    await page.click(`#open-${way}`);
    await page.click(`${sheet} .sheet-close`);
    await page.waitForSelector(`${sheet}[open]`, { state: 'detached' });
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

for (const language of ['en', 'fr', 'vi']) {
  for (const [size, viewport] of [['360', PHONE], ['1280', DESKTOP]]) {
    test(`the home screen${language === 'vi' ? ' fits' : ' and the guide fit'} a ${size} px screen in ${language}`, async () => {
      const { page, errors } = await person(browser, `/?cpu-delay=0&lang=${language}`, { viewport, guide: true });
      const width = () => page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(await width() <= viewport.width, `the home screen fits (${await width()} px)`);
      if (shots) await page.screenshot({ path: `${shots}/home-first-${language}-${size}.png`, fullPage: true });
      await page.click('#play-now');
      await page.waitForSelector('#guide');
      if (language !== 'vi') {
        for (let i = 1; i <= 5; i++) {
          await settled(page);
          if (shots) await page.screenshot({ path: `${shots}/guide-${i}-${language}-${size}.png` });
          await page.click('.guide-next');
        }
      } else {
        await page.click('.guide-skip');
      }
      await throwOnce(page);
      await home(page);
      await openWay(page, 'hot-seat');
      await page.selectOption('#hot-seat select[name=people]', '2');
      await page.click('#hot-seat button[type=submit]');
      await home(page);
      assert.ok(await width() <= viewport.width, `the home screen with saved games fits (${await width()} px)`);
      if (shots) await page.screenshot({ path: `${shots}/home-${language}-${size}.png`, fullPage: true });
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}

test('expert is offered wherever it has a network, not with a house rule changed, and Hard takes its place there', async () => {
  for (const [locale, only, replaced, hard, seatsOnly, replacedSeats] of [
    ['en', 'Expert (no house rules)', /^Expert plays only without house rules/, 'Hard',
      'Expert (not with this many players)', /^Expert does not play these rules with this many players/],
    ['fr-FR', 'Expert (sans règles locales)', /^Expert ne joue que sans règles locales/, 'Difficile',
      'Expert (pas à ce nombre de joueurs)', /^Expert ne joue pas ces règles à ce nombre de joueurs/],
  ]) {
    const { page, errors } = await person(browser, '/?cpu-delay=0', { viewport: PHONE, locale });
    await openWay(page, 'vs-cpu');
    const expert = () => page.$eval('#vs-cpu option[value=expert]', (o) => ({ disabled: o.disabled, text: o.textContent }));
    assert.equal((await expert()).disabled, false, 'offered for the standard rules with 3 CPUs');
    await page.selectOption('#vs-cpu select[name=level]', 'expert');
    // One opponent, and the classic rules: networks of their own.
    await page.selectOption('#vs-cpu select[name=opponents]', '1');
    await page.selectOption('#rules-choice select[name=preset]', 'classic');
    assert.equal((await expert()).disabled, false, 'offered for the classic rules with 1 CPU');
    assert.equal(await page.inputValue('#vs-cpu select[name=level]'), 'expert');
    // A board of one arm per player is a board of its own, with its network, not a house rule.
    await page.click('#house-rules summary');
    await page.selectOption('select[data-option=layout]', '"by_players"');
    assert.equal((await expert()).disabled, false, 'offered on the two-arm board');
    await page.selectOption('#vs-cpu select[name=opponents]', '2');
    assert.equal((await expert()).disabled, false, 'offered on the T board');
    await page.selectOption('select[data-option=layout]', '"cross"');
    await page.click('#house-rules summary');
    // The Vietnamese rules with three CPUs: no network for four players; with one, there is.
    await page.selectOption('#rules-choice select[name=preset]', 'vietnamese');
    await page.selectOption('#vs-cpu select[name=opponents]', '3');
    assert.deepEqual(await expert(), { disabled: true, text: seatsOnly }, locale);
    assert.equal(await page.inputValue('#vs-cpu select[name=level]'), 'hard');
    assert.match(await page.textContent('#level-note'), replacedSeats);
    await page.selectOption('#vs-cpu select[name=opponents]', '1');
    assert.equal((await expert()).disabled, false, 'offered for the Vietnamese rules with 1 CPU');
    await page.selectOption('#vs-cpu select[name=level]', 'expert');
    await page.selectOption('#rules-choice select[name=preset]', 'classic');
    // A house rule changed: not.
    await page.click('#house-rules summary');
    await page.selectOption('select[data-option=no_piece_out]', '"auto_exit"');
    assert.deepEqual(await expert(), { disabled: true, text: only }, locale);
    assert.equal(await page.inputValue('#vs-cpu select[name=level]'), 'hard');
    assert.match(await page.textContent('#level-note'), replaced);
    assert.match(await page.textContent('#play-now-what'), new RegExp(`· ${hard}$`));
    if (shots) await page.screenshot({ path: `${shots}/expert-not-offered-${locale}.png` });
    // The game started plays Hard.
    await page.click('#vs-cpu button[type=submit]');
    await page.waitForSelector('#play:not([hidden])');
    const players = (await savedGame(page)).players;
    assert.deepEqual(Object.values(players).filter((p) => p !== 'human'), ['hard']);
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test('Play remembered with expert under rules it does not play starts Hard', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { viewport: PHONE });
  await page.evaluate(() => localStorage.setItem('ludo.play',
    JSON.stringify({ opponents: 1, level: 'expert', rules: { preset: 'classic', no_piece_out: 'auto_exit' } })));
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  assert.match(await page.textContent('#play-now-what'), /· Hard$/);
  assert.deepEqual(errors, []);
  await page.context().close();
});
