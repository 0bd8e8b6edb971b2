// What happened in a turn, in words: the lines of a game's log (captures and finishes marked) and
// what is announced to screen readers. Local and online games say it the same way.

/** The log line of a throw of `dice` by `seat`. */
export function throwLines(t, seat, dice) {
  return [{ text: t('log.throw', { seat: t(`seat.${seat}`), dice: dice.join(' + ') }), kind: '' }];
}

/**
 * The log lines of a move the engine played for `seat`: the move, each capture, and the finish
 * when `finished` (the move reached the engine's `finished_from`).
 */
export function moveLines(t, seat, move, finished) {
  const who = t(`seat.${seat}`);
  const lines = [{ text: t('log.move', { seat: who, piece: move.piece + 1, to: move.to }), kind: '' }];
  for (const victim of move.captures) {
    lines.push({ text: t('log.capture', { seat: who, colour: t(`seat.${victim.seat}`),
      piece: victim.piece + 1 }), kind: 'capture' });
  }
  if (finished) lines.push({ text: t('log.finish', { seat: who, piece: move.piece + 1 }), kind: 'finish' });
  return lines;
}

/** Fills the list `log` with `lines`; plain strings (games saved before lines had kinds) too. */
export function drawLog(log, lines) {
  log.replaceChildren(...lines.map((line) => {
    const { text, kind } = typeof line === 'string' ? { text: line, kind: '' } : line;
    const li = document.createElement('li');
    li.textContent = text;
    if (kind) li.className = kind;
    return li;
  }));
}
