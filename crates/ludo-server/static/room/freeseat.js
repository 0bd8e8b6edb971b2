// The host's way to free the seat of someone who went away (outside ranked tables): once a person
// has been away for a while (60 s; `?free-after=<ms>` for tests, matching the server's setting), a
// line says so with a button. In a game the CPU then plays the seat to its end; in the lobby the
// seat is emptied. The server decides; the page only offers what it would accept.

const FREE_AFTER_MS = Number(new URLSearchParams(location.search).get('free-after') ?? 60000);
/** How often the page looks again at who has been away long enough. */
const RECHECK_MS = 3000;

export class AwaySeats {
  /**
   * @param anchor the element the list follows
   * @param t the page's texts
   * @param ask sends a request to the room
   */
  constructor(anchor, { t, ask }) {
    Object.assign(this, { t, ask });
    this.list = Object.assign(document.createElement('ul'), { id: 'away-seats', hidden: true });
    anchor.after(this.list);
    this.timer = null;
  }

  /**
   * Draws a line for each person away long enough, named as `names` (by seat) says; `host` alone
   * frees seats, never at a ranked table.
   */
  draw(room, { host, playing, names }) {
    clearTimeout(this.timer);
    const away = host && !room.settings.ranked ? Object.entries(room.seats)
      .filter(([, s]) => s.occupant.kind === 'person' && !s.connected && !s.left && s.away_since) : [];
    const due = away.filter(([, s]) => Date.now() - s.away_since >= FREE_AFTER_MS);
    const rows = due.map(([colour]) => {
      const li = document.createElement('li');
      const name = names[colour];
      const text = Object.assign(document.createElement('span'), {
        textContent: this.t(playing ? 'free.inGame' : 'free.inLobby', { name }) });
      const button = Object.assign(document.createElement('button'), { type: 'button',
        textContent: this.t('free.button'), onclick: () => this.ask({ t: 'free_seat', colour }) });
      button.dataset.seat = colour;
      li.append(text, ' ', button);
      return li;
    });
    this.list.replaceChildren(...rows);
    this.list.hidden = !rows.length;
    if (due.length < away.length) this.timer = setTimeout(() => this.draw(room, { host, playing, names }), RECHECK_MS);
  }
}
