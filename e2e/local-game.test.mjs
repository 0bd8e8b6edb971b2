// The web client in a real Chromium: local games against the CPU and between people on one
// device, played to the end, saved after every action and resumed as they were, with no console
// errors (offline play: offline.test.mjs). Run by `cargo test` (crates/ludo-server/tests/browser.rs),
// which starts the server and passes its address in LUDO_URL.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { CONTINUE, SAVES_KEY, launch, openWay, personsTurn, playToTheEnd as playsToTheEnd, url } from './browser.mjs';

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


/** Does what the person is asked (`turn`, from `personsTurn`): throws, or plays the first piece offered. */
async function act(page, turn) {
  if (turn === 'throw') {
    await page.click('#roll');
    return { throw: true };
  }
  const piece = Number(await page.getAttribute('#board .piece.legal', 'data-piece'));
  await page.click(`#board .piece.legal[data-piece="${piece}"]`);
  return { move: piece };
}

/** `count` of the person's actions (fewer if the game ends first). */
async function playSteps(page, count) {
  for (let i = 0; i < count; i++) {
    const turn = await personsTurn(page);
    if (turn === 'over') return;
    await act(page, turn);
  }
}

/** Plays the person's turns (throw, then the first legal piece) until the game is over; the status then. */
async function playToTheEnd(page) {
  await playsToTheEnd(page);
  return page.textContent('#status');
}

/** The game being played, as saved (the first of the saved games), in JSON: `null` if none is. */
const stored = (page) => page.evaluate((key) => JSON.stringify(JSON.parse(localStorage.getItem(key) ?? '[]')[0] ?? null),
  SAVES_KEY);

/**
 * A page of the same browser context (the same storage) that keeps every new value of the saved
 * game, as another tab is told of it (`storage` events, one per change): `values()` are those
 * seen so far, once it has seen `last`.
 */
async function watchSaves(context) {
  const page = await context.newPage();
  await page.goto(`${url}/healthz`);
  await page.evaluate((key) => {
    globalThis.saves = [];
    addEventListener('storage', (e) => e.key === key && globalThis.saves.push(JSON.stringify(JSON.parse(e.newValue)[0])));
  }, SAVES_KEY);
  return {
    async values(last) {
      await page.waitForFunction((value) => globalThis.saves.at(-1) === value, last);
      return page.evaluate(() => globalThis.saves);
    },
  };
}

/**
 * The game as the page keeps and shows it: the saved game as stored, the log, the board (every
 * piece: colour, number, what it says, where it is drawn; and the whole drawing), the status line
 * and the seats.
 */
function shownGame(page) {
  return page.evaluate((key) => ({
    saved: JSON.stringify(JSON.parse(localStorage.getItem(key))[0]),
    log: [...document.querySelectorAll('#log li')].map((li) => `${li.className}: ${li.textContent}`),
    pieces: [...document.querySelectorAll('#board .piece')].map((g) => {
      const circle = g.querySelector('circle');
      return [g.dataset.colour, g.dataset.piece, g.getAttribute('class'), g.getAttribute('role'),
        g.getAttribute('aria-label'), circle.getAttribute('cx'), circle.getAttribute('cy')].join(' ');
    }),
    board: document.getElementById('board').outerHTML,
    status: document.getElementById('status').textContent,
    seats: [...document.querySelectorAll('#players li')].map((li) => `${li.className}: ${li.textContent}`),
  }), SAVES_KEY);
}

/**
 * A game started by `start(page)` on a new page, with moves left to the person even when there
 * is no choice (so that every action is one the test takes): the person's actions one at a time,
 * the saved game compared after each with the one before; then, once a piece is to be picked,
 * the page is reloaded and the game resumed. `cpu`: whether CPUs play too (they act between the
 * person's actions). Returns the page, resumed, and its console errors.
 */
async function savedEveryActionAndResumed(start, { cpu }) {
  const context = await browser.newContext();
  const saves = await watchSaves(context);
  const page = await context.newPage();
  const errors = await open(page);
  await page.evaluate(() => localStorage.setItem('ludo.autoplay', 'no'));
  await start(page);
  let turn = await personsTurn(page);
  // Every seat has moved a piece (the CPUs' moves are actions too).
  const everyoneMoved = async () => Object.values(JSON.parse(await stored(page)).position.pieces)
    .every((pieces) => pieces.some((piece) => piece !== 'base'));
  // At least twelve actions, on until every seat has a piece out, and until the person has a
  // piece to pick (the board then shows the throw and the pieces on offer too).
  for (let i = 0; i < 12 || turn !== 'move' || !await everyoneMoved(); i++) {
    assert.ok(i < 300, 'within 300 actions every seat moved and the person has a piece to pick');
    assert.notEqual(turn, 'over', 'the game is still on');
    const before = await stored(page);
    const action = await act(page, turn);
    const after = await stored(page);
    assert.notEqual(after, before, `the game is saved after action ${i + 1} (${JSON.stringify(action)})`);
    const [was, is] = [JSON.parse(before), JSON.parse(after)];
    assert.deepEqual(is.actions.slice(0, was.actions.length), was.actions, 'what was saved stays');
    const added = is.actions.slice(was.actions.length);
    if (!cpu) assert.equal(added.length, 1, 'one action saved, once');
    if (action.throw) assert.ok(Array.isArray(added[0]?.throw), `a throw saved: ${JSON.stringify(added)}`);
    else assert.deepEqual(added[0], action, 'the move saved');
    turn = await personsTurn(page);
  }
  // Every save another tab heard of added exactly one action to the one before (the CPUs' own
  // actions included): the game was saved after each action, not after a few.
  const now = await stored(page);
  const values = (await saves.values(now)).map((value) => JSON.parse(value).actions);
  assert.deepEqual(values[0], [], 'saved as it starts');
  for (let i = 1; i < values.length; i++) {
    assert.deepEqual(values[i].slice(0, -1), values[i - 1], `save ${i} adds one action to the one before`);
  }
  assert.equal(values.length, JSON.parse(now).actions.length + 1, 'a save for each action');

  const before = await shownGame(page);
  // What is stored is what is shown: the saved log is the log on the page.
  assert.deepEqual(JSON.parse(before.saved).log.map((line) => line.text),
    await page.$$eval('#log li', (items) => items.map((li) => li.textContent)));
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  assert.ok(await page.isVisible('#play'), 'a reload comes back to the table');
  assert.equal(await personsTurn(page), 'move', 'the same piece to pick as before the reload');
  const after = await shownGame(page);
  assert.equal(after.saved, before.saved, 'the saved game is unchanged');
  assert.deepEqual(after.log, before.log, 'the same log');
  assert.deepEqual(after.pieces, before.pieces, 'every piece where it was, saying the same');
  assert.equal(after.board, before.board, 'the same board, to the last attribute');
  assert.equal(after.status, before.status);
  assert.deepEqual(after.seats, before.seats);
  // The game goes on from there: the next action is saved after the ones before the reload.
  const action = await act(page, 'move');
  const next = JSON.parse(await stored(page)).actions;
  const previous = JSON.parse(before.saved).actions;
  assert.deepEqual(next.slice(0, previous.length + 1), [...previous, action]);
  return { page, context, errors };
}

test('a local game against three CPUs is played to the places table', async () => {
  const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
  const errors = await open(page);
  await openWay(page, 'vs-cpu');
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
  // The winner's four finished pieces stand apart in the middle: they can be counted.
  const winner = await page.getAttribute('#places tr[data-seat]', 'data-seat');
  // Each piece's body is its first circle (a white ring is drawn inside it).
  const middle = await page.$$eval(`#board .piece[data-colour=${winner}] circle:first-child`, (circles) => circles
    .map((c) => ['cx', 'cy', 'r'].map((a) => Number(c.getAttribute(a)))));
  assert.equal(middle.length, 4, `the winner's pieces: ${JSON.stringify(middle)}`);
  for (const [i, [x1, y1, r1]] of middle.entries()) {
    for (const [x2, y2, r2] of middle.slice(i + 1)) {
      assert.ok(Math.hypot(x1 - x2, y1 - y2) >= r1 + r2, `finished pieces overlap: ${JSON.stringify(middle)}`);
    }
  }
  // Qdan stops at its first finisher: how the others were placed is said.
  assert.match(await page.textContent('#places-rule'), /^The game ends when the first player is done; the others are placed by pieces finished/);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `no horizontal scrolling on a phone (${width}px)`);
  // The end card sums the game up for the person, by the Expert CPU's analysis (made in the
  // worker), with the way to the whole of it.
  await page.waitForSelector('#end-analysis:not([hidden])', { timeout: 30_000 });
  assert.match(await page.textContent('#end-analysis'),
    /^You — (best move: step \d+\. Most costly: (step \d+ \(−\d+ points\)|none)\.|no real choice made a difference\. Most costly: .+\.) Replay and analysis$/);
  // The end's buttons and links, its replay among them, are 44 px targets for a thumb.
  assert.ok(await page.isVisible('#replay-link'), 'the replay is offered');
  const small = await page.$$eval('#end a, #end button, #after-game a, #after-game button', (all) => all
    .filter((e) => e.offsetParent).map((e) => [e.textContent, e.getBoundingClientRect()])
    .filter(([, box]) => box.width < 44 || box.height < 44).map(([text, box]) => `${text} ${box.width}×${box.height}`));
  assert.deepEqual(small, [], 'targets under 44 px');
  // Play again: the same players and rules, the next seat starts.
  await page.click('#play-again-local');
  await page.waitForSelector('#end', { state: 'hidden' });
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('ludo.games'))[0]);
  assert.deepEqual(saved.seats, ['blue', 'red', 'green', 'yellow']);
  assert.equal(saved.players.yellow, 'human');
  assert.ok(await page.isHidden('#places'));
  assert.deepEqual(errors, []);
  await page.close();
});

// The T board's game is played against `expert`, which has a network of its own for it.
for (const [opponents, arms, name, level] of [[1, 2, 'two-arm', 'random'], [2, 3, 't', 'expert']]) {
  test(`a local game for ${opponents + 1} on the ${name} board is drawn from the engine's numbers and played against ${level}`, async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
    const errors = await open(page);
    const networks = [];
    await page.context().route('**/expert/*.bin', async (route) => {
      const answer = await route.fetch();
      networks.push([new URL(route.request().url()).pathname, answer.status()]);
      return route.fulfill({ response: answer });
    });
    await openWay(page, 'vs-cpu');
    await page.click('#house-rules summary');
    await page.selectOption('select[data-option=layout]', '"by_players"');
    await page.selectOption('select[name=opponents]', String(opponents));
    await page.selectOption('select[name=level]', level);
    await page.click('#vs-cpu button[type=submit]');
    assert.equal(await page.getAttribute('#board', 'data-arms'), String(arms));
    // A star on every arm (its start, also safe, is drawn in its colour).
    assert.equal(await page.$$eval('#board text', (t) => t.filter((n) => n.textContent === '★').length), arms);
    await playSteps(page, 25);
    await page.screenshot({ path: `${shots}/${name}-board.png` });
    const position = await page.evaluate(() => JSON.parse(localStorage.getItem('ludo.games'))[0].position);
    assert.equal(position.rules.layout, 'by_players');
    const fetched = level === 'expert' ? [[`/expert/qdan-${arms}-by_players.bin`, 200]] : [];
    assert.deepEqual(networks, fetched);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `no horizontal scrolling on a phone (${width}px)`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a game against the CPU is saved after every action, and after a reload resumes with the same position, log and board', async () => {
  const { page, context, errors } = await savedEveryActionAndResumed(async (page) => {
    await openWay(page, 'vs-cpu');
    await page.selectOption('select[name=opponents]', '1');
    await page.click('#vs-cpu button[type=submit]');
  }, { cpu: true });
  await playToTheEnd(page);
  assert.match(await page.textContent('#end h2'), /^You (won!|came 2nd)$/);
  assert.deepEqual(errors, []);
  await context.close();
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
  await openWay(page, 'vs-cpu');
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
  // Two seats: the other is simply second, and no rule of places is needed.
  assert.ok(await page.isHidden('#places-rule'), 'nothing to say of places with two seats');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a hot-seat game is saved after every action, and after a reload resumes with the same position, log and board', async () => {
  const { page, context, errors } = await savedEveryActionAndResumed(async (page) => {
    await openWay(page, 'hot-seat');
    await page.selectOption('#hot-seat select[name=people]', '2');
    await page.click('#hot-seat button[type=submit]');
  }, { cpu: false });
  assert.deepEqual(JSON.parse(await stored(page)).players, { yellow: 'human', red: 'human' });
  await playToTheEnd(page);
  assert.equal(JSON.parse(await stored(page)), null, 'a finished game leaves the saved games');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the house rules chosen are the rules played: auto_exit brings a piece out at once', async () => {
  const page = await browser.newPage();
  const errors = await open(page);
  await openWay(page, 'hot-seat');
  await page.click('#house-rules summary');
  await page.selectOption('select[data-option=no_piece_out]', '"auto_exit"');
  await page.selectOption('#hot-seat select[name=people]', '2');
  await page.click('#hot-seat button[type=submit]');
  await page.click('#roll');
  const position = await page.evaluate(() => JSON.parse(localStorage.getItem('ludo.games'))[0].position);
  assert.equal(position.rules.no_piece_out, 'auto_exit');
  assert.deepEqual(position.pieces.yellow, [0, 'base', 'base', 'base'], 'the first throw brought a piece out');
  assert.equal(position.turn.seat, 'red', 'and ended the turn');
  // A contradictory mix is refused in the reader's words, chosen by the engine's code, with the
  // option at fault in focus, and no game starts.
  await page.click('#back');
  await page.waitForSelector('body[data-ready=true] #home:not([hidden])');
  await openWay(page, 'hot-seat');
  await page.click('#house-rules summary');
  await page.selectOption('select[data-option=dice]', '2');
  await page.click('#hot-seat button[type=submit]');
  // The words come with the error texts' module, loaded when an error is first shown.
  await page.waitForFunction(() => document.querySelector('#options-error').textContent);
  assert.equal(await page.textContent('#options-error'),
    'With two dice, “Throws that give another throw” must be empty: a double gives another throw instead.');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.option), 'bonus_values');
  assert.ok(await page.isHidden('#play'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a local game has its place in the history: Back goes home, a reload or a language picked comes back to it', async () => {
  const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
  const errors = await open(page, '/?cpu-delay=0&pace=0');
  await page.click('#play-now');
  await page.click('#roll');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ludo.games'))[0].actions.length > 0);
  const id = await page.evaluate(() => JSON.parse(localStorage.getItem('ludo.games'))[0].id);
  await page.goBack();
  await page.waitForSelector('body[data-ready=true] #home:not([hidden])');
  assert.equal(new URL(page.url()).pathname, '/', 'still on the site');
  assert.equal(await page.getAttribute(CONTINUE.replace(' .continue', ''), 'data-id'), id, 'the game is kept');
  await page.goForward();
  await page.waitForSelector('#play:not([hidden])');
  await page.selectOption('#language', 'fr');
  await page.waitForFunction(() => document.documentElement.lang === 'fr' && document.body.dataset.ready === 'true');
  assert.ok(await page.isVisible('#play'), 'the table is back, in French');
  assert.ok(await page.isHidden('#home'));
  assert.equal(await page.textContent('#back'), 'Accueil');
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('ludo.games')));
  assert.equal(saved.length, 1, 'no new game was started');
  assert.equal(saved[0].id, id);
  await page.click('#back');
  await page.waitForSelector('body[data-ready=true] #home:not([hidden])');
  assert.deepEqual(errors, []);
  await page.close();
});

test("a game's house rules are one tap away during play", async () => {
  const page = await browser.newPage();
  const errors = await open(page);
  await openWay(page, 'hot-seat');
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
  await openWay(page, 'hot-seat');
  await page.selectOption('#hot-seat select[name=people]', '2');
  await page.click('#hot-seat button[type=submit]');
  await page.evaluate(() => {
    const saved = JSON.parse(localStorage.getItem('ludo.games'));
    saved[0].position.pieces.red = ['base', 'base', 'base'];
    localStorage.setItem('ludo.games', JSON.stringify(saved));
  });
  // The reload comes back to the game, which no longer reads: the home screen says why.
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  await page.waitForSelector('#resume-error:not(:empty)');
  assert.equal(await page.textContent('#resume-error'),
    'La partie enregistrée ne peut pas reprendre : Chaque joueur a 4 pièces, pas 3.');
  assert.ok(await page.isHidden('#play'), 'no game is shown');
  assert.ok(await page.isHidden('#saved'), 'and it is no longer offered');
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

test('on a 360×640 phone the end of a game shows its result and its buttons in the first screen, and × tucks them away', async () => {
  const { resume, yellowToMove } = await import('./browser.mjs');
  const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
  // Yellow's last piece three squares from the finish, a 3 thrown.
  const { page, errors } = await resume(context, yellowToMove(53, 'base', [3], [56, 56, 56]),
    { players: { yellow: 'human', red: 'medium' } });
  await page.click('.piece.legal');
  await page.waitForSelector('#end:not([hidden])');
  for (const button of ['#play-again-local', '#end-home']) {
    const box = await page.$eval(button, (b) => b.getBoundingClientRect().toJSON());
    assert.ok(box.top >= 0 && box.bottom <= 640 && box.height >= 44, `${button} at ${box.top}–${box.bottom} px`);
  }
  assert.equal(await page.textContent('#end-title'), 'You won!');
  await page.click('#end-tuck');
  assert.ok(await page.$eval('#end', (e) => e.classList.contains('tucked')), 'tucked into the page');
  assert.ok(await page.isVisible('#board'));
  // Home in the end asks nothing: the game is over; it goes home.
  await page.click('#end-home');
  await page.waitForSelector('#home:not([hidden])');
  assert.deepEqual(errors, []);
  await context.close();
});
