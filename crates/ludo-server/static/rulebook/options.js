// How the rules' options and their values read, in the page's language: the settings, the rules
// in force during a game and the rules pages all say them the same way.

// The order options are shown in: the board, then the dice, leaving the base, extra throws,
// then moving, the end and the start (the order of `rules.md` §3).
const ORDER = ['board', 'layout', 'dice', 'exit_values', 'exit_on_double', 'bonus_values',
  'bonus_on_double', 'three_bonus_forfeit', 'bonus_on_capture', 'bonus_on_finish',
  'bonus_if_no_move', 'no_piece_out', 'safe', 'passing', 'stacking', 'exact_finish',
  'rank_everyone', 'first_player'];

/** The `[name, value]` entries of an options object, in the order they are shown. */
export function ordered(options) {
  const rank = (name) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);
  return Object.entries(options).sort(([a], [b]) => rank(a) - rank(b));
}

/** The name of option `name` (`rules.md` §3), translated. */
export function optionLabel(name, t) {
  return t(`option.${name}`);
}

/** One value of an option, translated: yes or no, a list of die faces, or a named choice. */
export function valueLabel(value, t) {
  if (typeof value === 'boolean') return t(value ? 'yes' : 'no');
  if (Array.isArray(value)) return value.join(', ') || '—';
  return t(`value.${value}`);
}

/** A list of numbers as "1, 5 or 6", in the page's language. */
export function either(numbers) {
  return new Intl.ListFormat(document.documentElement.lang || 'en', { type: 'disjunction' })
    .format(numbers.map(String));
}
