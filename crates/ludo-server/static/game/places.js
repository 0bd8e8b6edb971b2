// The places table at the end of a game: place, seat (with its mark) and who played it.

/**
 * Fills `table` with the places of a finished `position` (and hides it otherwise). `who(seat)`
 * names the player of a seat; the person's own seat, `you`, is marked, and so are the seats
 * `cpu(seat)` says a CPU plays (class `cpu`), so that no name passes for a CPU's label.
 */
export function drawPlaces(table, position, who, t, you = null, cpu = () => false) {
  const over = position.turn.phase === 'over';
  table.hidden = !over;
  if (!over) {
    table.replaceChildren();
    return;
  }
  const caption = document.createElement('caption');
  caption.textContent = t('places.title');
  const head = document.createElement('tr');
  for (const key of ['places.place', 'places.seat', 'places.player']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = t(key);
    head.append(th);
  }
  const order = [...position.seats].sort((a, b) => position.places[a] - position.places[b]);
  const rows = order.map((seat) => {
    const row = document.createElement('tr');
    row.dataset.seat = seat;
    if (seat === you) row.className = 'you';
    if (cpu(seat)) row.classList.add('cpu');
    const name = seat === you ? t('places.you', { name: who(seat) }) : who(seat);
    for (const text of [String(position.places[seat]), t(`seat.${seat}`), name]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  table.replaceChildren(caption, head, ...rows);
}
