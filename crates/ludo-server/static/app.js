// The page: home screen, a local game against the CPU, and the rules table.

import { loadEngine } from './engine.js';
import { LocalGame, savedGame } from './local.js';
import { LANGUAGES, chooseLanguage, pickLanguage, t } from './i18n.js';
import { COLOURS } from './board.js';
import { OnlineRoom, createRoom, playerName, setPlayerName } from './online.js';

const $ = (id) => document.getElementById(id);

function translate() {
  const language = chooseLanguage();
  document.documentElement.lang = language;
  for (const node of document.querySelectorAll('[data-t]')) node.textContent = t(node.dataset.t);
  const switcher = $('language');
  switcher.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => {
    const option = new Option(name, code, false, code === language);
    option.lang = code;
    return option;
  }));
  switcher.onchange = () => {
    pickLanguage(switcher.value);
    location.reload();
  };
}

/** The seats of a game with `opponents` CPUs: the person plays yellow, opposite seats first. */
function seatsFor(opponents) {
  return [[], ['yellow', 'red'], ['yellow', 'blue', 'red'], COLOURS][opponents];
}

async function showRules() {
  const { presets } = await (await fetch('/api/rules')).json();
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const text of [t('table.option'), ...presets.map((p) => t(`preset.${p.preset}`))]) {
    const th = document.createElement('th');
    th.textContent = text;
    head.append(th);
  }
  const body = table.createTBody();
  for (const option of Object.keys(presets[0].options)) {
    const row = body.insertRow();
    row.insertCell().textContent = option;
    for (const p of presets) row.insertCell().textContent = JSON.stringify(p.options[option]);
  }
  $('rules').replaceChildren(table);
}

async function main() {
  translate();
  const engine = await loadEngine();
  const view = {
    board: $('board'),
    status: $('status'),
    rollButton: $('roll'),
    log: $('log'),
    announce: (text) => { $('announce').textContent = text; },
    t,
  };
  const show = (game) => {
    $('home').hidden = true;
    $('play').hidden = false;
    game.after();
  };
  $('vs-cpu').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const seats = seatsFor(Number(form.get('opponents')));
    const players = Object.fromEntries(
      seats.map((s) => [s, s === 'yellow' ? 'human' : form.get('level')]),
    );
    show(LocalGame.start(engine, form.get('preset'), players, view));
  });
  const friends = $('friends');
  friends.elements.name.value = playerName();
  friends.addEventListener('submit', async (event) => {
    event.preventDefault();
    setPlayerName(friends.elements.name.value);
    const preset = new FormData($('vs-cpu')).get('preset');
    const code = await createRoom(preset);
    location.assign(`/r/${code}`);
  });
  const invited = location.pathname.match(/^\/r\/([a-z0-9]+)$/);
  if (invited) {
    $('home').hidden = true;
    $('play').hidden = false;
    $('online').hidden = false;
    $('back').onclick = () => location.assign('/');
    $('copy').onclick = async () => {
      await navigator.clipboard?.writeText($('link').textContent).catch(() => {});
      view.announce(t('online.copied'));
    };
    new OnlineRoom(engine, invited[1], { ...view, seats: $('seats'), link: $('link'),
      connection: $('connection') });
    document.body.dataset.ready = 'true';
    return;
  }
  const saved = savedGame();
  if (saved?.position && saved.position.turn.phase !== 'over') {
    $('resume').hidden = false;
    $('resume').onclick = () => show(new LocalGame(engine, saved, view));
  }
  $('back').onclick = () => location.reload();
  document.body.dataset.ready = 'true';
  showRules().catch(() => {});
}

main();
