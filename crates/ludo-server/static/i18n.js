// Every text shown to a person comes from these tables.

const TABLES = {
  en: {
    'title': 'Ludo',
    'tagline': 'Free, no sign-up. Play against the CPU on this device; the engine runs in your browser.',
    'home.vsCpu': 'Play against the CPU',
    'home.opponents': 'CPU opponents',
    'home.level': 'Strength',
    'home.rules': 'Rules',
    'home.start': 'Start',
    'home.resume': 'Resume the saved game',
    'level.random': 'Random', 'level.easy': 'Easy', 'level.medium': 'Medium', 'level.hard': 'Hard',
    'preset.qdan': 'Qdan (default)', 'preset.classic': 'Classic', 'preset.vietnamese': 'Vietnamese (cờ cá ngựa)',
    'seat.yellow': 'yellow ○', 'seat.blue': 'blue □', 'seat.red': 'red △', 'seat.green': 'green ✚',
    'turn.roll': '{seat} to throw', 'turn.rolloff': '{seat} throws for who starts',
    'turn.move': '{seat} to move', 'turn.over': 'Game over',
    'roll': 'Throw the dice',
    'log.throw': '{seat} throws {dice}', 'log.move': '{seat} moves piece {piece} to {to}',
    'log.captures': ', capturing {n}',
    'piece.move': 'Move {colour} piece {piece}',
    'home': 'Home',
    'home.friends': 'Play with friends',
    'home.name': 'Your name',
    'online.invite': 'Send this link to your friends:',
    'online.copy': 'Copy the link',
    'online.copied': 'Link copied',
    'online.connecting': 'Connecting…', 'online.connected': 'Connected',
    'online.reconnecting': 'Connection lost, reconnecting…',
    'online.waiting': 'Waiting for the host to start',
    'online.free': 'free', 'online.away': 'away', 'online.sit': 'Sit here',
    'online.addCpu': 'Add a CPU', 'online.removeCpu': 'Remove', 'online.start': 'Start the game',
    'online.playAgain': 'Play again',
    'table.option': 'option',
  },
};

let table = TABLES.en;

/** Chooses the language from the browser's preferences (English until others are added). */
export function chooseLanguage(languages = navigator.languages ?? []) {
  const found = languages.map((l) => l.slice(0, 2)).find((l) => l in TABLES);
  table = TABLES[found ?? 'en'];
  return found ?? 'en';
}

/** The text for `key`, with `{name}` placeholders filled from `values`. */
export function t(key, values = {}) {
  const text = table[key] ?? TABLES.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
}
