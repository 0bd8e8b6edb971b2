// A local game in the browser against CPU players: the engine decides everything, the page only
// throws the dice (from the browser's cryptographic generator), draws and asks. The game is saved
// in this browser after every action and survives a reload.

import { drawPlaces } from './places.js';
import { drawBoard, drawRulesInForce, statusText } from './board.js';
import { showDice, showMove } from './animate.js';
import { followFocus } from './keys.js';
import { drawLog, moveLines, throwLines } from './turnlog.js';

const SAVE_KEY = 'ludo.local.v1';

/** How long a CPU player waits before acting, so people can follow: `?cpu-delay=MS` changes it. */
const CPU_DELAY_MS = Number(new URLSearchParams(location.search).get('cpu-delay') ?? 450);

/** A fair die from the browser's cryptographic generator (rejection keeps it unbiased). */
export function die() {
  const byte = new Uint8Array(1);
  do crypto.getRandomValues(byte); while (byte[0] >= 252);
  return (byte[0] % 6) + 1;
}

export function savedGame() {
  try {
    return JSON.parse(localStorage.getItem(SAVE_KEY));
  } catch {
    return null;
  }
}

export class LocalGame {
  /**
   * @param engine the WebAssembly engine
   * @param game `{position, players: {colour: 'human' | level}, log: []}`
   * @param view `{board, status, rollButton, dice, log, announce}` elements and the translator `t`
   */
  constructor(engine, game, view) {
    this.engine = engine;
    this.game = game;
    this.view = view;
    this.seed = Date.now() % 1_000_000;
    this.timer = null;
    // What the next drawing shows happening: a throw, a move; and what is still to be announced.
    this.thrown = null;
    this.moved = null;
    this.spoken = [];
    view.rollButton.onclick = () => this.humanRoll();
  }

  static start(engine, rules, players, view) {
    const seats = Object.keys(players);
    const position = engine.newGame(rules, seats);
    const game = { position, players, log: [], rules, seats, actions: [], started_at: Date.now() };
    return new LocalGame(engine, game, view);
  }

  save() {
    localStorage.setItem(SAVE_KEY, JSON.stringify(this.game));
  }

  get position() {
    return this.game.position;
  }

  isHumanTurn() {
    return this.game.players[this.position.turn.seat] === 'human';
  }

  /** Adds lines to the game's log and to what is announced. */
  note(lines) {
    this.game.log = [...this.game.log, ...lines].slice(-12);
    this.spoken = [...this.spoken, ...lines.map((line) => line.text)].slice(-12);
  }

  roll() {
    const seat = this.position.turn.seat;
    const dice = Array.from({ length: this.engine.diceToThrow(this.position) }, die);
    this.game.position = this.engine.roll(this.position, dice);
    this.game.actions?.push({ throw: dice });
    this.thrown = dice;
    this.note(throwLines(this.view.t, seat, dice));
  }

  move(piece) {
    const seat = this.position.turn.seat;
    const { position, move } = this.engine.move(this.position, piece);
    const finished = move.to >= this.engine.board(position).finished_from;
    this.game.position = position;
    this.game.actions?.push({ move: piece });
    this.moved = { seat, move, finished };
    this.note(moveLines(this.view.t, seat, move, finished));
  }

  humanRoll() {
    if (!this.isHumanTurn() || !['roll', 'rolloff'].includes(this.position.turn.phase)) return;
    this.spoken = [];
    this.roll();
    this.after();
  }

  humanMove(piece) {
    if (!this.isHumanTurn() || this.position.turn.phase !== 'move') return;
    this.spoken = [];
    this.move(piece);
    this.after();
  }

  /** After every action: save, draw, and let a CPU act if it is its turn. */
  after() {
    this.save();
    this.draw();
    // Everything since the person's last action is said, so CPU turns are not lost.
    if (this.spoken.length) this.view.announce(this.spoken.join('. '));
    clearTimeout(this.timer);
    if (this.position.turn.phase === 'over' || this.isHumanTurn()) return;
    this.timer = setTimeout(() => this.cpuAct(), CPU_DELAY_MS);
  }

  cpuAct() {
    const level = this.game.players[this.position.turn.seat];
    if (this.position.turn.phase === 'move') {
      const choice = this.engine.bot(this.position, level, this.seed++);
      this.move(choice.piece);
    } else {
      this.roll();
    }
    this.after();
  }

  draw() {
    const { t } = this.view;
    const p = this.position;
    const human = this.isHumanTurn();
    const legal = p.turn.phase === 'move' ? this.engine.legal(p) : [];
    const geometry = this.engine.board(p);
    const layout = drawBoard(this.view.board, p, geometry, human ? legal : [], (piece) => this.humanMove(piece), t);
    if (this.thrown) showDice(this.view.dice, this.thrown);
    if (this.moved) showMove(this.view.board, layout, this.moved.seat, this.moved.move, this.moved.finished);
    this.thrown = null;
    this.moved = null;
    this.view.rollButton.disabled = !(human && ['roll', 'rolloff'].includes(p.turn.phase));
    followFocus(this.view.board, this.view.rollButton);
    this.view.status.textContent = statusText(p, t);
    drawRulesInForce(this.view.rulesInForce, this.engine.options(p), t);
    drawLog(this.view.log, this.game.log);
    drawPlaces(this.view.places, p, (seat) => this.playerName(seat), t);
    this.view.playAgain.hidden = p.turn.phase !== 'over';
  }

  /** Who plays a seat, in words: a person, or a CPU of some level. */
  playerName(seat) {
    const who = this.game.players[seat];
    return who === 'human' ? this.view.t('places.person') : this.view.t(`level.${who}`);
  }

  /**
   * A new game with the same players and rules. With `rotate`, the seat after the one that
   * started this game starts the next (the seats stay in clockwise order).
   */
  again(rotate) {
    const seats = this.game.seats ?? Object.keys(this.game.players);
    const order = rotate ? [...seats.slice(1), seats[0]] : seats;
    const players = Object.fromEntries(order.map((seat) => [seat, this.game.players[seat]]));
    return LocalGame.start(this.engine, this.game.rules ?? this.position.rules, players, this.view);
  }
}
