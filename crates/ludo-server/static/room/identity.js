// Who this device is: its secret (kept in this browser, never shown) and the name its person
// gave, and the request that opens a room hosted by it. Small, so that the home page loads it
// without the online room itself.

import { t } from '../i18n/i18n.js';

const DEVICE_KEY = 'ludo.device';
const NAME_KEY = 'ludo.name';

/** This browser's device secret: random, kept here, never shown. */
export function deviceSecret() {
  let secret = localStorage.getItem(DEVICE_KEY);
  if (!secret) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    secret = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
    localStorage.setItem(DEVICE_KEY, secret);
  }
  return secret;
}

/** The name given before on this device, or null when none was. */
export function savedName() {
  return localStorage.getItem(NAME_KEY);
}

/** The name the others see: the one given, else "Player 371", its number this device's own. */
export function playerName() {
  return savedName() || defaultName();
}

/** The name in a game of one's own (against the CPU): the one given, else plain "Player". */
export function localName() {
  return savedName() || t('player.default');
}

function defaultName() {
  const number = 100 + (parseInt(deviceSecret().slice(0, 6), 16) % 900);
  return `${t('player.default')} ${number}`;
}

export function setPlayerName(name) {
  // Every field asking for a name holds it to the server's longest (served.js, `limitName`).
  localStorage.setItem(NAME_KEY, name.normalize('NFC').trim() || defaultName());
}

/**
 * A request the server refused: its stable code, and the rules engine's reason (`{code, params,
 * option}`) when the refusal is the engine's, for the page to say it in its own words.
 */
export class Refused extends Error {
  constructor(code, message, engine = null) {
    super(message);
    this.code = code;
    this.engine = engine;
  }
}

/** `fetch`, with no answer at all (offline, or the server down) refused as `offline`. */
export function askServer(path, init = undefined) {
  return fetch(path, init).catch(() => {
    throw new Refused('offline', 'the server could not be reached');
  });
}

/**
 * Creates a room hosted by this device, with `rules` (a preset, or a preset and house rules);
 * `rotate` says whether each new game starts with the next seat. Its code.
 */
export async function createRoom(rules, clock = null, ranked = false, rotate = true) {
  const response = await askServer('/api/rooms', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ device: deviceSecret(), name: playerName(), rules, clock, ranked, rotate }),
  });
  const answer = await response.json();
  if (!response.ok) throw new Refused(answer.code, answer.message, answer.engine);
  return answer.code;
}
