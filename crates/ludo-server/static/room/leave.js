// Going home from an online game, and leaving it: while the person plays, Home asks first, in a
// real dialog, what they mean, and says what follows each before anything is sent: going home
// (the CPU plays their seat while they are away; the table takes them back when they return) or
// leaving the game for good (the CPU plays the seat to the end and they watch; a ranked result
// still counts). Outside a game, Home simply goes home.

import { element } from '../dom.js';

export class LeaveGame {
  /**
   * @param home the table's Home button
   * @param t the page's texts
   * @param leave sends the request to leave the game
   * @param goHome goes to the home page
   */
  constructor(home, { t, leave, goHome }) {
    this.t = t;
    this.home = home;
    this.playing = false;
    this.dialog = element('dialog', { id: 'leave-dialog' });
    this.dialog.setAttribute('aria-labelledby', 'leave-title');
    this.explain = element('p', { id: 'leave-explain' });
    const stay = element('button', { value: 'stay', textContent: t('leave.stay') });
    const away = element('button', { value: 'home', className: 'primary', textContent: t('leave.goHome') });
    const go = element('button', { value: 'leave', className: 'danger', textContent: t('leave.button') });
    this.dialog.append(
      element('h2', { id: 'leave-title', textContent: t('leave.title') }),
      element('p', { textContent: t('leave.away') }),
      this.explain,
      element('form', { method: 'dialog', className: 'dialog-buttons' }, stay, away, go),
    );
    this.dialog.onclose = () => {
      const chosen = this.dialog.returnValue;
      if (chosen === 'leave') leave();
      if (chosen === 'home') goHome();
      if (chosen === 'stay' || !chosen) home.focus();
    };
    home.onclick = () => {
      if (!this.playing) {
        goHome();
        return;
      }
      this.dialog.returnValue = '';
      this.dialog.showModal();
      stay.focus();
    };
    document.body.append(this.dialog);
  }

  /** Asks before going home while the person plays in a game being played; `ranked` says its result counts. */
  draw(playing, ranked) {
    this.playing = playing;
    if (!playing && this.dialog.open) this.dialog.close();
    this.explain.textContent = [this.t('leave.explain'), ranked ? this.t('leave.ranked') : ''].join(' ').trim();
  }
}
