// What makes a turn easy to follow: the dice rolling, the moved piece walking its path square by
// square, a ring where a piece was captured or came home. Nothing moves when the person asked
// their system for reduced motion; the board itself is always drawn from the position first, so
// an animation cut short by the next action leaves nothing behind.

import { centreOf, pathOf } from './board.js';

const SVG = 'http://www.w3.org/2000/svg';
/** The longest a piece's walk may take, whatever its length, so CPU games keep their pace. */
const WALK_MS = 420;
const STEP_MS = 90;
const ROLL_MS = 360;
const PIPS = {
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [0, 2], [2, 0], [2, 2]],
  5: [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]],
  6: [[0, 0], [0, 2], [1, 0], [1, 2], [2, 0], [2, 2]],
};

/** Whether the person asked for reduced motion: then nothing is animated. */
export function reducedMotion() {
  return globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

function face(value) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 30 30');
  svg.setAttribute('class', 'die');
  svg.dataset.value = String(value);
  const body = document.createElementNS(SVG, 'rect');
  for (const [k, v] of Object.entries({ x: 1, y: 1, width: 28, height: 28, rx: 5 })) body.setAttribute(k, v);
  svg.append(body);
  for (const [r, c] of PIPS[value]) {
    const pip = document.createElementNS(SVG, 'circle');
    for (const [k, v] of Object.entries({ cx: 7 + c * 8, cy: 7 + r * 8, r: 2.6 })) pip.setAttribute(k, v);
    svg.append(pip);
  }
  return svg;
}

let rolling = null;

/**
 * Shows the throw `dice` (one or two faces) in `box`, after a short roll of random faces unless
 * motion is reduced. The faces shown while rolling are decoration, never a throw.
 */
export function showDice(box, dice) {
  clearInterval(rolling);
  const settle = () => {
    box.replaceChildren(...dice.map(face));
    box.classList.remove('rolling');
  };
  if (reducedMotion()) return settle();
  const began = performance.now();
  box.classList.add('rolling');
  const spin = () => {
    if (performance.now() - began >= ROLL_MS) {
      clearInterval(rolling);
      settle();
    } else {
      box.replaceChildren(...dice.map(() => face(1 + Math.floor(Math.random() * 6))));
    }
  };
  spin();
  rolling = setInterval(spin, 60);
}

function ring(svg, [x, y], kind) {
  const circle = document.createElementNS(SVG, 'circle');
  for (const [k, v] of Object.entries({ cx: x, cy: y, r: 26, class: `flash ${kind}` })) circle.setAttribute(k, v);
  svg.append(circle);
}

function walk(node, cells, end) {
  const [ex, ey] = centreOf(end);
  const frames = cells.map((cell) => {
    const [x, y] = centreOf(cell);
    return { transform: `translate(${x - ex}px, ${y - ey}px)` };
  });
  const duration = Math.min(WALK_MS, STEP_MS * (cells.length - 1));
  node.parentNode.append(node);
  node.animate(frames, { duration, easing: 'linear' });
}

/**
 * Shows the move the engine just played on the board `drawBoard` drew (`layout` is what it
 * returned): the piece walks from `move.from` to `move.to` along the cells of its progress, the
 * pieces it captured go back to their bases, and a ring marks a capture or a piece come home.
 * `finished` says whether the move finished the piece (the engine's `finished_from`).
 */
export function showMove(svg, layout, colour, move, finished) {
  const arm = layout.seat_arms[colour];
  const cells = pathOf(layout, arm, move.piece, move.from, move.to);
  const end = cells[cells.length - 1];
  const piece = svg.querySelector(`.piece[data-colour="${colour}"][data-piece="${move.piece}"]`);
  if (move.captures.length) ring(svg, centreOf(end), 'capture');
  if (finished) ring(svg, centreOf(end), 'finish');
  if (reducedMotion() || !piece || cells.length < 2) return;
  walk(piece, cells, end);
  for (const { seat, piece: index } of move.captures) {
    const node = svg.querySelector(`.piece[data-colour="${seat}"][data-piece="${index}"]`);
    const base = pathOf(layout, layout.seat_arms[seat], index, 'base', 0)[0];
    if (node) walk(node, [end, end, base], base);
  }
}
