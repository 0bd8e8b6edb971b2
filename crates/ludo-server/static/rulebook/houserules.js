// House rules as controls: one per option, set to its value, the preset's own marked as the
// default and a rule changed from it marked as the rules in force mark it; read back as rules.
// Used where a game is set up (the home screen's sheets, a room's settings).

import { optionLabel, ordered, valueLabel } from './options.js';

/**
 * One control per house rule in `container`, set to `values` (the preset's own by default):
 * a checkbox for yes/no options, a list for the others, the preset's value marked as default.
 * A rule set apart from the preset's own is marked "changed" as the rules in force mark it, as
 * soon as it is changed: a tick box cannot say its default the way a list does.
 */
export function drawHouseRules(container, choices, defaults, t, values = defaults) {
  const rows = ordered(choices).map(([name, options]) => {
    const label = document.createElement('label');
    const text = document.createElement('span');
    text.textContent = optionLabel(name, t);
    const mark = Object.assign(document.createElement('small'), { className: 'changed-mark' });
    text.append(mark);
    label.append(text);
    const markChanged = (value) => {
      const changed = JSON.stringify(value) !== JSON.stringify(defaults[name]);
      label.classList.toggle('changed', changed);
      mark.textContent = changed ? ` (${t('rules.changedMark')})` : '';
    };
    if (options.length === 2 && options.includes(true)) {
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = values[name];
      box.dataset.option = name;
      box.addEventListener('change', () => markChanged(box.checked));
      label.append(box);
    } else {
      const select = document.createElement('select');
      select.dataset.option = name;
      for (const value of options) {
        const json = JSON.stringify(value);
        const shown = valueLabel(value, t);
        const isDefault = json === JSON.stringify(defaults[name]);
        const chosen = json === JSON.stringify(values[name]);
        select.append(new Option(isDefault ? `${shown} (${t('default')})` : shown, json, false, chosen));
      }
      select.addEventListener('change', () => markChanged(JSON.parse(select.value)));
      label.append(select);
    }
    markChanged(values[name]);
    return label;
  });
  container.replaceChildren(...rows);
}

/** The rules the controls in `container` say: the preset, and every option changed from it. */
export function readHouseRules(container, preset, defaults) {
  const rules = { preset };
  for (const control of container.querySelectorAll('[data-option]')) {
    const name = control.dataset.option;
    const value = control.type === 'checkbox' ? control.checked : JSON.parse(control.value);
    if (JSON.stringify(value) !== JSON.stringify(defaults[name])) rules[name] = value;
  }
  return rules;
}
