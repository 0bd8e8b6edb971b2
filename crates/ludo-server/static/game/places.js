// The places table at the end of a game: place, seat (with its mark) and who played it.

/**
 * Fills `table` with the places of a finished `position` (and hides it otherwise), each seat's
 * player named as `seats` (the table's `SeatsState`, every seat given) names them; the person's
 * own seat is marked, and so are the seats a CPU plays (class `cpu`), so that no name passes for
 * a CPU's label.
 */
export function drawPlaces(table, position, { you, seats }, t) {
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
    const { name: player, cpu } = seats[seat];
    if (seat === you) row.className = 'you';
    if (cpu) row.classList.add('cpu');
    const name = seat === you ? t('places.you', { name: player }) : player;
    for (const text of [String(position.places[seat]), t(`seat.${seat}`), name]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  table.replaceChildren(caption, head, ...rows);
}
