// The board drawings against the engine's numbers, under Node: every track square the engine
// counts has a cell of its own, the track runs from cell to neighbouring cell (straight across
// the centre where arms meet), each door leads into its home column, and no base covers a square.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine } from '../../static/engine/engine.js';
import { cellOf, layoutOf, pathOf } from '../../static/game/board.js';

const wasm = readFileSync(process.env.LUDO_WASM);
const near = ([r1, c1], [r2, c2]) => Math.max(Math.abs(r1 - r2), Math.abs(c1 - c2)) <= 1;

const boards = [
  ['the cross', 'qdan', ['yellow', 'blue', 'red', 'green']],
  ['the horse board', 'vietnamese', ['yellow', 'red']],
  ['the two-arm board', { preset: 'qdan', layout: 'by_players' }, ['yellow', 'red']],
  ['the T board', { preset: 'qdan', layout: 'by_players' }, ['yellow', 'blue', 'red']],
];

for (const [name, rules, seats] of boards) {
  test(`${name} draws every square the engine counts, each door leading home`, async () => {
    const engine = await loadEngine(wasm);
    const geometry = engine.board(engine.newGame(rules, seats));
    const layout = layoutOf(geometry);
    const keys = layout.track.map((cell) => cell.join(','));
    assert.equal(new Set(keys).size, geometry.track_len, 'one cell a square');
    const jumps = layout.track.filter((cell, i) => !near(cell, layout.track[(i + 1) % layout.track.length]));
    assert.equal(jumps.length, 4 - geometry.arms, 'arms meet directly: one step across the centre for each missing arm');
    for (const seat of seats) {
      const arm = geometry.seat_arms[seat];
      const door = cellOf(layout, arm, geometry.door, 0);
      assert.ok(near(door, cellOf(layout, arm, geometry.door + 1, 0)), `${seat}'s door leads home`);
      const path = pathOf(layout, arm, 0, 0, geometry.door);
      assert.equal(path.length, geometry.door + 1);
      for (let i = 0; i < 4; i++) {
        assert.ok(!keys.includes(cellOf(layout, arm, 'base', i).join(',')), 'bases cover no square');
      }
    }
  });
}
