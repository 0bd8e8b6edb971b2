// The players' own words: each concept's texts use its term (e2e/terms.mjs) in French, Portuguese
// and Russian, no text drifts to another word for it, and Vietnamese speaks of horses on the horse
// board and of "quân" on the Ludo board. Plain node, no browser: the tables are imported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DRIFT, TERMS } from './terms.mjs';

const storage = new Map();
globalThis.localStorage = {
  getItem: (key) => storage.get(key) ?? null,
  setItem: (key, value) => storage.set(key, String(value)),
};

const static_ = '../crates/ludo-server/static';
const { addTexts, allTexts, chooseLanguage, setBoard, t, textEntries } = await import(`${static_}/i18n/i18n.js`);
// The lesson's words (loaded with it) are the page's texts too.
addTexts((await import(`${static_}/game/lessontext.js`)).LESSON_TEXTS);
// So are the hint's (loaded once hints are turned on).
addTexts((await import(`${static_}/game/hinttext.js`)).HINT_TEXTS);
// And a game's analysis's (loaded with it).
addTexts((await import(`${static_}/records/analysistext.js`)).ANALYSIS_TEXTS);
// Each text, a plural form of one (`key#few`) as a text of its own.
const TEXTS = Object.fromEntries(Object.entries(await allTexts())
  .map(([language, texts]) => [language, Object.fromEntries(textEntries(texts))]));
const { RULES_TEXTS } = await import(`${static_}/rulebook/rulestext.js`);

/** Which keys' texts name which concepts (each text must contain every one of their terms). */
const NAMING = {
  'option.board': ['board'],
  'option.dice': ['die'],
  'option.exit_values': ['throw', 'piece'],
  'option.exit_on_double': ['piece'],
  'option.bonus_values': ['anotherThrow'],
  'option.bonus_on_double': ['anotherThrow'],
  'option.three_bonus_forfeit': ['anotherThrow'],
  'option.bonus_on_capture': ['capture', 'anotherThrow'],
  'option.bonus_on_finish': ['piece', 'finish', 'anotherThrow'],
  'option.bonus_if_no_move': ['anotherThrow'],
  'option.no_piece_out': ['piece', 'track'],
  'option.safe': ['safeSquare'],
  'option.passing': ['piece'],
  'option.stacking': ['piece', 'square'],
  'option.exact_finish': ['finish', 'exactCount'],
  'value.starts_and_stars': ['start', 'star'],
  'value.starts': ['start'],
  'value.blockades': ['blockade'],
  'value.auto_exit': ['piece'],
  'value.opponents': ['piece'],
  'value.any': ['piece'],
  'home.houseRules': ['houseRules'],
  'rules.withChanges': ['houseRules'],
  'online.playAgain': ['playAgain'],
  'home.vsCpu': ['cpu'],
  'home.opponents': ['cpu'],
  'online.addCpu': ['cpu'],
  'tagline': ['cpu'],
  'cpu': ['cpu'],
  'cpu.named': ['cpu'],
  'log.byCpu': ['cpu'],
  'clock.ranOut': ['cpu'],
  'away.played': ['cpu'],
  'status.cpuForYou': ['cpu'],
  'home.ranked': ['ranked'],
  'friends.ranked': ['ranked'],
  'records.ranked': ['ranked'],
  'ranked.find': ['ranked'],
  'board': ['board'],
  'replay.board': ['board'],
  'rules.error.horse_layout': ['board'],
  'rules.error.horse_inexact_finish': ['board'],
  'rules.error.two_dice_exact_finish': ['board'],
  'rules.error.dice_count': ['die'],
  'rules.error.no_way_out': ['piece'],
  'roll': ['throw'],
  'roll.two': ['throw'],
  'piece.move': ['piece'],
  'piece.at': ['piece'],
  'place.base': ['base'],
  'place.homeColumn': ['square', 'homeColumn'],
  'place.track#other': ['square', 'homeColumn'],
  'move.safe': ['safeSquare'],
  'move.captures': ['capture'],
  'place.finished': ['finish'],
  'status.you.move': ['piece'],
  'status.hot.move': ['piece'],
  'status.auto': ['piece'],
  'log.out': ['piece'],
  'log.captures': ['capture'],
  'log.reaches': ['finish'],
  'hint.exact': ['piece', 'exactCount'],
  'hint.exact.many': ['piece', 'exactCount'],
  'hint.blockade': ['piece', 'blockade'],
  'hint.blockade.many': ['piece', 'blockade'],
  'hint.inTheWay': ['piece'],
  'hint.inTheWay.many': ['piece'],
  'hint.ownPiece': ['piece'],
  'hint.ownPiece.many': ['piece'],
  'hint.start.blockade': ['blockade', 'start', 'base'],
  'hint.start.ownPiece': ['piece', 'start', 'base'],
};

/** Lower case, with ё read as е (Russian writes it either way). */
const fold = (text) => text.toLowerCase().replaceAll('ё', 'е');

/** `text` as a regular expression that matches it literally. */
const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `word` starts a word of `text`, whatever the case. */
const startsWord = (text, word) => new RegExp(`(^|[^\\p{L}])${literal(fold(word))}`, 'u').test(fold(text));

/** Whether `text` says `term`, each of its words perhaps longer there (a plural, an ending). */
const names = (text, term) => new RegExp(fold(term).split(/\s+/).map((word) => `${literal(word)}\\p{L}*`)
  .join('\\s+'), 'u').test(fold(text));

/** The `{placeholders}` of a text, sorted. */
const placeholders = (text) => (text.match(/\{\w+\}/g) ?? []).sort();

for (const language of ['fr', 'pt', 'ru']) {
  test(`every ${language} text naming a concept uses the players' term for it`, () => {
    const wrong = [];
    for (const [key, concepts] of Object.entries(NAMING)) {
      const text = TEXTS[language][key] ?? '';
      for (const concept of concepts) {
        const term = TERMS[concept][language];
        if (!names(text, term)) wrong.push(`${key} “${text}” lacks ${concept} “${term}”`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  test(`no ${language} text drifts to another word for a concept`, () => {
    const drifted = Object.entries(TEXTS[language])
      .flatMap(([key, text]) => DRIFT[language].filter((word) => startsWord(text, word))
        .map((word) => `${key} “${text}” says “${word}”`));
    assert.deepEqual(drifted, []);
  });

  test(`no ${language} rules page text drifts to another word for a concept`, () => {
    const drifted = Object.entries(RULES_TEXTS[language] ?? {})
      .flatMap(([key, text]) => DRIFT[language].filter((word) => startsWord(text, word))
        .map((word) => `${key} “${text}” says “${word}”`));
    assert.deepEqual(drifted, []);
  });
}

test('every text keeps the placeholders of its English one, and a board variant those of its text', () => {
  const wrong = [];
  for (const [language, texts] of Object.entries(TEXTS)) {
    for (const [key, text] of Object.entries(texts)) {
      const variant = key.includes('@');
      // A plural form keeps the placeholders of the English text's `other` form.
      const base = key.replace(/#\w+$/, '#other');
      const original = variant ? texts[key.split('@')[0]] : TEXTS.en[base] ?? TEXTS.en[key];
      if (original === undefined) {
        wrong.push(`${language} ${key} has no ${variant ? 'text' : 'English'} to vary`);
      } else if (placeholders(text).join() !== placeholders(original).join()) {
        wrong.push(`${language} ${key}: “${text}”`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

/** The Vietnamese texts: each as on the Ludo board, and the horse board's variants. */
const vi = TEXTS.vi;
const ludoKeys = Object.keys(vi).filter((key) => !key.includes('@'));
/** The horse board's variants of texts about pieces (not the board's own name). */
const horseKeys = Object.keys(vi).filter((key) => key.endsWith('@horse') && key !== 'board@horse');
/** A Vietnamese text without the game's own name, cờ cá ngựa (which names the game, not a piece). */
const withoutName = (text) => text.toLowerCase().replaceAll('cờ cá ngựa', '').replaceAll('cá ngựa', '');

test('in Vietnamese every text about pieces has a horse-board variant', () => {
  const lacking = ludoKeys.filter((key) => /quân/iu.test(vi[key]) && !(`${key}@horse` in vi));
  assert.deepEqual(lacking, []);
});

test('in Vietnamese the horse-board texts say ngựa and never quân', () => {
  assert.ok(horseKeys.length > 10, 'the horse-board variants');
  const wrong = horseKeys.filter((key) => !/ngựa/iu.test(withoutName(vi[key])) || /quân/iu.test(vi[key]));
  assert.deepEqual(wrong.map((key) => `${key}: “${vi[key]}”`), []);
});

test('in Vietnamese the Ludo-board texts say quân and never ngựa, but for the game’s name', () => {
  const horses = ludoKeys.filter((key) => /ngựa/iu.test(withoutName(vi[key])));
  assert.deepEqual(horses.map((key) => `${key}: “${vi[key]}”`), []);
  const pieces = horseKeys.map((key) => key.replace('@horse', '')).filter((key) => !/quân/iu.test(vi[key]));
  assert.deepEqual(pieces.map((key) => `${key}: “${vi[key]}”`), []);
});

test('in Vietnamese the CPU is Máy in every text, never CPU', () => {
  const wrong = Object.entries(vi).filter(([, text]) => /\bCPU\b/u.test(text));
  assert.deepEqual(wrong.map(([key, text]) => `${key}: “${text}”`), []);
  assert.equal(vi.cpu, 'Máy');
});

test('the board is named for what it is in Vietnamese', () => {
  assert.equal(vi.board, 'Bàn cờ Ludo');
  assert.equal(vi['board@horse'], 'Bàn cờ cá ngựa');
});

test('the option applying with no piece on the track says so in Vietnamese', () => {
  for (const key of ['option.no_piece_out', 'option.no_piece_out@horse']) {
    assert.match(vi[key], /không có (quân|ngựa) nào trên đường đi/u);
  }
});

test('the texts follow the board set: horses on the horse board, quân on the Ludo board', async () => {
  localStorage.setItem('ludo.language', 'vi');
  assert.equal(await chooseLanguage([]), 'vi');
  const seat = t('seat.red');
  setBoard('horse');
  assert.equal(t('log.out', { seat }), 'đỏ △ ra ngựa');
  assert.equal(t('option.exit_on_double'), 'Gieo đôi được ra ngựa');
  assert.equal(t('place.base'), 'trong chuồng');
  setBoard('ludo');
  assert.equal(t('log.out', { seat }), 'đỏ △ ra quân');
  setBoard(undefined);
  assert.equal(t('option.exit_on_double'), 'Gieo đôi được ra quân');
});

test('a language without horse words keeps its one text on the horse board', async () => {
  localStorage.setItem('ludo.language', 'fr');
  assert.equal(await chooseLanguage([]), 'fr');
  setBoard('horse');
  assert.equal(t('log.out', { seat: t('seat.red') }), 'rouge △ sort une pièce');
  assert.equal(t('board'), 'Plateau des chevaux (cờ cá ngựa)');
  setBoard('ludo');
  assert.equal(t('board'), 'Plateau de Ludo');
});
