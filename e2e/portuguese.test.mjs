// The Portuguese texts are European Portuguese in the players' own words: no Brazilian forms,
// one term per concept (as in e2e/terms.mjs), the player addressed as "tu", and every English key
// translated with its placeholders kept. Plain node: the tables are read, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DRIFT, TERMS } from './terms.mjs';

const STATIC = new URL('../crates/ludo-server/static/', import.meta.url);

// i18n.js reads the chosen language from localStorage only when asked; a stub stands in for it.
const stored = new Map([['ludo.language', 'pt']]);
globalThis.localStorage = {
  getItem: (key) => stored.get(key) ?? null,
  setItem: (key, value) => stored.set(key, String(value)),
};

const { addTexts, allTexts, t, chooseLanguage, missingKeys, textEntries } = await import(new URL('i18n/i18n.js', STATIC));
// The lesson's words (loaded with it) are the page's texts too.
addTexts((await import(new URL('game/lessontext.js', STATIC))).LESSON_TEXTS);
// So are the hint's (loaded once hints are turned on).
addTexts((await import(new URL('game/hinttext.js', STATIC))).HINT_TEXTS);
// And a game's analysis's (loaded with it).
addTexts((await import(new URL('records/analysistext.js', STATIC))).ANALYSIS_TEXTS);
// Each text, a plural form of one (`key#other`) as a text of its own.
const TABLES = Object.fromEntries(Object.entries(await allTexts())
  .map(([language, texts]) => [language, Object.fromEntries(textEntries(texts))]));
const en = TABLES.en;
const pt = TABLES.pt;

/** Brazilian forms beyond the drift words, each with the European form that replaces it. */
const BRAZILIAN = [
  [/\bvocês?\b/i, 'tu'],
  [/\b(seus?|suas?)\b/i, 'teu, tua'],
  [/\bsalv(o|a|os|as|ar)\b/i, 'guardado, guardar'],
  // "Default" is "por omissão"; "the standard rules" are "as regras padrão" (the players' words).
  [/(?<!regras )\bpadrão\b/i, 'por omissão'],
  [/\blinks?\b/i, 'ligação'],
  [/\btelas?\b/i, 'ecrã'],
  [/\bregistro\b/i, 'registo'],
  [/\bequipes?\b/i, 'equipa'],
  [/\bbaixar\b/i, 'descarregar'],
  [/\bcontato\b/i, 'contacto'],
  [/\blances?\b/i, 'lançamento, lança'],
  [/\bde novo\b/i, 'novamente'],
  [/\b(jogue|escolha|espere|envie|tente|avance|clique)\b/i,
    'joga, escolhe, espera, envia, tenta, avança, clica'],
  [/\bconferem\b/i, 'coincidem'],
  [/\bpróxim[oa]\b/i, 'seguinte'],
  [/ô[mn]/i, 'bónus, económico'],
  [/(^|[.!?:—]\s*)(me|te|lhe) [a-zà-ú]/i, 'avisar-me, avisa-te'],
  [/\bpor que\b/i, 'porque, porquê'],
];

/** A gerund (Brazilian "reconectando"); European Portuguese says "a voltar a ligar". */
const GERUND = /\b(?!quando\b)[a-zà-ú]{2,}(ando|endo|indo)\b/i;

/** Where `text` drifts from European Portuguese in the players' words, if anywhere. */
function drifts(text) {
  const lower = text.toLowerCase();
  return [
    ...DRIFT.pt.filter((word) => lower.includes(word)),
    ...BRAZILIAN.filter(([form]) => form.test(text))
      .map(([form, european]) => `${form} (say ${european})`),
    ...(GERUND.test(text) ? [`gerund ${text.match(GERUND)[0]} (say "a" + infinitive)`] : []),
  ];
}

/** A term as a pattern that also matches its plural (casa segura, casas seguras). */
function termPattern(term) {
  const words = term.split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(words.map((w) => `${w}(s|es)?`).join('\\s+'), 'i');
}

/** The concepts whose English word always names the concept, with the English word as a pattern. */
const NAMED = {
  piece: /\bpieces?\b/i,
  base: /\bbase\b/i,
  track: /\btrack\b/i,
  homeColumn: /\bhome columns?\b/i,
  finish: /\bthe finish\b/i, // the square; "to finish" is the verb
  safeSquare: /\bsafe squares?\b/i,
  star: /\bstars?\b/i,
  blockade: /\bblockades?\b/i,
  capture: /\bcaptur/i,
  exactCount: /\bexact\b/i,
  houseRules: /\bhouse rules\b/i,
  playAgain: /\bplay again\b/i,
  board: /\bboards?\b/i,
  ownerMarks: /\bowner marks\b/i,
  cpu: /\bCPU\b/,
  ranked: /\branked\b/i,
};

test('every Portuguese text avoids the Brazilian forms and the drift words', () => {
  const found = Object.entries(pt)
    .map(([key, text]) => [key, text, drifts(text)])
    .filter(([, , words]) => words.length)
    .map(([key, text, words]) => `${key}: “${text}” — ${words.join(', ')}`);
  assert.deepEqual(found, []);
});

test('every Portuguese text uses the term of each concept its English text names', () => {
  const wrong = [];
  for (const [key, english] of Object.entries(en)) {
    if (!(key in pt)) continue;
    for (const [concept, pattern] of Object.entries(NAMED)) {
      if (pattern.test(english) && !termPattern(TERMS[concept].pt).test(pt[key])) {
        wrong.push(`${key}: “${pt[key]}” lacks “${TERMS[concept].pt}” (${concept})`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

test('the option names and values use the words the players use', () => {
  const needs = {
    'option.board': ['tabuleiro'],
    'option.exit_values': ['lançamento', 'peça', 'base'],
    'option.exit_on_double': ['peça', 'base'],
    'option.bonus_values': ['outro lançamento'],
    'option.bonus_on_double': ['outro lançamento'],
    'option.three_bonus_forfeit': ['lançamento'],
    'option.bonus_on_capture': ['captur', 'outro lançamento'],
    'option.bonus_on_finish': ['peça', 'chegada', 'outro lançamento'],
    'option.bonus_if_no_move': ['lançamento', 'outro lançamento'],
    'option.no_piece_out': ['peça', 'percurso'],
    'option.safe': ['casa segura'],
    'option.passing': ['peça'],
    'option.stacking': ['peça', 'casa'],
    'option.exact_finish': ['chegada', 'valor exato'],
    'value.horse': ['tabuleiro'],
    'value.roll': ['lançar'],
    'value.auto_exit': ['peça'],
    'value.starts_and_stars': ['saída', 'estrela'],
    'value.starts': ['saída'],
    'value.blockades': ['bloqueio'],
    'value.opponents': ['peça'],
    'value.any': ['peça'],
    'value.highest_roll': ['lançamento'],
    'home.houseRules': ['regras locais'],
    'rules.withChanges': ['regras locais'],
    'online.playAgain': ['jogar novamente'],
    'home.vsCpu': ['a CPU'],
    'online.addCpu': ['a CPU'],
    'log.byCpu': ['a CPU'],
    'home.ranked': ['classificada'],
    'log.out': ['peça', 'base'],
    'log.captures': ['captur'],
    'log.reaches': ['chegada'],
    'place.base': ['base'],
    'place.finished': ['chegada'],
    'place.homeColumn': ['casa', 'corredor de chegada'],
    'place.track#other': ['casas', 'corredor de chegada'],
    'board': ['tabuleiro'],
  };
  const wrong = Object.entries(needs).flatMap(([key, terms]) => terms
    .filter((term) => !termPattern(term).test(pt[key] ?? ''))
    .map((term) => `${key}: “${pt[key]}” lacks “${term}”`));
  assert.deepEqual(wrong, []);
});

test('the player is addressed as tu, in the European imperative', () => {
  assert.match(pt['status.you.roll'], /\blança\b/);
  assert.match(pt['status.you.move'], /\bescolhe\b/);
  assert.match(pt['tagline'], /\bJoga\b.*\bteu\b/);
  assert.match(pt['home.name'], /\bteu\b/);
  assert.match(pt['online.invite'], /\bEnvia\b.*\bteus\b/);
  assert.match(pt['online.waiting'], /^A aguardar\b/);
  assert.match(pt['online.connecting'], /^A ligar…$/);
});

test('every key present in English is present in Portuguese, with the same placeholders', () => {
  const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  assert.deepEqual(Object.keys(en).filter((key) => !(key in pt)), []);
  const changed = Object.keys(en).filter((key) => key in pt
    && placeholders(en[key]).join() !== placeholders(pt[key]).join());
  assert.deepEqual(changed, []);
});

test('the page in Portuguese finds a Portuguese text for every English key', async () => {
  assert.equal(await chooseLanguage([]), 'pt');
  for (const key of new Set(Object.keys(en).map((k) => k.replace(/#\w+$/, '')))) t(key, {});
  assert.deepEqual(missingKeys(), []);
  assert.equal(t('status.hot.roll', { seat: t('seat.yellow') }),
    'amarelo ○: é a tua vez — lança');
});
