// Quick phrases and reactions at an online table. There is no free text: a phrase travels as its
// id, and each page says it in its own reader's language, as a short bubble by the sender's seat
// (or over the board for someone watching) and as a line of the log. Anyone's phrases can be
// muted, for the rest of the visit.

import { element } from '../dom.js';
import { limits } from './served.js';

/**
 * How each reaction looks, by the server's id; the phrases and reactions on offer, and their
 * order, are the server's (`/api/rules`, see served.js): a reaction is an id starting `emoji_`.
 */
const EMOJI = { emoji_smile: '🙂', emoji_laugh: '😂', emoji_wow: '😮', emoji_sad: '😢', emoji_angry: '😠',
  emoji_clap: '👏' };

/** A speech bubble, and a loudspeaker crossed out (mute) or not: drawn, since phones lack some symbol fonts. */
const TALK_ICON = '<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"><path d="M4 4h16v11H10l-5 4v-4H4z" '
  + 'fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>';
const speakerIcon = (off) => `<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
  <path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>${off
  ? '<path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2"/>'
  : '<path d="M16 8.5a5 5 0 0 1 0 7" fill="none" stroke="currentColor" stroke-width="2"/>'}</svg>`;

/** How long a bubble shows. */
const BUBBLE_MS = 4000;
/** Whose phrases this visit hides: identity ids, kept for the browser tab's session. */
const MUTED_KEY = 'ludo.mutedPhrases';

/** A phrase in the reader's words: a reaction as its emoji, else its text. */
export function phraseText(id, t) {
  return EMOJI[id] ?? t(`phrase.${id}`);
}

const mutedIds = () => new Set(JSON.parse(sessionStorage.getItem(MUTED_KEY) ?? '[]'));

export class Phrases {
  /**
   * @param controls the table's row of buttons, where the phrases button goes
   * @param overlay where a watcher's bubble shows (over the board)
   * @param t the page's texts
   * @param say sends a phrase's id
   * @param log writes a line in the game's log
   * @param onSeatBubble told that a bubble shows on its sender's seat (`true`) or went from it
   *   (`false`), for the seats to show it (see `bubbleOf`)
   */
  constructor(controls, overlay, { t, say, log, onSeatBubble }) {
    Object.assign(this, { overlay, t, say, log, onSeatBubble });
    this.bubbles = new Map();
    this.people = [];
    this.button = element('button', { type: 'button', id: 'phrases-button', innerHTML: TALK_ICON });
    this.button.setAttribute('aria-label', t('phrase.open'));
    this.button.title = t('phrase.open');
    this.button.setAttribute('aria-expanded', 'false');
    this.button.setAttribute('aria-controls', 'phrases');
    this.panel = element('div', { id: 'phrases', hidden: true });
    this.status = element('p', { className: 'phrases-status' });
    this.status.setAttribute('role', 'status');
    this.button.onclick = () => this.open(this.panel.hidden);
    // Escape closes the panel, the focus back on its button.
    this.panel.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      this.open(false);
      this.button.focus();
    });
    controls.querySelector('#sound').before(this.button);
    // Opened above the table's buttons, over the board's foot: in sight wherever the buttons are.
    controls.append(this.panel);
    this.ids = [];
    this.drawPanel();
    limits().then(({ phrases }) => {
      this.ids = phrases;
      this.drawPanel();
    });
  }

  /** Opens or closes the panel. */
  open(shown) {
    this.panel.hidden = !shown;
    this.button.setAttribute('aria-expanded', String(shown));
    if (shown) this.panel.querySelector('button')?.focus();
  }

  /** The people at the table besides the reader (`[{id, name}]`), whose phrases may be muted. */
  setPeople(people) {
    const key = JSON.stringify(people);
    if (key === JSON.stringify(this.people)) return;
    this.people = people;
    this.drawPanel();
  }

  drawPanel() {
    const { t } = this;
    const send = (id) => {
      this.status.textContent = '';
      this.say(id);
      this.open(false);
      this.button.focus();
    };
    const reaction = (id) => id.startsWith('emoji_');
    const words = element('div', { className: 'phrase-words' }, ...this.ids.filter((id) => !reaction(id)).map((id) =>
      element('button', { type: 'button', textContent: t(`phrase.${id}`), onclick: () => send(id) })));
    const reactions = element('div', { className: 'phrase-emoji' }, ...this.ids.filter(reaction).map((id) =>
      element('button', { type: 'button', textContent: EMOJI[id] ?? id, onclick: () => send(id) })));
    const muted = mutedIds();
    const mutes = element('div', { className: 'phrase-mutes' }, ...this.people.map(({ id, name }) => {
      const on = muted.has(id);
      const b = element('button', { type: 'button', className: 'mute', innerHTML: speakerIcon(on),
        onclick: () => this.mute(id, !on) }, ` ${name}`);
      b.setAttribute('aria-pressed', String(on));
      b.setAttribute('aria-label', t(on ? 'phrase.unmute' : 'phrase.mute', { name }));
      return b;
    }));
    this.panel.replaceChildren(words, reactions, mutes, this.status);
  }

  /** Hides (or shows again) the phrases of the person `id`, their bubble at once. */
  mute(id, on) {
    const muted = mutedIds();
    if (on) muted.add(id);
    else muted.delete(id);
    sessionStorage.setItem(MUTED_KEY, JSON.stringify([...muted]));
    for (const [key, bubble] of this.bubbles) if (bubble.dataset.from === id) this.unshow(key);
    this.drawPanel();
  }

  /** A phrase said at the table (the server's `said`), unless its sender is muted here. */
  said({ from, name, seat, phrase }, you) {
    if (mutedIds().has(from)) return;
    const { t } = this;
    const text = phraseText(phrase, t);
    // Someone without a seat is marked as watching, in the log as on their bubble.
    const who = seat ? name : t('phrase.watcher', { name });
    this.log({ text: t('phrase.line', { name: who, phrase: text }), kind: 'said' });
    const key = seat ?? from;
    this.unshow(key);
    const bubble = element('span', { className: `bubble${seat ? '' : ' watcher'}` },
      seat ? element('span', { textContent: text })
        : element('span', {}, element('span', { className: 'who', textContent: who }), element('span', { textContent: text })));
    bubble.dataset.from = from;
    if (from !== you) {
      const mute = element('button', { type: 'button', className: 'bubble-mute', innerHTML: speakerIcon(true),
        onclick: () => this.mute(from, true) });
      mute.setAttribute('aria-label', t('phrase.mute', { name }));
      mute.title = mute.getAttribute('aria-label');
      bubble.append(mute);
    }
    bubble.timer = setTimeout(() => this.unshow(key), BUBBLE_MS);
    this.bubbles.set(key, bubble);
    if (seat) this.onSeatBubble(true);
    else this.overlay.append(bubble);
  }

  /** The bubble to show on `seat`'s place, if its person just said something. */
  bubbleOf(seat) {
    return this.bubbles.get(seat) ?? null;
  }

  unshow(key) {
    const bubble = this.bubbles.get(key);
    if (!bubble) return;
    clearTimeout(bubble.timer);
    bubble.remove();
    this.bubbles.delete(key);
    if (!bubble.classList.contains('watcher')) this.onSeatBubble(false);
  }

  /** A phrase refused (too many at once): said by the button. */
  refused(code, text) {
    this.status.textContent = code === 'rate_limited' ? this.t('phrase.tooMany') : text;
    this.open(true);
  }
}
