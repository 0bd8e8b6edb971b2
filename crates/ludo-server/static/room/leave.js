// Leaving an online game while it is played: a button in the table's settings, then a real
// dialog that says what follows (the CPU plays the seat to the end, the person watches, a ranked
// result still counts) before anything is sent.

export class LeaveGame {
  /**
   * @param container where the button goes (the table's settings)
   * @param t the page's texts
   * @param leave sends the request to leave
   */
  constructor(container, { t, leave }) {
    this.t = t;
    this.button = Object.assign(document.createElement('button'), { type: 'button', id: 'leave-game',
      textContent: t('leave.button'), hidden: true });
    this.dialog = document.createElement('dialog');
    this.dialog.id = 'leave-dialog';
    this.dialog.setAttribute('aria-labelledby', 'leave-title');
    const title = Object.assign(document.createElement('h2'), { id: 'leave-title', textContent: t('leave.title') });
    this.explain = document.createElement('p');
    const form = Object.assign(document.createElement('form'), { method: 'dialog', className: 'dialog-buttons' });
    const stay = Object.assign(document.createElement('button'), { value: 'stay', textContent: t('leave.stay') });
    const go = Object.assign(document.createElement('button'), { value: 'leave', className: 'danger',
      textContent: t('leave.button') });
    form.append(stay, go);
    this.dialog.append(title, this.explain, form);
    this.dialog.onclose = () => {
      if (this.dialog.returnValue === 'leave') leave();
      this.button.focus();
    };
    this.button.onclick = () => {
      this.dialog.returnValue = '';
      this.dialog.showModal();
      stay.focus();
    };
    container.append(this.button);
    document.body.append(this.dialog);
  }

  /** Offers the button while the person plays in a game being played; `ranked` says its result counts. */
  draw(playing, ranked) {
    this.button.hidden = !playing;
    if (!playing && this.dialog.open) this.dialog.close();
    this.explain.textContent = [this.t('leave.explain'), ranked ? this.t('leave.ranked') : ''].join(' ').trim();
  }
}
