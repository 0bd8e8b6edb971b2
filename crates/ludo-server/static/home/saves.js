// The local games kept in this browser: a list under one key, the game played last first. A game
// is kept from its start and after every action; starting another never replaces a game a person
// has played in (a throw or a move), but one opened and left untouched (`touched: false`) makes
// way for the next new game, so that Play and Home in turn do not fill the list with empty games.
// A finished game leaves the list, and so does the least recently played once more than `KEPT`
// are kept.
// A game saved by a version that kept one game only (under `ludo.local.v1`) joins the list.

const LIST_KEY = 'ludo.games';
const OLD_KEY = 'ludo.local.v1';

/** How many unfinished games are kept at most. */
export const KEPT = 10;

/**
 * Whether no person has thrown or moved in a saved game yet (saves from before `touched` was kept
 * count as played in).
 */
export const untouched = (game) => game.touched === false;

/** Whether a saved game is over (its position says so). */
const isOver = (game) => game.position?.turn?.phase === 'over';

/** The list as stored (an empty one if there is none, or it does not read). */
function stored() {
  try {
    const list = JSON.parse(localStorage.getItem(LIST_KEY));
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/**
 * Writes `list`, dropping the games played least recently while the browser's storage is full
 * (the first game, the one being played, is always kept).
 */
function write(list) {
  for (;;) {
    try {
      localStorage.setItem(LIST_KEY, JSON.stringify(list));
      return;
    } catch (error) {
      if (list.length <= 1) throw error;
      list = list.slice(0, -1);
    }
  }
}

/** A new game's id: unique in this browser. */
function newId() {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The game the old single save holds joins the list (unless it is over), and the old key goes. */
function migrate() {
  const old = localStorage.getItem(OLD_KEY);
  if (old === null) return;
  try {
    const game = JSON.parse(old);
    if (game?.position && !isOver(game)) {
      write([{ ...game, id: newId(), saved_at: game.saved_at ?? game.started_at ?? Date.now() },
        ...stored()].slice(0, KEPT));
    }
  } catch {
    // A save that does not read is not offered.
  }
  localStorage.removeItem(OLD_KEY);
}

/** The unfinished games kept in this browser, the one played last first. */
export function savedGames() {
  migrate();
  return stored();
}

/**
 * Keeps `game` (a local game: `{position, players, rules, touched, …}`) as it is now, first in the
 * list: given an `id` the first time (when the games nobody played in leave the list), and
 * `saved_at` now. A game that is over leaves the list instead.
 */
export function keep(game) {
  const fresh = !game.id;
  game.id ??= newId();
  const others = stored().filter((g) => g.id !== game.id && !(fresh && untouched(g)));
  if (isOver(game)) {
    write(others);
    return;
  }
  game.saved_at = Date.now();
  write([game, ...others].slice(0, KEPT));
}

/** Removes the game `id` from the list. */
export function forget(id) {
  write(stored().filter((g) => g.id !== id));
}

/** Puts back a game removed by `forget` (to undo it), where its `saved_at` places it. */
export function restore(game) {
  const list = [...stored().filter((g) => g.id !== game.id), game]
    .sort((a, b) => b.saved_at - a.saved_at);
  write(list.slice(0, KEPT));
}
