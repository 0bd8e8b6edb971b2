// Playing with the keyboard alone: after every redraw, focus goes where the next action is (the
// first piece that can move, else the throw button), and the arrow keys step between the pieces
// that can move. Focus is only moved for someone using the keyboard, so a tap never scrolls the
// page.

let keyboard = false;
addEventListener('keydown', () => { keyboard = true; }, true);
addEventListener('pointerdown', () => { keyboard = false; }, true);

/** Whether focus is nowhere useful: on the page itself, on a hidden or removed control, or on
 * one of the game's own controls. */
function adrift(rollButton) {
  const active = document.activeElement;
  return !active || active === document.body || active === rollButton || !active.isConnected
    || active.closest?.('#board, [hidden]') !== null;
}

/**
 * Call after the board was redrawn: puts focus on the first piece that can move, else on the
 * throw button when it can be used, if the person plays by keyboard and focus was not taken
 * elsewhere. Arrow keys on a piece step to the next or previous one that can move.
 */
export function followFocus(board, rollButton) {
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
  if (pieces.length) pieces[0].focus();
  else if (!rollButton.disabled) rollButton.focus();
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
