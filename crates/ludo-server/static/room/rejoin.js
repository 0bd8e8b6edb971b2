// The way back to an online table left for the home screen: while this device holds a seat in a
// room, waiting for its game to start or playing it, the room is remembered in this browser; the
// home screen then offers "Back to your table" or "Back to your game" (the seat is kept, the CPU
// playing it meanwhile), once the server confirms the seat is still this device's. The game's
// end, or leaving the seat, forgets the room.

// app.js reads it too, to load this module only when a room is remembered.
const KEY = 'ludo.playing';

/** What is remembered: `{ code, started }`; a bare room code was written before lobbies were. */
function remembered() {
  const value = localStorage.getItem(KEY);
  if (!value) return null;
  try {
    const { code, started } = JSON.parse(value);
    return { code: String(code), started: Boolean(started) };
  } catch {
    return { code: value, started: true };
  }
}

/** Remembers that this device holds a seat in room `code`, whose game has `started` or not. */
export function rememberRoom(code, started = true) {
  const value = JSON.stringify({ code, started });
  if (localStorage.getItem(KEY) !== value) localStorage.setItem(KEY, value);
}

/** Forgets room `code` (its game ended, or this device left its seat). */
export function forgetRoom(code) {
  if (remembered()?.code === code) localStorage.removeItem(KEY);
}

/**
 * Shows `link` ("Back to your table" before the game starts, "Back to your game" after) when a
 * room is remembered whose seat is still this device's (`me`, its public id), asking the
 * server; else forgets the room and keeps it hidden. `t` gives the page's texts.
 */
export async function offerWayBack(link, me, t) {
  const room = remembered();
  link.hidden = true;
  if (!room) return;
  const view = await fetch(`/api/rooms/${encodeURIComponent(room.code)}`)
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => undefined);
  // Offline, the answer is unknown: the room stays remembered for the next visit.
  if (view === undefined) return;
  const seated = Object.values(view?.seats ?? {})
    .some((seat) => seat.occupant.kind === 'person' && seat.occupant.id === me && !seat.left);
  if (!seated) {
    forgetRoom(room.code);
    return;
  }
  link.dataset.t = room.started ? 'rejoin.back' : 'rejoin.table';
  link.textContent = t(link.dataset.t);
  link.href = `/r/${room.code}`;
  link.hidden = false;
}
