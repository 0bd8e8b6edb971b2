// The first-game guide: a few steps, each pointing at one thing of the table — the throw button,
// your pieces, your start, a safe square, your home column — with Next and Skip. It is shown once
// on this device, when a first local game starts (remembered under `ludo.guide`), and again on
// asking ("How to play" on the home screen). The guide is a dialog that does not hold the page:
// the table stays usable and focus may leave it; Escape closes it, and playing on moves it along
// or out of the way. Its card is placed beside what
// it points at, never over it, and follows it as the page scrolls or the board is redrawn.

import { markGuideSeen } from '../home/home.js';
import { ACTED } from './table.js';
import { usable } from './keys.js';
import { element } from '../dom.js';

/** The centre of an element's box on screen. */
function centre(node) {
  const r = node.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

/**
 * The steps for the person playing `you` (a colour): each its texts' key and what it points at
 * (the elements to show, found again whenever the board is redrawn). A step with nothing to point
 * at (no safe squares on this board) is left out.
 */
function steps(you) {
  const board = document.getElementById('board');
  const mine = (selector) => [...board.querySelectorAll(`${selector}[data-colour="${you}"]`)];
  return [
    { key: 'guide.throw', find: () => [document.getElementById('roll')] },
    // A finger can also press and hold a piece to see where it would go (gestures.js): on a
    // touch screen, this step says so.
    { key: 'guide.piece', touch: true, find: () => {
      const legal = mine('.piece.legal');
      return legal.length ? legal : mine('.piece');
    } },
    { key: 'guide.start', find: () => mine('rect.start') },
    { key: 'guide.safe', find: () => {
      // The safe square nearest your start (a star, if the rules have stars).
      const start = mine('rect.start')[0];
      const safe = [...board.querySelectorAll('rect.safe:not(.start)')];
      if (!start || !safe.length) return [...board.querySelectorAll('rect.safe')].slice(0, 1);
      const [x, y] = centre(start);
      const distance = (node) => Math.hypot(centre(node)[0] - x, centre(node)[1] - y);
      return [safe.reduce((best, node) => (distance(node) < distance(best) ? node : best))];
    } },
    { key: 'guide.home', find: () => mine('rect.home') },
  ].filter((step) => step.find().length);
}

/** The box on screen round `nodes`. */
function boxOf(nodes) {
  const rects = nodes.map((n) => n.getBoundingClientRect());
  const left = Math.min(...rects.map((r) => r.left));
  const top = Math.min(...rects.map((r) => r.top));
  return { left, top, right: Math.max(...rects.map((r) => r.right)), bottom: Math.max(...rects.map((r) => r.bottom)) };
}

/**
 * Shows the guide for the person playing `you`, in the words of `t`, with `more` said after a
 * step's text (by its key: how a piece leaves the base, after `guide.start`'s); remembers it was
 * shown. Returns a function that closes it.
 */
export function showGuide(you, t, more = {}) {
  markGuideSeen();
  const list = steps(you);
  const returnTo = document.activeElement;
  const ring = element('div', { className: 'guide-ring' });
  ring.setAttribute('aria-hidden', 'true');
  const count = element('p', { className: 'guide-count' });
  const title = element('h2', { id: 'guide-title' });
  const text = element('p', { id: 'guide-text' });
  const skip = element('button', { type: 'button', className: 'guide-skip', textContent: t('guide.skip') });
  const next = element('button', { type: 'button', className: 'guide-next' });
  const card = element('section', { id: 'guide', className: 'guide' }, count, title, text,
    element('div', { className: 'guide-buttons' }, skip, next));
  card.setAttribute('role', 'dialog');
  card.setAttribute('aria-labelledby', 'guide-title');
  card.setAttribute('aria-describedby', 'guide-text');
  document.body.append(ring, card);

  let index = 0;
  let frame = 0;
  let last = '';
  /** Puts the ring round the step's target and the card below it, or above if there is no room. */
  const place = () => {
    frame = requestAnimationFrame(place);
    const box = boxOf(list[index].find());
    const cardHeight = card.offsetHeight;
    const gap = 10;
    const below = box.bottom + gap + cardHeight <= innerHeight;
    const top = below ? box.bottom + gap : Math.max(gap, box.top - gap - cardHeight);
    const width = Math.min(card.offsetWidth, innerWidth - 2 * gap);
    const left = Math.min(Math.max(gap, (box.left + box.right) / 2 - width / 2), innerWidth - width - gap);
    const where = [box.left, box.top, box.right, box.bottom, top, left].map(Math.round).join();
    if (where === last) return;
    last = where;
    Object.assign(ring.style, { left: `${box.left - 4}px`, top: `${box.top - 4}px`,
      width: `${box.right - box.left + 8}px`, height: `${box.bottom - box.top + 8}px` });
    Object.assign(card.style, { left: `${left}px`, top: `${top}px` });
  };
  const show = ({ focus = true } = {}) => {
    const step = list[index];
    count.textContent = t('guide.count', { n: index + 1, total: list.length });
    title.textContent = t(`${step.key}.title`);
    const byTouch = step.touch && matchMedia('(pointer: coarse)').matches;
    text.textContent = [t(`${step.key}.${byTouch ? 'touch' : 'text'}`), more[step.key]].filter(Boolean).join(' ');
    next.textContent = t(index === list.length - 1 ? 'guide.done' : 'guide.next');
    // What the step points at in view, then the card beside it.
    step.find()[0].scrollIntoView({ block: 'nearest' });
    last = '';
    cancelAnimationFrame(frame);
    place();
    if (focus) next.focus();
  };
  const close = () => {
    cancelAnimationFrame(frame);
    removeEventListener('keydown', onKey);
    removeEventListener(ACTED, onActed);
    ring.remove();
    card.remove();
    // Focus goes back where it was, or, if that is gone from view, to the table's next action.
    const roll = document.getElementById('roll');
    const back = [returnTo, document.querySelector('#board .piece.legal'), usable(roll) ? roll : null]
      .find((node) => node && node !== document.body && node.checkVisibility?.());
    back?.focus({ preventScroll: true });
  };
  const onKey = (event) => {
    if (event.key === 'Escape') close();
  };
  // Playing on is following the guide: a throw on "Throw" and a move on "Your pieces" go to the
  // next step; any other throw means the person plays without it, and it steps aside.
  const onActed = ({ detail }) => {
    const key = list[index].key;
    const followed = (key === 'guide.throw' && detail === 'throw') || (key === 'guide.piece' && detail === 'move');
    if (followed && index < list.length - 1) {
      index += 1;
      show({ focus: false });
    } else if (detail === 'throw' || followed) {
      close();
    }
  };
  addEventListener('keydown', onKey);
  addEventListener(ACTED, onActed);
  skip.onclick = close;
  next.onclick = () => {
    if (index === list.length - 1) close();
    else {
      index += 1;
      show();
    }
  };
  show();
  return close;
}
