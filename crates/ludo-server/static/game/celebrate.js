// A game won on this device, seen as it happened: a fanfare, and confetti in the winner's colour
// falling over the page for a moment. Nothing falls under reduced motion, nothing catches a tap
// or a key, and a game opened already over is not celebrated again.

import { reducedMotion } from './animate.js';
import { FILL } from './board.js';
import * as sound from './sound.js';

/** How many pieces of confetti fall. */
const PIECES = 48;
/** The longest a piece takes to fall; the confetti is gone after it. */
const FALL_MS = 2800;
/** Gold, with the winner's colour, so a yellow win still sparkles. */
const GOLD = '#ffd54a';

/** Celebrates a win by `colours` (the winners' seats: shared first places are several). */
export function celebrate(colours) {
  sound.play('win');
  if (reducedMotion() || !colours.length) return null;
  document.querySelector('.celebration')?.remove();
  const layer = document.createElement('div');
  layer.className = 'celebration';
  layer.setAttribute('aria-hidden', 'true');
  const paints = [...colours.map((c) => FILL[c]), GOLD];
  const height = innerHeight;
  for (let i = 0; i < PIECES; i++) {
    const piece = document.createElement('i');
    piece.style.left = `${Math.random() * 100}%`;
    piece.style.background = paints[i % paints.length];
    layer.append(piece);
    const drift = (Math.random() - 0.5) * 160;
    const turns = (Math.random() - 0.5) * 4;
    const duration = FALL_MS * (0.65 + 0.35 * Math.random());
    piece.animate([
      { transform: 'translate(0, -2rem) rotate(0turn)' },
      { transform: `translate(${drift}px, ${height + 32}px) rotate(${turns}turn)` },
    ], { duration, delay: Math.random() * 300, easing: 'cubic-bezier(.3,.6,.6,1)', fill: 'both' });
  }
  document.body.append(layer);
  setTimeout(() => layer.remove(), FALL_MS + 400);
  return layer;
}
