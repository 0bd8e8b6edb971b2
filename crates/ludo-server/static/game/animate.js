// What makes a move easy to follow: the moved piece walking its path square by square, captured
// pieces going home, a ring where a piece was captured or came home. (The dice roll in dice.js.)
// Nothing moves when the person asked their system for reduced motion; the board itself is always
// drawn from the position first, so an animation cut short leaves nothing behind.

import { centreOf, pathOf } from './board.js';
import { svgElement } from '../dom.js';

/** The longest a piece's walk may take, whatever its length, so CPU games keep their pace. */
const WALK_MS = 700;
/** One square of a walk. */
export const STEP_MS = 110;

/** Whether the person asked for reduced motion: then nothing is animated. */
export function reducedMotion() {
  return globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

function ring(svg, [x, y], kind) {
  svgElement('circle', { cx: x, cy: y, r: 26, class: `flash ${kind}` }, svg);
}

function walk(node, cells, end, pace) {
  const [ex, ey] = centreOf(end);
  const frames = cells.map((cell) => {
    const [x, y] = centreOf(cell);
    return { transform: `translate(${x - ex}px, ${y - ey}px)` };
  });
  const duration = Math.min(WALK_MS, STEP_MS * (cells.length - 1)) * pace;
  node.parentNode.append(node);
  if (duration > 0) node.animate(frames, { duration, easing: 'linear' });
  return duration;
}

/**
 * Shows the move the engine just played on the board `drawBoard` drew (`layout` is what it
 * returned): the piece walks from `move.from` to `move.to` along the cells of its progress, the
 * pieces it captured go back to their bases, and a ring marks a capture or a piece come home.
 * `finished` says whether the move finished the piece (the engine's `finished_from`). `pace`
 * scales the walk (0: none). Returns how long the walk takes, in milliseconds, and its squares.
 */
export function showMove(svg, layout, colour, move, finished, pace = 1) {
  const arm = layout.seat_arms[colour];
  const cells = pathOf(layout, arm, move.piece, move.from, move.to);
  const end = cells[cells.length - 1];
  const piece = svg.querySelector(`.piece[data-colour="${colour}"][data-piece="${move.piece}"]`);
  if (move.captures.length) ring(svg, centreOf(end), 'capture');
  if (finished) ring(svg, centreOf(end), 'finish');
  if (reducedMotion() || !piece || cells.length < 2) return { ms: 0, steps: cells.length - 1 };
  let ms = walk(piece, cells, end, pace);
  for (const { seat, piece: index } of move.captures) {
    const node = svg.querySelector(`.piece[data-colour="${seat}"][data-piece="${index}"]`);
    const base = pathOf(layout, layout.seat_arms[seat], index, 'base', 0)[0];
    if (node) ms = Math.max(ms, walk(node, [end, end, base], base, pace));
  }
  return { ms, steps: cells.length - 1 };
}
