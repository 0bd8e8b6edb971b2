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
