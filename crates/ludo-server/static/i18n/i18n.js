// Every text shown to a person comes from the tables of `texts-<language>.js`, one module per
// language; a page loads only its own language's (`chooseLanguage`), and a language picked in the
// switcher is loaded with the page it reloads. The rules pages' texts, which only they use, come
// later (`addTexts`), in every language at once.
//
// Texts that speak of the pieces may say it in the board's own words. Vietnamese players call the
// pieces of cờ cá ngựa horses ("ngựa", kept in stables, "chuồng") and those of Ludo "quân"; so a
// table may hold, beside `key`, a variant `key@horse` that `t(key)` gives instead while the board
// shown is the horse board. Whatever shows a game, or the rules of one, for a given board says so
// first with `setBoard(board)` (the engine's board kind: `ludo` or `horse`): the table whenever it
// draws or describes a position (`Table.numbers`), the replay viewer for its record, the home
// screen for the preset chosen (its side-by-side table of presets in the Ludo board's words) and a
// rules page for its preset. A language without the variant keeps its one text for both boards
// (only Vietnamese has horse words today); a variant for another board would be `key@<board>` in
// the same way. Texts loaded later (`addTexts`) may carry variants too.

/** What each language's table already holds, as it is loaded: by code, then key. */
const TABLES = {};

/** Texts added later by a part of the page (`addTexts`), to go into any language loaded after. */
const added = [];

/** Loads the texts of language `code` (once); its table. */
async function load(code) {
  if (!TABLES[code]) {
    const texts = { ...(await import(`./texts-${code}.js`)).default };
    for (const tables of added) Object.assign(texts, tables[code]);
    TABLES[code] ??= texts;
  }
  return TABLES[code];
}

/**
 * Every form of a table's text, for checking texts: the text itself, or each of its plural forms
 * as `[key#form, text]` (see `t`).
 */
export function textEntries(texts) {
  return Object.entries(texts).flatMap(([key, text]) => (typeof text === 'object'
    ? Object.entries(text).map(([form, words]) => [`${key}#${form}`, words]) : [[key, text]]));
}

/** The languages offered, by code, each named in itself. */
export const LANGUAGES = { en: 'English', fr: 'Français', pt: 'Português', ru: 'Русский', vi: 'Tiếng Việt' };

/** Every language's texts, by code, then key (a board's variants as `key@board`), all loaded. */
export async function allTexts() {
  for (const code of Object.keys(LANGUAGES)) await load(code);
  return TABLES;
}

/** The page's language's table; empty until `chooseLanguage` has loaded it. */
let table = {};

/** The page's language's plural rules (which form a number takes: one, few, many, other). */
let plurals = null;

/** The board whose words the texts use (see the top of this file). */
let board = 'ludo';

/** Makes the texts speak of `kind`'s pieces (`ludo` or `horse`) until said otherwise. */
export function setBoard(kind) {
  board = kind ?? 'ludo';
}

const LANGUAGE_KEY = 'ludo.language';

/** The language the address asks for (`?lang=fr`), if the site has it; else null. */
export function askedLanguage(search = globalThis.location?.search ?? '') {
  const asked = new URLSearchParams(search).get('lang');
  return asked in LANGUAGES ? asked : null;
}

/**
 * `path` (an address on this site) with the `?lang=` the page was opened with, if any: a page
 * opened in a language by its address links on in that language, so that a link followed, or
 * copied and shared, shows the same language.
 */
export function keepLanguage(path) {
  const asked = askedLanguage();
  if (!asked) return path;
  const address = new URL(path, 'https://site.invalid');
  address.searchParams.set('lang', asked);
  return address.pathname + address.search + address.hash;
}

/**
 * The language the address asks for (`?lang=fr`, for this visit only), else the one chosen here
 * before, else the browser's first that we have, else English; its texts loaded, its code.
 */
export async function chooseLanguage(languages = navigator.languages ?? [], asked = askedLanguage()) {
  const chosen = asked in LANGUAGES ? asked : localStorage.getItem(LANGUAGE_KEY);
  const found = chosen in LANGUAGES ? chosen
    : languages.map((l) => l.slice(0, 2)).find((l) => l in LANGUAGES) ?? 'en';
  table = await load(found);
  plurals = new Intl.PluralRules(found);
  return found;
}

/** Remembers the language a person picked in the switcher. */
export function pickLanguage(code) {
  if (code in LANGUAGES) localStorage.setItem(LANGUAGE_KEY, code);
}

/** Adds texts (by language, then key) that a part of the page loads only when it needs them. */
export function addTexts(tables) {
  added.push(tables);
  for (const [code, texts] of Object.entries(tables)) if (TABLES[code]) Object.assign(TABLES[code], texts);
}

/** Whether the page's language has words for `key` (every language has the same keys). */
export function has(key) {
  return key in table;
}

const missing = new Set();

/** The keys asked for so far that the page's language lacks (they were shown in English). */
export function missingKeys() {
  return [...missing];
}

/**
 * The text for `key`, with `{name}` placeholders filled from `values`: the current board's variant
 * (`key@horse`) when the page's language has one, else the text itself. A text that depends on a
 * number is a table of the language's plural forms (`{ one: '{n} square', other: '{n} squares' }`,
 * with Russian's `few` and `many`): the form of `values.n` is taken, else `other`.
 */
export function t(key, values = {}) {
  if (!(key in table)) missing.add(key);
  let text = table[`${key}@${board}`] ?? table[key] ?? key;
  if (typeof text === 'object') {
    plurals ??= new Intl.PluralRules('en');
    text = text[plurals.select(Number(values.n))] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
}

/**
 * The words for an error (`fallback`'s for one without words of its own), from the error texts'
 * module (`texts-errors.js`), loaded only once an error is to be shown: the first load carries
 * none of it.
 */
export async function errorWords(error, t, fallback) {
  const { errorText } = await import('./texts-errors.js');
  return errorText(error, t, fallback);
}
