// The web client's budgets, measured in Chromium: the first load's transfer size, the time until
// a local game can be played, how long the strongest CPU takes to move in the browser, and the
// frame rate while CPU players throw and move with their animations (from a performance trace).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openWay, person, url } from './browser.mjs';
import { hostRoom, seated } from './rooms.mjs';
import { startWithCpu } from './tables.mjs';

const browser = await launch();
after(() => browser.close());

test('the page asks for every module of its first screen at once, the home and rules pages for the engine once shown, each once, and a rules page for what draws it', async () => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const asked = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.goto(`${url}/`);
  await page.waitForSelector('body[data-ready=true]');
  const preloaded = await page.$$eval('link[rel=modulepreload]', (links) => links.map((link) => new URL(link.href).pathname));
  assert.ok(preloaded.includes('/game/table.js'), 'a module two imports deep is preloaded');
  for (const path of [...preloaded, '/engine.wasm']) {
    assert.equal(asked.filter((p) => p === path).length, 1, `${path} is asked for once`);
  }
  // Every other script the home page loads is one it imports when it knows it needs it: the texts
  // of the reader's language.
  const scripts = asked.filter((p) => p.endsWith('.js') && p !== '/app.js' && !preloaded.includes(p));
  assert.deepEqual(scripts, ['/i18n/texts-en.js']);
  // The home screen is shown first, then the engine loads.
  const [shown, engine] = await page.evaluate(() => [performance.getEntriesByName('shown')[0]?.startTime,
    performance.getEntriesByType('resource').find((e) => e.name.endsWith('/engine.wasm'))?.startTime]);
  assert.ok(shown < engine, `shown at ${shown} ms, the engine asked for at ${engine} ms`);
  // A rules page's answer preloads the modules that draw it, and the page is shown before the
  // engine is asked for; each is asked for once, and the server's rules once.
  asked.length = 0;
  const answer = await page.goto(`${url}/rules/qdan`);
  const link = answer.headers().link ?? '';
  assert.doesNotMatch(link, /engine\.wasm/);
  assert.match(link, /<\/rulebook\/rulespage\.js>; rel=modulepreload/);
  await page.waitForSelector('body[data-ready=true] #rules-page:not([hidden])');
  for (const path of ['/engine.wasm', '/rulebook/rulespage.js', '/rulebook/rulestext.js', '/api/rules']) {
    assert.equal(asked.filter((p) => p === path).length, 1, `${path} is asked for once`);
  }
  const [rulesShown, rulesEngine] = await page.evaluate(() => [performance.getEntriesByName('shown')[0]?.startTime,
    performance.getEntriesByType('resource').find((e) => e.name.endsWith('/engine.wasm'))?.startTime]);
  assert.ok(rulesShown < rulesEngine, `rules page shown at ${rulesShown} ms, the engine asked for at ${rulesEngine} ms`);
  // A page drawn with the engine has it preloaded by its answer.
  const room = await page.request.get(`${url}/leaderboard`);
  assert.match(room.headers().link ?? '', /<\/engine\.wasm>; rel=preload; as=fetch/);
  await context.close();
});

test('a room\'s answer preloads what draws it and not the engine, which its lobby is drawn before; a room with a game asks for it at once', async () => {
  const ana = await hostRoom(browser, 'Ana');
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const asked = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  const answer = await page.goto(`${url}/r/${ana.code}`);
  const link = answer.headers().link ?? '';
  assert.doesNotMatch(link, /engine\.wasm/);
  assert.match(link, /<\/room\/online\.js>; rel=modulepreload/);
  await seated(page, 'yellow', 'Ana');
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/engine.wasm')));
  const [drawn, engine] = await page.evaluate(() => [performance.getEntriesByName('room.drawn')[0]?.startTime,
    performance.getEntriesByType('resource').find((e) => e.name.endsWith('/engine.wasm'))?.startTime]);
  assert.ok(drawn < engine, `the lobby drawn at ${drawn} ms, the engine asked for at ${engine} ms`);
  for (const path of ['/engine.wasm', '/room/online.js']) {
    assert.equal(asked.filter((p) => p === path).length, 1, `${path} is asked for once`);
  }
  // A game in the room: someone opening it then is shown the game, whose messages waited for the
  // engine, asked for at once.
  await startWithCpu(ana.page);
  await ana.page.waitForSelector('#board .base');
  const late = await person(browser, `/r/${ana.code}`);
  await late.page.waitForSelector('#board .piece');
  assert.ok(await late.page.isVisible('#watching'), 'told they are watching');
  assert.deepEqual([...ana.errors, ...late.errors], []);
  await late.page.context().close();
  await ana.page.context().close();
  await context.close();
});

test('the first load is small, a local game is ready fast, and hard moves quickly', async () => {
  // Without the service worker, every file the page asks for comes over the network and is counted;
  // with it, a file is counted or not by whether the worker took control before it was asked for.
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const began = Date.now();
  await page.goto(`${url}/`);
  await page.waitForSelector('body[data-ready=true]');
  await openWay(page, 'vs-cpu');
  await page.click('#vs-cpu button[type=submit]');
  await page.waitForSelector('#board rect');
  const ready = Date.now() - began;
  const bytes = await page.evaluate(() => {
    // The lists of open and playing tables grow with what other people are doing on the server
    // (other tests, here); everything else is the site's own and the same on every run.
    const live = (e) => new URL(e.name).pathname.startsWith('/api/tables/');
    const entries = [...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource')].filter((e) => !live(e));
    return entries.reduce((sum, e) => sum + e.transferSize, 0);
  });
  const micros = await page.evaluate(async () => {
    const { loadEngine } = await import('/engine/engine.js');
    const engine = await loadEngine();
    let position = engine.newGame('qdan', ['yellow', 'blue', 'red', 'green']);
    const times = [];
    for (let i = 0; position.turn.phase !== 'over' && times.length < 300; i++) {
      if (position.turn.phase === 'move') {
        const moves = engine.legal(position);
        const t0 = performance.now();
        const choice = engine.bot(position, 'hard', i);
        if (moves.length > 1) times.push(performance.now() - t0);
        position = engine.move(position, choice.piece).position;
      } else {
        position = engine.roll(position, [1 + (i * 7919) % 6]);
      }
    }
    times.sort((a, b) => a - b);
    return { median: times[times.length >> 1], p99: times[Math.floor(times.length * 0.99)], n: times.length };
  });
  console.log(`first load: ${(bytes / 1024).toFixed(1)} KiB transferred`);
  console.log(`local game ready ${ready} ms after opening`);
  console.log(`hard in the browser: median ${micros.median.toFixed(2)} ms, p99 ${micros.p99.toFixed(2)} ms over ${micros.n} decisions`);
  // The bounds sit above what this machine measures (docs/performance.md) by what a busy
  // machine adds, and no more, so that a real slip fails: 176.0 KiB (headers may add a few bytes), 0.6–0.75 s
  // idle and 1.6–2.1 s with builds running beside it, 2.7–7.7 ms and 10–26 ms.
  assert.ok(bytes <= 176.5 * 1024, `first load ${bytes} bytes (measured 176.0 KiB; budget 200 KB)`);
  assert.ok(ready <= 2500, `ready in ${ready} ms (measured 0.6 s idle; budget 1 s)`);
  assert.ok(micros.median <= 12, `hard's median decision ${micros.median} ms (measured 3.8–7.7 ms)`);
  assert.ok(micros.p99 <= 50, `hard's 99th percentile ${micros.p99} ms (measured 14–26 ms)`);
  await context.close();
});

test('CPU moves with their animations keep the frame rate', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${url}/?cpu-delay=0`);
  await page.waitForSelector('body[data-ready=true]');
  // Three hard CPUs with pieces out, to throw first: every throw brings a walk to watch.
  const position = {
    rules: 'qdan', seats: ['yellow', 'blue', 'red', 'green'],
    pieces: { yellow: [5, 'base', 'base', 'base'], blue: [10, 20, 'base', 'base'],
      red: [15, 30, 'base', 'base'], green: [8, 25, 'base', 'base'] },
    turn: { seat: 'blue', phase: 'roll', roll: null, bonus_streak: 0, throws: 0 },
  };
  await page.evaluate((game) => localStorage.setItem('ludo.local.v1', JSON.stringify(game)),
    { position, players: { yellow: 'human', blue: 'hard', red: 'hard', green: 'hard' }, log: [] });
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'blink.animations'],
  });
  await page.click('#saved-games .continue');
  await page.waitForSelector('#roll:not([aria-disabled=true])', { timeout: 30000 });
  const trace = JSON.parse((await browser.stopTracing()).toString());
  const events = trace.traceEvents ?? trace;
  // Each piece's walk is an `Animation` in the trace, from its begin to its end; the frames drawn
  // meanwhile are the `DrawFrame` events.
  const begun = new Map();
  const walks = [];
  for (const e of events.filter((x) => x.name === 'Animation').sort((a, b) => a.ts - b.ts)) {
    const id = JSON.stringify(e.id2 ?? e.id);
    if (e.ph === 'b') begun.set(id, e.ts);
    if (e.ph === 'e' && begun.has(id)) walks.push([begun.get(id), e.ts]);
  }
  const frames = events.filter((e) => e.name === 'DrawFrame').map((e) => e.ts).sort((a, b) => a - b);
  let drawn = 0;
  let ms = 0;
  const gaps = [];
  for (const [from, to] of walks) {
    const inside = frames.filter((at) => at >= from && at <= to);
    drawn += inside.length;
    ms += (to - from) / 1000;
    gaps.push(...inside.slice(1).map((at, i) => (at - inside[i]) / 1000));
  }
  gaps.sort((a, b) => a - b);
  const fps = (1000 * drawn) / ms;
  const lines = await page.evaluate(() => document.querySelectorAll('#log li').length);
  console.log(`animation: ${fps.toFixed(1)} frames/s over ${(ms / 1000).toFixed(2)} s of pieces walking `
    + `(${walks.length} walks, ${lines} log lines); longest frame ${gaps.at(-1).toFixed(1)} ms, `
    + `p95 ${gaps[Math.floor(gaps.length * 0.95)].toFixed(1)} ms`);
  assert.ok(walks.length >= 2, `${walks.length} walks seen`);
  // Measured 62 frames a second; 45 fails a walk that drops one frame in four.
  assert.ok(fps >= 45, `${fps} frames/s`);
  assert.ok(gaps[Math.floor(gaps.length * 0.95)] <= 34, `95% of frames within two frame times`);
  await context.close();
});
