// The CPU players think in a worker (static/engine/cpu-worker.js, asked by static/engine/cpu.js):
// a whole game is played with every CPU move chosen there, an answer that comes after the game was
// restarted is dropped, and a worker that does not load leaves the choosing to the page's thread;
// the expert's network is fetched there, once, and only for an expert. The page marks each choice
// (User Timing marks `ludo.cpu.worker`, `ludo.cpu.page`, `ludo.cpu.stale`), which the tests count.
// That the page keeps drawing while a CPU thinks long is timed in cpu-worker-timing.test.mjs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { SAVES_KEY, launch, openWay, personsTurn, playToTheEnd, url } from './browser.mjs';
import { BLUE_TO_MOVE, before, continueGame, marks, open as openWith, saved } from './workers.mjs';

const browser = await launch();
after(() => browser.close());
const open = (path, options) => openWith(browser, path, options);

test('a local game against three CPUs is played to the end with every CPU move chosen in the worker', async () => {
  const { context, page, errors, warnings } = await open('/?cpu-delay=0');
  await openWay(page, 'vs-cpu');
  await page.selectOption('select[name=level]', 'hard');
  await page.click('#vs-cpu button[type=submit]');
  await playToTheEnd(page);
  assert.ok(page.workers().some((w) => new URL(w.url()).pathname === '/engine/cpu-worker.js'), 'the CPU worker runs');
  const counted = await marks(page);
  assert.ok(counted.worker >= 20, `the worker chose the CPUs' moves (${JSON.stringify(counted)})`);
  assert.equal(counted.page, 0, 'none was chosen on the page\'s thread');
  assert.equal(counted.stale, 0, 'no answer was dropped');
  assert.deepEqual(errors, []);
  assert.deepEqual(warnings, []);
  await context.close();
});

/** Plays the person's turns until the worker has made `count` choices. */
async function playUntilChosen(page, count) {
  while (await page.evaluate(() => performance.getEntriesByName('ludo.cpu.worker').length) < count) {
    const turn = await personsTurn(page);
    assert.notEqual(turn, 'over', `the game ended before ${count} CPU choices`);
    await page.click(turn === 'throw' ? '#roll' : '#board .piece.legal');
  }
}

/**
 * A page (as `open` makes it, the worker's script as it is) whose fetches of an `/expert/` network are
 * counted, and answered `status` when given.
 */
async function countingExpertFetches({ status } = {}) {
  const opened = await open('/?cpu-delay=0', { worker: (body) => body });
  const fetched = [];
  await opened.context.route('**/expert/*.bin', (route) => {
    fetched.push(route.request().url());
    return status ? route.fulfill({ status, body: 'gone' }) : route.continue();
  });
  return { ...opened, fetched };
}

test('expert CPUs fetch their network once, in the worker, and choose every move there', async () => {
  const { context, page, fetched, warnings, errors } = await countingExpertFetches();
  await openWay(page, 'vs-cpu');
  await page.selectOption('select[name=level]', 'expert');
  await page.click('#vs-cpu button[type=submit]');
  await playUntilChosen(page, 20);
  assert.equal(fetched.length, 1, `the network was fetched once (${fetched.length} times)`);
  assert.ok(page.workers().some((w) => new URL(w.url()).pathname === '/engine/cpu-worker.js'), 'by the worker');
  const counted = await marks(page);
  assert.equal(counted.page, 0, 'no choice was made on the page\'s thread');
  assert.deepEqual(warnings, [], 'the network was installed');
  assert.deepEqual(errors, []);
  await context.close();
});

test('games against other levels never fetch the expert\'s network', async () => {
  const { context, page, fetched } = await countingExpertFetches();
  await openWay(page, 'vs-cpu');
  await page.selectOption('select[name=level]', 'hard');
  await page.click('#vs-cpu button[type=submit]');
  await playUntilChosen(page, 5);
  assert.equal(fetched.length, 0);
  await context.close();
});

test('an expert whose network cannot be had says so once and plays on as hard would', async () => {
  const { context, page, fetched, warnings, errors } = await countingExpertFetches({ status: 404 });
  await openWay(page, 'vs-cpu');
  await page.selectOption('select[name=level]', 'expert');
  await page.click('#vs-cpu button[type=submit]');
  await playUntilChosen(page, 10);
  assert.equal(fetched.length, 1, 'asked for once');
  assert.deepEqual(warnings.filter((w) => /expert/.test(w)), ['the expert CPU plays as hard: /expert/qdan-4.bin: 404']);
  // Beside the browser's own line for the refused fetch.
  assert.deepEqual(errors.filter((e) => !/404/.test(e)), []);
  await context.close();
});

test('the worker is handed the engine the page compiled, and fetches no second copy of it', async () => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const fetched = [];
  await context.route('**/engine.wasm', (route) => {
    fetched.push(route.request().url());
    return route.continue();
  });
  const page = await context.newPage();
  await page.goto(`${url}/?cpu-delay=0`);
  await page.waitForSelector('body[data-ready=true]');
  await openWay(page, 'vs-cpu');
  await page.click('#vs-cpu button[type=submit]');
  while (await page.evaluate(() => performance.getEntriesByName('ludo.cpu.worker').length) < 3) {
    const turn = await personsTurn(page);
    assert.notEqual(turn, 'over');
    await page.click(turn === 'throw' ? '#roll' : '#board .piece.legal');
  }
  assert.equal(fetched.length, 1, `the engine was fetched once, by the page (${fetched.length} times)`);
  assert.equal((await marks(page)).page, 0, 'the worker chose');
  await context.close();
});

test('an answer that comes after the game was restarted is dropped, and neither game is changed by it', async () => {
  // The worker answers 1.5 s late, and counts what it was asked and what it answered.
  const late = before(`self.asked = 0;
    self.answered = 0;
    addEventListener('message', () => { self.asked++; });
    const send = self.postMessage.bind(self);
    self.postMessage = (message) => setTimeout(() => { send(message); self.answered++; }, 1500);`);
  const { context, page, errors } = await open('/?cpu-delay=0', { worker: late });
  await page.evaluate(() => localStorage.setItem('ludo.autoplay', 'no'));
  await continueGame(page, BLUE_TO_MOVE);
  const worker = () => page.workers().find((w) => new URL(w.url()).pathname === '/engine/cpu-worker.js');
  // Blue is thinking: the worker has its question.
  for (let i = 0; !(await worker()?.evaluate(() => self.asked).catch(() => 0)); i++) {
    assert.ok(i < 100, 'the worker is asked for blue\'s move');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(await worker().evaluate(() => self.answered), 0, 'and has not answered yet');
  // Play again, the game's own way (its button, shown at the end of a game).
  await page.evaluate(() => document.getElementById('play-again-local').click());
  const fresh = (await page.evaluate((key) => JSON.parse(localStorage.getItem(key))[0], SAVES_KEY));
  assert.notEqual(fresh.id, 'old', 'a new game is played');
  // The late answer comes (and time passes for anything that would act on it)...
  for (let i = 0; !(await worker().evaluate(() => self.answered)); i++) {
    assert.ok(i < 100, 'the worker answers');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await page.waitForTimeout(300);
  // ...and is dropped: the game left is as it was left.
  const old = await saved(page, 'old');
  assert.deepEqual(old.position, BLUE_TO_MOVE, 'the game left is as it was left');
  assert.deepEqual(old.actions, []);
  assert.equal((await marks(page)).stale, 1, 'the answer was dropped');
  // The new game goes on with its own actions only.
  const now = await saved(page, fresh.id);
  assert.deepEqual(now.actions.slice(0, fresh.actions.length), fresh.actions);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [file, whose] of [['cpu-worker.js', 'the worker'], ['cpu.js', 'the module that asks the worker']]) {
  test(`when ${whose} does not load, the page's thread chooses and the game is played to the end`, async () => {
    const { context, page, errors, warnings } = await open('/?cpu-delay=0', { worker: () => null, file });
    await openWay(page, 'vs-cpu');
    await page.selectOption('select[name=opponents]', '1');
    await page.selectOption('select[name=level]', 'easy');
    await page.click('#vs-cpu button[type=submit]');
    await playToTheEnd(page);
    assert.match(await page.textContent('#end h2'), /^You (won!|came 2nd)$/);
    assert.ok(!page.workers().some((w) => new URL(w.url()).pathname === '/engine/cpu-worker.js'), 'no CPU worker runs');
    const counted = await marks(page);
    assert.equal(counted.worker, 0, JSON.stringify(counted));
    // (Without cpu.js, nothing marks the choices.)
    if (file === 'cpu-worker.js') assert.ok(counted.page >= 5, `the page's thread chose (${JSON.stringify(counted)})`);
    assert.equal(warnings.filter((w) => /CPU players choose on the page's thread/.test(w)).length, 1,
      `said once: ${warnings}`);
    // (A module's script not found is reported by the browser; a worker's is not.)
    const notFound = (e) => file === 'cpu.js' && /status of 404/.test(e);
    assert.deepEqual(errors.filter((e) => !notFound(e)), []);
    await context.close();
  });
}

test('a CPU move the engine refuses is said in the reader\'s words and logged, and nothing is played', async () => {
  // The worker's engine refuses every question it is asked, as it would a position that cannot occur.
  const refusing = before(`const send = self.postMessage.bind(self);
    self.postMessage = (message) => send('ok' in message ? { id: message.id, error: { message: 'Every player has 4 pieces, not 3',
      code: 'piece_count', params: { count: 3 }, option: null } } : message);`);
  const { context, page, errors } = await open('/?cpu-delay=0&lang=fr', { worker: refusing });
  await continueGame(page, BLUE_TO_MOVE);
  await page.waitForSelector('#notice:not([hidden])');
  assert.equal(await page.textContent('#notice'), 'Chaque joueur a 4 pièces, pas 3.');
  assert.equal(errors.length, 1, `${errors}`);
  assert.match(errors[0], /^a CPU player could not choose/);
  assert.deepEqual((await saved(page, 'old')).actions, [], 'no move was played');
  await context.close();
});
