// A local game in the browser against CPU players: the engine decides everything, the page only
// throws the dice (from the browser's cryptographic generator), draws and asks. The game is saved
// in this browser after every action and survives a reload.

import { drawBoard, drawRulesInForce, statusText } from './board.js';

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
   * @param view `{board, status, rollButton, log, announce}` elements and the translator `t`
   */
  constructor(engine, game, view) {
    this.engine = engine;
    this.game = game;
    this.view = view;
    this.seed = Date.now() % 1_000_000;
    this.timer = null;
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

  note(text) {
    this.game.log.push(text);
    this.game.log = this.game.log.slice(-12);
    this.view.announce(text);
  }

  roll() {
    const seat = this.position.turn.seat;
    const dice = Array.from({ length: this.engine.diceToThrow(this.position) }, die);
    this.game.position = this.engine.roll(this.position, dice);
    this.game.actions?.push({ throw: dice });
    this.note(this.view.t('log.throw', { seat: this.view.t(`seat.${seat}`), dice: dice.join(' + ') }));
  }

  move(piece) {
    const seat = this.position.turn.seat;
    const { position, move } = this.engine.move(this.position, piece);
    this.game.position = position;
    this.game.actions?.push({ move: piece });
    const captured = move.captures.length ? this.view.t('log.captures', { n: move.captures.length }) : '';
    this.note(this.view.t('log.move', { seat: this.view.t(`seat.${seat}`), piece: piece + 1, to: move.to }) + captured);
  }

  humanRoll() {
    if (!this.isHumanTurn() || !['roll', 'rolloff'].includes(this.position.turn.phase)) return;
    this.roll();
    this.after();
  }

  humanMove(piece) {
    if (!this.isHumanTurn() || this.position.turn.phase !== 'move') return;
    this.move(piece);
    this.after();
  }

  /** After every action: save, draw, and let a CPU act if it is its turn. */
  after() {
    this.save();
    this.draw();
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
    drawBoard(this.view.board, p, geometry, human ? legal : [], (piece) => this.humanMove(piece), t);
    this.view.rollButton.disabled = !(human && ['roll', 'rolloff'].includes(p.turn.phase));
    this.view.status.textContent = statusText(p, t);
    drawRulesInForce(this.view.rulesInForce, this.engine.options(p), t);
    this.view.log.replaceChildren(...this.game.log.map((line) => {
      const li = document.createElement('li');
      li.textContent = line;
      return li;
    }));
  }
}
