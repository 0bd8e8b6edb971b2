// Playing with the keyboard alone: after every redraw, focus goes where the next action is (the
// first piece that can move, else the throw button), and the arrow keys step between the pieces
// that can move. Focus is only moved there for someone using the keyboard, so a tap never scrolls
// the page.
//
// Focus never falls to the page while a throw or a move is shown: the throw button stays
// focusable, `aria-disabled` rather than `disabled` while it cannot be used, and focus on the
// board, which each redraw replaces, goes to it first. A screen-reader player keeps their place
// there, hears the moves from the live region, and finds their next action (focus goes on to the
// first piece they can move). Focus on the board instead would have it said again every turn.

let keyboard = false;
addEventListener('keydown', () => { keyboard = true; }, true);
addEventListener('pointerdown', () => { keyboard = false; }, true);

/** Whether the throw button can be used now (it stays focusable when it cannot). */
export function usable(rollButton) {
  return rollButton.getAttribute('aria-disabled') !== 'true';
}

/** Whether focus is nowhere useful: on the page itself, on a hidden or removed control, or on
 * one of the game's own controls. */
function adrift(rollButton) {
  const active = document.activeElement;
  return !active || active === document.body || active === rollButton || !active.isConnected
    || active.closest?.('#board, [hidden]') !== null;
}

/**
 * Call before the board is redrawn: focus on the board (a piece, the dice), which the redraw
 * removes, goes to the throw button. Returns the number of the piece that had it (for
 * `followFocus` to give it back), or null.
 */
export function holdFocus(board, rollButton) {
  const active = document.activeElement;
  if (!active || active === board || !board.contains(active)) return null;
  rollButton.focus({ preventScroll: true });
  return active.classList.contains('piece') ? Number(active.dataset.piece) : null;
}

/**
 * Call after the board was redrawn: puts focus on the first piece that can move (on `held`, the
 * piece that had it before the redraw, if it still can), else on the throw button when it can be
 * used, if the person plays by keyboard and focus was not taken elsewhere. Arrow keys on a piece
 * step to the next or previous one that can move.
 */
export function followFocus(board, rollButton, held = null) {
  const pieces = [...board.querySelectorAll('.piece.legal[tabindex]')];
  pieces.forEach((piece, i) => {
    piece.addEventListener('keydown', (e) => {
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
      if (!step) return;
      e.preventDefault();
      pieces[(i + step + pieces.length) % pieces.length].focus();
    });
  });
  if (!keyboard || !adrift(rollButton)) return;
  if (pieces.length) (pieces.find((piece) => Number(piece.dataset.piece) === held) ?? pieces[0]).focus();
  else if (usable(rollButton)) rollButton.focus();
}

/**
 * Call once the end of the game is shown: the throw button has gone with the game, so a keyboard
 * player's focus goes to the end's first action (play again, or Home), not to the page, unless
 * they had taken it elsewhere. The end's button that folds it away to show the board is skipped.
 */
export function focusEnd(end, rollButton) {
  if (!keyboard || !adrift(rollButton)) return;
  const first = [...end.querySelectorAll('button, a[href]')]
    .find((control) => control.id !== 'end-tuck' && !control.closest('[hidden]'));
  first?.focus();
}

/** The keys that play from anywhere on the page: R throws, 1 to 4 move that piece, W says where everyone is. */
export const THROW_KEY = 'r';
const WHERE_KEY = 'w';

/**
 * Keys that play from anywhere on the page while the table is shown (`shown()`), never while
 * typing in a field or with a modifier held: R throws (`throwDice()`), the digits 1 to 4 move
 * the person's piece of that number, as the board's pieces are named (`pickPiece(index)`, from 0),
 * and W says where every piece is (`sayWhere()`).
 * The buttons' own keys (Enter and Space) still work where focus is.
 */
export function playByKeys(shown, { throwDice, pickPiece, sayWhere }) {
  addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || !shown()) return;
    if (e.target.closest?.('input, textarea, select, [contenteditable], dialog')) return;
    const key = e.key.toLowerCase();
    if (key === THROW_KEY) {
      e.preventDefault();
      throwDice();
    } else if (/^[1-4]$/.test(key)) {
      e.preventDefault();
      pickPiece(Number(key) - 1);
    } else if (key === WHERE_KEY) {
      e.preventDefault();
      sayWhere();
    }
  });
}
