// Playing again at an online table: after a game, "Play again" offers a new game to the others;
// each accepts or declines. Whoever accepted waits for the rest ("Waiting for Ana and Bo…") and may
// cancel while waiting; a decline or a cancel withdraws the offer for everyone, and everyone is
// told who did it. The server starts the new game once every person seated has accepted. The same
// offer, before a table's first game, is the host's start of a game that counts for ratings. Each
// acceptance names the settings it accepts (their version, as the page last drew them): if they
// have changed since, the server refuses it, and the person looks at them again.

import { element } from '../dom.js';

/** Names joined as the reader's language joins them ("Ana and Bo", "Ana et Bo"). */
export function listOf(names) {
  return new Intl.ListFormat(document.documentElement.lang || 'en', { type: 'conjunction' }).format(names);
}

export class Rematch {
  /**
   * @param box where the offer is shown (in the end panel)
   * @param t the page's texts
   * @param ask sends a request (`play_again`, `decline`); its refusal comes back to `refused`
   * @param onOffer called when someone else offers the reader a new game
   * @param first whether the offer is of the table's first game (the host's start of a game that
   *   counts for ratings), said in its own words
   */
  constructor(box, { t, ask, onOffer = null, first = false }) {
    Object.assign(this, { box, t, ask, onOffer, first });
    this.declinedText = '';
    this.withdrawing = false;
  }

  /**
   * Draws the offer after a game: `room` (the server's), `seat` the reader's (none for a watcher),
   * `names` who sits where, in words, by seat; nothing while `over` is false. At a table matchmaking formed,
   * `newOpponent` is where one of its players (seated still or not) looks for another table.
   */
  draw(room, seat, over, names, newOpponent = null) {
    const { t } = this;
    this.box.hidden = !over;
    this.accepted = over ? room.rematch ?? [] : [];
    if (!over) {
      this.declinedText = '';
      return;
    }
    // A new offer replaces the news of the last one declined (whose withdrawal comes just after it).
    if (!room.rematch) this.withdrawing = false;
    else if (!this.withdrawing) this.declinedText = '';
    const { accepted } = this;
    const people = Object.entries(room.seats).filter(([, s]) => s.occupant.kind === 'person').map(([c]) => c);
    const waitingFor = people.filter((c) => !accepted.includes(c));
    // Drawn again only when something shown changes, so that a button keeps the focus.
    const name = (colour) => names[colour];
    const key = JSON.stringify([room.rematch, people.map(name), seat, this.declinedText, newOpponent,
      room.settings_version]);
    if (key === this.drawn) return;
    this.drawn = key;
    const parts = [];
    const line = (text) => parts.push(element('p', { textContent: text }));
    const button = (text, message, className = '') => element('button', {
      type: 'button', textContent: text, className, onclick: () => this.ask(message),
    });
    // Accepting is accepting the settings as drawn now.
    const accept = { t: 'play_again', settings_version: room.settings_version };
    if (this.declinedText) line(this.declinedText);
    if (room.rematch && accepted.includes(seat)) {
      line(t('rematch.waiting', { names: listOf(waitingFor.map(name)) }));
    } else if (room.rematch) {
      line(t(this.first ? 'rematch.offeredRanked' : 'rematch.offered', { names: listOf(accepted.map(name)) }));
      // Someone offers the reader a new game: said at once, and shown however the end was left.
      if (seat) {
        parts.at(-1).setAttribute('role', 'alert');
        parts.at(-1).className = 'rematch-offer';
        this.onOffer?.();
      }
    }
    const buttons = document.createElement('p');
    buttons.className = 'rematch-buttons';
    if (seat && room.rematch && accepted.includes(seat)) {
      buttons.append(button(t('rematch.cancel'), { t: 'decline' }));
    }
    // A game needs two seats: alone at the table, the person is told how to fill one instead
    // (at a matched table, nobody else sits: they look for another).
    const alone = Object.keys(room.seats).length < 2;
    if (seat && !room.rematch && alone) line(t(newOpponent ? 'rematch.aloneMatched' : 'rematch.alone'));
    if (seat && !room.rematch && !alone) buttons.append(button(t('online.playAgain'), accept, 'primary'));
    if (seat && room.rematch && !accepted.includes(seat)) {
      buttons.append(button(t('rematch.accept'), accept, 'primary'),
        button(t('rematch.decline'), { t: 'decline' }));
    }
    if (newOpponent) {
      buttons.append(Object.assign(document.createElement('a'), {
        href: newOpponent, className: `button${alone || !seat ? ' primary' : ''}`, textContent: t('rematch.newOpponent'),
      }));
    }
    if (buttons.childElementCount) parts.push(buttons);
    this.status = Object.assign(document.createElement('p'), { className: 'rematch-refusal' });
    this.status.setAttribute('role', 'alert');
    this.box.replaceChildren(...parts, this.status);
  }

  /**
   * The person in `seat` (`name`; `mine` when it is the reader's own seat) declined the offer, or
   * cancelled it after accepting: said until the next offer or game, to the reader as "you".
   */
  declined(seat, name, mine = false) {
    const cancelled = this.accepted?.includes(seat);
    const key = `rematch.${mine ? 'you.' : ''}${cancelled ? 'cancelled' : 'declined'}`;
    this.declinedText = this.t(key, { name });
    this.withdrawing = true;
    return this.declinedText;
  }

  /** A request from here was refused. */
  refused(text) {
    if (this.status) this.status.textContent = text;
  }
}
