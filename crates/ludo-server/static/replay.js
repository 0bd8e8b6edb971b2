// Game records: step through a finished game on the board, check its dice, export it as JSON and
// import such a file. A record is the server's export (`GET /api/games/{id}`) or a local game's
// export, which has the same fields but no dice seed (its dice were thrown in this browser).

import { drawBoard, statusText } from './board.js';
import { setBoard } from './i18n.js';
import { errorText } from './texts-errors.js';
import { playerName } from './online.js';
import { moveLine, throwOutcome } from './turnlog.js';

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

/** What happened at a step, in the words of a game's log. */
function describe(engine, step, t) {
  if (!step.action) return t('replay.start');
  if (step.move) return moveLine(t, step.seat, step.move, step.position, engine.board(step.position).finished_from).text;
  const dice = step.action.throw;
  const outcome = throwOutcome(t, step.seat, dice, step.before, step.position, engine.options(step.before).options);
  return outcome.line?.text ?? t('status.threw', { seat: t(`seat.${step.seat}`), dice: dice.join(' + ') });
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

/**
 * Shows `record` in `container`: the board at each step, buttons and a slider to move through
 * it (arrow keys too), whether its dice verify, and an export button.
 */
export function showReplay(engine, record, container, t) {
  const steps = replayPositions(engine, record);
  // The record's texts speak of its board's pieces (horses on the horse board).
  setBoard(engine.board(steps[0].position).board);
  let at = steps.length - 1;
  const board = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  board.id = 'replay-board';
  board.setAttribute('role', 'img');
  board.setAttribute('aria-label', t('replay.board'));
  const status = document.createElement('p');
  status.id = 'replay-status';
  const line = document.createElement('p');
  line.id = 'replay-step';
  line.setAttribute('aria-live', 'polite');
  const slider = document.createElement('input');
  Object.assign(slider, { type: 'range', min: 0, max: steps.length - 1, value: at });
  slider.setAttribute('aria-label', t('replay.step'));
  const go = (n) => {
    at = Math.max(0, Math.min(steps.length - 1, n));
    slider.value = at;
    const step = steps[at];
    drawBoard(board, step.position, engine.board(step.position), { t });
    status.textContent = statusText(step.position, t);
    line.textContent = `${at} / ${steps.length - 1} · ${describe(engine, step, t)}`;
  };
  slider.oninput = () => go(Number(slider.value));
  const controls = document.createElement('div');
  controls.className = 'controls';
  controls.append(
    button('⏮', t('replay.first'), () => go(0)),
    button('◀', t('replay.back'), () => go(at - 1)),
    button('▶', t('replay.forward'), () => go(at + 1)),
    button('⏭', t('replay.last'), () => go(steps.length - 1)),
  );
  container.onkeydown = (event) => {
    if (event.key === 'ArrowLeft') go(at - 1);
    if (event.key === 'ArrowRight') go(at + 1);
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
  container.replaceChildren(board, status, line, slider, controls, verdict, exportButton);
  go(at);
  return { go, steps };
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
      who === 'human' ? { kind: 'person', name: playerName() } : { kind: 'cpu', level: who }])),
    ranked: false,
    started_at: saved.started_at ?? null,
    finished_at: saved.position.turn.phase === 'over' ? Date.now() : null,
    places: saved.position.places ?? {},
  };
}
