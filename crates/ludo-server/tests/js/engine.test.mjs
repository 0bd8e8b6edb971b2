// The browser's engine module against the WebAssembly the server serves, under Node's test
// runner: a whole game against CPU players, decided by the Rust engine alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine, EngineError } from '../../static/engine.js';

const wasm = readFileSync(process.env.LUDO_WASM);

test('a whole game against three CPU players ends with places for every seat', async () => {
  const engine = await loadEngine(wasm);
  let position = engine.newGame('qdan', ['yellow', 'blue', 'red', 'green']);
  let seed = 1;
  for (let actions = 0; position.turn.phase !== 'over'; actions++) {
    assert.ok(actions < 100000, 'the game ends');
    if (position.turn.phase === 'move') {
      const choice = engine.bot(position, 'medium', seed++);
      const legal = engine.legal(position).map((m) => m.piece);
      assert.ok(legal.includes(choice.piece));
      position = engine.move(position, choice.piece).position;
    } else {
      position = engine.roll(position, [1 + (seed++ * 7919) % 6]);
    }
  }
  for (const seat of position.seats) assert.ok(position.places[seat] >= 1);
});

test('an illegal action is refused with the reason', async () => {
  const engine = await loadEngine(wasm);
  const position = engine.newGame('vietnamese', ['yellow', 'red']);
  assert.throws(() => engine.roll(position, [6]), EngineError);
  assert.throws(() => engine.move(position, 0), /phase/);
  assert.throws(() => engine.newGame({ preset: 'qdan', dice: 3 }, ['yellow', 'red']), /dice/);
});
