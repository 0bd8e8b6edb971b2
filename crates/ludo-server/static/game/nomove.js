// Why a throw gave no move, in words: the engine says why each piece cannot move
// (`Engine.whyNoMove`), and this turns its reasons into the hint shown after "no move", short
// enough for the status line's two rows on a phone. No rule is decided here.

import { either } from '../rulebook/options.js';

/** The text key of each reason of a piece on the board (finished pieces need no words). */
const KEYS = { exact_count: 'hint.exact', blockade: 'hint.blockade', in_the_way: 'hint.inTheWay',
  own_piece: 'hint.ownPiece' };

/** Piece numbers as a list in the page's language: "1", "1 and 3", "1, 2 and 4". */
function both(numbers) {
  return new Intl.ListFormat(document.documentElement.lang || 'en', { type: 'conjunction' })
    .format(numbers.map(String));
}

/**
 * How a piece leaves the base, from an `in_base` reason: "A piece leaves the base only on a 6"
 * with one die, the guide's sentence with two (`dice`: how many were thrown). Null when the
 * reason names no way out.
 */
function exitWords(t, { exit_values: faces, exit_on_double: onDouble }, dice) {
  if (dice === 1) return faces.length ? t('hint.exit', { faces: either(faces) }) : null;
  const key = !faces.length ? 'guide.exit.double' : onDouble ? 'guide.exit.eitherOrDouble' : 'guide.exit.either';
  return t(key, { faces: either(faces) }).replace(/\.$/, '');
}

/**
 * The hint after "no move": why the seat's pieces could not move with the throw, one clause for
 * each reason, the pieces with the same reason together ("Piece 2 needs exactly 3 to finish;
 * a blockade stops pieces 1 and 4"); when every piece still to play is in the base, how a
 * piece leaves it ("A piece leaves the base only on a 6"). Null when there is nothing to explain
 * (a forfeited turn, which the status already says).
 *
 * @param t the page's texts
 * @param why the engine's answer (`Engine.whyNoMove`) for the throw
 * @param pieces the seat's pieces in the position the throw was made in ("base" or a progress)
 * @param dice the dice thrown
 */
export function noMoveHint(t, why, pieces, dice) {
  if (why.forfeit) return null;
  const clauses = new Map();
  let exit = null;
  for (const { piece, reason, needs, ...rest } of why.pieces) {
    if (reason === 'finished') continue;
    if (reason === 'in_base') {
      exit ??= { reason, ...rest };
      continue;
    }
    // A piece in the base held there by its own start: said once, of the start.
    const fromBase = pieces[piece] === 'base';
    const key = fromBase ? `hint.start.${reason === 'blockade' ? 'blockade' : 'ownPiece'}` : KEYS[reason];
    const group = `${key} ${needs ?? ''}`;
    if (!clauses.has(group)) clauses.set(group, { key, needs, numbers: [], fromBase });
    clauses.get(group).numbers.push(piece + 1);
  }
  if (!clauses.size) return exit ? exitWords(t, exit, dice.length) : null;
  const text = [...clauses.values()].map(({ key, needs, numbers, fromBase }) => {
    const many = !fromBase && numbers.length > 1 ? '.many' : '';
    return t(`${key}${many}`, { pieces: both(numbers), needs });
  }).join(t('hint.join'));
  return text.charAt(0).toUpperCase() + text.slice(1);
}
