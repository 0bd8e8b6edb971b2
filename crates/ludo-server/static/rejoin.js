// The way back to an online game left for the home screen: while this device plays a game in a
// room, the room is remembered in this browser; the home screen then offers "Back to your game"
// (its seat is kept, the CPU playing it meanwhile), once the server confirms the seat is still
// this device's. The game's end, or leaving it, forgets the room.

const KEY = 'ludo.playing';

/** Remembers that this device plays the game of room `code` now. */
export function rememberRoom(code) {
  if (localStorage.getItem(KEY) !== code) localStorage.setItem(KEY, code);
}

/** Forgets room `code` (its game ended, or this device left it). */
export function forgetRoom(code) {
  if (localStorage.getItem(KEY) === code) localStorage.removeItem(KEY);
}

/**
 * Shows `link` ("Back to your game") when a room is remembered whose seat is still this
 * device's (`me`, its public id), asking the server; else forgets the room and keeps it hidden.
 */
export async function offerWayBack(link, me) {
  const code = localStorage.getItem(KEY);
  link.hidden = true;
  if (!code) return;
  const room = await fetch(`/api/rooms/${encodeURIComponent(code)}`)
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => undefined);
  // Offline, the answer is unknown: the room stays remembered for the next visit.
  if (room === undefined) return;
  const seated = Object.values(room?.seats ?? {})
    .some((seat) => seat.occupant.kind === 'person' && seat.occupant.id === me && !seat.left);
  if (!seated) {
    forgetRoom(code);
    return;
  }
  link.href = `/r/${code}`;
  link.hidden = false;
}
