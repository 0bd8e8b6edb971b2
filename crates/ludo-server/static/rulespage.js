// The rules pages: for each preset, how to play, its house rules with their defaults and the
// other choices, a few words and questions, all written from the same option names and values
// the settings show, and a button that starts a local game with these rules.

import { addTexts, t } from './i18n.js';
import { RULES_TEXTS } from './rulestext.js';
import { optionLabel, ordered, valueLabel } from './options.js';

addTexts(RULES_TEXTS);

const TERMS = ['base', 'start', 'track', 'safe', 'blockade', 'home', 'finish', 'bonus'];

function add(parent, tag, text = '') {
  const node = document.createElement(tag);
  node.textContent = text;
  parent.append(node);
  return node;
}

/** The throws that bring a piece out, in words: die faces, and any double if it does. */
function exitText(options) {
  return [options.exit_values.join(', '), options.exit_on_double ? t('rules.double') : '']
    .filter(Boolean).join(', ');
}

/** The options that mean something on these rules' board (a layout only on the Ludo board). */
function applying(options) {
  return ordered(options).filter(([name]) => !(name === 'layout' && options.board === 'horse'));
}

/** What holds in these rules: every option that is on, and every option with a value. */
function statements(options) {
  return applying(options)
    .filter(([, value]) => value !== false && !(Array.isArray(value) && value.length === 0))
    .map(([name, value]) => (value === true ? optionLabel(name, t)
      : t('rules.is', { option: optionLabel(name, t), value: valueLabel(value, t) })));
}

function houseRules(parent, options, choices) {
  const table = add(parent, 'table');
  const head = table.createTHead().insertRow();
  for (const text of [t('table.option'), t('rules.default'), t('rules.choices')]) add(head, 'th', text);
  const body = table.createTBody();
  for (const [name, value] of applying(options)) {
    const row = body.insertRow();
    row.insertCell().textContent = optionLabel(name, t);
    row.insertCell().textContent = valueLabel(value, t);
    const others = (choices[name] ?? []).filter((v) => JSON.stringify(v) !== JSON.stringify(value));
    row.insertCell().textContent = others.map((v) => valueLabel(v, t)).join('; ');
  }
}

function definitions(parent, pairs) {
  const list = add(parent, 'dl');
  for (const [term, meaning] of pairs) {
    add(list, 'dt', term);
    add(list, 'dd', meaning);
  }
}

/**
 * Fills `section` with the rules page of `preset` (`{preset, options}` from `/api/rules`, whose
 * `choices` are the values each option can take). `play(name)` starts a local game with them.
 */
export function drawRulesPage(section, preset, choices, play) {
  const { options } = preset;
  section.replaceChildren();
  section.dataset.preset = preset.preset;
  const back = add(section, 'a', t('home'));
  back.href = '#';
  const title = add(section, 'h2', t('rules.title', { preset: t(`preset.${preset.preset}`) }));
  title.tabIndex = -1;
  add(section, 'p', t(`rules.intro.${preset.preset}`));
  const start = add(section, 'button', t('rules.play'));
  start.className = 'play-rules';
  start.onclick = () => play(preset.preset);
  add(section, 'h3', t('rules.summary'));
  add(section, 'p', t('rules.aim'));
  add(section, 'p', t('rules.capture'));
  add(section, 'p', t('rules.inForce'));
  const list = add(section, 'ul');
  for (const line of statements(options)) add(list, 'li', line);
  add(section, 'h3', t('rules.houseRules'));
  houseRules(add(section, 'div'), options, choices);
  add(section, 'h3', t('rules.glossary'));
  definitions(section, TERMS.map((term) => [t(`term.${term}`), t(`term.${term}.d`)]));
  add(section, 'h3', t('rules.faq'));
  const yesNo = (key, on) => t(`${key}.${on ? 'yes' : 'no'}`);
  definitions(section, [
    [t('faq.out'), t('faq.out.a', { exit: exitText(options) })],
    [t('faq.three'), yesNo('faq.three', options.three_bonus_forfeit)],
    [t('faq.share'), yesNo('faq.share', options.stacking)],
    [t('faq.exact'), yesNo('faq.exact', options.exact_finish)],
  ]);
  title.focus();
}
