// Offline play, with the server really gone: this file starts a server process of its own (the
// binary `cargo test` built, passed in LUDO_SERVER_BIN; by hand, target/release/ludo-server),
// loads the page from it so that the service worker installs and controls the page, then kills
// the process and reloads. Whatever the page then gets can only come from the service worker's
// cache.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, openWay, personsTurn, yellowToMove } from './browser.mjs';

const shots = process.env.LUDO_SHOTS ?? '/tmp/ludo-shots';
mkdirSync(shots, { recursive: true });

const binary = process.env.LUDO_SERVER_BIN
  ?? fileURLToPath(new URL('../target/release/ludo-server', import.meta.url));

const browser = await launch();
after(() => browser.close());

/**
 * A server process of this test's own, on a free port (the server picks it and says it) with a
 * database in a new temporary directory: `{ url, stop() }`, `stop` killing it for good.
 */
async function ownServer() {
  const dir = mkdtempSync(join(tmpdir(), 'ludo-offline-'));
  const child = spawn(binary, ['--addr', '127.0.0.1:0', '--db', join(dir, 'ludo.db')], {
    env: { ...process.env, LUDO_LOG: 'info' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let log = '';
  const address = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const serving = log.match(/serving (http:\/\/[\d.]+:\d+)/);
      if (serving) resolve(serving[1]);
    });
    child.once('error', reject);
    exited.then((code) => reject(new Error(`${binary} stopped (${code}) before serving:\n${log}`)));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  after(stop);
  return { url: address, stop };
}

/** Same-origin responses the page gets from now on: `[path, resource type, status, fromServiceWorker]`. */
function responses(page, origin) {
  const seen = [];
  page.on('response', (r) => {
    const address = new URL(r.url());
    if (address.origin === origin) {
      seen.push([address.pathname, r.request().resourceType(), r.status(), r.fromServiceWorker()]);
    }
  });
  return seen;
}

/**
 * The paths of what the page itself loads among `seen`: its document, styles, modules and
 * fetches (the engine's WebAssembly, the rules), without the icon Chromium fetches when it likes
 * and the public tables, a live list that has no meaning offline (the home page hides it then).
 */
const ownFiles = (seen) => [...new Set(seen.filter(([path, type]) => ['document', 'stylesheet', 'script', 'fetch']
  .includes(type) && !path.startsWith('/api/tables/')).map(([path]) => path))].sort();

test('with the server gone, the page loads from its service worker and a game against the CPU is played', async () => {
  const server = await ownServer();
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, serviceWorkers: 'allow' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Offline, the browser reports the public tables' lists as not loaded: they are live data,
  // asked for again when the server is back. Any other error fails the test.
  const live = (m) => new URL(m.location().url || 'about:blank', 'http://x').pathname.startsWith('/api/tables/');
  page.on('console', (m) => m.type() === 'error' && !live(m) && errors.push(m.text()));
  const address = `${server.url}/?cpu-delay=0&pace=0`;

  // Online: the service worker installs (caching every file) and takes the page over.
  await page.goto(address);
  await page.waitForSelector('body[data-ready=true]');
  // (A predicate of waitForFunction must answer synchronously: a promise would count as true.)
  await page.evaluate(() => {
    navigator.serviceWorker.ready.then((r) => { globalThis.activeWorker = r.active; });
  });
  await page.waitForFunction(() => globalThis.activeWorker?.state === 'activated', null, { timeout: 10_000 });
  const online = responses(page, server.url);
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL), `${server.url}/sw.js`,
    'after a reload the service worker controls the page');
  const needed = ownFiles(online);
  for (const file of ['/', '/app.js', '/app.css', '/engine/engine.js', '/game/table.js', '/engine.wasm', '/api/rules']) {
    assert.ok(needed.includes(file), `the page loads ${file} (${needed})`);
  }

  // The server process is killed: nothing answers at its address any more.
  await server.stop();
  await assert.rejects(fetch(`${server.url}/healthz`), 'the server is gone');

  // Offline: the page still loads, and everything it loads the service worker answered from its
  // cache, after its own attempt at the network was refused.
  const offline = responses(page, server.url);
  // The service worker's own requests, on its way to its cache (sw.js asks the network first).
  const refused = Promise.all(needed.map((file) => context.waitForEvent('requestfailed', {
    predicate: (r) => Boolean(r.serviceWorker()) && new URL(r.url()).pathname === file,
    timeout: 10_000,
  }).then((request) => request, (error) => {
    throw new Error(`the service worker asked the network for no ${file}: ${error.message}`);
  })));
  const reloaded = page.reload().then(() => page.waitForSelector('body[data-ready=true]'));
  const [failures] = await Promise.all([refused, reloaded]);
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL), `${server.url}/sw.js`,
    'offline, the service worker still controls the page');
  // Every file the online page needed (the HTML, each module, the styles, the engine's
  // WebAssembly, the rules) came again, each through the service worker (Chromium's own flag,
  // which Playwright reads: the service worker answered it, not the network stack).
  assert.deepEqual(ownFiles(offline), needed);
  assert.deepEqual(offline.filter(([, , status, fromWorker]) => status !== 200 || !fromWorker), [],
    'every file came from the service worker');
  // The worker asked the network for each, and was refused...
  for (const request of failures) {
    assert.equal(request.failure()?.errorText, 'net::ERR_CONNECTION_REFUSED', request.url());
  }
  // ...so it answered from its cache: Resource Timing says where each body came from, the page's
  // own document included.
  const delivered = await page.evaluate(() => [...performance.getEntriesByType('navigation'),
    ...performance.getEntriesByType('resource')].map((e) => [new URL(e.name).pathname, e.deliveryType]));
  // (The public tables' lists are asked for and not found: they are live, never cached.)
  assert.deepEqual(delivered.filter(([path, type]) => type !== 'cache-storage' && !path.startsWith('/api/tables/')), [],
    'every file of the page came out of the service worker\'s cache');
  for (const file of needed) assert.ok(delivered.some(([path]) => path === file), `${file} among them`);

  // A game against the CPU: the person throws until a piece of theirs can move, and moves it.
  await page.evaluate(() => localStorage.setItem('ludo.autoplay', 'no'));
  await openWay(page, 'vs-cpu');
  await page.selectOption('select[name=opponents]', '1');
  await page.click('#vs-cpu button[type=submit]');
  const pieces = () => page.evaluate(() => JSON.parse(localStorage.getItem('ludo.games'))[0].position.pieces.yellow);
  let moved = false;
  for (let i = 0; i < 100 && !moved; i++) {
    const turn = await personsTurn(page);
    assert.notEqual(turn, 'over', 'the game ended before the person moved');
    if (turn === 'throw') {
      await page.click('#roll');
      continue;
    }
    const before = await pieces();
    const lines = await page.$$eval('#log li', (items) => items.length);
    const piece = Number(await page.getAttribute('#board .piece.legal', 'data-piece'));
    await page.click(`#board .piece.legal[data-piece="${piece}"]`);
    const now = await pieces();
    assert.notDeepEqual(now[piece], before[piece], `yellow's piece ${piece} moved`);
    const written = await page.$$eval('#log li', (items, from) => items.slice(from).map((li) => li.textContent), lines);
    assert.match(written[0], /^yellow ○ (brings a piece out|moves \d+)/, 'the move is in the log');
    moved = true;
  }
  assert.ok(moved, 'the person moved a piece');
  await personsTurn(page);
  await page.screenshot({ path: `${shots}/offline.png` });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `no horizontal scrolling on a phone (${width}px)`);
  assert.deepEqual(errors, []);

  // The CPU players' worker loads offline too (its script, and the engine it loads), and chooses.
  const cpu = await page.evaluate(async (position) => {
    const [{ loadEngine }, { choose }] = await Promise.all([import('/engine/engine.js'), import('/engine/cpu.js')]);
    const choice = await choose(await loadEngine(), position, 'hard', 1);
    return { choice, worker: performance.getEntriesByName('ludo.cpu.worker').length,
      page: performance.getEntriesByName('ludo.cpu.page').length };
  }, yellowToMove(5, 20, [3], [10, 'base', 'base']));
  assert.ok([0, 1].includes(cpu.choice.piece), JSON.stringify(cpu));
  assert.ok(cpu.worker >= 1 && cpu.page === 0, `chosen in the worker: ${JSON.stringify(cpu)}`);

  // The page itself reaches no server either: what the worker does not keep fails.
  assert.equal(await page.evaluate(() => fetch('/healthz').then(() => 'answered', (e) => e.name)), 'TypeError');

  // What needs the server says it cannot be reached, rather than that it refused, or nothing.
  const unreachable = 'The server cannot be reached: check your connection. '
    + 'Games against the CPU and on this device work without one.';
  await page.goto(`${server.url}/`);
  await page.waitForSelector('body[data-ready=true]');
  await openWay(page, 'friends');
  await page.click('#friends button[type=submit]');
  await page.waitForFunction((text) => document.getElementById('friends-error').textContent === text, unreachable);
  await openWay(page, 'ranked');
  await page.click('#ranked-find');
  await page.waitForFunction((text) => document.getElementById('ranked-status').textContent === text, unreachable);
  // A records page is the page's own, from the cache, saying so; not the browser's error page.
  await page.goto(`${server.url}/leaderboard/qdan`);
  await page.waitForFunction((text) => document.getElementById('records-view')?.textContent === text, unreachable);
  // A room's page still shows the link to pass on.
  await page.goto(`${server.url}/r/abcdefgh`);
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.textContent('#link'), `${server.url}/r/abcdefgh`);
  // The browser reports each refused connection; nothing else went wrong.
  assert.deepEqual(errors.filter((e) => !e.includes('net::ERR_CONNECTION_REFUSED')), []);
  await context.close();
});

test('the service worker keeps every file of the page, each folder’s modules included', async () => {
  const { readdirSync, readFileSync, statSync } = await import('node:fs');
  const root = fileURLToPath(new URL('../crates/ludo-server/static/', import.meta.url));
  const files = (dir) => readdirSync(join(root, dir)).flatMap((name) => {
    const path = dir ? `${dir}/${name}` : name;
    return statSync(join(root, path)).isDirectory() ? files(path) : [path];
  });
  const kept = readFileSync(join(root, 'sw.js'), 'utf8').match(/const FILES = \[([^\]]*)\]/)[1];
  // The page itself is kept as `/`; the service worker is not a file of the page.
  const missing = files('').filter((f) => !['sw.js', 'index.html'].includes(f) && !kept.includes(`'/${f}'`));
  assert.deepEqual(missing, []);
});
