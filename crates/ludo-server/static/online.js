// An online room: the server is the authority. The page sends requests carrying the version it
// acted on, and redraws from whatever state the server sends. It reconnects by itself, and the
// same device gets its seat back.

import { drawBoard, drawRulesInForce, statusText, COLOURS } from './board.js';
import { rememberMe } from './ranked.js';
import { t } from './i18n.js';
import { drawPlaces } from './places.js';
import { followFocus } from './keys.js';
import { showDice, showMove } from './animate.js';
import { drawLog, moveLines, throwLines } from './turnlog.js';

const DEVICE_KEY = 'ludo.device';
const NAME_KEY = 'ludo.name';

/** This browser's device secret: random, kept here, never shown. */
export function deviceSecret() {
  let secret = localStorage.getItem(DEVICE_KEY);
  if (!secret) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    secret = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
    localStorage.setItem(DEVICE_KEY, secret);
  }
  return secret;
}

export function playerName() {
  return localStorage.getItem(NAME_KEY) || t('player.default');
}

export function setPlayerName(name) {
  localStorage.setItem(NAME_KEY, name.trim().slice(0, 24) || t('player.default'));
}

/** Creates a room hosted by this device; its code. */
export async function createRoom(rules, clock = null, ranked = false) {
  const response = await fetch('/api/rooms', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ device: deviceSecret(), name: playerName(), rules, clock, ranked }),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.message);
  return answer.code;
}

export class OnlineRoom {
  /**
   * @param engine the WebAssembly engine, for the board's numbers
   * @param view `{board, status, rollButton, dice, log, announce, seats, link, connection, t}`
   */
  constructor(engine, code, view) {
    this.engine = engine;
    this.code = code;
    this.view = view;
    this.you = null;
    this.room = null;
    this.game = null;
    this.retry = 0;
    // What this page saw happen, newest last, and what the next drawing shows happening.
    this.log = [];
    this.happened = null;
    view.rollButton.onclick = () => this.send({ t: 'roll', version: this.game?.version });
    this.connect();
  }

  connect() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    this.socket = new WebSocket(`${scheme}://${location.host}/ws`);
    this.view.connection.textContent = this.view.t('online.connecting');
    this.socket.onopen = () => {
      this.retry = 0;
      this.send({ t: 'hello', room: this.code, device: deviceSecret(), name: playerName() });
    };
    this.socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    this.socket.onclose = () => {
      this.view.connection.textContent = this.view.t('online.reconnecting');
      const wait = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    };
  }

  send(message) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  receive(message) {
    switch (message.t) {
      case 'welcome':
        this.you = message.you;
        rememberMe(message.you);
        this.room = message.room;
        this.game = message.game;
        this.view.connection.textContent = this.view.t('online.connected');
        break;
      case 'room':
        this.room = message.room;
        break;
      case 'game':
        this.game = message.game;
        break;
      case 'action':
        this.happened = this.describe(message, this.game);
        this.game = message.game;
        break;
      case 'rated':
        this.showRatings(message.changes);
        break;
      case 'error':
        this.view.announce(message.message);
        break;
      case 'bye':
        this.view.connection.textContent = this.view.t('online.reconnecting');
        break;
    }
    this.draw();
  }

  /** The rating changes of a ranked game that just ended. */
  showRatings(changes) {
    const { t } = this.view;
    const text = changes.map((c) => t('records.change', {
      name: c.name, before: Math.round(c.before), after: Math.round(c.after),
    })).join(' · ');
    this.view.rated.textContent = text;
    this.view.announce(text);
  }

  /**
   * What an accepted action did, from the game before it: a throw's dice, or the move the engine
   * plays for that piece in that position. Nothing when this page missed the game before.
   */
  describe({ seat, action, game }, before) {
    const { t } = this.view;
    if ('throw' in action) return { seat, dice: action.throw, lines: throwLines(t, seat, action.throw) };
    if (!before || before.version + 1 !== game.version) return null;
    try {
      const { move } = this.engine.move(before.position, action.move);
      const finished = move.to >= this.engine.board(game.position).finished_from;
      return { seat, move, finished, lines: moveLines(t, seat, move, finished) };
    } catch {
      return null;
    }
  }

  /** Who sits at a seat, in words. */
  occupantName(seat) {
    const occupant = this.room?.seats[seat]?.occupant;
    if (!occupant) return '';
    return occupant.kind === 'cpu' ? this.view.t(`level.${occupant.level}`) : occupant.name;
  }

  mySeat() {
    const entry = Object.entries(this.room?.seats ?? {}).find(
      ([, s]) => s.occupant.kind === 'person' && s.occupant.id === this.you,
    );
    return entry?.[0];
  }

  draw() {
    const { t } = this.view;
    if (!this.room) return;
    this.view.link.textContent = `${location.origin}/r/${this.code}`;
    this.drawSeats();
    const game = this.game;
    if (!game) {
      this.view.status.textContent = t('online.waiting');
      this.view.rollButton.disabled = true;
      return;
    }
    const position = game.position;
    const mine = position.turn.seat === this.mySeat() && position.turn.phase !== 'over';
    const layout = drawBoard(this.view.board, position, this.engine.board(position),
      mine ? game.legal : [], (piece) => this.send({ t: 'move', piece, version: game.version }), t);
    const happened = this.happened;
    this.happened = null;
    if (happened?.dice) showDice(this.view.dice, happened.dice);
    if (happened?.move) showMove(this.view.board, layout, happened.seat, happened.move, happened.finished);
    if (happened) {
      this.log = [...this.log, ...happened.lines].slice(-12);
      this.view.announce(happened.lines.map((line) => line.text).join('. '));
    }
    drawLog(this.view.log, this.log);
    this.view.rollButton.disabled = !(mine && ['roll', 'rolloff'].includes(position.turn.phase));
    followFocus(this.view.board, this.view.rollButton);
    this.view.status.textContent = statusText(position, t, game.deadline);
    drawRulesInForce(this.view.rulesInForce, this.engine.options(position), t);
    const over = position.turn.phase === 'over';
    drawPlaces(this.view.places, position, (seat) => this.occupantName(seat), t);
    this.view.afterGame.hidden = !over;
    this.view.replayLink.hidden = !over;
    this.view.replayLink.href = `/games/${game.id}`;
  }

  drawSeats() {
    const { t } = this.view;
    const host = this.room.host === this.you;
    const playing = this.game && this.game.position.turn.phase !== 'over';
    const rows = COLOURS.map((colour) => {
      const li = document.createElement('li');
      const seat = this.room.seats[colour];
      const label = document.createElement('span');
      label.textContent = `${t(`seat.${colour}`)}: ` + (seat
        ? seat.occupant.kind === 'cpu'
          ? t(`level.${seat.occupant.level}`)
          : seat.occupant.name + (seat.connected ? '' : ` (${t('online.away')})`)
        : t('online.free'));
      li.append(label);
      const button = (text, message) => {
        const b = document.createElement('button');
        b.textContent = text;
        b.onclick = () => this.send(message);
        li.append(' ', b);
      };
      if (!playing && !seat) button(t('online.sit'), { t: 'sit', colour });
      if (!playing && !seat && host) button(t('online.addCpu'), { t: 'add_cpu', colour, level: 'medium' });
      if (!playing && seat?.occupant.kind === 'cpu' && host) button(t('online.removeCpu'), { t: 'remove_cpu', colour });
      return li;
    });
    if (host && !playing) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.id = 'start';
      b.textContent = this.game ? t('online.playAgain') : t('online.start');
      b.onclick = () => this.send({ t: this.game ? 'play_again' : 'start' });
      li.append(b);
      rows.push(li);
    }
    this.view.seats.replaceChildren(...rows);
  }
}
