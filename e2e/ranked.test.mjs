// Ranked play in two browsers: both ask for a ranked game from the home screen, are sent to the
// same room, play it to the end and see their ratings move; then a player's page shows the
// rating and the game, the replay viewer steps through it, and its export is imported again.
// A local game is exported and replayed too.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openWay, over, person as open, personsTurn, playToTheEnd, step, url } from './browser.mjs';

const browser = await launch();
after(() => browser.close());
const person = (path) => open(browser, path);

/** Downloads what clicking `selector` offers; the file's text. */
async function download(page, selector) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const path = await file.path();
  const { readFile } = await import('node:fs/promises');
  return { path, text: await readFile(path, 'utf8') };
}

test('under the Vietnamese rules the ranked search offers only the sizes a table can have, and says why', async () => {
  for (const [locale, why] of [['en', 'Ranked cờ cá ngựa games are for 2 players.'], ['ru', 'Рейтинговые партии в cờ cá ngựa — на двоих.']]) {
    const { page, errors } = await open(browser, '/', { locale });
    const offered = () => page.$$eval('#ranked select[name=size] option', (options) =>
      options.filter((o) => !o.disabled).map((o) => o.value));
    assert.ok(await page.isHidden('#ranked-two'));
    await openWay(page, 'ranked');
    await page.selectOption('#ranked select[name=size]', '4');
    await page.selectOption('#ranked select[name=rules]', 'vietnamese');
    assert.deepEqual(await offered(), ['any', '2'], locale);
    assert.equal(await page.inputValue('#ranked select[name=size]'), '2', 'a size no table has is not kept');
    assert.equal(await page.textContent('#ranked-two'), why);
    assert.ok(await page.isVisible('#ranked-two'));
    await page.selectOption('#ranked select[name=rules]', 'qdan');
    assert.deepEqual(await offered(), ['any', '2', '3', '4'], locale);
    assert.ok(await page.isHidden('#ranked-two'));
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test('two browsers find a ranked game, play it, and see ratings, records and the replay', async () => {
  const ana = await person();
  const bo = await person();
  for (const [who, name] of [[ana, 'Ana'], [bo, 'Bo']]) {
    await openWay(who.page, 'ranked');
    await who.page.fill('#ranked input[name=name]', name);
    await who.page.selectOption('#ranked select[name=rules]', 'classic');
    await who.page.selectOption('#ranked select[name=size]', '2');
    await who.page.click('#ranked-find');
    if (who !== ana) continue;
    // Alone, Ana is told the search goes on and for how long; her choices wait, fixed.
    await ana.page.waitForFunction(() => /^Looking for players rated 1500 ± \d+…$/
      .test(document.getElementById('ranked-status').textContent));
    assert.match(await ana.page.textContent('#ranked-time'), /^0:0\d$/);
    for (const field of ['input[name=name]', 'select[name=rules]', 'select[name=size]']) {
      assert.ok(await ana.page.isDisabled(`#ranked ${field}`), `${field} is fixed while looking`);
    }
  }
  await ana.page.waitForURL(/\/r\/[a-z0-9]+$/);
  await bo.page.waitForURL(/\/r\/[a-z0-9]+$/);
  assert.equal(ana.page.url(), bo.page.url());
  for (const who of [ana, bo]) {
    await who.page.waitForSelector('body[data-ready=true]');
    await who.page.waitForFunction(() => /throw|move/.test(document.querySelector('#status').textContent));
  }
  // Each player is shown with the rating they bring: new to classic, both 1500 and provisional.
  await ana.page.waitForFunction(() => document.querySelectorAll('#players .rating').length === 2);
  assert.deepEqual(await ana.page.$$eval('#players .rating', (all) => all.map((r) => r.textContent)),
    ['Rating 1500?', 'Rating 1500?']);
  await playToTheEnd(ana.page, bo.page);
  assert.ok(await over(ana.page), 'the game ended');
  await ana.page.waitForFunction(() => /Ana: 1500 → \d+/.test(document.querySelector('#rated').textContent));
  // Best first, each with what it gained or lost.
  assert.match(await ana.page.textContent('#rated'), /^(Ana|Bo): 1500 → 1532 \(\+32\) · (Ana|Bo): 1500 → 1468 \(−32\)$/);
  assert.equal(await ana.page.textContent('#rated .mine'), await ana.page.textContent('#rated span:has-text("Ana")'));
  assert.ok(await ana.page.isVisible('#ranked-pill'), 'the game says it is ranked');
  // The name tags now show the ratings the game left them with.
  await ana.page.waitForFunction(() => [...document.querySelectorAll('#players .rating')]
    .map((r) => r.textContent).sort().join() === 'Rating 1468?,Rating 1532?');

  // The table was found for these two: no link to pass on, no seat to take, no settings to change;
  // they may play again, or look for a new opponent under the same rules at once.
  await bo.page.waitForSelector('#rematch a.button');
  for (const { page } of [ana, bo]) {
    assert.ok(await page.isHidden('#invite'));
    assert.equal(await page.$$eval('#seats li', (rows) => rows.length), 2, 'only its people are listed');
    assert.equal(await page.$('#room-settings select, #room-settings input'), null, 'nothing to change');
    assert.ok(await page.isVisible('#rematch button.primary'), 'play again');
  }
  // Bo leaves the table: the result still speaks to him as its player, and he may still look for
  // a new opponent; Ana, alone, is told to look for one too.
  const boEnd = await bo.page.textContent('#end-title');
  // The seats wait folded under the result.
  assert.ok(await bo.page.isHidden('#seats'));
  await bo.page.click('#show-table');
  await bo.page.click('#seats li button:text("Leave the table")');
  await ana.page.waitForFunction(() => /Look for a new opponent/.test(document.getElementById('rematch').textContent));
  await bo.page.waitForFunction(() => !document.querySelector('#rematch button'));
  assert.equal(await bo.page.textContent('#end-title'), boEnd);
  assert.match(boEnd, /^You (won!|came 2nd)$/);
  assert.equal(await bo.page.getAttribute('#rematch a.button.primary', 'href'), '/?seek=classic&size=2');
  await bo.page.click('#rematch a.button');
  await bo.page.waitForFunction(() => location.pathname === '/' && !location.search
    && /^Looking for players rated \d+/.test(document.getElementById('ranked-status').textContent));
  assert.equal(await bo.page.inputValue('#ranked select[name=rules]'), 'classic');
  assert.equal(await bo.page.inputValue('#ranked select[name=size]'), '2');
  await openWay(bo.page, 'ranked');
  await bo.page.click('#ranked-stop');
  // Opened again, the room still shows what the game did to the ratings.
  const rated = await ana.page.textContent('#rated');
  await ana.page.reload();
  await ana.page.waitForFunction((rated) => document.querySelector('#rated')?.textContent === rated, rated);

  // The player's page: the rating, its chart, the statistics and the game.
  await ana.page.goto(url + '/');
  await ana.page.waitForSelector('body[data-ready=true]');
  await ana.page.click('#my-page');
  await ana.page.waitForSelector('#player-stats');
  assert.match(await ana.page.textContent('#player-stats'), /^Games: 1 ·/);
  assert.ok(await ana.page.$('svg.chart polyline'), 'a rating chart');
  // The rules by their name alone; a new rating's "?" explained; the game's players best first.
  const view = await ana.page.textContent('#records-view');
  assert.ok(view.includes('Classic') && !view.includes('(default)'), view);
  assert.match(view, /A rating marked \? is provisional/);
  const players = await ana.page.$eval('#records-view a[href^="/games/"]', (a) => a.closest('tr').cells[2].textContent);
  assert.match(players, /^1\. (Ana|Bo), 2\. (Ana|Bo)$/);
  await ana.page.click('#records-view a[href^="/games/"]');
  await ana.page.waitForSelector('#replay-verdict');
  assert.match(await ana.page.textContent('#replay-verdict'), /^Fair dice, checked/);
  const last = await ana.page.textContent('#replay-step');
  const [, shown, total] = last.match(/^(\d+) \/ (\d+)/);
  assert.equal(shown, total);
  assert.match(await ana.page.textContent('#replay-status'), /over/i);
  await ana.page.click('[aria-label="Step back"]');
  assert.match(await ana.page.textContent('#replay-step'), new RegExp(`^${total - 1} / ${total}`));
  assert.match(await ana.page.textContent('#replay-status'), /to move/);
  assert.ok(await ana.page.$('#replay-board .piece'), 'the board is drawn');
  // Turned as Ana's table was: her corner at the bottom left.
  const bottomLeft = await ana.page.evaluate(() => {
    const board = document.getElementById('replay-board').getBoundingClientRect();
    return [...document.querySelectorAll('#replay-board rect.base')].find((base) => {
      const r = base.getBoundingClientRect();
      return r.x + r.width / 2 < board.x + board.width / 2 && r.y + r.height / 2 > board.y + board.height / 2;
    })?.dataset.colour;
  });
  assert.match(await ana.page.textContent(`#replay-players li[data-seat=${bottomLeft}]`), /Ana/);

  // Export the game and open the file in the viewer.
  const exported = await download(ana.page, '#replay-export');
  assert.equal(JSON.parse(exported.text).actions.length, Number(total));
  await ana.page.goto(url + '/replay');
  await ana.page.waitForSelector('body[data-ready=true]');
  await ana.page.setInputFiles('#import', exported.path);
  await ana.page.waitForSelector('#replay-verdict');
  assert.match(await ana.page.textContent('#replay-step'), new RegExp(`^${total} / ${total}`));
  assert.match(await ana.page.textContent('#replay-verdict'), /^Fair dice, checked/);

  // The leaderboard lists both.
  await ana.page.goto(url + '/leaderboard/classic');
  await ana.page.waitForSelector('#records-view table');
  const board = await ana.page.textContent('#records-view table');
  assert.ok(board.includes('Ana') && board.includes('Bo'), board);
  assert.match(await ana.page.textContent('#records-view'), /A rating marked \? is provisional/);
  // A board nobody is on yet says so, and explains no "?" it does not show.
  await ana.page.goto(url + '/leaderboard/vietnamese');
  await ana.page.waitForSelector('#records-view nav');
  const empty = await ana.page.textContent('#records-view');
  assert.doesNotMatch(empty, /provisional/, empty);
  assert.deepEqual(ana.errors, []);
  assert.deepEqual(bo.errors, []);
});

test('a local game is exported and replayed in the viewer', async () => {
  const me = await person('/?cpu-delay=0');
  await openWay(me.page, 'vs-cpu');
  await me.page.selectOption('#vs-cpu select[name=opponents]', '1');
  await me.page.click('#vs-cpu button[type=submit]');
  // Fifteen turns of the person's, each waited for (a busy machine's CPU thinks slowly).
  for (let i = 0; i < 15 && (await personsTurn(me.page)) !== 'over'; i++) await step(me.page);
  const exported = await download(me.page, '#export-local');
  const record = JSON.parse(exported.text);
  assert.ok(record.actions.length > 10, `${record.actions.length} actions`);
  await me.page.goto(url + '/replay');
  await me.page.waitForSelector('body[data-ready=true]');
  await me.page.setInputFiles('#import', exported.path);
  await me.page.waitForSelector('#replay-verdict');
  assert.match(await me.page.textContent('#replay-verdict'), /nothing to verify/);
  const n = record.actions.length;
  assert.match(await me.page.textContent('#replay-step'), new RegExp(`^${n} / ${n}`));
  // A file that is not a record is refused with a message, and nothing else happens.
  await me.page.setInputFiles('#import', { name: 'bad.json', mimeType: 'application/json',
    buffer: Buffer.from('{"hello": 1}') });
  await me.page.waitForFunction(() => /cannot be read/.test(document.body.textContent));
  assert.deepEqual(me.errors, []);
});

test('a local game played to its end opens in the viewer from its end screen', async () => {
  const me = await open(browser, '/', { viewport: { width: 360, height: 640 }, locale: 'fr-FR' });
  await openWay(me.page, 'vs-cpu');
  await me.page.selectOption('#vs-cpu select[name=level]', 'random');
  await me.page.click('#vs-cpu button[type=submit]');
  await me.page.waitForSelector('#board .base');
  assert.ok(await me.page.isHidden('#replay-link'), 'no replay before the end');
  await playToTheEnd(me.page);
  assert.ok(await over(me.page), 'the game ended');
  // On a phone the end is a card over the board: its × tucks it away, and the replay is below.
  await me.page.click('#end-tuck');
  await me.page.click('#replay-link');
  await me.page.waitForURL(/\/replay$/);
  await me.page.waitForSelector('#replay-verdict');
  assert.match(await me.page.textContent('#replay-players'), /Joueur/);
  assert.match(await me.page.textContent('#replay-step'), /^(\d+) \/ \1/, 'it opens at the end');
  // On the phone the board and the step buttons show together, above the file picker.
  const bottom = await me.page.evaluate(() => Math.max(...[...document.querySelectorAll('.replay-controls button')]
    .map((b) => b.getBoundingClientRect().bottom)));
  assert.ok(bottom <= 640, `buttons end at ${bottom}px`);
  // A reload of the viewer shows the same game.
  await me.page.reload();
  await me.page.waitForSelector('#replay-verdict');
  assert.deepEqual(me.errors, []);
});
