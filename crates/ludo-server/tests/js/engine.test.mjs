// The browser's engine module against the WebAssembly the server serves, under Node's test
// runner: a whole game against CPU players, decided by the Rust engine alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine, EngineError } from '../../static/engine/engine.js';

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

test('an engine error carries its code and values, and the page says it in the reader’s words', async () => {
  const { chooseLanguage, t } = await import('../../static/i18n/i18n.js');
  const { errorText } = await import('../../static/i18n/texts-errors.js');
  const engine = await loadEngine(wasm);
  const position = engine.newGame('qdan', ['yellow', 'red']);
  const rolled = engine.roll(position, [6]);
  const refused = (action) => {
    try {
      action();
    } catch (error) {
      return error;
    }
    assert.fail('the engine refuses it');
  };
  const early = refused(() => engine.move(position, 0));
  assert.ok(early instanceof EngineError);
  assert.equal(early.code, 'wrong_phase');
  assert.deepEqual(early.params, { action: 'move', phase: 'roll' });
  const stuck = refused(() => engine.move(rolled, 7));
  assert.equal(stuck.code, 'no_such_piece');
  const bad = refused(() => engine.legal({ ...position, pieces: { ...position.pieces, red: [3, 'base', 'base'] } }));
  assert.deepEqual([bad.code, bad.params], ['piece_count', { field: 'pieces.red', count: 3 }]);
  const contradiction = refused(() => engine.newGame({ preset: 'vietnamese', exact_finish: false }, ['yellow', 'red']));
  assert.deepEqual([contradiction.code, contradiction.option], ['horse_inexact_finish', 'exact_finish']);
  await chooseLanguage(['fr'], 'fr');
  assert.equal(errorText(early, t), 'Pas maintenant : c’est le moment de lancer.');
  assert.equal(errorText(stuck, t), 'Il n’y a pas de pièce 8 : chaque joueur en a 4.');
  assert.equal(errorText(bad, t), 'Chaque joueur a 4 pièces, pas 3.');
  assert.match(errorText(contradiction, t), /plateau des chevaux/);
  assert.equal(errorText({ code: 'illegal_move', engine: { code: 'no_move', params: { seat: 'red', piece: 1 } } }, t),
    'La pièce 2 (rouge △) ne peut pas avancer avec ce lancer.');
  assert.equal(errorText({ code: 'no_such_room' }, t), 'Ce salon n’existe pas.');
  assert.equal(errorText(new TypeError('Failed to fetch'), t, 'refusal.other'), 'Le serveur a refusé cette demande.');
  await chooseLanguage(['en'], 'en');
});
