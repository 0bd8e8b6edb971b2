// What the server says of its own limits and choices, from `/api/rules` (fetched once a page, and
// kept by the service worker for offline play): the quick phrases' ids, the turn clocks a room may
// have, and the longest display name. The page asks the server rather than repeating its figures.

/** Until the server has answered, and should it never answer: what it answered when written. */
const KNOWN = { phrases: [], clocks: [null, 30, 60], name_max_chars: 24 };

let asked = null;

/** `/api/rules`'s answer (its presets, each option's choices, and the figures above); one fetch. */
export function served() {
  asked ??= fetch('/api/rules')
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`/api/rules: ${r.status}`))));
  return asked;
}

/** The figures above, as served, or as known should the server not answer. */
export async function limits() {
  const answer = await served().catch(() => ({}));
  const given = Object.keys(KNOWN).filter((key) => key in answer).map((key) => [key, answer[key]]);
  return { ...KNOWN, ...Object.fromEntries(given) };
}

/**
 * A name's length as the server counts it: characters (Unicode scalar values) after NFC and
 * trimming, not the UTF-16 units a browser's `maxlength` counts (an emoji is one, not two).
 */
export function nameLength(name) {
  return [...name.normalize('NFC').trim()].length;
}

/**
 * Holds `input` to the longest name the server takes, counted as it counts: the browser may not
 * cut a name the server would take (its `maxlength` counts UTF-16 units), and a longer one is
 * refused by the form with `tooLong` said by `t`.
 */
export async function limitName(input, t) {
  const { name_max_chars: max } = await limits();
  input.maxLength = max * 2;
  const check = () => input.setCustomValidity(nameLength(input.value) > max ? t('name.tooLong', { n: max }) : '');
  input.addEventListener('input', check);
  check();
}
