// A finished game's analysis under its replay. A fixed game (the engine's own analysis fixture,
// `ludo-bots/tests/data/game.json`, with Ana, a person, at red) opened in the replay viewer on a
// phone: the analysis arrives from the CPU worker and shows Ana's sentence, a chart of each seat's
// chance after every step, the same figures as a table, the turning points and Ana's costly moves,
// one of which, picked, shows the position with the move made and the Expert CPU's; in English and
// in French. A room's game under the standard rules with four seats, opened at /games/<id>, is
// analysed too; a game under other rules says it is not analysed.
// Screenshots go to LUDO_SHOTS when it is set.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accessibilityViolations, launch, url } from './browser.mjs';
import { playRoomGame } from './roomgame.mjs';

const browser = await launch();
after(() => browser.close());

const shots = process.env.LUDO_SHOTS;
if (shots) mkdirSync(shots, { recursive: true });

const WORDS = {
  en: { title: 'Analysis', played: /^Played: /, suggested: /^The Expert CPU’s choice: /,
    summary: 'You — best move: step 435. Most costly: step 392 (−10 points).',
    costly: ['Step 392, Ana △: the Expert CPU would have moved another piece (−10 points)',
      'Step 341, Ana △: the Expert CPU would have moved another piece (−6 points)'],
    turning: /^Step 446: .+ — Ana △: 49% → 25%$/,
    unavailable: 'The analysis covers the games the Expert CPU has learned: without house rules, and not yet the Vietnamese rules with 3 or 4 players.' },
  fr: { title: 'Analyse', played: /^Joué : /, suggested: /^Le choix du CPU Expert : /,
    summary: 'Vous — meilleur coup : étape 435. Le plus coûteux : étape 392 (−10 points).',
    costly: ['Étape 392, Ana △ : le CPU Expert aurait avancé une autre pièce (−10 points)',
      'Étape 341, Ana △ : le CPU Expert aurait avancé une autre pièce (−6 points)'],
    turning: /^Étape 446 : .+ — Ana △ : 49\u202f% → 25\u202f%$/,
    unavailable: 'L’analyse couvre les parties que le CPU Expert a apprises : sans règles locales, et pas encore les règles vietnamiennes à 3 ou 4 joueurs.' },
};

/** The engine's fixed game, played by Ana at red (a local game's record, as exported). */
const fixed = JSON.parse(readFileSync(new URL('../crates/ludo-bots/tests/data/game.json', import.meta.url), 'utf8'));
fixed.players.red = { kind: 'person', name: 'Ana' };

let game;
let record;

before(async () => {
  game = await playRoomGame(browser, { preset: 'qdan' }, { blue: 'medium', red: 'medium', green: 'medium' });
  record = await (await fetch(`${url}/api/games/${game.id}`)).json();
});

/** A fresh page in `language` at `viewport`, with its errors, opened at `path`. */
async function open(path, language, viewport, { local = null } = {}) {
  const context = await browser.newContext({ locale: language, viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  // The analysis' own files, as the page or its worker fetch them.
  const heavy = [];
  context.on('request', (r) => /\/(analysis\.wasm|expert\/[\w-]+\.bin)$/.test(r.url()) && heavy.push(new URL(r.url()).pathname));
  if (local) {
    // As a local game's "Replay and analysis" opens it: kept for the tab.
    await page.goto(`${url}/`);
    await page.evaluate((saved) => sessionStorage.setItem('ludo.replay', saved), JSON.stringify(local));
  }
  await page.goto(`${url}${path}`);
  await page.waitForSelector('.replay[data-step]');
  const drawn = Date.now();
  await page.waitForSelector('#replay-analysis[data-analysed=true], #replay-analysis .analysis-unavailable', { timeout: 30_000 });
  return { page, errors, close: () => context.close(), took: Date.now() - drawn, fetched: () => heavy };
}

/** The chart's lines: seat, number of points, dash pattern. */
const chartLines = (page) => page.$$eval('.analysis-chart polyline', (all) => all.map((l) => ({
  seat: l.dataset.seat, points: l.getAttribute('points').split(' ').length, dashed: l.getAttribute('stroke-dasharray') })));

/** The table of figures, each row's chances as whole percentages. */
const figures = (page) => page.$$eval('.analysis-table tbody tr', (all) => all.map((r) => [...r.querySelectorAll('td')]
  .map((td) => Number(td.textContent.replace(/[^\d]/g, '')))));

for (const [language, viewport] of [['en', { width: 360, height: 640 }], ['fr', { width: 390, height: 844 }]]) {
  const words = WORDS[language];

  test(`after a game, the analysis charts every seat's chance, names the turning points and shows a costly move on the board (${language})`, async () => {
    const { page, errors, close, fetched } = await open('/replay', language, viewport, { local: fixed });
    assert.equal(await page.textContent('#replay-analysis h3'), words.title);
    assert.deepEqual([...new Set(fetched())].sort(), ['/analysis.wasm', '/expert/qdan-4.bin'], 'the analysis fetches its own files');
    // The person watching played red: their sentence first.
    assert.equal(await page.textContent('.analysis-summary'), words.summary);
    // A line per seat, a point per step, each with its own pattern.
    const lines = await chartLines(page);
    assert.deepEqual(lines.map((l) => l.seat), fixed.seats);
    for (const line of lines) assert.equal(line.points, fixed.actions.length + 1, line.seat);
    assert.equal(new Set(lines.map((l) => l.dashed)).size, 4, 'each line has a pattern of its own');
    // The figures: each row sums to 100%, and at the end the winner (green) has it all.
    const rows = await figures(page);
    assert.equal(rows.length, 12, 'the start, every tenth of the game and the end');
    for (const row of rows) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 100) <= 2, `a row sums to 100: ${row}`);
    assert.deepEqual(rows.at(-1), [0, 0, 0, 100]);
    // The biggest turning point first; picked, the replay shows its step and the chart's cursor
    // follows.
    const turning = await page.$$eval('.analysis-turning button', (all) => all.map((b) => b.textContent));
    assert.match(turning[0], words.turning);
    await page.click('.analysis-turning li:first-child button');
    assert.equal(await page.$eval('.replay', (r) => Number(r.dataset.step)), 446);
    const cursor = await page.$eval('.analysis-chart .cursor', (c) => Number(c.getAttribute('x1')));
    assert.ok(Math.abs(cursor - (446 / fixed.actions.length) * 320) < 0.5, `cursor at ${cursor}`);
    // Ana's costly moves, costliest first: picked, the position before it, a dashed ghost where
    // her move went and a marked one where the Expert CPU's would have gone, both said under the
    // board.
    assert.deepEqual(await page.$$eval('.analysis-costly button', (all) => all.map((b) => b.textContent)), words.costly);
    await page.click('.analysis-costly li:first-child button');
    assert.equal(await page.$eval('.replay', (r) => Number(r.dataset.step)), 391, 'the position before the move');
    assert.equal(await page.locator('#replay-board .preview').count(), 2);
    assert.equal(await page.locator('#replay-board .preview.suggested').count(), 1);
    const shown = await page.$$eval('.analysis-shown span', (all) => all.map((s) => s.textContent));
    assert.match(shown[0], words.played);
    assert.match(shown[1], words.suggested);
    assert.ok(await page.isVisible('.replay-stage + .analysis-shown'), 'said right under the board');
    if (shots) await page.screenshot({ path: join(shots, `analysis-${language}-${viewport.width}x${viewport.height}-costly.png`) });
    // Another step shown: the ghosts and their words go.
    await page.click('.replay-forward');
    assert.equal(await page.locator('#replay-board .preview').count(), 0);
    assert.ok(await page.isHidden('.analysis-shown'));
    assert.deepEqual(await accessibilityViolations(page), []);
    if (shots) await page.screenshot({ path: join(shots, `analysis-${language}-${viewport.width}x${viewport.height}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await close();
  });
}

test('a room\'s game is analysed on its own page, the winner\'s chance ending at 100%', async () => {
  const { page, errors, close, took } = await open(`/games/${game.id}`, 'en', { width: 1280, height: 800 });
  console.log(`the analysis of ${record.actions.length} actions was shown ${took} ms after the replay`);
  const lines = await chartLines(page);
  assert.deepEqual(lines.map((l) => l.seat), record.seats);
  for (const line of lines) assert.equal(line.points, record.actions.length + 1, line.seat);
  const winner = Object.entries(record.places).find(([, place]) => place === 1)[0];
  assert.equal((await figures(page)).at(-1)[record.seats.indexOf(winner)], 100);
  // Ana is a person seen by another device: her sentence names her.
  assert.match(await page.textContent('.analysis-summary'), /^Ana ○ — /);
  if (shots) await page.screenshot({ path: join(shots, 'analysis-en-1280x800.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await close();
});

test('a Vietnamese two-player game is analysed with its own network, in the horse board\'s words', async () => {
  const horse = await playRoomGame(browser, 'vietnamese', { red: 'random' });
  const { page, errors, close, fetched } = await open(`/games/${horse.id}`, 'vi', { width: 390, height: 844 });
  const played = await (await fetch(`${url}/api/games/${horse.id}`)).json();
  const lines = await chartLines(page);
  assert.deepEqual(lines.map((l) => l.seat), played.seats);
  for (const line of lines) assert.equal(line.points, played.actions.length + 1, line.seat);
  assert.ok(fetched().includes('/expert/vietnamese-2.bin'), fetched().join(', '));
  assert.match(await page.textContent('.analysis-summary'), /^Ana/);
  if (shots) await page.screenshot({ path: join(shots, 'analysis-vi-horse-390x844.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await close();
});

test('a game with a house rule changed says it is not analysed', async () => {
  const house = await playRoomGame(browser, { preset: 'qdan', no_piece_out: 'auto_exit' }, { blue: 'random' });
  for (const language of ['en', 'fr']) {
    const { page, errors, close, fetched } = await open(`/games/${house.id}`, language, { width: 360, height: 640 });
    assert.equal(await page.textContent('#replay-analysis .analysis-unavailable'), WORDS[language].unavailable);
    assert.equal(await page.locator('#replay-analysis progress').count(), 0, 'no progress bar left');
    assert.deepEqual(fetched(), [], 'nothing is fetched for it');
    assert.deepEqual(errors, []);
    await close();
  }
});
