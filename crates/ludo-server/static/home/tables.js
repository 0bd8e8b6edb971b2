// The public tables on the home page: rooms whose host listed them, with a free seat to join, and
// games being played to watch. Asked for again every few seconds while the home page is in view;
// the section is hidden while there is nothing to list.

import { element } from '../dom.js';

/** How often the lists are asked for again. */
const REFRESH_MS = 5000;
/** Tables per page, as the server pages them. */
const PAGE_SIZE = 20;

/** A listed player in words: a name, or a CPU by its strength (`cpu:medium`). */
function playerWords(player, t) {
  const level = player.match(/^cpu:(\w+)$/)?.[1];
  return level ? t('cpu.named', { level: t(`level.${level}`) }) : player;
}

/** What a table plays, in one line: "Standard rules · 2 of 4 seats · 30 s per turn · Ranked game". */
function tableWords(table, kind, t) {
  const preset = typeof table.rules === 'string' ? table.rules : table.rules.preset;
  const minutes = Math.max(1, Math.round((Date.now() - table.playing_since) / 60000));
  return [
    t(`presetName.${preset}`),
    kind === 'open' ? t('tables.seats', { taken: table.taken }) : null,
    table.clock ? t('tables.clock', { n: table.clock }) : null,
    table.ranked ? t('home.ranked') : null,
    kind === 'playing' && table.playing_since ? t('tables.since', { n: minutes }) : null,
  ].filter(Boolean).join(' · ');
}

/**
 * Keeps `section` filled with the public tables while `visible()` says the home page shows;
 * `t` the page's texts.
 */
export function showPublicTables(section, t, visible) {
  const pages = { open: 0, playing: 0 };
  const heading = element('h2', { id: 'public-tables-title', textContent: t('tables.title') });
  section.setAttribute('aria-labelledby', heading.id);
  const lists = {};
  for (const kind of ['open', 'playing']) {
    lists[kind] = element('div', { className: `tables-${kind}` });
  }
  section.replaceChildren(heading, lists.open, lists.playing);

  const draw = (kind, answer) => {
    const box = lists[kind];
    if (!answer.tables.length && pages[kind] > 0) {
      // The tables of this page went (full, or their game ended): the last page that has some.
      pages[kind] = Math.max(0, Math.ceil(answer.total / PAGE_SIZE) - 1);
      setTimeout(refresh);
    }
    box.hidden = !answer.total;
    if (!answer.total) {
      box.replaceChildren();
      return;
    }
    const rows = answer.tables.map((table) => element('li', {},
      element('span', { className: 'what' }, element('strong', { textContent: tableWords(table, kind, t) }),
        element('span', { className: 'players' }, ...namesIsolated(table.players.map((p) => playerWords(p, t))))),
      element('a', { className: 'button', href: `/r/${table.code}`,
        textContent: t(kind === 'open' ? 'tables.join' : 'tables.watch') })));
    const last = Math.ceil(answer.total / PAGE_SIZE) - 1;
    const nav = element('p', { className: 'pager', hidden: last < 1 });
    const turn = (by) => () => {
      pages[kind] += by;
      refresh();
    };
    nav.append(
      element('button', { type: 'button', textContent: t('tables.previous'), disabled: answer.page <= 0, onclick: turn(-1) }),
      element('span', { textContent: t('tables.page', { page: answer.page + 1, pages: last + 1 }) }),
      element('button', { type: 'button', textContent: t('tables.next'), disabled: answer.page >= last, onclick: turn(1) }));
    box.replaceChildren(element('h3', { textContent: t(`tables.${kind}`) }), element('ul', {}, ...rows), nav);
  };

  let timer = null;
  const refresh = async () => {
    clearTimeout(timer);
    if (visible() && !document.hidden) {
      try {
        const answers = await Promise.all(['open', 'playing'].map(async (kind) => {
          const response = await fetch(`/api/tables/${kind}?page=${pages[kind]}`);
          if (!response.ok) throw new Error(`tables: ${response.status}`);
          return response.json();
        }));
        answers.forEach((answer, i) => draw(i ? 'playing' : 'open', answer));
        section.hidden = !answers.some((a) => a.total);
      } catch {
        // Offline, or the server is restarting: the lists stay as they were, and are asked for later.
      }
    }
    timer = setTimeout(refresh, REFRESH_MS);
  };
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) refresh();
  });
  refresh();
}

/**
 * Names as `<bdi>` elements between commas: each name's direction is its own, so a right-to-left
 * name (or one with a direction mark) never reorders the commas and names around it.
 */
function namesIsolated(names) {
  return names.flatMap((name, i) => [...(i ? [', '] : []), element('bdi', { textContent: name })]);
}
