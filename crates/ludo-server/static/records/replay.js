// Game records: step through a finished game on the board, check its dice, export it as JSON and
// import such a file. A record is the server's export (`GET /api/games/{id}`) or a local game's
// export, which has the same fields but no dice seed (its dice were thrown in this browser).

import { drawBoard, statusText, turnBoard } from '../game/board.js';
import { boardTurns } from '../game/table.js';
import { myId } from '../home/ranked.js';
import { setBoard } from '../i18n/i18n.js';
import { optionLabel, ordered, valueLabel } from '../rulebook/options.js';
import { errorText } from '../i18n/texts-errors.js';
import { localName } from '../room/identity.js';
import { moveLine, throwOutcome, voice } from '../game/turnlog.js';
import { styleSheet, svgElement } from '../dom.js';

// This part's own styles, loaded with it (not with every page), before it draws anything.
await styleSheet(new URL('./replay.css', import.meta.url));

/** Every position of a record, from the start, with the action that led to each. */
export function replayPositions(engine, record) {
  let position = engine.newGame(record.rules, record.seats);
  const steps = [{ position, before: null, action: null, seat: null, move: null }];
  for (const action of record.actions) {
    const seat = position.turn.seat;
    const before = position;
    if ('throw' in action) {
      position = engine.roll(position, action.throw);
      steps.push({ position, before, action, seat, move: null });
    } else {
      const after = engine.move(position, action.move);
      position = after.position;
      steps.push({ position, before, action, seat, move: after.move });
    }
  }
  return steps;
}

/**
 * What happened at a step, in the words of a game's log: `voiced` names the seats (see `voice` in
 * turnlog.js), people by name as the table's log did.
 */
function describe(engine, step, voiced) {
  const { t } = voiced;
  if (!step.action) return t('replay.start');
  if (step.move) return moveLine(voiced, step.seat, step.move, step.position, engine.board(step.position).finished_from).text;
  const dice = step.action.throw;
  const outcome = throwOutcome(voiced, step.seat, dice, step.before, step.position, engine.options(step.before).options);
  return outcome.line?.text ?? t('status.threw', { seat: voiced.seat(step.seat), dice: dice.join(' + ') });
}

/** Offers `record` as a JSON file download. */
export function downloadRecord(record, name = `ludo-${record.game_id}.json`) {
  const blob = new Blob([JSON.stringify(record, null, 1)], { type: 'application/json' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/**
 * Reads a record from a file a person picked; throws if it is not one (as the engine says of data
 * it cannot read: code `unreadable`).
 */
export async function readRecordFile(file) {
  const notRecord = Object.assign(new Error('not a Ludo game record'), { code: 'unreadable', params: {} });
  const record = await file.text().then(JSON.parse).catch(() => null);
  if (!record || !Array.isArray(record.seats) || !Array.isArray(record.actions) || !record.rules) {
    throw notRecord;
  }
  return record;
}

function button(text, label, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.setAttribute('aria-label', label);
  b.onclick = onClick;
  return b;
}


// The replay's controls are drawn, not written with symbol characters, which some systems' fonts
// lack: each icon is a list of shapes on a 24 × 24 grid.
const ICONS = {
  first: [['rect', { x: 5, y: 5, width: 2.5, height: 14 }], ['polygon', { points: '19,5 19,19 9,12' }]],
  back: [['polyline', { points: '15,5 8,12 15,19' }]],
  play: [['polygon', { points: '7,4 20,12 7,20' }]],
  pause: [['rect', { x: 6, y: 5, width: 4, height: 14 }], ['rect', { x: 14, y: 5, width: 4, height: 14 }]],
  forward: [['polyline', { points: '9,5 16,12 9,19' }]],
  last: [['polygon', { points: '5,5 15,12 5,19' }], ['rect', { x: 16.5, y: 5, width: 2.5, height: 14 }]],
};

function icon(name) {
  const svg = svgElement('svg', { viewBox: '0 0 24 24', width: 24, height: 24, 'aria-hidden': 'true',
    focusable: 'false' });
  for (const [tag, attrs] of ICONS[name]) {
    // Chevrons are lines; the other shapes are filled.
    const paint = tag === 'polyline'
      ? { fill: 'none', stroke: 'currentColor', 'stroke-width': 3, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }
      : { fill: 'currentColor' };
    svgElement(tag, { ...attrs, ...paint }, svg);
  }
  return svg;
}

/** A button showing icon `name`, named `label` for those who cannot see it (and on hover). */
function iconButton(name, label, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = `replay-${name}`;
  b.onclick = onClick;
  setIcon(b, name, label);
  return b;
}

function setIcon(b, name, label) {
  b.replaceChildren(icon(name));
  b.setAttribute('aria-label', label);
  b.title = label;
}

/** How long each step shows while the replay plays by itself, by speed, in milliseconds. */
export const SPEEDS = { slow: 1600, normal: 800, fast: 250 };
const SPEED_KEY = 'ludo.replaySpeed';

/** The step an address's hash names (`#12`: after 12 actions), or null if it names none. */
function hashStep() {
  const n = globalThis.location?.hash.match(/^#(-?\d+)$/)?.[1];
  return n === undefined ? null : Number(n);
}

/**
 * The seat of the person watching the replay, if they played in it: the seat of this device's
 * identity in a game of the server, the one seat a person played in a local game; else null.
 */
function viewerSeat(record) {
  const seats = Object.entries(record.players ?? {});
  const me = myId();
  const mine = seats.find(([, who]) => who.kind === 'person' && me && who.id === me);
  if (mine) return mine[0];
  const people = seats.filter(([, who]) => who.kind === 'person');
  return record.game_id?.startsWith('local-') && people.length === 1 ? people[0][0] : null;
}

/** The person who played `seat` in `record` by their name, or null (a CPU, a local game's seat). */
function personOf(record, seat) {
  const who = record.players?.[seat];
  return who?.kind === 'person' && who.name ? who.name : null;
}

/**
 * Who played `seat` in `record`: a person's name, or a CPU's level (`label` says "CPU" too, for
 * the name's tooltip; the list shows the table's CPU tag beside the level).
 */
function playerOf(record, seat, t) {
  const who = record.players?.[seat];
  if (who?.kind === 'cpu') {
    const level = t(`level.${who.level}`);
    return { cpu: true, name: level, label: t('cpu.named', { level }) };
  }
  return { cpu: false, name: who?.name ?? t('player.default'), id: who?.id ?? null };
}

/** The seats with who played each; a seat's place shows once the position shown is over. */
function playersList(record, seats, t) {
  const list = document.createElement('ol');
  list.id = 'replay-players';
  list.setAttribute('aria-label', t('players.title'));
  list.dataset.seats = seats.length;
  const items = {};
  for (const seat of seats) {
    const item = document.createElement('li');
    item.className = `seat-${seat}`;
    item.dataset.seat = seat;
    const player = playerOf(record, seat, t);
    if (player.cpu) item.classList.add('cpu');
    const colour = document.createElement('span');
    colour.className = 'seat';
    // The colour's word apart from its mark ("yellow" and "○"): a narrow screen may keep only the
    // mark in sight (the seat's border is its colour), and the word for screen readers.
    const words = t(`seat.${seat}`);
    const cut = words.lastIndexOf(' ');
    const word = Object.assign(document.createElement('span'), { className: 'colour-word', textContent: words.slice(0, cut) });
    colour.append(word, words.slice(cut));
    const name = document.createElement(player.id ? 'a' : 'span');
    name.className = 'who';
    name.textContent = player.name;
    name.title = player.label ?? player.name;
    if (player.cpu) {
      // The table's tag for a CPU before its level takes less room than "CPU · "; a screen
      // reader hears the label whole.
      const tag = Object.assign(document.createElement('span'), { className: 'cpu-tag', textContent: t('cpu') });
      const shown = Object.assign(document.createElement('span'), { textContent: player.name });
      const heard = Object.assign(document.createElement('span'), { className: 'visually-hidden', textContent: player.label });
      for (const part of [tag, shown]) part.setAttribute('aria-hidden', 'true');
      name.replaceChildren(heard, tag, ' ', shown);
    }
    if (player.id) name.href = `/players/${encodeURIComponent(player.id)}`;
    const place = document.createElement('span');
    place.className = 'place badge';
    place.hidden = true;
    item.append(colour, place, name);
    list.append(item);
    items[seat] = { item, place };
  }
  /** Marks the seat to play in `position`, or each seat's place once it is over. */
  const show = (position) => {
    const over = position.turn.phase === 'over';
    for (const [seat, { item, place }] of Object.entries(items)) {
      item.classList.toggle('active', !over && position.turn.seat === seat);
      const n = over ? position.places?.[seat] : undefined;
      place.hidden = n === undefined;
      // "Place" is said to those who hear the page; the badge shows the place alone.
      const said = document.createElement('span');
      said.className = 'visually-hidden';
      said.textContent = `${t('places.place')} `;
      place.replaceChildren(...(n === undefined ? [] : [said, t(`ordinal.${n}`)]));
      item.dataset.place = n ?? '';
    }
  };
  return { list, show };
}

/** The rules, ranked or not, and the day a record's game ended, in one line. */
function aboutLine(engine, record, position, t) {
  const parts = [t(`presetName.${engine.options(position).preset}`)];
  if (record.ranked) parts.push(t('records.ranked'));
  if (record.finished_at) parts.push(new Date(record.finished_at).toLocaleDateString(document.documentElement.lang));
  const line = document.createElement('p');
  line.className = 'replay-about';
  line.textContent = parts.join(' · ');
  return line;
}

/**
 * The house rules a game was played with, each changed from its preset by the settings' name
 * and its value; hidden when it played the preset's own rules.
 */
function houseRulesLine(engine, position, t) {
  const inForce = engine.options(position);
  const preset = engine.options(engine.newGame(inForce.preset, position.seats)).options;
  const changed = ordered(inForce.options)
    .filter(([name, value]) => JSON.stringify(preset[name]) !== JSON.stringify(value))
    .map(([name, value]) => t('replay.optionValue', { option: optionLabel(name, t), value: valueLabel(value, t) }));
  const line = document.createElement('p');
  line.className = 'replay-house-rules';
  line.hidden = changed.length === 0;
  line.textContent = t('replay.houseRules', { rules: changed.join(' · ') });
  return line;
}

/** Stops the replay shown before (its clock and its listeners), when another replaces it. */
let leavePrevious = () => {};

/**
 * Shows `record` in `container`: who played each seat, the board at each step, buttons and a
 * slider to move through it (arrow keys, Home and End too), playing by itself at a chosen speed,
 * whether its dice verify, and an export button. A stored game's page (`/games/<id>`) opens at
 * the step its address's hash names (`#12`: after 12 actions; else the end), and its hash follows
 * the step shown, so that the address copied at any moment opens there again.
 */
export function showReplay(engine, record, container, t) {
  leavePrevious();
  const steps = replayPositions(engine, record);
  const last = steps.length - 1;
  const clamp = (n) => Math.max(0, Math.min(last, n));
  // The record's texts speak of its board's pieces (horses on the horse board).
  setBoard(engine.board(steps[0].position).board);
  const linked = globalThis.location?.pathname === `/games/${record.game_id}`;
  let at = linked && hashStep() !== null ? clamp(hashStep()) : last;
  const root = document.createElement('div');
  root.className = 'replay';
  const head = document.createElement('div');
  head.className = 'replay-head';
  const title = document.createElement('h2');
  title.textContent = t('replay.title');
  head.append(title, aboutLine(engine, record, steps[0].position, t));
  const players = playersList(record, steps[0].position.seats, t);
  const board = svgElement('svg');
  board.id = 'replay-board';
  board.setAttribute('role', 'img');
  board.setAttribute('aria-label', t('replay.board'));
  const status = document.createElement('p');
  status.id = 'replay-status';
  const line = document.createElement('p');
  line.id = 'replay-step';
  line.setAttribute('aria-live', 'polite');
  const slider = document.createElement('input');
  Object.assign(slider, { type: 'range', min: 0, max: last, value: at, id: 'replay-slider' });
  slider.setAttribute('aria-label', t('replay.step'));

  // People are named as they were at the table: in the status and in each step's line.
  const named = (seat) => personOf(record, seat);
  const voiced = voice(t, named);

  /** Told of each step shown (the analysis' chart follows it). */
  const watchers = [];
  let layout = null;
  /** Shows step `n` (kept within the game), and says so in the address. */
  const show = (n) => {
    at = clamp(n);
    slider.value = at;
    root.dataset.step = at;
    const step = steps[at];
    layout = drawBoard(board, step.position, engine.board(step.position), { t });
    // Turned as the table was for whoever watches it: their corner at the bottom.
    turnBoard(board, layout, boardTurns(false) ? viewerSeat(record) : null);
    players.show(step.position);
    // At the end, the places show beside the players' names.
    status.textContent = step.position.turn.phase === 'over' ? t('turn.over') : statusText(step.position, t, named);
    const said = describe(engine, step, voiced);
    // An action the CPU played for a person is marked, as the table's log marked it.
    const byCpu = at > 0 && (at - 1) in (record.stand_ins ?? {});
    line.textContent = `${at} / ${last} · ${byCpu ? t('log.byCpu', { line: said }) : said}`;
    if (linked && location.hash !== `#${at}`) history.replaceState(history.state, '', `#${at}`);
    for (const watch of watchers) watch(at);
  };

  // Playing by itself: a step every SPEEDS[speed] milliseconds, until the end.
  let timer = null;
  let speed = localStorage.getItem(SPEED_KEY);
  if (!(speed in SPEEDS)) speed = 'normal';
  const playButton = iconButton('play', t('replay.play'), () => (timer === null ? play() : pause()));
  playButton.id = 'replay-play';
  const tick = () => {
    show(at + 1);
    if (at >= last) pause();
    else timer = setTimeout(tick, SPEEDS[speed]);
  };
  const playing = (on) => {
    root.dataset.playing = String(on);
    setIcon(playButton, on ? 'pause' : 'play', t(on ? 'replay.pause' : 'replay.play'));
    // Each step is said when stepped to by hand, not every moment while it plays.
    line.setAttribute('aria-live', on ? 'off' : 'polite');
  };
  function play() {
    clearTimeout(timer);
    // Played from the end, it starts again from the beginning.
    if (at >= last) show(0);
    timer = setTimeout(tick, SPEEDS[speed]);
    playing(true);
  }
  function pause() {
    clearTimeout(timer);
    timer = null;
    playing(false);
  }
  /** A step chosen by hand: the replay stops playing by itself. */
  const go = (n) => {
    pause();
    show(n);
  };
  slider.oninput = () => go(Number(slider.value));

  const controls = document.createElement('div');
  controls.className = 'replay-controls';
  controls.setAttribute('role', 'group');
  controls.setAttribute('aria-label', t('replay.controls'));
  controls.append(
    iconButton('first', t('replay.first'), () => go(0)),
    iconButton('back', t('replay.back'), () => go(at - 1)),
    playButton,
    iconButton('forward', t('replay.forward'), () => go(at + 1)),
    iconButton('last', t('replay.last'), () => go(last)),
  );
  const speedLabel = document.createElement('label');
  speedLabel.className = 'replay-speed';
  const speedText = document.createElement('span');
  speedText.textContent = t('replay.speed');
  const speedChoice = document.createElement('select');
  speedChoice.id = 'replay-speed';
  speedChoice.append(...Object.keys(SPEEDS).map((s) => new Option(t(`replay.${s}`), s, false, s === speed)));
  speedChoice.onchange = () => {
    speed = speedChoice.value;
    localStorage.setItem(SPEED_KEY, speed);
    if (timer !== null) {
      clearTimeout(timer);
      timer = setTimeout(tick, SPEEDS[speed]);
    }
  };
  speedLabel.append(speedText, speedChoice);
  controls.append(speedLabel);

  container.onkeydown = (event) => {
    const target = event.target;
    // The slider and the speed list handle their own keys; buttons their own Space and Enter.
    if (target === slider || target === speedChoice || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = {
      ArrowLeft: () => go(at - 1), ArrowRight: () => go(at + 1), Home: () => go(0), End: () => go(last),
    };
    if (!target.closest?.('button, a, input, select')) {
      keys[' '] = () => (timer === null ? play() : pause());
      keys.k = keys[' '];
    }
    if (!keys[event.key]) return;
    event.preventDefault();
    keys[event.key]();
  };
  const onHash = () => {
    const n = hashStep();
    if (n !== null) go(n);
  };
  if (linked) addEventListener('hashchange', onHash);
  leavePrevious = () => {
    clearTimeout(timer);
    removeEventListener('hashchange', onHash);
  };

  const verdict = document.createElement('p');
  verdict.id = 'replay-verdict';
  if (record.seed) {
    try {
      engine.verify(record);
      verdict.textContent = t('replay.verified');
    } catch (error) {
      verdict.textContent = t('replay.notVerified', { why: errorText(error, t) });
    }
  } else {
    verdict.textContent = t('replay.unverifiable');
  }
  const exportButton = button(t('replay.export'), t('replay.export'), () => downloadRecord(record));
  exportButton.id = 'replay-export';
  // On a wide screen the board stands on the left, everything else beside it (see app.css).
  const stage = document.createElement('div');
  stage.className = 'replay-stage';
  stage.append(board);
  const houseRules = houseRulesLine(engine, steps[0].position, t);
  const analysis = document.createElement('section');
  analysis.id = 'replay-analysis';
  root.append(head, players.list, stage, status, line, slider, controls, verdict, houseRules, exportButton, analysis);
  container.replaceChildren(root);
  show(at);
  playing(false);
  const replay = {
    go, play, pause, steps, board,
    at: () => at,
    layout: () => layout,
    onStep: (watch) => watchers.push(watch),
  };
  // The analysis comes after the replay is drawn, with its own module and words.
  replay.analysed = import('./analysis.js').then(({ showAnalysis }) => showAnalysis(engine, record, {
    replay, voiced, describe: (step) => describe(engine, step, voiced), viewer: viewerSeat(record),
  }, analysis, t));
  return replay;
}

/** A local game (as saved in this browser) as a record, for export and the replay viewer. */
export function localRecord(saved) {
  return {
    game_id: `local-${saved.started_at ?? Date.now()}`,
    rules: saved.rules,
    seats: saved.seats,
    commitment: '',
    actions: saved.actions,
    players: Object.fromEntries(Object.entries(saved.players).map(([seat, who]) => [seat,
      who === 'human' ? { kind: 'person', name: localName() } : { kind: 'cpu', level: who }])),
    ranked: false,
    started_at: saved.started_at ?? null,
    finished_at: saved.position.turn.phase === 'over' ? Date.now() : null,
    places: saved.position.places ?? {},
  };
}
