// The page's rules engine passes every rules vector: the engine module the page loads
// (static/engine/engine.js, with the /engine.wasm the page fetches) runs each case of every
// crates/ludo-rules/tests/data/*.jsonl in the browser, checked as docs/position.md §4 says, the
// same cases the library and the `ludo` binary pass on every `cargo test`.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { launch, url } from './browser.mjs';

const DATA = new URL('../crates/ludo-rules/tests/data/', import.meta.url);

/** Every vector file, by name, with its cases. */
const files = readdirSync(DATA)
  .filter((name) => name.endsWith('.jsonl'))
  .sort()
  .map((name) => ({
    name,
    cases: readFileSync(new URL(name, DATA), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line)),
  }));

const browser = await launch();
after(() => browser.close());

/**
 * Runs `files` through the page's engine, in the page: the failing cases, each `{file, name,
 * why}`, and how many cases ran. Everything it needs is inside, since it runs in the browser.
 */
async function runInPage(files) {
  const { loadEngine, EngineError } = await import('/engine/engine.js');
  const engine = await loadEngine();

  /** Every field of `want` is in `got` with the same value; what differs otherwise. */
  const partial = (want, got, path) => {
    if (want !== null && typeof want === 'object' && !Array.isArray(want)) {
      if (got === null || typeof got !== 'object' || Array.isArray(got)) {
        return `${path}: want an object, got ${JSON.stringify(got)}`;
      }
      for (const [key, value] of Object.entries(want)) {
        if (!(key in got)) return `${path}.${key}: missing`;
        const differs = partial(value, got[key], `${path}.${key}`);
        if (differs) return differs;
      }
      return null;
    }
    return JSON.stringify(want) === JSON.stringify(got)
      ? null
      : `${path}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
  };
  const pairs = (moves) => moves.map((m) => `${m.piece}>${m.to}`).sort().join(' ');
  const captures = (m) => (m.captures ?? []).map((c) => `${c.seat}.${c.piece}`).sort().join(' ');

  /** An engine call: `{ok}`, or `{refused: {code, params}}` when the engine refused it. */
  const attempt = (call) => {
    try {
      return { ok: call() };
    } catch (error) {
      if (error instanceof EngineError) return { refused: { code: error.code, params: error.params } };
      throw error;
    }
  };
  const act = (position, [verb, ...numbers]) => {
    if (verb === 'roll') return attempt(() => engine.roll(position, numbers));
    if (verb === 'move') return attempt(() => engine.move(position, numbers[0]).position);
    throw new Error(`no action ${JSON.stringify(verb)}`);
  };
  const read = (position) =>
    attempt(() => ({ options: engine.options(position).options, board: engine.board(position) }));
  const checkRefusal = (want, refused) =>
    typeof want === 'object' ? partial(want, refused, 'error') : null;

  const checkLegal = (want, position) => {
    if (position.turn.phase !== 'move') {
      return want.length === 0 ? null : `legal moves: want ${JSON.stringify(want)}, but the phase is ${position.turn.phase}`;
    }
    const answer = attempt(() => engine.legal(position));
    if (answer.refused) return `legal refused: ${JSON.stringify(answer.refused)}`;
    const got = answer.ok;
    if (pairs(want) !== pairs(got)) return `legal moves: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
    for (const m of want) {
      const theirs = got.find((g) => g.piece === m.piece);
      if ('from' in m && JSON.stringify(m.from) !== JSON.stringify(theirs.from)) {
        return `from: want ${JSON.stringify(m)}, got ${JSON.stringify(theirs)}`;
      }
      if ('captures' in m && captures(m) !== captures(theirs)) {
        return `captures: want ${JSON.stringify(m)}, got ${JSON.stringify(theirs)}`;
      }
    }
    return null;
  };

  /** What is wrong with one case, or null. */
  const runCase = ({ position: start, do: actions, expect }) => {
    const error = expect.error === false ? undefined : expect.error;
    let position = start;
    for (const [i, action] of actions.entries()) {
      const last = i + 1 === actions.length;
      const answer = act(position, action);
      if (answer.refused && last && error !== undefined) return checkRefusal(error, answer.refused);
      if (answer.refused) return `${JSON.stringify(action)} refused: ${JSON.stringify(answer.refused)}`;
      if (last && error !== undefined) return `${JSON.stringify(action)} should be refused`;
      position = answer.ok;
    }
    if (actions.length === 0 || 'options' in expect || 'board' in expect) {
      const answer = read(position);
      if (answer.refused && error !== undefined) return checkRefusal(error, answer.refused);
      if (answer.refused) return `the position is refused: ${JSON.stringify(answer.refused)}`;
      if (error !== undefined) return 'the position should be refused';
      if ('options' in expect) {
        const differs = partial(expect.options, answer.ok.options, 'options');
        if (differs) return differs;
      }
      if ('board' in expect) {
        const differs = partial(expect.board, answer.ok.board, 'board');
        if (differs) return differs;
      }
    }
    if ('position' in expect) {
      const differs = partial(expect.position, position, 'position');
      if (differs) return differs;
    }
    if ('legal' in expect) return checkLegal(expect.legal, position);
    return null;
  };

  const failures = [];
  let ran = 0;
  for (const { name: file, cases } of files) {
    for (const vector of cases) {
      ran += 1;
      let why;
      try {
        why = runCase(vector);
      } catch (e) {
        why = `broke: ${e?.stack ?? e}`;
      }
      if (why) failures.push({ file, name: vector.name, why });
    }
  }
  return { failures, ran };
}

test('every rules vector passes through the engine the page loads', async () => {
  const total = files.reduce((sum, f) => sum + f.cases.length, 0);
  assert.ok(files.some((f) => f.name === 'rules.jsonl'), 'the shared vectors are among the files');
  assert.ok(files.every((f) => f.cases.length > 0), 'no vector file is empty');
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}/`);
  const { failures, ran } = await page.evaluate(runInPage, files);
  await page.close();
  assert.equal(ran, total, 'every case ran');
  assert.deepEqual(
    failures.map(({ file, name, why }) => `${file}: ${name}: ${why}`),
    [],
    `${failures.length} of ${total} vectors fail in the page's engine`,
  );
  assert.deepEqual(errors, []);
});
