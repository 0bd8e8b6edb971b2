// The game's sounds, made with Web Audio (no files to download): a throw, a step, a capture, a
// piece reaching the finish, a win, "your turn", and the clock's warning. Nothing plays before the
// person's first tap or key press (browsers forbid it, and it would startle); muting is
// remembered in this browser.

const MUTE_KEY = 'ludo.muted';

let context = null;
let unlocked = false;

/** Starts the audio context on the person's first interaction, never before. */
function unlock() {
  unlocked = true;
  try {
    if (!context && globalThis.AudioContext) context = new AudioContext();
    context?.resume?.();
  } catch {
    // No audio here: the game is played in silence.
  }
}
for (const type of ['pointerdown', 'keydown']) addEventListener(type, unlock, { capture: true, once: false });

/** Whether sound is off. */
export function muted() {
  return localStorage.getItem(MUTE_KEY) === 'yes';
}

/** Turns sound off or on, remembered in this browser. */
export function setMuted(off) {
  localStorage.setItem(MUTE_KEY, off ? 'yes' : 'no');
}

/** How many sounds were played since the page opened, by name (for the tests). */
export const played = {};

/** A tone: `freq` Hz (gliding to `to`), starting `at` seconds from now, lasting `length` s. */
function tone(freq, at, length, { to = freq, type = 'sine', gain = 0.2 } = {}) {
  const start = context.currentTime + at;
  const osc = context.createOscillator();
  const amp = context.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, start + length);
  amp.gain.setValueAtTime(gain, start);
  amp.gain.exponentialRampToValueAtTime(0.001, start + length);
  osc.connect(amp).connect(context.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** A short burst of noise, like a die hitting the table. */
function knock(at, length = 0.05, gain = 0.25) {
  const frames = Math.ceil(context.sampleRate * length);
  const buffer = context.createBuffer(1, frames, context.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const source = context.createBufferSource();
  const amp = context.createGain();
  const filter = context.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = 1800;
  amp.gain.value = gain;
  source.buffer = buffer;
  source.connect(filter).connect(amp).connect(context.destination);
  source.start(context.currentTime + at);
}

const SOUNDS = {
  throw: () => { knock(0); knock(0.09, 0.04, 0.18); knock(0.2, 0.05, 0.22); },
  step: () => tone(660, 0, 0.05, { type: 'triangle', gain: 0.12 }),
  capture: () => { tone(520, 0, 0.18, { to: 180, type: 'sawtooth', gain: 0.12 }); knock(0, 0.08, 0.3); },
  finish: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.09, 0.18, { type: 'triangle' })),
  win: () => {
    [392, 523, 659, 784].forEach((f, i) => tone(f, i * 0.12, 0.2, { type: 'triangle' }));
    [523, 659, 784, 1047].forEach((f) => tone(f, 0.5, 0.9, { type: 'triangle', gain: 0.08 }));
  },
  turn: () => { tone(740, 0, 0.14); tone(988, 0.13, 0.22); },
  warning: () => tone(880, 0, 0.12, { type: 'square', gain: 0.08 }),
};

/** Plays the sound `name` unless muted or before the person's first interaction. */
export function play(name) {
  if (muted() || !unlocked || !context || !SOUNDS[name]) return;
  try {
    SOUNDS[name]();
    played[name] = (played[name] ?? 0) + 1;
  } catch {
    // A sound that cannot play is never worth an error on the page.
  }
}
