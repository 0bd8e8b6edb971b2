// The home screen's own parts: what the Play button starts (the settings of the last game against
// the CPU, remembered here), the saved games (each said in a line, with Continue and Delete), and
// the three rulesets, each with a small picture of its board.

import { drawBoard } from '../game/board.js';
import { forget, restore, savedGames, untouched } from './saves.js';
import { element, svgElement } from '../dom.js';
import { keepLanguage } from '../i18n/i18n.js';
import { expertNetwork } from '../engine/engine.js';

const SETTINGS_KEY = 'ludo.play';
const GUIDE_KEY = 'ludo.guide';

/** Whether the first-game guide (`guide.js`, loaded only to be shown) was shown here already. */
export function guideSeen() {
  return localStorage.getItem(GUIDE_KEY) === 'seen';
}

/** Remembers that the guide was shown on this device. */
export function markGuideSeen() {
  localStorage.setItem(GUIDE_KEY, 'seen');
}

/** The presets offered, in the order shown. */
const PRESETS = ['qdan', 'classic', 'vietnamese'];

/**
 * The rules a page in `language` offers first, and marks as the default in its lists: Vietnamese
 * rules for a Vietnamese page (whose texts say so), else the standard rules (`qdan`).
 */
export function homePreset(language) {
  return language === 'vi' ? 'vietnamese' : 'qdan';
}

/**
 * What Play starts: the settings of the last game against the CPU (`{opponents, level, rules}`),
 * or, the first time, three medium CPUs under the rules that fit `language` (`homePreset`).
 */
export function playSettings(language) {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY));
    if (saved?.rules?.preset && saved.opponents && saved.level) return playableSettings(saved);
  } catch {
    // Settings that do not read are forgotten.
  }
  return { opponents: 3, level: 'medium', rules: { preset: homePreset(language) } };
}

/**
 * Whether `expert` plays a game of `rules` with `seats` seats: it has a network for it
 * (`expertNetwork` in `engine/engine.js`). Elsewhere it is not offered, rather than offered and played as `hard`.
 */
export function expertPlays(rules, seats) {
  return expertNetwork(rules, seats) !== null;
}

/**
 * `settings` with a level that plays them: `hard` in place of an `expert` that does not (settings
 * remembered before the rules or the number of opponents changed).
 */
export function playableSettings(settings) {
  const fits = settings.level !== 'expert' || expertPlays(settings.rules, settings.opponents + 1);
  return fits ? settings : { ...settings, level: 'hard' };
}

/** Remembers the settings of a game against the CPU, for the next Play. */
export function rememberSettings(settings) {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
}

/** The rules in words: the preset's short name, and that house rules are changed if they are. */
export function rulesText(rules, t) {
  const { preset, ...changes } = typeof rules === 'string' ? { preset: rules } : rules;
  const name = t(`ruleset.${preset}`);
  return Object.keys(changes).length ? t('saves.withHouseRules', { rules: name }) : name;
}

/** Who plays, in words: "you + 3 CPUs", or "4 people" on one device. */
function playersText(players, t) {
  const who = Object.values(players);
  const cpus = who.filter((p) => p !== 'human').length;
  if (!cpus) return t('saves.people', { n: who.length });
  return t(cpus === 1 ? 'saves.youAndCpu' : 'saves.youAndCpus', { n: cpus });
}

/** How long ago `time` was, in the page's language ("5 minutes ago"). */
function ago(time, language, now = Date.now()) {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const minutes = Math.round((time - now) / 60000);
  if (minutes === 0) return format.format(0, 'second');
  if (Math.abs(minutes) < 60) return format.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 24) return format.format(hours, 'hour');
  return format.format(Math.round(hours / 24), 'day');
}

/** What Play starts, in a line: "Standard rules · you + 3 CPUs · Medium". */
export function settingsText({ opponents, level, rules }, t) {
  return [rulesText(rules, t), t(opponents === 1 ? 'saves.youAndCpu' : 'saves.youAndCpus', { n: opponents }),
    t(`level.${level}`)].join(' · ');
}

/** A saved game in a line: "Standard rules · you + 3 CPUs · 5 minutes ago". */
export function savedText(game, t, language) {
  return [rulesText(game.rules ?? game.position.rules, t), playersText(game.players, t),
    ago(game.saved_at, language)].join(' · ');
}

/**
 * Shows the saved games in `section` (its list `#saved-games`, and `#saved-undo` to undo a
 * delete), the one played last first, each with Continue (`onContinue(game, row)`) and Delete. A
 * game deleted can be brought back until another is. The section hides when no game is saved.
 * Games nobody played in yet are not shown.
 */
export function drawSavedGames(section, { t, language, onContinue }) {
  const list = section.querySelector('#saved-games');
  const undo = section.querySelector('#saved-undo');
  const draw = () => {
    // A game opened and left before the person acted in it (one the guide started, say) has
    // nothing to continue: it is not offered (saves.js lets the next new game replace it).
    const games = savedGames().filter((game) => !untouched(game));
    section.hidden = games.length === 0 && !undo.childElementCount;
    list.replaceChildren(...games.map((game) => {
      const what = element('span', { className: 'what', textContent: savedText(game, t, language) });
      const go = element('button', { type: 'button', className: 'continue', textContent: t('saves.continue') });
      go.setAttribute('aria-describedby', `saved-${game.id}`);
      what.id = `saved-${game.id}`;
      go.onclick = () => onContinue(game, row);
      // A cross, to keep each game to one short row; its name says what it does.
      const remove = element('button', { type: 'button', className: 'delete', textContent: '×', title: t('saves.delete') });
      remove.setAttribute('aria-label', t('saves.delete'));
      remove.setAttribute('aria-describedby', `saved-${game.id}`);
      remove.onclick = () => {
        forget(game.id);
        const back = element('button', { type: 'button', className: 'undo', textContent: t('saves.undo') });
        back.onclick = () => {
          restore(game);
          undo.replaceChildren();
          draw();
          list.querySelector(`li[data-id="${CSS.escape(game.id)}"] .continue`)?.focus();
        };
        undo.replaceChildren(element('span', { textContent: t('saves.deleted') }), ' ', back);
        draw();
        back.focus();
      };
      const row = element('li', {}, what, element('span', { className: 'buttons' }, go, remove));
      row.dataset.id = game.id;
      return row;
    }));
  };
  draw();
}

/**
 * The three rulesets in `list`: each a link to its rules page with its name, a line saying what
 * it is, and a small picture of its board (drawn by the board's own code from the engine's
 * numbers for a four-player game).
 */
export function drawRulesets(list, presets, engineLoaded, t) {
  list.replaceChildren(...PRESETS.filter((name) => presets.some((p) => p.preset === name)).map((name) => {
    // The picture's room is kept (app.css): its board is drawn into it once the engine is loaded.
    const picture = svgElement('svg', { class: 'ruleset-board', 'aria-hidden': 'true' });
    engineLoaded.then((engine) => {
      const position = engine.newGame({ preset: name }, ['yellow', 'blue', 'red', 'green']);
      drawBoard(picture, position, engine.board(position), { t });
    }, () => {});
    const link = element('a', { href: keepLanguage(`/rules/${name}`) }, picture,
      element('span', { className: 'ruleset-text' },
        element('strong', { textContent: t(`preset.${name}`) }),
        element('span', { textContent: t(`home.about.${name}`) })));
    link.dataset.nav = '';
    return element('li', {}, link);
  }));
}
