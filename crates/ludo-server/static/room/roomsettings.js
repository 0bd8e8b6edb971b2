// A room's settings at the table: before a game the host changes
// the rules (a preset and any house rules), the turn clock, ranked play, who starts the next
// game and whether the room is listed publicly; everyone sees them, with every house rule that
// differs from the preset marked.

import { drawRulesInForce } from '../game/board.js';
import { errorText } from '../i18n/texts-errors.js';
import { element } from '../dom.js';
import { drawHouseRules, readHouseRules } from '../rulebook/houserules.js';

/** A room's rules written in full: `"classic"` or `{preset, …}` → the preset's options with changes. */
function optionsOf(rules, presets) {
  const { preset, ...changes } = typeof rules === 'string' ? { preset: rules } : rules;
  const defaults = presets.find((p) => p.preset === preset)?.options ?? {};
  return { preset, defaults, options: { ...defaults, ...changes } };
}

/**
 * The settings of a room, in `section`: what everyone sees (the rules in force, marked where they
 * differ from the preset, the clock, ranked, who starts the next game), and for the host before a
 * game, controls that ask the server to change them.
 */
export class RoomSettings {
  /**
   * @param section where the settings are drawn
   * @param rules `/api/rules`'s answer: the presets and each option's choices
   * @param engine the WebAssembly engine, which checks house rules before they are sent (null
   *   until it is there: the server checks them then, and says what it refuses)
   * @param t the page's texts
   * @param ask sends a request to the room (its refusal is shown by the lobby)
   * @param refuse shows a text where the lobby's refusals go
   */
  constructor(section, { rules, engine, t, ask, refuse }) {
    Object.assign(this, { section, rules, engine, t, ask, refuse });
    this.drawn = null;
    // The house rules the host has changed and not applied yet, and the room's rules they were
    // changed from: they outlive redraws for other changes, not a change of the room's rules.
    this.draft = null;
  }

  /** Draws `settings`; `host` may change them while `open` (no game being played). */
  draw(settings, { host, open, cpuSeated }) {
    const key = JSON.stringify([settings, host, open, cpuSeated]);
    if (key === this.drawn) return;
    this.drawn = key;
    const { t } = this;
    const { preset, defaults, options } = optionsOf(settings.rules, this.rules.presets);
    const inForce = element('table', { className: 'room-rules' });
    drawRulesInForce(inForce, { preset, options }, t, defaults);
    const facts = element('p', { className: 'room-facts' }, [
      t('room.clockIs', { value: settings.clock ? t(`friends.clock${settings.clock}`) : t('friends.noClock') }),
      settings.ranked ? t('home.ranked') : null,
      settings.rotate ? t('home.rotate') : null,
      settings.public ? t('room.isPublic') : null,
    ].filter(Boolean).join(' · '));
    const details = element('details', { className: 'room-rules-details' },
      element('summary', { textContent: inForce.caption.textContent }), inForce);
    const heading = element('h2', { textContent: t('room.settings') });
    const focused = this.focusedControl();
    if (!(host && open) || settings.ranked || this.draft?.from !== JSON.stringify(settings.rules)) {
      this.draft = null;
    }
    // The house rules stay folded or unfolded as the host left them.
    const unfolded = this.section.querySelector('.room-form details')?.open;
    // The host's controls show every setting themselves, so the host is not shown them twice.
    if (host && open) {
      const houseRulesSummary = inForce.querySelector('tr.changed') ? inForce.caption.textContent
        : t('home.houseRules');
      this.section.replaceChildren(heading,
        this.form(settings, { preset, defaults, options, cpuSeated, houseRulesSummary, unfolded }));
    } else {
      this.section.replaceChildren(heading, facts, details);
    }
    if (focused) this.section.querySelector(focused)?.focus();
  }

  /** A selector for the control in focus here, to focus its new copy after a redraw. */
  focusedControl() {
    const active = document.activeElement;
    if (!active || !this.section.contains(active)) return null;
    if (active.dataset.option) return `[data-option="${active.dataset.option}"]`;
    return active.name ? `[name="${active.name}"]` : null;
  }

  /** The host's controls; each change is sent at once, as the whole of the settings. */
  form(settings, { preset, defaults, options, cpuSeated, houseRulesSummary, unfolded }) {
    const { t } = this;
    const form = element('form', { className: 'room-form' });
    const presetSelect = element('select', { name: 'preset' },
      ...this.rules.presets.map((p) => new Option(t(`presetName.${p.preset}`), p.preset, false, p.preset === preset)));
    // A ranked table always has a clock.
    // The clocks a room may have are the server's (`/api/rules` `clocks`, none among them).
    const noClock = new Option(t('friends.noClock'), '', false, !settings.clock);
    noClock.disabled = settings.ranked;
    const clocks = this.rules.clocks.filter(Boolean);
    const clock = element('select', { name: 'clock' }, noClock, ...clocks.map((seconds) =>
      new Option(t(`friends.clock${seconds}`), String(seconds), false, settings.clock === seconds)));
    const ranked = element('input', { type: 'checkbox', name: 'ranked', checked: settings.ranked,
      disabled: cpuSeated && !settings.ranked });
    const rotate = element('input', { type: 'checkbox', name: 'rotate', checked: settings.rotate,
      disabled: settings.ranked });
    const listed = element('input', { type: 'checkbox', name: 'public', checked: settings.public });
    const houseRules = element('div', { className: 'room-house-rules' });
    drawHouseRules(houseRules, this.rules.choices, defaults, t,
      this.draft ? optionsOf(this.draft.rules, this.rules.presets).options : options);
    for (const control of houseRules.querySelectorAll('[data-option]')) control.disabled = settings.ranked;
    // House rules are applied together: one change alone may contradict the rest until the next.
    const apply = element('button', { type: 'button', className: 'apply-rules', textContent: t('room.apply'),
      disabled: settings.ranked });
    const label = (text, control) => element('label', {}, element('span', { textContent: text }), control);
    // Another preset starts from its own rules: a host who has changed some is told before choosing.
    const presetResets = element('p', { className: 'hint', textContent: t('room.presetResets'),
      hidden: !(this.draft || Object.keys(settings.rules).length > 1) });
    form.append(
      label(t('home.rules'), presetSelect),
      presetResets,
      label(t('friends.clock'), clock),
      label(t('friends.ranked'), ranked),
      label(t('home.rotate'), rotate),
      label(t('room.public'), listed),
      element('details', { open: !settings.ranked && (unfolded ?? Object.keys(settings.rules).length > 1) },
        element('summary', { textContent: houseRulesSummary }), houseRules, apply),
    );
    const send = (rules) => {
      try {
        this.engine?.checkRules(rules);
      } catch (error) {
        this.refuse(errorText(error, t, 'rules.error.other'));
        houseRules.querySelector(`[data-option="${error.option}"]`)?.focus();
        return;
      }
      this.ask({ t: 'settings', rules, clock: Number(clock.value) || null, ranked: ranked.checked,
        rotate: ranked.checked || rotate.checked, public: listed.checked });
    };
    form.onsubmit = (event) => event.preventDefault();
    apply.onclick = () => {
      const presetDefaults = this.rules.presets.find((p) => p.preset === preset).options;
      send(readHouseRules(houseRules, preset, presetDefaults));
    };
    form.onchange = (event) => {
      if (houseRules.contains(event.target)) {
        const rules = readHouseRules(houseRules, preset, defaults);
        this.draft = { from: JSON.stringify(settings.rules), rules };
        presetResets.hidden = false;
        return;
      }
      // A new preset starts from its own rules; a ranked table plays them and always rotates.
      send(ranked.checked || event.target === presetSelect ? { preset: presetSelect.value }
        : settings.rules);
    };
    return form;
  }
}
