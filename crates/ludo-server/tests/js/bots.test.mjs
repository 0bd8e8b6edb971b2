// The browser's CPU players are the server's: in every position of the file LUDO_BOT_CASES names
// (written by engine_js.rs from seeded random games played by the native engine, under several
// presets and seat counts), the browser's engine module offers exactly the native legal moves, and
// its CPU player of every level, given the same position and seed, chooses exactly the move the
// native player chose — the whole move, captures included (`expert` with the network the page
// fetches installed). And the analysis of a whole game by the network is the native one, whole
// or in parts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyse } from '../../static/engine/analysis.js';
import { EngineError, loadEngine } from '../../static/engine/engine.js';

const wasm = readFileSync(process.env.LUDO_WASM);
const cases = readFileSync(process.env.LUDO_BOT_CASES, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));
const levels = process.env.LUDO_BOT_LEVELS.split(',');
/**
 * The `expert` CPU's networks learned against `medium`, which the page fetches from
 * `/expert/<name>.bin`, each for the game it names; `qdan-4` first.
 */
const networksDir = process.env.LUDO_EXPERT_NETWORKS;
const networks = readdirSync(networksDir).filter((name) => !name.endsWith('-random.bin')).sort()
  .map((name) => ({ name, bytes: readFileSync(join(networksDir, name)) }))
  .sort((a, b) => (b.name === 'qdan-4.bin') - (a.name === 'qdan-4.bin'));
const installAll = (engine) => networks.every(({ bytes }) => engine.installExpert(bytes) === true);
/** A whole game's record, and the native analysis of it (`ludo analyse`'s JSON). */
const analysed = JSON.parse(readFileSync(process.env.LUDO_ANALYSIS_RECORD, 'utf8'));
const nativeAnalysis = JSON.parse(readFileSync(process.env.LUDO_ANALYSIS_NATIVE, 'utf8'));
const shown = (mismatches) => `${mismatches.length} mismatches, the first:\n${mismatches.slice(0, 20).join('\n')}`;

test('every position the native side wrote is read, with a choice for every level', () => {
  assert.equal(cases.length, Number(process.env.LUDO_BOT_POSITIONS));
  for (const c of cases) assert.deepEqual(Object.keys(c.choices).sort(), [...levels].sort(), c.label);
});

test('the browser offers exactly the native legal moves in every position', async () => {
  const engine = await loadEngine(wasm);
  const mismatches = [];
  for (const c of cases) {
    const legal = engine.legal(c.position);
    try {
      assert.deepStrictEqual(legal, c.moves);
    } catch {
      mismatches.push(`${c.label}: browser ${JSON.stringify(legal)}, native ${JSON.stringify(c.moves)}`);
    }
  }
  assert.equal(mismatches.length, 0, shown(mismatches));
});

for (const level of levels) {
  test(`the browser's ${level} CPU chooses the native ${level} CPU's move for every position and seed`, async (t) => {
    const engine = await loadEngine(wasm);
    assert.ok(installAll(engine));
    const mismatches = [];
    let compared = 0;
    let seeded = 0;
    for (const c of cases) {
      if (new Set(c.choices[level].map(([, m]) => m.piece)).size > 1) seeded++;
      for (const [seed, native] of c.choices[level]) {
        const browser = engine.bot(c.position, level, seed);
        compared++;
        try {
          assert.deepStrictEqual(browser, native);
        } catch {
          mismatches.push(`${c.label}, seed ${seed}: browser ${JSON.stringify(browser)}, native ${JSON.stringify(native)}`);
        }
      }
    }
    t.diagnostic(`${level}: ${compared} choices compared in ${cases.length} positions, ${seeded} of them where the seed changes the choice`);
    assert.ok(compared > 0, 'some choices were compared');
    assert.equal(mismatches.length, 0, shown(mismatches));
  });
}

test('the browser analyses a game exactly as the native engine does, whole or in parts', async (t) => {
  // The page's engine leaves the analysis to the module fetched for it.
  const page = await loadEngine(wasm);
  assert.throws(() => analyse(page, analysed), /unknown operation 13/);
  const engine = await loadEngine(readFileSync(process.env.LUDO_ANALYSIS_WASM));
  assert.throws(() => analyse(engine, analysed), (e) => e instanceof EngineError && e.code === 'no_network');
  assert.equal(engine.installExpert(networks[0].bytes), true);
  const started = performance.now();
  const whole = analyse(engine, analysed);
  t.diagnostic(`${analysed.actions.length} actions analysed in ${(performance.now() - started).toFixed(1)} ms`);
  assert.deepStrictEqual(whole, nativeAnalysis);
  const first = analyse(engine, analysed, 0, 100);
  const rest = analyse(engine, analysed, 100);
  assert.equal(rest.start, 101);
  assert.equal(first.summary, undefined);
  assert.deepStrictEqual([...first.chances, ...rest.chances], whole.chances);
  assert.deepStrictEqual([...first.choices, ...rest.choices], whole.choices);
  // A classic game waits for its own network; with a house rule changed there is none.
  const classic = { ...analysed, rules: 'classic' };
  assert.throws(() => analyse(engine, classic), (e) => e.code === 'no_network');
  const house = { ...analysed, rules: { preset: 'qdan', stacking: false } };
  assert.throws(() => analyse(engine, house), (e) => e.code === 'analysis_unavailable');
});
