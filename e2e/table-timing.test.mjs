// The table's timeline as a person sees it, timed in a real Chromium: a throw without a move shows
// long enough to read, the status, seat and dice change together once a throw has landed, a turn
// clock counts down and says when the CPU played for the person, and a hidden tab catches up at
// once. These time what they see, so they run alone (crates/ludo-server/tests/browser.rs).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openWay, person, url, yellowToMove } from './browser.mjs';
import { filterServer, playPersonsTurn, shots, startWithCpu, words } from './tables.mjs';

const browser = await launch();
after(() => browser.close());

const SEATS = { 'yellow ○': 'yellow', 'blue □': 'blue', 'red △': 'red', 'green ✚': 'green' };

/** A page of `context` playing a local game against three random CPUs, and its errors. */
async function againstRandomCpus(context) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}/`);
  await page.waitForSelector('body[data-ready=true]');
  await openWay(page, 'vs-cpu');
  await page.selectOption('select[name=level]', 'random');
  await page.click('#vs-cpu button[type=submit]');
  return { page, errors };
}

/** How long each status matching `pattern` showed before the highlighted seat changed, in ms. */
const noMoveTimes = (seen, pattern) => seen.flatMap((s, i) => {
  if (!pattern.test(s.status) || s.status === seen[i - 1]?.status) return [];
  const next = seen.findIndex((later, j) => j > i && later.active !== s.active);
  return next > 0 ? [seen[next].at - s.at] : [];
});

/** Records every status and highlighted seat the page shows, with when, in `globalThis.seen`. */
const watchStatus = (page) => page.evaluate(() => {
  globalThis.seen = [];
  const snap = () => globalThis.seen.push({
    at: performance.now(),
    status: document.querySelector('#status').textContent,
    active: document.querySelector('#players li.active')?.dataset.seat ?? null,
  });
  new MutationObserver(snap).observe(document.querySelector('#play'),
    { childList: true, subtree: true, characterData: true, attributes: true });
  snap();
});


test('the person\'s own throw without a move shows long enough to read, a CPU\'s only as long as it takes to see', async () => {
  // Every die shows 3 (the browser's random bytes are fixed): under Qdan nobody has a move.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addInitScript(() => {
    crypto.getRandomValues = (bytes) => bytes.fill(2);
  });
  const { page, errors } = await againstRandomCpus(context);
  await page.waitForSelector('#roll:not([aria-disabled=true])', { timeout: 15000 });
  await watchStatus(page);
  for (let round = 0; round < 2; round++) {
    await page.click('#roll');
    await page.waitForSelector('#roll[aria-disabled=true]');
    await page.waitForSelector('#roll:not([aria-disabled=true])', { timeout: 30000 });
  }
  const seen = await page.evaluate(() => globalThis.seen);
  const mine = noMoveTimes(seen, /^You threw 3 — no move(\. |$)/);
  const theirs = noMoveTimes(seen, /^(blue|red|green) .*: 3 — no move$/);
  assert.equal(mine.length, 2, `the person's: ${mine}`);
  assert.equal(theirs.length, 6, `the CPUs': ${theirs}`);
  for (const ms of mine) assert.ok(ms >= 900, `the person's "no move" shows for ${ms.toFixed(0)} ms`);
  for (const ms of theirs) assert.ok(ms >= 400, `a CPU's "no move" shows for ${ms.toFixed(0)} ms`);
  const median = [...theirs].sort((a, b) => a - b)[theirs.length >> 1];
  assert.ok(median < 800, `a CPU's "no move" shows for ${median.toFixed(0)} ms (median of ${theirs.length})`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the status, the highlighted seat and the dice change together, only once a throw has landed', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const { page, errors } = await againstRandomCpus(context);
  await page.evaluate(() => {
    globalThis.seen = [];
    const snap = () => {
      const die = document.querySelector('#die');
      globalThis.seen.push({
        at: performance.now(),
        status: document.querySelector('#status').textContent,
        dieSeat: die?.dataset.seat ?? null,
        dieValues: die?.dataset.values ?? '',
        rolling: die?.classList.contains('rolling') ?? false,
        active: document.querySelector('#players li.active')?.dataset.seat ?? null,
      });
    };
    new MutationObserver(snap).observe(document.querySelector('#play'),
      { childList: true, subtree: true, characterData: true, attributes: true });
    snap();
  });
  const until = Date.now() + 14000;
  while (Date.now() < until && (await playPersonsTurn(page)) !== 'over');
  const seen = await page.evaluate(() => globalThis.seen);
  assert.ok(seen.length > 50, `states seen: ${seen.length}`);
  for (const s of seen) {
    if (s.dieSeat && s.active) assert.equal(s.dieSeat, s.active, `the dice are in the highlighted seat's base: ${JSON.stringify(s)}`);
    const named = Object.entries(SEATS).find(([name]) => s.status.startsWith(`${name} to `));
    if (named && s.active) assert.equal(named[1], s.active, `the status names the highlighted seat: ${JSON.stringify(s)}`);
  }
  // Whenever the turn passes from one seat to another, that seat's dice had landed and shown.
  let passes = 0;
  for (let i = 1; i < seen.length; i++) {
    const [was, now] = [seen[i - 1].active, seen[i].active];
    if (!was || !now || was === now) continue;
    passes++;
    let j = i - 1;
    while (j > 0 && seen[j - 1].active === was) j--;
    const landed = seen.slice(j, i).some((s) => s.dieSeat === was && s.dieValues && !s.rolling);
    assert.ok(landed, `${was}'s throw showed before ${now}'s turn`);
  }
  assert.ok(passes >= 3, `the turn passed ${passes} times`);
  // A throw with no move says so, long enough to see, before the turn passes.
  const noMoves = noMoveTimes(seen, /— no move/);
  assert.ok(noMoves.length, 'a throw with no move is said');
  for (const ms of noMoves) assert.ok(ms >= 400, `"no move" shows for ${ms.toFixed(0)} ms`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a turn clock counts down on the seat, keeps counting when someone speaks, warns, and says when the CPU played the turn', async () => {
  // The test server runs a clock second in 200 ms: a 30 s clock lasts 6 s. At the pace people see,
  // so that the CPU's own turn is drawn (the test server's CPU plays at once).
  const host = await person(browser, '/', { pace: 1, viewport: { width: 360, height: 640 } });
  await openWay(host.page, 'friends');
  await host.page.fill('#friends input[name=name]', 'Ana');
  await host.page.selectOption('#friends select[name=clock]', '30');
  await host.page.click('#friends button[type=submit]');
  await host.page.waitForURL(/\/r\/[a-z0-9]+$/);
  await startWithCpu(host.page);
  await host.page.waitForSelector('#players li.active.you .clock-left');
  // The board's top, every frame from now on: clocks come and go, the board stays still.
  await host.page.evaluate(() => {
    window.boardTops = new Set();
    const watch = () => {
      window.boardTops.add(Math.round(document.getElementById('board').getBoundingClientRect().top));
      requestAnimationFrame(watch);
    };
    watch();
  });
  // Saying something redraws the seats (the bubble shows on the sender's): the clock stays.
  await host.page.click('#phrases-button');
  await host.page.click('#phrases button:text("Good luck!")');
  await host.page.waitForSelector('#players li.you .bubble');
  assert.ok(await host.page.$('#players li.active.you .clock-left'), 'the clock shows after a phrase');
  const first = parseInt(await host.page.textContent('#players li.active .clock-left'), 10);
  await host.page.waitForTimeout(1500);
  const later = parseInt(await host.page.textContent('#players li.active .clock-left'), 10);
  assert.ok(later < first, `the countdown goes down: ${first} s, then ${later} s`);
  assert.ok(await host.page.$('#players li.active .clock.warning'), 'the last ten seconds warn');
  await host.page.screenshot({ path: `${shots}/online-clock-360x640-en.png` });
  await host.page.waitForFunction(async () => ((await import('/game/sound.js')).played.warning ?? 0) >= 1);
  // The person does nothing: the clock runs out and the CPU plays for them, said on screen and in
  // the log.
  await host.page.waitForSelector('#notice:not([hidden])', { timeout: 15000 });
  assert.equal(await host.page.textContent('#notice'), 'Time ran out — the CPU played this turn for you.');
  await host.page.waitForSelector('#log li.by-cpu');
  // The log names the person whose turn the CPU played, with their seat's mark.
  assert.match(await host.page.textContent('#log li.by-cpu'), /^Ana ○ .*\(played by the CPU\)$/);
  await host.page.screenshot({ path: `${shots}/online-ran-out-360x640-en.png` });
  // The CPU's own turns show no clock; and through it all the board never moved.
  await host.page.waitForFunction(() => document.querySelector('#players li.active.cpu'));
  assert.equal(await host.page.$('#players li.active.cpu .clock'), null, 'no clock on a CPU\'s turn');
  const tops = await host.page.evaluate(() => [...window.boardTops]);
  assert.equal(tops.length, 1, `the board's top stayed at one place: ${tops.join(', ')} px`);
  assert.deepEqual(host.errors, []);
});

test('while the CPU plays a turn whose clock ran out, the status never asks the person to act', async () => {
  // At the pace people see, in two languages; the test server's clock second lasts 200 ms.
  for (const [locale, name] of [['en', 'Ana'], ['fr-FR', 'Ana']]) {
    const host = await person(browser, '/', { pace: 1, locale, viewport: { width: 360, height: 640 } });
    await openWay(host.page, 'friends');
    await host.page.fill('#friends input[name=name]', name);
    await host.page.selectOption('#friends select[name=clock]', '30');
    await host.page.click('#friends button[type=submit]');
    await host.page.waitForURL(/\/r\/[a-z0-9]+$/);
    // Every status shown, and whether the CPU had been said to play for the person by then.
    await host.page.evaluate(() => {
      window.statuses = [];
      const status = document.getElementById('status');
      new MutationObserver(() => window.statuses.push({ text: status.textContent,
        standIn: !document.getElementById('notice').hidden })).observe(status, { childList: true, characterData: true, subtree: true });
    });
    await startWithCpu(host.page);
    await host.page.waitForSelector('#notice:not([hidden])', { timeout: 15000 });
    // The CPU finishes the turn: the turn passes to red.
    await host.page.waitForSelector('#players li.active[data-seat=red]', { timeout: 15000 });
    const during = (await host.page.evaluate(() => window.statuses)).filter((s) => s.standIn).map((s) => s.text);
    const yourTurn = [await words(host.page, 'status.you.roll'), await words(host.page, 'status.you.move')];
    const youThrew = (await words(host.page, 'status.youThrew', { dice: 'DICE' })).split('DICE')[0];
    assert.deepEqual(during.filter((text) => yourTurn.includes(text) || text.startsWith(youThrew)), [], locale);
    const byCpu = (await words(host.page, 'log.byCpu', { line: '' })).trim();
    const forYou = await words(host.page, 'status.cpuForYou');
    assert.ok(during.some((text) => text.endsWith(byCpu) || text === forYou), `${locale}: ${JSON.stringify(during)}`);
    await host.page.screenshot({ path: `${shots}/online-cpu-for-you-360x640-${locale}.png` });
    assert.deepEqual(host.errors, []);
    await host.page.context().close();
  }
});

test('when the person’s clock reaches nothing, the controls go and the status says the CPU plays, before its first throw arrives', async () => {
  for (const [locale, name] of [['en', 'Ana'], ['ru-RU', 'Ana']]) {
    const host = await person(browser, '/', { locale, viewport: { width: 360, height: 640 } });
    // Once the person's turn shows, nothing more from the server reaches this page (neither the
    // CPU's throws for the person nor the next seat's turn): what it shows comes from its own
    // clock alone.
    let frozen = false;
    await filterServer(host.page, () => frozen);
    await openWay(host.page, 'friends');
    await host.page.fill('#friends input[name=name]', name);
    await host.page.selectOption('#friends select[name=clock]', '30');
    await host.page.click('#friends button[type=submit]');
    await host.page.waitForURL(/\/r\/[a-z0-9]+$/);
    await startWithCpu(host.page);
    await host.page.waitForSelector('#players li.active.you .clock-left');
    frozen = true;
    assert.equal(await host.page.textContent('#status'), await words(host.page, 'status.you.roll'), locale);
    const forYou = await words(host.page, 'status.cpuForYou');
    await host.page.waitForFunction((text) => document.getElementById('status').textContent === text, forYou,
      { timeout: 15000 });
    assert.ok(await host.page.isDisabled('#roll'), `${locale}: the throw button is off`);
    // The clock is the person's: once the CPU plays their turn, it goes.
    assert.equal(await host.page.$('#players li.active.you .clock'), null, `${locale}: no clock for the CPU's part`);
    await host.page.screenshot({ path: `${shots}/online-time-up-360x640-${locale}.png` });
    assert.deepEqual(host.errors, []);
    await host.page.context().close();
  }
});


test('a hidden tab catches up at once, and its title and a notification say it is the person’s turn', async () => {
  const context = await browser.newContext({ permissions: ['notifications'] });
  await context.addInitScript(() => {
    globalThis.pageHidden = false;
    Object.defineProperty(Document.prototype, 'hidden', { get: () => globalThis.pageHidden, configurable: true });
    globalThis.notices = [];
    const Real = globalThis.Notification;
    globalThis.Notification = class extends Real {
      constructor(title, options) { globalThis.notices.push(title); super(title, options); }
    };
  });
  const position = { ...yellowToMove(20, 10), turn: { seat: 'red', phase: 'roll', roll: null, bonus_streak: 0, throws: 0 } };
  const page = await context.newPage();
  await page.goto(`${url}/?cpu-delay=0`);
  await page.waitForSelector('body[data-ready=true]');
  await page.evaluate((game) => localStorage.setItem('ludo.local.v1', JSON.stringify(game)),
    { position, players: { yellow: 'human', red: 'medium' }, log: [] });
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  await page.evaluate(() => { globalThis.pageHidden = true; });
  const began = Date.now();
  await page.click('#saved-games .continue');
  await page.waitForFunction(() => document.title === 'Your turn — Ludo');
  assert.ok(Date.now() - began < 1500, `the CPU's turn was caught up in ${Date.now() - began} ms`);
  assert.deepEqual(await page.evaluate(() => globalThis.notices), ['Your turn — Ludo'], 'one notification');
  await page.evaluate(() => {
    globalThis.pageHidden = false;
    document.dispatchEvent(new Event('visibilitychange'));
  });
  assert.equal(await page.title(), 'Ludo');
  await context.close();
});
