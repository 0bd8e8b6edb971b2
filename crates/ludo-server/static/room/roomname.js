// One's name at an online table: someone who never gave one on this device is asked for it when
// they open an invitation; anyone may change it later. The name is kept on the device and said
// again to the room, which renames the person's seat.

import { limitName } from './served.js';

export class RoomName {
  /**
   * @param anchor the element the form follows
   * @param t the page's texts
   * @param saved the name given before on this device, or null
   * @param shown the name the others see until one is given (shown as the field's placeholder)
   * @param save keeps a new name and says it to the room
   */
  constructor(anchor, { t, saved, shown, save }) {
    this.details = Object.assign(document.createElement('details'), { id: 'room-name', open: !saved });
    this.summary = document.createElement('summary');
    const form = document.createElement('form');
    const label = document.createElement('label');
    const input = Object.assign(document.createElement('input'), { name: 'name', required: true,
      value: saved ?? '', placeholder: shown, autocomplete: 'nickname' });
    limitName(input, t);
    label.append(Object.assign(document.createElement('span'), { textContent: t('name.ask') }), input);
    form.append(label, Object.assign(document.createElement('button'), { textContent: t('name.save') }));
    const title = (name) => {
      this.summary.textContent = name ? t('name.is', { name }) : t('name.choose');
    };
    form.onsubmit = (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      save(name);
      title(name);
      this.details.open = false;
    };
    title(saved);
    this.details.append(this.summary, form);
    anchor.after(this.details);
    // On a keyboard the name is typed at once; a phone's keyboard would cover the seats to take.
    if (!saved && !matchMedia('(pointer: coarse)').matches) input.focus();
  }
}
