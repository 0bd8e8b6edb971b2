// The page: home screen, local and online games, the rules table, and the rules pages (/rules/…).

import { afterPaint } from './dom.js';
import { loadEngine } from './engine/engine.js';
import { LocalGame } from './game/local.js';
import {
  drawRulesets, drawSavedGames, expertPlays, guideSeen, homePreset, markGuideSeen, playSettings, rememberSettings,
  settingsText,
} from './home/home.js';
import { forget, savedGames } from './home/saves.js';
import { LANGUAGES, chooseLanguage, errorWords, keepLanguage, pickLanguage, setBoard, t } from './i18n/i18n.js';
import { COLOURS } from './game/board.js';
import { optionLabel, ordered, valueLabel } from './rulebook/options.js';
import { createRoom, playerName, savedName, setPlayerName } from './room/identity.js';
import { served } from './room/served.js';
import { showPublicTables } from './home/tables.js';
import { MATCHED_KEY, myId, seekRanked } from './home/ranked.js';
import { drawHouseRules, readHouseRules } from './rulebook/houserules.js';
import { setUpSheets } from './home/sheets.js';
import { muted, setMuted } from './game/sound.js';
import { autoplayOn, pace, setAutoplay, setPace } from './game/table.js';

const $ = (id) => document.getElementById(id);

/** The page's title (a rules page sets its own) and description, in its language. */
function describePage(preset) {
  document.title = t('title');
  document.querySelector('meta[name=description]').content = t(preset ? `home.about.${preset}` : 'tagline');
}

/** Loads the page's language and writes the page's fixed texts in it. */
async function translate() {
  const language = await chooseLanguage();
  document.documentElement.lang = language;
  describePage();
  for (const node of document.querySelectorAll('[data-t]')) node.textContent = t(node.dataset.t);
  for (const node of document.querySelectorAll('[data-t-label]')) {
    node.setAttribute('aria-label', t(node.dataset.tLabel));
  }
  // A page opened in a language by its address (`?lang=`) links on in that language.
  for (const link of document.querySelectorAll('a[href^="/"]')) link.setAttribute('href', keepLanguage(link.getAttribute('href')));
  const switcher = $('language');
  switcher.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => {
    const option = new Option(name, code, false, code === language);
    option.lang = code;
    return option;
  }));
  switcher.onchange = () => {
    pickLanguage(switcher.value);
    // On a rules page the language picked goes into the address, so that the page can be shared
    // in it. Elsewhere a language the address asks for (`?lang=`) holds for one visit: the one
    // picked (remembered) replaces it.
    const address = new URL(location.href);
    if (rulesPresetAt(address.pathname)) address.searchParams.set('lang', switcher.value);
    else address.searchParams.delete('lang');
    if (address.href === location.href) location.reload();
    else location.assign(address);
  };
}

/** The seats of a game with `opponents` CPUs: the person plays yellow, opposite seats first. */
function seatsFor(opponents) {
  return [[], ['yellow', 'red'], ['yellow', 'blue', 'red'], COLOURS][opponents];
}

let presets = [];

/** Whether a local game played again starts with the next seat ("no" to keep the same). */
const ROTATE_KEY = 'ludo.rotate';
/** A local game opened in the replay viewer, for this tab. */
const LOCAL_REPLAY_KEY = 'ludo.replay';
/**
 * The history entry of a local game's table holds its id under this key: Back (or Home) returns
 * to the home screen, and a reload (a language picked, say) comes back to the game.
 */
const TABLE_ENTRY = 'localGame';

/**
 * The rules chosen: the preset, and every house rule changed from its value. The preset's list
 * is one for all the ways to play but ranked games (which pick their own): it shows in the sheet
 * of the way being set (home/sheets.js), and belongs to the CPU's form (`form="vs-cpu"`), where
 * every game started here reads it.
 */
function chosenRules() {
  const preset = new FormData($('vs-cpu')).get('preset');
  const defaults = presets.find((p) => p.preset === preset)?.options ?? {};
  return readHouseRules($('options'), preset, defaults);
}

/** One control per house rule, set to the chosen preset's values, each default marked. */
function showOptions(choices) {
  const preset = new FormData($('vs-cpu')).get('preset');
  const defaults = presets.find((p) => p.preset === preset)?.options ?? {};
  // The house rules speak of the preset's board's pieces (horses on the horse board).
  setBoard(defaults.board);
  const controls = document.createElement('div');
  drawHouseRules(controls, choices, defaults, t);
  const error = document.createElement('p');
  error.id = 'options-error';
  error.setAttribute('role', 'alert');
  $('options').replaceChildren(...controls.children, error);
}

/** Draws the rules' table and list from the server's answer, their pictures once `engineLoaded`. */
async function showRules(engineLoaded) {
  const answer = await served();
  presets = answer.presets;
  // The presets side by side, whatever their boards: in the Ludo board's words.
  setBoard('ludo');
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const text of [t('table.option'), ...presets.map((p) => t(`preset.${p.preset}`))]) {
    const th = document.createElement('th');
    th.textContent = text;
    head.append(th);
  }
  const body = table.createTBody();
  for (const [option] of ordered(presets[0].options)) {
    const row = body.insertRow();
    row.insertCell().textContent = optionLabel(option, t);
    for (const p of presets) row.insertCell().textContent = valueLabel(p.options[option], t);
  }
  $('rules').replaceChildren(table);
  showOptions(answer.choices);
  drawRulesets($('rulesets'), presets, engineLoaded, t);
  $('vs-cpu').elements.preset.onchange = () => showOptions(answer.choices);
  return answer;
}

/** The preset a rules page's address names (`/rules/classic`), or null. */
function rulesPresetAt(path) {
  return path.match(/^\/rules\/(\w+)$/)?.[1] ?? null;
}

/**
 * The rules page of `preset` in each language, as `<link rel="alternate" hreflang>` in the head
 * (`x-default` without a language: the reader's own); none when no rules page shows.
 */
function languageAlternates(preset) {
  for (const link of document.head.querySelectorAll('link[rel=alternate][hreflang]')) link.remove();
  if (!preset) return;
  const addresses = [...Object.keys(LANGUAGES).map((code) => [code, `/rules/${preset}?lang=${code}`]),
    ['x-default', `/rules/${preset}`]];
  document.head.append(...addresses.map(([language, href]) => {
    const link = document.createElement('link');
    link.rel = 'alternate';
    link.hreflang = language;
    link.setAttribute('href', new URL(href, location.origin).href);
    return link;
  }));
}

/** An old address of a rules page (`#rules/classic`) becomes its own (`/rules/classic`). */
function redirectOldRulesAddress() {
  const name = location.hash.match(/^#rules\/(\w+)$/)?.[1];
  if (name) history.replaceState(null, '', `/rules/${name}${location.search}`);
}

/**
 * Shows the rules page the address names (`/rules/classic`, or an old `#rules/classic`); else,
 * if one was showing, what it covered: the game being played, or the home screen. `draw(page,
 * preset)` fills the page, loading its code on first use.
 */
async function route(answer, draw) {
  redirectOldRulesAddress();
  const name = rulesPresetAt(location.pathname);
  const preset = answer.presets.find((p) => p.preset === name);
  const page = $('rules-page');
  languageAlternates(preset?.preset);
  if (!preset) {
    if (!page.hidden) {
      const playing = document.body.classList.contains('in-game');
      $('home').hidden = playing;
      $('play').hidden = !playing;
    }
    page.hidden = true;
    describePage();
    // Back home: the house rules' words are those of the preset chosen there (a game being played
    // keeps its own board's words: the table says them).
    if (!document.body.classList.contains('in-game')) {
      setBoard(answer.presets.find((p) => p.preset === new FormData($('vs-cpu')).get('preset'))?.options.board);
    }
    return;
  }
  // A rules page speaks of its preset's board's pieces (horses on the horse board).
  setBoard(preset.options.board);
  $('home').hidden = true;
  $('play').hidden = true;
  page.hidden = false;
  describePage(preset.preset);
  await draw(page, preset);
}

/** Links marked `data-nav` change the address in place (Back returns), and the page follows it. */
function followInPageLinks(follow) {
  document.addEventListener('click', (event) => {
    const link = event.target.closest?.('a[data-nav]');
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    history.pushState(null, '', link.getAttribute('href'));
    follow();
  });
  addEventListener('popstate', follow);
  addEventListener('hashchange', follow);
}

/** The in-game "Rules of this game" panel links to the rules page of the game's preset. */
function linkGameRulesPage() {
  const link = $('rules-page-link');
  const point = () => {
    const preset = $('rules-in-force').dataset.preset;
    if (preset) link.href = keepLanguage(`/rules/${preset}`);
    link.hidden = !preset;
  };
  $('game-rules').addEventListener('toggle', point);
  link.addEventListener('click', point);
}

/** The pages about records: leaderboards, players, a stored game, an imported file. */
async function recordsPage(engine) {
  const path = location.pathname;
  const board = path.match(/^\/leaderboard(?:\/([a-z]+))?$/);
  const player = path.match(/^\/players\/([A-Za-z0-9]+)$/);
  const game = path.match(/^\/games\/([A-Za-z0-9]+)$/);
  if (!board && !player && !game && path !== '/replay') return false;
  $('home').hidden = true;
  $('records').hidden = false;
  const view = $('records-view');
  // These pages' modules load with them, not with the home page.
  const [{ fetchRecord, showLeaderboard, showPlayer }, { readRecordFile, showReplay }] = await Promise.all([
    import('./records/records.js'), import('./records/replay.js'),
  ]);
  try {
    if (board) await showLeaderboard(view, board[1] ?? 'qdan', t);
    if (player) await showPlayer(view, player[1], t);
    if (game) showReplay(engine, await fetchRecord(game[1]), view, t);
    if (path === '/replay') {
      // A local game just played comes here from its end screen; else a file is opened.
      const local = sessionStorage.getItem(LOCAL_REPLAY_KEY);
      const input = document.createElement('input');
      Object.assign(input, { type: 'file', accept: 'application/json,.json', id: 'import' });
      input.setAttribute('aria-label', t('replay.import'));
      const viewer = document.createElement('div');
      const error = document.createElement('p');
      error.setAttribute('role', 'alert');
      input.onchange = async () => {
        try {
          error.textContent = '';
          showReplay(engine, await readRecordFile(input.files[0]), viewer, t);
        } catch (e) {
          error.textContent = t('replay.bad', { why: await errorWords(e, t) });
        }
      };
      // The replay first, so that a phone shows its board and controls together; another file
      // can be opened below it.
      const heading = Object.assign(document.createElement('h2'), { textContent: t('replay.import') });
      view.replaceChildren(viewer, heading, input, error);
      if (local) showReplay(engine, JSON.parse(local), viewer, t);
    }
  } catch (error) {
    view.replaceChildren(Object.assign(document.createElement('p'), { textContent: await errorWords(error, t) }));
  }
  return true;
}


/**
 * The end of a game: on a phone a card over the foot of the board, with the result and what comes
 * next in reach of a thumb; its × tucks it into the page below the board, to look at the board.
 * Home in it does what the table's Home does.
 */
function endCard(engineLoaded) {
  $('end-tuck').onclick = () => {
    $('end').classList.add('tucked');
    $('board').scrollIntoView({ block: 'nearest' });
  };
  $('end-home').onclick = () => $('back').click();
  // A new end (another game, a new offer) shows as a card again.
  // Shown, it sums the game up for the person (records/endsummary.js).
  new MutationObserver(() => {
    if ($('end').hidden) $('end').classList.remove('tucked');
    // (One that cannot be had, offline say, is not shown.)
    else {
      Promise.all([import('./records/endsummary.js'), engineLoaded])
        .then(([m, engine]) => m.summariseEnd(engine, $('end-analysis'), $('replay-link'))).catch(() => {});
    }
  }).observe($('end'), { attributes: true, attributeFilter: ['hidden'] });
}

/**
 * Offers hints in the local game `game` while they are on, remembered here (game/hint.js, fetched
 * once they are first on); their setting shows at local games only.
 */
function offerHints(game) {
  const box = $('hints');
  $('hints-setting').hidden = false;
  box.checked = localStorage.getItem('ludo.hints') === 'yes';
  box.onchange = () => {
    localStorage.setItem('ludo.hints', box.checked ? 'yes' : 'no');
    offerHints(game);
  };
  if (box.checked || $('hint')) import('./game/hint.js').then((hint) => hint.offerHints(game, box.checked));
}

/** The play screen's own settings: sound on or off, and moves with no choice playing themselves. */
function tableSettings() {
  const button = $('sound');
  const label = () => {
    const off = muted();
    // A loudspeaker, with sound waves or crossed out: drawn, since phones lack some symbol fonts.
    button.innerHTML = `<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
      <path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>${off
    ? '<path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2"/>'
    : '<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2"/>'}</svg>`;
    button.setAttribute('aria-label', t(off ? 'sound.off' : 'sound.on'));
    button.setAttribute('aria-pressed', String(!off));
    button.title = t(off ? 'sound.off' : 'sound.on');
  };
  button.onclick = () => {
    setMuted(!muted());
    label();
  };
  label();
  $('autoplay').checked = autoplayOn();
  $('autoplay').onchange = () => setAutoplay($('autoplay').checked);
  // "Fast" is the one speed below normal offered; tests' instant pace shows as normal.
  $('speed').value = pace() > 0 && pace() < 1 ? '0.4' : '1';
  $('speed').onchange = () => setPace(Number($('speed').value));
}

/**
 * "New opponent" after a game at a matched table opens `/?seek=<rules>&size=<seats>`: the search
 * starts at once under those rules, for a table of that size (the address is then plain `/`, so
 * that reloading does not search again).
 */
function seekAgain(form, sizes, sheets) {
  const asked = new URLSearchParams(location.search);
  if (location.pathname !== '/' || !asked.has('seek')) return;
  history.replaceState(null, '', '/');
  const offered = (select, value) => [...select.options].some((o) => o.value === value && !o.disabled);
  if (!offered(form.elements.rules, asked.get('seek'))) return;
  form.elements.rules.value = asked.get('seek');
  sizes();
  if (offered(form.elements.size, asked.get('size'))) form.elements.size.value = asked.get('size');
  // The search shows in the ranked sheet, its status included.
  sheets.open('ranked-sheet');
  form.requestSubmit();
}

/** The home page asks for the person's name in two sheets: it is one name, typed in either. */
function oneName(...fields) {
  for (const field of fields) {
    field.addEventListener('input', () => {
      for (const other of fields) if (other !== field) other.value = field.value;
    });
  }
}

/**
 * Quick ranked play from the home screen's ranked sheet. While it looks, the Ranked button says
 * so too, for a person who closed the sheet to wait on the home screen.
 */
function rankedForm(sheets) {
  const form = $('ranked');
  form.elements.name.value = playerName();
  let stop = null;
  let clock = null;
  // While looking, the choices are fixed (a change would not reach the search) and the time
  // spent looking counts up beside the status, out of the live region so it is not read out
  // every second.
  const searching = (on) => {
    for (const field of [form.elements.name, form.elements.rules, form.elements.size]) field.disabled = on;
    $('ranked-find').hidden = on;
    $('ranked-stop').hidden = !on;
    clearInterval(clock);
    $('ranked-time').textContent = '';
    if (!on) return;
    const since = Date.now();
    const tick = () => {
      const seconds = Math.floor((Date.now() - since) / 1000);
      $('ranked-time').textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
    };
    tick();
    clock = setInterval(tick, 1000);
  };
  const status = (text, on) => {
    $('ranked-status').textContent = text;
    $('ranked-what').textContent = on ? text : t('home.rankedWhat');
    if (!on) searching(false);
  };
  // Ranked cờ cá ngựa tables have two seats (bigger Vietnamese games are always friendly): the
  // sizes no table could meet are not offered under those rules, and a line says why.
  const sizes = () => {
    const twoOnly = form.elements.rules.value === 'vietnamese';
    for (const option of form.elements.size.options) {
      option.disabled = twoOnly && ['3', '4'].includes(option.value);
    }
    if (form.elements.size.selectedOptions[0]?.disabled) form.elements.size.value = '2';
    $('ranked-two').hidden = !twoOnly;
  };
  form.elements.rules.value = homePreset(document.documentElement.lang);
  form.elements.rules.addEventListener('change', sizes);
  sizes();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    setPlayerName(form.elements.name.value);
    const choice = new FormData(form);
    searching(true);
    stop = seekRanked({ rules: choice.get('rules'), size: choice.get('size') }, t, status,
      (link) => location.assign(link));
  });
  // Stopping says so through `status`, which ends the search on the page.
  $('ranked-stop').onclick = () => stop?.();
  seekAgain(form, sizes, sheets);
  const me = myId();
  if (me) {
    $('my-page').href = `/players/${me}`;
    $('my-page').hidden = false;
  }
}

/** Shows the page (app.css hides it until drawn: nothing moves once seen). */
let showPage;
const shown = new Promise((resolve) => { showPage = resolve; });
function reveal() {
  if (document.body.dataset.drawn) return;
  document.body.dataset.drawn = 'true';
  performance.mark('shown');
  showPage();
}

/**
 * Taps on buttons and links, and forms sent, before `ready` settles are held, and the last one
 * made again once it has: the home screen shows before the engine is loaded, and a Play tapped
 * at once still plays.
 */
function holdTapsUntil(ready) {
  let last = null;
  const hold = (event) => {
    const target = event.type === 'submit' ? event.target : event.target.closest?.('button, a[href]');
    if (!target) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    last = { target, again: event.type === 'submit' ? () => target.requestSubmit() : () => target.click() };
  };
  document.addEventListener('click', hold, true);
  document.addEventListener('submit', hold, true);
  const release = () => {
    document.removeEventListener('click', hold, true);
    document.removeEventListener('submit', hold, true);
    if (last?.target.isConnected) last.again();
  };
  ready.then(release, release);
}

async function main() {
  // A rules page's address shows that page once the rules are loaded, not the home screen first.
  if (rulesPresetAt(location.pathname) || location.hash.startsWith('#rules/')) $('home').hidden = true;
  // Once loaded, the page works offline for local games.
  navigator.serviceWorker?.register('/sw.js').catch(() => {});
  // The home screen and a rules page are drawn and shown before the engine is asked for: nothing
  // on them needs the engine but the rules' pictures and a rules page's house-rule choices (drawn
  // once it is there) and what a tap starts (held until then). Every other page draws with the
  // engine, which the server's answer preloads.
  const rulesPage = Boolean(rulesPresetAt(location.pathname) || location.hash.startsWith('#rules/'));
  const drawnFirst = rulesPage || (location.pathname === '/' && !history.state?.[TABLE_ENTRY]);
  // A room's lobby is drawn as soon as the room answers, and the engine asked for once it is
  // (at once if the room shows a game, which is drawn with it): see room/online.js.
  const roomPage = /^\/r\/[a-z0-9]+$/.test(location.pathname);
  let askForEngine = () => {};
  const engineAsked = new Promise((resolve) => { askForEngine = resolve; });
  const engineLoaded = drawnFirst ? shown.then(afterPaint).then(() => loadEngine())
    : roomPage ? engineAsked.then(() => loadEngine()) : loadEngine();
  let engine = null;
  const engineSet = engineLoaded.then((loaded) => { engine = loaded; }, () => {});
  if (drawnFirst) holdTapsUntil(engineSet);
  // The home and rules pages draw from the rules the server plays: asked for with the texts.
  if (location.pathname === '/' || rulesPresetAt(location.pathname)) served().catch(() => {});
  await Promise.all([drawnFirst || roomPage || engineLoaded, translate()]);
  const view = {
    board: $('board'),
    status: $('status'),
    roll: $('roll'),
    players: $('players'),
    log: $('log'),
    rulesInForce: $('rules-in-force'),
    places: $('places'),
    end: $('end'),
    notice: $('notice'),
    announce: (text) => { $('announce').textContent = text; },
    turnBoard: $('turn-board'),
    turnBoardWords: $('turn-board-words'),
    t,
  };
  tableSettings();
  endCard(engineLoaded);
  linkGameRulesPage();
  if (await recordsPage(engine)) {
    document.body.dataset.ready = 'true';
    return;
  }
  // A local game's "Replay" shows with its end screen.
  const endWatch = new MutationObserver(() => { $('replay-link').hidden = $('end').hidden; });
  const sheets = setUpSheets($('home'), $('rules-choice'));
  const show = (game) => {
    // A sheet left open would keep the page under it out of reach.
    for (const sheet of document.querySelectorAll('dialog.sheet[open]')) sheet.close();
    endWatch.observe($('end'), { attributes: true, attributeFilter: ['hidden'] });
    $('replay-link').hidden = $('end').hidden;
    const fresh = !game.game.id;
    $('home').hidden = true;
    $('play').hidden = false;
    $('after-game').hidden = !game.game.actions;
    $('play-again-local').hidden = false;
    // The replay's module (which writes the file) loads when it is asked for, not with the game.
    const replay = () => import('./records/replay.js');
    $('export-local').onclick = () => replay().then(({ downloadRecord, localRecord }) => downloadRecord(localRecord(game.game)));
    // Once the game is over, "Replay" opens it in the viewer (kept for this tab, so that a reload
    // of the viewer shows it again).
    $('replay-link').href = '/replay';
    $('replay-link').record = () => replay().then(({ localRecord }) => localRecord(game.game));
    $('replay-link').onclick = (event) => {
      event.preventDefault();
      replay().then(({ localRecord }) => {
        sessionStorage.setItem(LOCAL_REPLAY_KEY, JSON.stringify(localRecord(game.game)));
        location.assign('/replay');
      });
    };
    $('play-again-local').onclick = () => show(game.again(localStorage.getItem(ROTATE_KEY) !== 'no'));
    // The coaching of "Learn by playing" shows with its game only.
    $('coach-place').hidden = !game.lesson;
    document.body.classList.add('in-game');
    // The table is seen from its top, wherever the home page was scrolled to.
    scrollTo(0, 0);
    game.begin();
    offerHints(game);
    const entry = { [TABLE_ENTRY]: game.game.id };
    if (history.state?.[TABLE_ENTRY]) history.replaceState(entry, '');
    else history.pushState(entry, '');
    // A first game (not a lesson, which coaches on its own) shows the guide to the table.
    if (fresh && !game.lesson && !guideSeen()) {
      import('./game/guide.js').then(({ showGuide }) => showGuide(game.you ?? game.position.turn.seat, t,
        { 'guide.start': game.table.exitRule() }));
    }
  };
  $('rotate').checked = localStorage.getItem(ROTATE_KEY) !== 'no';
  $('rotate').onchange = () => localStorage.setItem(ROTATE_KEY, $('rotate').checked ? 'yes' : 'no');
  /** Starts a local game of `players` under `rules` (the home screen's, unless given). */
  const begin = (players, rules = chosenRules()) => {
    try {
      engine.checkRules(rules);
      show(LocalGame.start(engine, rules, players, view));
    } catch (error) {
      // Said where the rules are: in the sheet open, or the CPU's (Play has none of its own).
      if (!sheets.sheetOfRules()?.open) sheets.open('vs-cpu-sheet');
      $('house-rules').open = true;
      $('options').querySelector(`[data-option="${error.option}"]`)?.focus();
      // A contradiction between house rules, in the reader's words, by the option at fault.
      errorWords(error, t).then((text) => {
        view.announce(text);
        $('options-error').textContent = text;
      });
    }
  };
  /** A game against `opponents` CPUs of strength `level` under `rules`, the person playing yellow. */
  const playCpu = ({ opponents, level, rules }) => {
    const seats = seatsFor(opponents);
    begin(Object.fromEntries(seats.map((s) => [s, s === 'yellow' ? 'human' : level])), rules);
  };
  $('vs-cpu').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const settings = { opponents: Number(form.get('opponents')), level: form.get('level'), rules: chosenRules() };
    rememberSettings(settings);
    playCpu(settings);
  });
  $('hot-seat').addEventListener('submit', (event) => {
    event.preventDefault();
    const seats = seatsFor(Number(new FormData(event.target).get('people')) - 1);
    begin(Object.fromEntries(seats.map((s) => [s, 'human'])));
  });
  const friends = $('friends');
  friends.elements.name.value = playerName();
  oneName(friends.elements.name, $('ranked').elements.name);
  friends.addEventListener('submit', async (event) => {
    event.preventDefault();
    setPlayerName(friends.elements.name.value);
    const clock = Number(friends.elements.clock.value) || null;
    // The house rules chosen play online too. A table with friends is made ranked by its host
    // in its settings (room/roomsettings.js), as the ranked sheet says.
    const rules = chosenRules();
    try {
      engine.checkRules(rules);
      // "The next seat starts when playing again" is a house rule too.
      const code = await createRoom(rules, clock, false, $('rotate').checked);
      location.assign(`/r/${code}`);
    } catch (error) {
      $('friends-error').textContent = await errorWords(error, t, 'refusal.other');
    }
  });
  rankedForm(sheets);
  const invited = location.pathname.match(/^\/r\/([a-z0-9]+)$/);
  if (invited) {
    // A table matchmaking just formed for this tab has no link to pass on: known before its
    // room connects (then the room says so itself, see online.js).
    document.body.classList.toggle('matched', sessionStorage.getItem(MATCHED_KEY) === invited[1]);
    $('home').hidden = true;
    $('play').hidden = false;
    $('online').hidden = false;
    $('back').onclick = () => location.assign('/');
    const { offerInvite } = await import('./room/invite.js');
    offerInvite({ copy: $('copy'), share: $('share'), link: $('link'), status: $('copy-status') }, t);
    const { OnlineRoom } = await import('./room/online.js');
    const room = new OnlineRoom(() => { askForEngine(); return engineLoaded; }, invited[1], { ...view, seats: $('seats'), link: $('link'),
      connection: $('connection'), rated: $('rated'), afterGame: $('after-game'),
      replayLink: $('replay-link'), lobbyNotice: $('lobby-notice'), notify: $('notify'),
      roomSettings: $('room-settings'), tableSettings: $('table-settings') });
    $('export-local').hidden = true;
    // Shown drawn, or as it is after 3 s without the server.
    await Promise.race([room.drawn, new Promise((resolve) => { setTimeout(resolve, 3000); })]);
    document.body.dataset.ready = 'true';
    return;
  }
  showPublicTables($('public-tables'), t, () => !$('home').hidden);
  // The way back to an online table, for a device that remembers one: only then is its module
  // loaded (see room/rejoin.js, whose key this is).
  const wayBack = localStorage.getItem('ludo.playing')
    && import('./room/rejoin.js').then(({ offerWayBack }) => offerWayBack($('way-back'), myId(), t));
  const language = document.documentElement.lang;
  /** Continues a saved game; one the engine no longer reads is said, and not offered again. */
  const continueGame = (game) => {
    try {
      show(LocalGame.resume(engine, game, view));
    } catch (error) {
      // Saved by an older version of the rules, say.
      forget(game.id);
      $('saved-games').querySelector(`[data-id="${CSS.escape(game.id)}"]`)?.remove();
      $('saved').hidden = !$('saved-games').childElementCount;
      if (history.state?.[TABLE_ENTRY]) history.replaceState(null, '');
      errorWords(error, t).then((why) => {
        const text = t('engine.savedGame', { why });
        $('resume-error').textContent = text;
        view.announce(text);
      });
    }
  };
  drawSavedGames($('saved'), { t, language, onContinue: continueGame });
  /**
   * Shows the game the current history entry's table names, if it is still kept (a finished one
   * is not); else the entry no longer names one.
   */
  const showTableEntry = () => {
    const saved = savedGames().find((g) => g.id === history.state[TABLE_ENTRY]);
    if (saved) continueGame(saved);
    else history.replaceState(null, '');
  };
  // Play: a game against the CPU at once, as the last one (the form below shows those settings),
  // or as the CPU's card and the rules say once either is changed: Play starts what it says.
  let settings = playSettings(language);
  const cpuForm = $('vs-cpu').elements;
  cpuForm.opponents.value = String(settings.opponents);
  cpuForm.level.value = settings.level;
  cpuForm.preset.value = settings.rules.preset;
  $('play-now-what').textContent = settingsText(settings, t);
  // Expert is offered only where it has a network (a preset without house rules, for the number
  // of players); where the rules or the number of opponents change so that it has none, Hard takes
  // its place, said.
  const expert = cpuForm.level.querySelector('option[value=expert]');
  const offerExpert = () => {
    const rules = chosenRules();
    const plays = expertPlays(rules, Number(cpuForm.opponents.value) + 1);
    // Not offered: with a house rule changed, or with this many players under these rules.
    const houseRules = Object.keys(rules).length > 1;
    expert.disabled = !plays;
    expert.dataset.t = plays ? 'level.expert' : houseRules ? 'level.expertOnly' : 'level.expertPlayers';
    expert.textContent = t(expert.dataset.t);
    if (plays || cpuForm.level.value !== 'expert') return;
    cpuForm.level.value = 'hard';
    $('level-note').textContent = t(houseRules ? 'level.expertReplaced' : 'level.expertReplacedPlayers');
  };
  // The note goes once the person picks a level of their own.
  cpuForm.level.addEventListener('change', () => { $('level-note').textContent = ''; });
  offerExpert();
  const follow = () => {
    offerExpert();
    settings = { opponents: Number(cpuForm.opponents.value), level: cpuForm.level.value, rules: chosenRules() };
    $('play-now-what').textContent = settingsText(settings, t);
  };
  $('vs-cpu').addEventListener('change', follow);
  $('rules-choice').addEventListener('change', follow);
  // "Read the rules" opens the page of the rules chosen.
  const readRules = () => $('read-rules').setAttribute('href', keepLanguage(`/rules/${cpuForm.preset.value}`));
  readRules();
  $('rules-choice').addEventListener('change', readRules);
  $('play-now').onclick = () => playCpu(settings);
  // "Learn by playing": a first game whose dice are arranged for teaching, coached in words.
  $('how-to-play').onclick = async () => {
    const { Lesson, LESSON_PLAYERS, lessonPosition } = await import('./game/lesson.js');
    const game = LocalGame.start(engine, { preset: 'qdan' }, LESSON_PLAYERS, view);
    game.game.position = lessonPosition(engine);
    game.teach(new Lesson(engine, $('coach-place'), { t, announce: view.announce }));
    markGuideSeen();
    show(game);
  };
  // Home, like Back, leaves the table's history entry: the home screen is drawn afresh.
  $('back').onclick = () => (history.state?.[TABLE_ENTRY] ? history.back() : location.reload());
  addEventListener('popstate', () => {
    if (rulesPresetAt(location.pathname)) return;
    const atTable = document.body.classList.contains('in-game');
    if (atTable && !history.state?.[TABLE_ENTRY]) location.reload();
    else if (!atTable && history.state?.[TABLE_ENTRY]) showTableEntry();
  });
  // A reload at a table (a language picked, say) comes back to its game.
  if (history.state?.[TABLE_ENTRY] && !rulesPresetAt(location.pathname)) showTableEntry();
  const [answer] = await Promise.all([
    showRules(engineLoaded).catch(async (error) => view.announce(await errorWords(error, t, 'refusal.other'))),
    wayBack?.catch(() => {}),
  ]);
  if (answer) {
    /**
     * A rules page's buttons: a game of the preset's own rules (no house rule changed) against
     * the CPU or on this device, with the opponents, strength and people the home screen sets,
     * or a new room with friends under `name`.
     */
    const play = async (preset, kind, name) => {
      $('vs-cpu').elements.preset.value = preset;
      showOptions(answer.choices);
      if (kind === 'friends') {
        setPlayerName(name);
        const code = await createRoom({ preset }, null, false, $('rotate').checked).catch(async (error) => {
          throw new Error(await errorWords(error, t, 'refusal.other'));
        });
        location.assign(`/r/${code}`);
        return;
      }
      history.pushState(null, '', `/${location.search}`);
      $('rules-page').hidden = true;
      $(kind === 'device' ? 'hot-seat' : 'vs-cpu').requestSubmit();
    };
    const draw = async (page, preset) => {
      const { drawRulesPage } = await import('./rulebook/rulespage.js');
      drawRulesPage(page, preset, answer.choices, engineLoaded, savedName(),
        (kind, name) => play(preset.preset, kind, name));
    };
    followInPageLinks(() => route(answer, draw));
    await route(answer, draw);
  } else {
    $('home').hidden = false;
  }
  reveal();
  await engineLoaded;
  document.body.dataset.ready = 'true';
}

// Shown once drawn (app.css), or as it is if drawing failed.
main().finally(reveal);
