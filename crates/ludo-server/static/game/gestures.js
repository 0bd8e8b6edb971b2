// What a finger or a mouse does on the board, turned into picks and previews: one tap on a piece
// that can move plays it; pressing and holding on it, or hovering it with a mouse, shows where it
// would go without playing; dragging it onto where it goes plays it, dropping it anywhere else
// plays nothing; a tap on anything else takes a preview away. A tap that lands between pieces goes
// to the nearest target whose hit area it falls in.
//
// The board is drawn again after every event (`drawBoard`), so the listeners are installed once
// on the SVG and read the targets of the latest drawing from `setTargets`.

import { svgElement } from '../dom.js';

/** How long a press must be held to preview rather than play. */
export const HOLD_MS = 450;
/** How far, in CSS pixels, a press may wander and still be a tap or a hold. */
const SLOP_PX = 10;
/** How near, in CSS pixels, a dragged piece must be let go to its destination to play. */
const DROP_PX = 28;
/** A click this soon after a gesture was handled is that gesture's own, and is not played again. */
const CLICK_AFTER_MS = 500;

const boards = new WeakMap();

/**
 * The targets of the drawing just made on `svg`: `hits` (`{piece, x, y, r}` in SVG units, one a
 * distinct move), `destinations` (piece → its destination's centre `[x, y]`), `marker(piece)`
 * (the drawn piece to carry while dragging), and what to do: `onPick(piece)`, `onPreview(piece
 * or null)`. Without targets (`hits` empty) the board only takes previews away.
 */
export function setTargets(svg, targets) {
  let board = boards.get(svg);
  if (!board) {
    board = { targets, press: null, handledAt: -Infinity, previewing: false };
    boards.set(svg, board);
    listen(svg, board);
  }
  clearPress(board);
  board.targets = targets;
  board.previewing = false;
}

/** Whether a click on a target is the end of a gesture already handled (not a new pick). */
export function handledByGesture(svg) {
  const board = boards.get(svg);
  return Boolean(board) && performance.now() - board.handledAt < CLICK_AFTER_MS;
}

/** The point of a pointer event in the SVG's units. */
function pointIn(svg, event) {
  const matrix = svg.getScreenCTM();
  if (!matrix) return null;
  return new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
}

/** The target a point falls on: the nearest of those whose hit area holds it, or null. */
export function targetAt(hits, point) {
  let best = null;
  for (const hit of hits) {
    const distance = Math.hypot(hit.x - point.x, hit.y - point.y);
    if (distance <= hit.r && (!best || distance < best.distance)) best = { hit, distance };
  }
  return best?.hit ?? null;
}

/** SVG units in one CSS pixel of `svg` as shown. */
function unitsPerPixel(svg) {
  const matrix = svg.getScreenCTM();
  // The scale, whichever way the board is turned.
  const scale = matrix ? Math.hypot(matrix.a, matrix.b) : 0;
  return scale ? 1 / scale : 1;
}

function clearPress(board) {
  if (!board.press) return;
  clearTimeout(board.press.timer);
  board.press.ghost?.remove();
  board.press = null;
}

function listen(svg, board) {
  svg.addEventListener('pointerdown', (event) => {
    if (!event.isPrimary || event.button > 0) return;
    clearPress(board);
    const { hits, onPreview } = board.targets;
    const point = pointIn(svg, event);
    // A piece that can move always answers for itself; a press beside pieces, the nearest target.
    const own = event.target.closest?.('.piece.legal');
    const hit = own ? { piece: Number(own.dataset.piece) }
      : point && hits.length ? targetAt(hits, point) : null;
    if (!hit) {
      // A tap on anything else takes a preview away.
      if (board.previewing) {
        board.previewing = false;
        onPreview?.(null);
      }
      return;
    }
    const press = { piece: hit.piece, id: event.pointerId, x: event.clientX, y: event.clientY,
      held: false, dragging: false, ghost: null, timer: null };
    press.timer = setTimeout(() => {
      press.held = true;
      board.previewing = true;
      onPreview?.(press.piece);
    }, HOLD_MS);
    board.press = press;
    svg.setPointerCapture?.(event.pointerId);
  });
  svg.addEventListener('pointermove', (event) => {
    const press = board.press;
    if (!press || event.pointerId !== press.id) return;
    const moved = Math.hypot(event.clientX - press.x, event.clientY - press.y);
    if (!press.dragging && moved <= SLOP_PX) return;
    if (!press.dragging) {
      press.dragging = true;
      clearTimeout(press.timer);
      board.previewing = true;
      board.targets.onPreview?.(press.piece);
      press.ghost = carried(svg, board.targets.marker?.(press.piece));
    }
    const point = pointIn(svg, event);
    if (point && press.ghost) press.ghost.setAttribute('transform', `translate(${point.x} ${point.y})`);
  });
  const release = (event, cancelled) => {
    const press = board.press;
    if (!press || event.pointerId !== press.id) return;
    const { onPick, onPreview, destinations } = board.targets;
    clearPress(board);
    board.handledAt = performance.now();
    if (cancelled) {
      if (press.dragging) onPreview?.(null);
      return;
    }
    if (press.dragging) {
      const point = pointIn(svg, event);
      const to = destinations.get(press.piece);
      const reach = Math.max(DROP_PX * unitsPerPixel(svg), 0);
      if (point && to && Math.hypot(point.x - to[0], point.y - to[1]) <= reach) onPick(press.piece);
      else {
        board.previewing = false;
        onPreview?.(null);
      }
      return;
    }
    // Held: the preview stays until a tap plays or takes it away.
    if (!press.held) onPick(press.piece);
  };
  // A finger that pressed a piece moves it, not the page (`touch-action` is not honoured on the
  // SVG's own shapes).
  svg.addEventListener('touchmove', (event) => {
    if (board.press) event.preventDefault();
  }, { passive: false });
  // A press held on a piece previews it: no menu of the browser's own opens over it.
  svg.addEventListener('contextmenu', (event) => {
    if (board.press) event.preventDefault();
  });
  svg.addEventListener('pointerup', (event) => release(event, false));
  svg.addEventListener('pointercancel', (event) => release(event, true));
}

/** A copy of the piece `marker` that follows the pointer while it is dragged. */
function carried(svg, marker) {
  if (!marker) return null;
  const circle = marker.querySelector('circle');
  const ghost = svgElement('g', { class: 'carried', 'aria-hidden': 'true' }, svg);
  const copy = marker.cloneNode(true);
  copy.removeAttribute('tabindex');
  copy.removeAttribute('role');
  copy.removeAttribute('aria-label');
  // One piece moves, even from a stack: the copy carries no count.
  for (const count of copy.querySelectorAll('.count')) count.remove();
  // Centred on the pointer: the copy's own centre moved to (0, 0).
  const [cx, cy] = [Number(circle?.getAttribute('cx') ?? 0), Number(circle?.getAttribute('cy') ?? 0)];
  copy.setAttribute('transform', `translate(${-cx} ${-cy})`);
  ghost.append(copy);
  return ghost;
}
