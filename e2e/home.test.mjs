// The home screen: Play starts a game against the CPU at once (three medium CPUs the first time,
// under the rules of the page's language; the last settings after that), the saved games come
// first, several are kept, each continues where it was and can be deleted (and brought back);
// the three rulesets show a picture of their board and link to their rules page; and the
// first-game guide shows once, steps through, can be skipped or closed with Escape, and is there
// again on asking. Screenshots go to LUDO_SHOTS when it is set.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { CONTINUE, SAVES_KEY, accessibilityViolations, launch, person, personsTurn, savedGame, step, url } from './browser.mjs';

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
  await page.waitForSelector('#roll:not([disabled])');
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

test('Play says and starts what the CPU\'s card and the rules are changed to', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { viewport: PHONE, locale: 'fr-FR' });
  assert.equal(await page.textContent('#play-now-what'), 'Règles standard · vous + 3 CPU · Moyen');
  await page.selectOption('#vs-cpu select[name=level]', 'hard');
  await page.selectOption('#rules-choice select[name=preset]', 'classic');
  assert.equal(await page.textContent('#play-now-what'), 'Classique · vous + 3 CPU · Difficile');
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

test('one choice of rules, apart from the ways to play, is what a game on this device plays too', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { viewport: DESKTOP });
  // Above the ways to play, saying which games it is for; not inside one of them.
  assert.equal(await page.$('#vs-cpu select[name=preset]'), null);
  assert.equal(await page.getAttribute('#rules-choice select[name=preset]', 'form'), 'vs-cpu');
  assert.equal(await page.textContent('#rules-for'),
    'For the games below against the CPU, on this device and with friends. Ranked games play their own rules.');
  const top = (selector) => page.$eval(selector, (n) => n.getBoundingClientRect().top);
  assert.ok(await top('#rules-choice') < await top('#vs-cpu'), 'the rules come before the ways to play');
  await page.selectOption('#rules-choice select[name=preset]', 'vietnamese');
  await page.selectOption('#hot-seat select[name=people]', '2');
  await page.click('#hot-seat button[type=submit]');
  await throwOnce(page);
  const game = await savedGame(page);
  assert.deepEqual(game.rules, { preset: 'vietnamese' });
  assert.deepEqual(game.players, { yellow: 'human', red: 'human' });
  if (shots) {
    await home(page);
    await page.screenshot({ path: `${shots}/home-rules-choice-en.png`, fullPage: true });
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('ticking "ranked" for a table with friends shows its turn clock, and clearing it gives the clock back', async () => {
  const { page, errors } = await person(browser, '/', { viewport: PHONE });
  const clock = '#friends select[name=clock]';
  const noneOffered = () => page.$eval(`${clock} option[value=""]`, (o) => !o.disabled);
  assert.equal(await page.inputValue(clock), '');
  assert.match(await page.textContent('#friends'), /always a turn clock/);
  assert.doesNotMatch(await page.textContent('#friends'), /unless 30/, 'no promise the clock beside it contradicts');
  await page.check('#friends input[name=ranked]');
  assert.equal(await page.inputValue(clock), '60', 'a ranked table plays 60 seconds a turn unless 30 is chosen');
  assert.equal(await noneOffered(), false);
  await page.uncheck('#friends input[name=ranked]');
  assert.equal(await page.inputValue(clock), '', 'the clock is none again, as it was');
  assert.equal(await noneOffered(), true);
  // A clock chosen by the person stays when the box is cleared.
  await page.check('#friends input[name=ranked]');
  await page.selectOption(clock, '30');
  await page.uncheck('#friends input[name=ranked]');
  assert.equal(await page.inputValue(clock), '30');
  // The ranked card says how it differs: strangers near one's rating, found for you, never two
  // from one network (the server's rule), so a family on one Wi-Fi knows where to go instead.
  assert.equal(await page.textContent('#ranked .hint'), 'Against people rated close to you, found for you. '
    + 'Two devices on the same network are never matched: to play someone beside you, use “Play with friends”.');
  // Both cards ask for the person's name: it is one name, typed in either.
  await page.fill('#friends input[name=name]', 'Ana');
  assert.equal(await page.inputValue('#ranked input[name=name]'), 'Ana');
  await page.fill('#ranked input[name=name]', 'Ana B.');
  assert.equal(await page.inputValue('#friends input[name=name]'), 'Ana B.');
  assert.deepEqual(errors, []);
  await page.context().close();
});
test('two games started one after the other are both kept, continue each where it was, and one can be deleted', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { viewport: PHONE });
  // A: two people on this device, one throw. B: against the CPU, one throw.
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
  await page.waitForSelector('#board .piece.legal, #roll:not([disabled])');
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
  await page.selectOption('#rules-choice select[name=preset]', 'vietnamese');
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
