// A hint, when asked: off by default; turned on in the table's settings, a Hint button shows when
// the person chooses between moves, and tapped, shows the strongest CPU's move on the board and
// says why; the setting is remembered; online rooms never offer it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { accessibilityViolations, launch, openWay, person, resume, step, yellowToMove } from './browser.mjs';

const browser = await launch();
after(() => browser.close());
const shots = process.env.LUDO_SHOTS ?? '/tmp/hint-shots';
mkdirSync(shots, { recursive: true });

/**
 * Yellow to move a 3 with two pieces out: the piece 12 squares from its start lands on red's (on
 * red's progress 41, the same square) and captures it; the other, 20 squares on, walks on.
 */
const CAPTURE = yellowToMove(12, 41, [3], [20, 'base', 'base']);

/** Turns hints on in the table's settings. */
async function turnHintsOn(page) {
  await page.click('#table-settings summary');
  await page.check('#hints');
}

test('hints are off by default: no Hint button on a real choice', async () => {
  const context = await browser.newContext();
  const { page, errors } = await resume(context, CAPTURE);
  await page.waitForSelector('#board .piece.legal');
  await page.click('#table-settings summary');
  assert.ok(await page.isVisible('#hints-setting'), 'the setting shows at a local game');
  assert.equal(await page.isChecked('#hints'), false);
  assert.equal(await page.$('#hint'), null, 'no Hint button, and the hint\'s code not even loaded');
  assert.deepEqual(errors, []);
  await context.close();
});

test('turned on, a Hint on a real choice shows the move that captures and says so, in English and French', async () => {
  for (const [locale, said, size] of [
    ['en', /^Hint: move piece 1 \(.+\) — captures red △$/, { width: 360, height: 640 }],
    ['fr-FR', /^Indice : jouez la pièce 1 \(.+\) — capture rouge △$/, { width: 390, height: 844 }]]) {
    const context = await browser.newContext({ locale, viewport: size });
    const { page, errors } = await resume(context, CAPTURE);
    // Two seats: Expert gives the hint, with the two-seat game's own network.
    const fetched = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await page.waitForSelector('#board .piece.legal');
    await turnHintsOn(page);
    await page.waitForSelector('#hint:not([hidden])');
    const box = await page.$eval('#hint', (b) => b.getBoundingClientRect().toJSON());
    assert.ok(box.height >= 44 && box.width >= 44, `a target of 44 px at least: ${box.width}×${box.height}`);
    await page.click('#table-settings summary');
    await page.click('#hint');
    await page.waitForSelector('#board .hint-ghost');
    await page.waitForFunction(() => /—/.test(document.getElementById('hint-line').textContent));
    assert.match(await page.textContent('#hint-line'), said, locale);
    assert.equal(await page.getAttribute('#hint-line', 'role'), 'status', 'said politely to a screen reader');
    assert.ok(await page.$('#board .hint-ghost .preview-capture'), 'the capture is crossed on the board');
    await page.screenshot({ path: `${shots}/hint-${size.width}x${size.height}-${locale}.png`, fullPage: true });
    assert.deepEqual(await accessibilityViolations(page), []);
    assert.deepEqual(fetched.filter((path) => path.startsWith('/expert/')), ['/expert/qdan-2.bin']);
    // Once the move is made, the hint goes.
    await page.click('#board .piece.legal[data-piece="0"]');
    await page.waitForSelector('#hint', { state: 'hidden' });
    assert.equal(await page.textContent('#hint-line'), '');
    assert.equal(await page.$('#board .hint-ghost'), null);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the Hint button is reached by Tab, and a single move offers none', async () => {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('ludo.hints', 'yes'));
  const { page, errors } = await resume(context, CAPTURE);
  await page.waitForSelector('#hint:not([hidden])');
  // After the table's own controls, in its row under them.
  await page.focus('#back');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'hint');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#board .hint-ghost');
  await context.close();
  // One piece out and a 3: nothing to choose, nothing to hint.
  const single = await browser.newContext();
  await single.addInitScript(() => localStorage.setItem('ludo.hints', 'yes'));
  const only = await resume(single, yellowToMove(20, 'base'));
  await only.page.waitForSelector('#board .piece.legal');
  await only.page.waitForTimeout(300);
  assert.ok(!(await only.page.isVisible('#hint')), 'no Hint for a forced move');
  assert.deepEqual([...errors, ...only.errors], []);
  await single.close();
});

test('the hint is Expert\'s, from the network of the game\'s rules and seats, and Hard\'s with a house rule changed', async () => {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('ludo.hints', 'yes'));
  const four = { ...CAPTURE, seats: ['yellow', 'blue', 'red', 'green'],
    pieces: { ...CAPTURE.pieces, blue: ['base', 'base', 'base', 'base'], green: ['base', 'base', 'base', 'base'] } };
  const { page, errors } = await resume(context, four,
    { players: { yellow: 'human', blue: 'medium', red: 'medium', green: 'medium' } });
  await page.waitForSelector('#hint:not([hidden])');
  const network = page.waitForResponse((r) => r.url().endsWith('/expert/qdan-4.bin'));
  await page.click('#hint');
  await network;
  await page.waitForFunction(() => /—/.test(document.getElementById('hint-line').textContent));
  assert.match(await page.textContent('#hint-line'), /^Hint: move piece \d \(.+\) — .+$/);
  assert.deepEqual(errors, []);
  await context.close();
  // A house rule changed: no network, Hard's hint.
  const house = await browser.newContext();
  await house.addInitScript(() => localStorage.setItem('ludo.hints', 'yes'));
  const fetched = [];
  house.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const changed = await resume(house, { ...CAPTURE, rules: { preset: 'qdan', no_piece_out: 'auto_exit' } });
  await changed.page.waitForSelector('#hint:not([hidden])');
  await changed.page.click('#hint');
  await changed.page.waitForFunction(() => /—/.test(document.getElementById('hint-line').textContent));
  assert.match(await changed.page.textContent('#hint-line'), /^Hint: move piece 1 \(.+\) — captures red △$/);
  assert.ok(!fetched.some((path) => path.startsWith('/expert/')), 'Hard hints without a network');
  assert.deepEqual(changed.errors, []);
  await house.close();
});

test('a hint\'s reason says what the move does: leaves a colour\'s reach, reaches a safe square or the finish, brings a piece out', async () => {
  const { page, errors } = await person(browser, '/');
  const reasons = (position) => page.evaluate(async (p) => {
    const { reason } = await import('/game/hint.js');
    const { loadEngine } = await import('/engine/engine.js');
    const { t } = await import('/i18n/i18n.js');
    const engine = await loadEngine();
    const layout = engine.board(p);
    return Object.fromEntries(engine.legal(p).map((m) => [m.piece,
      reason(t, layout, 'yellow', m, p.pieces, engine.move(p, m.piece).position.pieces)]));
  }, position);
  // Red's piece stands 5 squares behind yellow's first: 3 more take it out of reach; the third
  // piece lands on a star.
  assert.deepEqual(await reasons(yellowToMove(20, 41, [3], [30, 5, 'base'])),
    { 0: 'leaves the reach of red △', 1: null, 2: 'to a safe square' });
  assert.deepEqual(await reasons(yellowToMove(53, 'base', [3], [48, 'base', 'base'])),
    { 0: 'reaches the finish', 1: 'enters the home column' });
  const out = await reasons(yellowToMove(30, 'base', [6], ['base', 'base', 'base']));
  assert.equal(out[1], 'brings a piece out');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the setting survives a reload', async () => {
  const context = await browser.newContext();
  const { page, errors } = await resume(context, CAPTURE);
  await page.waitForSelector('#board .piece.legal');
  await turnHintsOn(page);
  await page.waitForSelector('#hint:not([hidden])');
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  await page.waitForSelector('#hint:not([hidden])');
  assert.equal(await page.isChecked('#hints'), true);
  // Turned off, the button goes at once.
  await page.click('#table-settings summary');
  await page.uncheck('#hints');
  await page.waitForSelector('#hint', { state: 'hidden' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('no Hint button ever in an online room, even with hints on', async () => {
  const host = await person(browser, '/');
  await host.page.evaluate(() => localStorage.setItem('ludo.hints', 'yes'));
  await openWay(host.page, 'friends');
  await host.page.fill('#friends input[name=name]', 'Ana');
  await host.page.click('#friends button[type=submit]');
  await host.page.waitForURL(/\/r\/[a-z0-9]+$/);
  await host.page.waitForSelector('#seats select.cpu-level');
  await host.page.click('#seats li:nth-child(3) button >> nth=1');
  await host.page.waitForSelector('#start:not([disabled])');
  await host.page.click('#start');
  await host.page.waitForFunction(() => /throw|move/.test(document.querySelector('#status').textContent));
  let choices = 0;
  for (let i = 0; i < 60 && !(await host.page.isVisible('#end')); i++) {
    const offered = await host.page.evaluate(() => ({
      hint: Boolean(document.getElementById('hint')),
      setting: !document.getElementById('hints-setting').hidden,
      pieces: new Set([...document.querySelectorAll('#board .piece.legal')].map((p) => p.dataset.progress)).size,
    }));
    assert.deepEqual([offered.hint, offered.setting], [false, false], `step ${i}`);
    if (offered.pieces > 1) choices++;
    await step(host.page);
    await host.page.waitForTimeout(50);
  }
  console.log(`online: ${choices} choices seen without a Hint`);
  assert.deepEqual(host.errors, []);
  await host.page.context().close();
});
