// The web client in a real Chromium: local games against the CPU, played to the end, saved and
// resumed, with no console errors. Run by `cargo test` (crates/ludo-server/tests/browser.rs),
// which starts the server and passes its address in LUDO_URL.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { launch, over, url } from './browser.mjs';

const shots = process.env.LUDO_SHOTS ?? '/tmp/ludo-shots';
mkdirSync(shots, { recursive: true });

const browser = await launch();
after(() => browser.close());

async function open(page, path = '/?cpu-delay=0&pace=0') {
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url + path);
  await page.waitForSelector('body[data-ready=true]');
  return errors;
}

/** `count` times: throw if the person may, then move the first legal piece if there is one. */
async function playSteps(page, count) {
  for (let i = 0; i < count; i++) {
    if (await page.isEnabled('#roll')) await page.click('#roll');
    const legal = await page.$('.piece.legal');
    if (legal) await legal.click();
  }
}

/** Plays the person's turns (throw, then the first legal piece) until the game is over. */
async function playToTheEnd(page, limit = 3000) {
  for (let i = 0; i < limit; i++) {
    if (await over(page)) return page.textContent('#status');
    if (await page.isEnabled('#roll')) await page.click('#roll');
    const legal = await page.$('.piece.legal');
    if (legal) await legal.click();
    await page.waitForTimeout(5);
  }
  throw new Error('the game did not end');
}

test('a local game against three CPUs is played to the places table', async () => {
  const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
  const errors = await open(page);
  await page.selectOption('select[name=level]', 'random');
  await page.click('#vs-cpu button[type=submit]');
  await page.screenshot({ path: `${shots}/cross-board.png` });
  await playToTheEnd(page);
  // The end speaks to the person: they won, or came somewhere.
  assert.match(await page.textContent('#end h2'), /^(You won!|You came (2nd|3rd|4th))$/);
  // The places table: a row a seat, best first, with who played it.
  const rows = await page.$$eval('#places tr[data-seat]', (trs) => trs.map((tr) =>
    [...tr.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 4);
  assert.equal(rows[0][0], '1');
  assert.ok(rows.some((r) => r[2] === 'Player (you)') && rows.some((r) => r[2] === 'CPU · Random'), JSON.stringify(rows));
  assert.equal(await page.$$eval('#places tr.you', (trs) => trs.length), 1, 'the row of the person is marked');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `no horizontal scrolling on a phone (${width}px)`);
  // Play again: the same players and rules, the next seat starts.
  await page.click('#play-again-local');
  await page.waitForSelector('#end', { state: 'hidden' });
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('ludo.local.v1')));
  assert.deepEqual(saved.seats, ['blue', 'red', 'green', 'yellow']);
  assert.equal(saved.players.yellow, 'human');
  assert.ok(await page.isHidden('#places'));
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [opponents, arms, name] of [[1, 2, 'two-arm'], [2, 3, 't']]) {
  test(`a local game for ${opponents + 1} on the ${name} board is drawn from the engine's numbers and played`, async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
    const errors = await open(page);
    await page.click('#house-rules summary');
    await page.selectOption('select[data-option=layout]', '"by_players"');
    await page.selectOption('select[name=opponents]', String(opponents));
    await page.selectOption('select[name=level]', 'random');
    await page.click('#vs-cpu button[type=submit]');
    assert.equal(await page.getAttribute('#board', 'data-arms'), String(arms));
    // A star on every arm (its start, also safe, is drawn in its colour).
    assert.equal(await page.$$eval('#board text', (t) => t.filter((n) => n.textContent === '★').length), arms);
    await playSteps(page, 25);
    await page.screenshot({ path: `${shots}/${name}-board.png` });
    const position = await page.evaluate(() => JSON.parse(localStorage.getItem('ludo.local.v1')).position);
    assert.equal(position.rules.layout, 'by_players');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `no horizontal scrolling on a phone (${width}px)`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a local game is saved after every action and resumed after a reload', async () => {
  const page = await browser.newPage();
  const errors = await open(page);
  await page.selectOption('select[name=opponents]', '1');
  await page.click('#vs-cpu button[type=submit]');
  await playSteps(page, 10);
  const saved = await page.evaluate(() => localStorage.getItem('ludo.local.v1'));
  assert.ok(saved, 'the game is in local storage');
  const before = JSON.parse(saved).position;
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  assert.ok(await page.isVisible('#resume'), 'the saved game is offered');
  await page.click('#resume');
  const after = await page.evaluate(() => JSON.parse(localStorage.getItem('ludo.local.v1')).position);
  assert.deepEqual(after.seats, before.seats);
  await playToTheEnd(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the page speaks the browser language and every language is complete', async () => {
  for (const [locale, word] of [['fr-FR', 'Commencer'], ['pt-BR', 'Começar'], ['ru-RU', 'Начать'],
    ['vi-VN', 'Bắt đầu'], ['en-GB', 'Start']]) {
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    const errors = await open(page);
    assert.equal(await page.textContent('#vs-cpu button[type=submit]'), word, locale);
    // No text falls back to a raw key.
    const keys = await page.$$eval('[data-t]', (nodes) => nodes
      .filter((n) => n.textContent === n.dataset.t).map((n) => n.dataset.t));
    assert.deepEqual(keys, [], locale);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a Vietnamese game is played on the horse board to the end', async () => {
  const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
  const errors = await open(page);
  await page.selectOption('select[name=preset]', 'vietnamese');
  await page.selectOption('select[name=opponents]', '1');
  await page.selectOption('select[name=level]', 'random');
  await page.click('#vs-cpu button[type=submit]');
  await playSteps(page, 30);
  await page.screenshot({ path: `${shots}/horse-board.png` });
  // 56 track squares (14 an arm) and six home cells an arm are drawn.
  assert.equal(await page.$$eval('#board rect', (r) => r.length) >= 56 + 24, true);
  await playToTheEnd(page);
  assert.match(await page.textContent('#end h2'), /^You (won!|came 2nd)$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a hot-seat game for two is saved, reloaded and continued', async () => {
  const page = await browser.newPage();
  const errors = await open(page);
  await page.selectOption('#hot-seat select[name=people]', '2');
  await page.click('#hot-seat button[type=submit]');
  await playSteps(page, 12);
  const before = await page.evaluate(() => JSON.parse(localStorage.getItem('ludo.local.v1')));
  assert.deepEqual(Object.values(before.players), ['human', 'human']);
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  await page.click('#resume');
  const status = await page.textContent('#status');
  assert.match(status, /yellow|red/);
  await playToTheEnd(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the house rules chosen are the rules played: auto_exit brings a piece out at once', async () => {
  const page = await browser.newPage();
  const errors = await open(page);
  await page.click('#house-rules summary');
  await page.selectOption('select[data-option=no_piece_out]', '"auto_exit"');
  await page.selectOption('#hot-seat select[name=people]', '2');
  await page.click('#hot-seat button[type=submit]');
  await page.click('#roll');
  const position = await page.evaluate(() => JSON.parse(localStorage.getItem('ludo.local.v1')).position);
  assert.equal(position.rules.no_piece_out, 'auto_exit');
  assert.deepEqual(position.pieces.yellow, [0, 'base', 'base', 'base'], 'the first throw brought a piece out');
  assert.equal(position.turn.seat, 'red', 'and ended the turn');
  // A contradictory mix is refused in the reader's words, chosen by the engine's code, with the
  // option at fault in focus, and no game starts.
  await page.click('#back');
  await page.waitForSelector('body[data-ready=true]');
  await page.click('#house-rules summary');
  await page.selectOption('select[data-option=dice]', '2');
  await page.click('#hot-seat button[type=submit]');
  assert.equal(await page.textContent('#options-error'),
    'With two dice, “Throws that give another throw” must be empty: a double gives another throw instead.');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.option), 'bonus_values');
  assert.ok(await page.isHidden('#play'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('once loaded, the site works offline for local games', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}/`);
  await page.waitForSelector('body[data-ready=true]');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  await page.selectOption('#hot-seat select[name=people]', '2');
  await page.click('#hot-seat button[type=submit]');
  await page.click('#roll');
  assert.match(await page.textContent('#status'), /throw|move/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a game's house rules are one tap away during play", async () => {
  const page = await browser.newPage();
  const errors = await open(page);
  await page.click('#house-rules summary');
  await page.selectOption('select[data-option=passing]', '"free"');
  await page.selectOption('#hot-seat select[name=people]', '2');
  await page.click('#hot-seat button[type=submit]');
  await page.click('#game-rules summary');
  const text = await page.textContent('#rules-in-force');
  assert.match(text, /What blocks a piece\s*Nothing/);
  assert.match(text, /Safe squares\s*Starts and stars/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a saved game that no longer reads is not resumed, and the reason is said in the reader’s language', async () => {
  const page = await browser.newPage();
  const errors = await open(page, '/?cpu-delay=0&pace=0&lang=fr');
  await page.selectOption('#hot-seat select[name=people]', '2');
  await page.click('#hot-seat button[type=submit]');
  await page.evaluate(() => {
    const saved = JSON.parse(localStorage.getItem('ludo.local.v1'));
    saved.position.pieces.red = ['base', 'base', 'base'];
    localStorage.setItem('ludo.local.v1', JSON.stringify(saved));
  });
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  await page.click('#resume');
  assert.equal(await page.textContent('#resume-error'),
    'La partie enregistrée ne peut pas reprendre : Chaque joueur a 4 pièces, pas 3.');
  assert.ok(await page.isHidden('#play'), 'no game is shown');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an imported record the rules refuse is refused in the reader’s language', async () => {
  const page = await browser.newPage();
  const errors = await open(page, '/replay?lang=fr');
  const record = { game_id: 'x', rules: 'qdan', seats: ['yellow', 'red'], commitment: '0'.repeat(64),
    actions: [{ move: 0 }] };
  await page.setInputFiles('#import', { name: 'record.json', mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(record)) });
  await page.waitForFunction(() => /illisible/.test(document.body.textContent));
  assert.match(await page.textContent('#records-view'), /Pas maintenant : c’est le moment de lancer\./);
  assert.deepEqual(errors, []);
  await page.close();
});
