// The turn clock as the players see it: a bar that empties and the seconds left, counted from the
// server's deadline (Unix milliseconds) against this device's clock, turning to a warning colour
// in the last ten seconds.

/** Seconds left at which the clock warns. */
export const WARNING_S = 10;

export class Countdown {
  constructor() {
    this.timer = null;
    this.deadline = null;
    this.warned = null;
    this.expired = null;
  }

  /**
   * Counts down to `deadline` in `element` (emptied), over a turn of `totalMs`. `onWarning` is
   * called once per deadline when ten seconds or fewer are left, and `onTimeUp` once per deadline
   * when none are. `null` stops it.
   */
  show(element, deadline, totalMs, onWarning = () => {}, onTimeUp = () => {}) {
    clearInterval(this.timer);
    this.timer = null;
    if (!element || !deadline) return;
    this.deadline = deadline;
    const box = document.createElement('span');
    box.className = 'clock';
    box.setAttribute('role', 'timer');
    const bar = document.createElement('span');
    bar.className = 'clock-bar';
    const fill = document.createElement('span');
    bar.append(fill);
    const left = document.createElement('span');
    left.className = 'clock-left';
    box.append(bar, left);
    element.replaceChildren(box);
    // "30 с", "30 s", "30s": the seconds as the page's language writes them.
    const inSeconds = new Intl.NumberFormat(document.documentElement.lang || undefined,
      { style: 'unit', unit: 'second', unitDisplay: 'narrow' });
    const tick = () => {
      const ms = Math.max(0, deadline - Date.now());
      const seconds = Math.ceil(ms / 1000);
      left.textContent = inSeconds.format(seconds);
      fill.style.width = `${Math.min(100, (100 * ms) / Math.max(totalMs, 1))}%`;
      const warning = seconds <= WARNING_S;
      box.classList.toggle('warning', warning);
      if (warning && ms > 0 && this.warned !== deadline) {
        this.warned = deadline;
        onWarning();
      }
      if (ms === 0) {
        clearInterval(this.timer);
        this.timer = null;
        if (this.expired !== deadline) {
          this.expired = deadline;
          onTimeUp();
        }
      }
    };
    tick();
    this.timer = setInterval(tick, 250);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }
}
