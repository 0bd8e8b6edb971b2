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

test('the engine says why a throw moves no piece, piece by piece', async () => {
  const engine = await loadEngine(wasm);
  const start = engine.newGame('qdan', ['yellow', 'red']);
  // Yellow's piece 0 is in the home column, three from the finish; piece 1 stands before a red
  // blockade (red 38 is square 12).
  const position = { ...start, pieces: { yellow: [53, 10, 'base', 'base'], red: [38, 38, 'base', 'base'] } };
  const base = { reason: 'in_base', exit_values: [6], exit_on_double: false };
  assert.deepEqual(engine.whyNoMove(position, [4]), {
    forfeit: false,
    pieces: [
      { piece: 0, reason: 'exact_count', needs: 3 },
      { piece: 1, reason: 'blockade' },
      { piece: 2, ...base },
      { piece: 3, ...base },
    ],
  });
  // A piece that can move is left out.
  assert.deepEqual(engine.whyNoMove(position, [3]).pieces.map((p) => p.piece), [1, 2, 3]);
  const third = { ...position, turn: { ...position.turn, bonus_streak: 2, throws: 2 } };
  assert.deepEqual(engine.whyNoMove(third, [6]), { forfeit: true, pieces: [] });
  const horses = engine.newGame('vietnamese', ['yellow', 'red']);
  const stable = { reason: 'in_base', exit_values: [1, 6], exit_on_double: true };
  assert.deepEqual(engine.whyNoMove(horses, [2, 3]).pieces[0], { piece: 0, ...stable });
  assert.throws(() => engine.whyNoMove(horses, [5]), (e) => e instanceof EngineError && e.code === 'wrong_dice');
});

test('the hint after “no move” says each reason once, with the pieces that have it', async () => {
  const { chooseLanguage, setBoard, t } = await import('../../static/i18n/i18n.js');
  const { noMoveHint } = await import('../../static/game/nomove.js');
  // The page's language, which lists are written in.
  globalThis.document = { documentElement: { lang: 'en' } };
  const engine = await loadEngine(wasm);
  const hint = (position, dice) => noMoveHint(t, engine.whyNoMove(position, dice),
    position.pieces[position.turn.seat], dice);
  await chooseLanguage(['en'], 'en');
  setBoard('ludo');
  const start = engine.newGame('qdan', ['yellow', 'red']);
  assert.equal(hint(start, [5]), 'A piece leaves the base only on a 6');
  const stuck = { ...start, pieces: { yellow: [53, 10, 53, 'base'], red: [38, 38, 'base', 'base'] } };
  assert.equal(hint(stuck, [4]), 'Pieces 1 and 3 need exactly 3 to finish; a blockade stops piece 2');
  const third = { ...stuck, turn: { ...stuck.turn, bonus_streak: 2, throws: 2 } };
  assert.equal(hint(third, [6]), null, 'a forfeit is said by the status itself');
  document.documentElement.lang = 'vi';
  await chooseLanguage(['vi'], 'vi');
  setBoard('horse');
  const horses = engine.newGame('vietnamese', ['yellow', 'red']);
  assert.equal(hint(horses, [2, 3]), 'Ngựa ra khỏi chuồng khi một xúc xắc ra 1 hoặc 6, hoặc khi gieo đôi');
  const crowded = { ...horses, pieces: { yellow: [0, 3, 61, 'base'], red: ['base', 'base', 'base', 'base'] } };
  assert.equal(hint(crowded, [1, 2]),
    'Ngựa 1 sẽ đứng chung ô với ngựa nhà; ngựa của bạn ở ô xuất phát chặn lối ra chuồng');
  setBoard('ludo');
  delete globalThis.document;
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
