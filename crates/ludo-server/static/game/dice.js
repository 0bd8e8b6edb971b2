// The dice on the board: they stand in the base of the seat to play and are its throw button
// (a tap or a click on them, or on that base, throws; so do Space and Enter when they have focus).
// Rolling shows random faces for a moment, then the throw; faces shown while rolling are
// decoration, never a throw.

import { CELL_SIZE, diceSpot } from './board.js';
import { svgElement as el } from '../dom.js';

const PIPS = {
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [0, 2], [2, 0], [2, 2]],
  5: [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]],
  6: [[0, 0], [0, 2], [1, 0], [1, 2], [2, 0], [2, 2]],
};

/**
 * One die of side `size` centred on (x, y) showing `value`; before a throw (`value` null) a die
 * all the same, its five pips faint, so that it reads as a die to throw and not as a throw.
 */
function face(parent, x, y, size, value) {
  const die = el('g', { class: value === null ? 'die idle' : 'die', 'data-value': value ?? '' }, parent);
  el('rect', { x: x - size / 2, y: y - size / 2, width: size, height: size, rx: size * 0.18 }, die);
  const step = size * 0.27;
  for (const [r, c] of PIPS[value ?? 5]) {
    el('circle', { cx: x + (c - 1) * step, cy: y + (r - 1) * step, r: size * 0.09 }, die);
  }
  return die;
}

/**
 * Draws the dice of `seat` in its base on the board `layout` was drawn for: `count` dice showing
 * `values` (blank while null). With `onThrow`, the dice and the whole base are a button that
 * throws. Returns the group drawn.
 */
export function drawDice(svg, layout, seat, count, values, { onThrow = null, label = '', ready = false } = {}) {
  for (const old of svg.querySelectorAll('.dice')) old.remove();
  const arm = layout.seat_arms[seat];
  if (arm === undefined) return null;
  const { centre: [x, y], base } = diceSpot(layout, arm);
  const g = el('g', { class: ready ? 'dice ready' : 'dice', id: 'die', 'data-seat': seat }, svg);
  if (onThrow) {
    // The base is part of the button: a thumb can hit it anywhere.
    el('rect', { ...base, class: 'throw-area' }, g);
    g.setAttribute('role', 'button');
    g.setAttribute('tabindex', '0');
    g.setAttribute('aria-label', label);
    g.addEventListener('click', () => onThrow());
    g.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      onThrow();
    });
  } else {
    g.setAttribute('aria-hidden', 'true');
  }
  const size = CELL_SIZE * (count === 2 ? 1.0 : 1.3);
  // Two dice stand apart by more than their tumble turns them: they never touch while rolling.
  const xOf = (i) => x + (count === 2 ? (i === 0 ? -0.7 : 0.7) * CELL_SIZE : 0);
  const faces = Array.from({ length: count }, (_, i) => face(g, xOf(i), y, size, values?.[i] ?? null));
  g.dataset.values = values ? values.join(',') : '';
  g.faces = faces.map((f, i) => ({ f, x: xOf(i), y, size }));
  return g;
}

/**
 * Rolls the dice group `drawDice` drew for `ms` milliseconds (random faces, a little tumble),
 * then shows `values`. Resolves when they have landed.
 */
export function rollDice(group, values, ms) {
  group.classList.add('rolling');
  const redraw = (shown) => {
    group.faces = group.faces.map(({ f, x, y, size }, i) => {
      const next = face(group, x, y, size, shown[i]);
      f.replaceWith(next);
      return { f: next, x, y, size };
    });
  };
  return new Promise((resolve) => {
    const began = performance.now();
    const spin = () => {
      if (performance.now() - began >= ms || !group.isConnected) {
        clearInterval(timer);
        redraw(values);
        group.classList.remove('rolling');
        group.dataset.values = values.join(',');
        resolve();
      } else {
        redraw(values.map(() => 1 + Math.floor(Math.random() * 6)));
      }
    };
    const timer = setInterval(spin, 70);
    spin();
  });
}
