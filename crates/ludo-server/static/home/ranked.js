// Quick ranked play: ask the server for a ranked game, show how the search goes, and go to the
// room it forms. Closing the socket gives up.

import { deviceSecret, playerName } from '../room/identity.js';
import { errorWords } from '../i18n/i18n.js';

const ME_KEY = 'ludo.me';

/** The code of the table matchmaking last formed for this tab, known before its room connects. */
export const MATCHED_KEY = 'ludo.matched';

/** This device's public identity id, once the server has told it (or null). */
export function myId() {
  return localStorage.getItem(ME_KEY);
}

/** Remembers this device's public identity id, for the link to the player's own page. */
export function rememberMe(id) {
  if (id) localStorage.setItem(ME_KEY, id);
}

/**
 * Looks for a ranked game. `onStatus(text, searching)` is told how the search goes (translated
 * with `t`) and whether it still goes on; `onMatched(link)` gets the room's link. Returns a
 * function that stops looking.
 */
export function seekRanked({ rules, size }, t, onStatus, onMatched) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  let done = false;
  let opened = false;
  onStatus(t('online.connecting'), true);
  socket.onopen = () => {
    opened = true;
    socket.send(JSON.stringify({
      t: 'seek', device: deviceSecret(), name: playerName(), rules,
      size: size === 'any' ? 'any' : Number(size),
    }));
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.t === 'seeking') {
      // The server's count of seekers spans every ruleset and includes the reader: not said.
      onStatus(t('ranked.seeking', { rating: Math.round(message.rating), range: Math.round(message.range) }), true);
    } else if (message.t === 'matched') {
      done = true;
      sessionStorage.setItem(MATCHED_KEY, message.room);
      socket.close();
      onMatched(message.link);
    } else if (message.t === 'error') {
      errorWords(message, t, 'refusal.other').then((text) => onStatus(text, false));
    }
  };
  socket.onclose = () => {
    // Never connected: there is no server to ask (offline, or it is down), and that is said.
    if (!done) onStatus(t(opened ? 'ranked.stopped' : 'refusal.offline'), false);
  };
  return () => {
    done = true;
    socket.close();
    onStatus(t('ranked.stopped'), false);
  };
}
