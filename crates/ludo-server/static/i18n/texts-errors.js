// The engine's errors and the server's refusals in the reader's words: `errorText` chooses the
// words for any error the page shows, from the language tables' (`texts-<language>.js`) texts of
// every engine error code (`engine.<code>`, with `{placeholders}` for the values it speaks of),
// every refusal code (`refusal.<code>`) and every contradiction between house rules
// (`rules.error.<code>`).

import { has } from './i18n.js';
import { optionLabel } from '../rulebook/options.js';

const COLOURS = ['yellow', 'blue', 'red', 'green'];

/**
 * One of an error's values as the reader reads it: a colour by its name, a piece by its number
 * from 1, a throw as its dice, a list of seats, a phase or an option in words.
 */
function shown(name, value, t) {
  if (COLOURS.includes(value)) return t(`seat.${value}`);
  if (Array.isArray(value)) return value.map((v) => shown(name, v, t)).join(name === 'seats' ? ', ' : ' + ');
  if (['piece', 'first', 'second'].includes(name) && typeof value === 'number') return value + 1;
  if (name === 'phase') return t(`engine.phase.${value}`);
  if (name === 'option') return optionLabel(value, t);
  return value;
}

/** The words for an engine error `{code, params, option}`, or null for a code the page does not know. */
function faultText({ code, params = {}, option }, t) {
  if (option && has(`rules.error.${code}`)) return t(`rules.error.${code}`, { option: optionLabel(option, t) });
  if (!has(`engine.${code}`)) return null;
  const values = Object.fromEntries(Object.entries(params).map(([name, v]) => [name, shown(name, v, t)]));
  if ('index' in params) values.number = params.index + 1;
  const text = t(`engine.${code}`, values);
  return 'index' in params && code !== 'wrong_throw' ? t('engine.atAction', { number: values.number, text }) : text;
}

/**
 * Any error the page shows, in the reader's words: the engine's (an `EngineError`, or a server
 * refusal carrying the engine's reason as `engine`) by its code and values, a contradiction between
 * house rules by the option at fault, the server's refusals by their code, and anything else
 * (unreadable files, lost connections) by `fallback`, a general sentence. Never the English
 * message.
 */
export function errorText(error, t, fallback = 'engine.other') {
  const fault = error?.engine ?? (error?.params ? error : null);
  const text = fault ? faultText(fault, t) : null;
  if (text) return text;
  if (!fault && error?.code && has(`refusal.${error.code}`)) return t(`refusal.${error.code}`);
  return t(error?.code && !fault ? 'refusal.other' : fallback);
}
