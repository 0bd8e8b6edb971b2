// An online room: the server is the authority. The page sends requests carrying the version it
// acted on, and redraws from whatever state the server sends. It reconnects by itself, and the
// same device gets its seat back.

import { COLOURS } from '../game/board.js';
import { rememberMe } from '../home/ranked.js';
import { forgetRoom, rememberRoom } from './rejoin.js';
import { expertPlays, rulesText } from '../home/home.js';
import { ratingText } from '../records/records.js';
import { Table } from '../game/table.js';
import * as sound from '../game/sound.js';
import { recordLines } from '../game/turnlog.js';
import { RoomSettings } from './roomsettings.js';
import { errorText } from '../i18n/texts-errors.js';
import { Phrases } from './phrases.js';
import { listOf, Rematch } from './rematch.js';
import { LeaveGame } from './leave.js';
import { AwaySeats } from './freeseat.js';
import { RoomName } from './roomname.js';
import { deviceSecret, savedName, playerName, setPlayerName } from './identity.js';
import { served } from './served.js';
import { afterPaint, element } from '../dom.js';


/** Whether `message` shows a game, which is drawn with the engine. */
const showsAGame = (message) => ['game', 'action'].includes(message.t) || (message.t === 'welcome' && message.game);

/** The game as the table shows it. */
const stateOf = (game) => ({ position: game.position, legal: game.legal, deadline: game.deadline,
  version: game.version });

export class OnlineRoom {
  /**
   * The room is connected and its lobby drawn at once, before the engine (the board's numbers, a
   * move's details) is asked for: the lobby of a room opened from its invitation shows without
   * waiting for the engine's transfer and compilation, the longest things on a phone's way to
   * it, nor sharing the connection with them. The engine is asked for once the lobby is on the
   * screen, or at once when a message shows a game (a welcome with one, a game, an action); such
   * a message is held, with every message after it, and they are handled in order once the
   * engine is there.
   *
   * @param askForEngine asks for the WebAssembly engine (the first call) and returns a promise of it
   * @param view the table's elements (see `Table`) and the room's: `seats` (the lobby), `lobbyNotice`,
   *   `link`, `connection`, `rated`, `afterGame`, `replayLink`, `notify`, `roomSettings`, `tableSettings`
   */
  constructor(askForEngine, code, view) {
    /** The ratings the people of each ranked game brought to it, by game and identity id (see `ratingAt`). */
    this.ratings = new Map();
    /** The names and identity ids of the people of the game shown, by seat (see `keepGameNames`). */
    this.gameNames = {};
    this.gameIds = {};
    this.engine = null;
    /** Messages held until the engine is there (null once it is). */
    this.held = [];
    this.code = code;
    this.view = view;
    // The link to pass on is known from the start, before (or without) a connection.
    view.link.textContent = `${location.origin}/r/${code}`;
    this.you = null;
    this.room = null;
    this.game = null;
    this.retry = 0;
    // Where the answer to the last request should be shown if it is refused.
    this.asked = 'table';
    // Nobody is known to sit anywhere until the room says hello (see `showSeats`).
    this.table = new Table(null, view, { you: null, clockMs: null, seats: {} }, {
      roll: () => this.request({ t: 'roll', version: this.game?.version }),
      move: (piece) => this.request({ t: 'move', piece, version: this.game?.version }),
    });
    this.parts(view);
    this.notifyButton();
    this.settingsView = null;
    /** Asks for the engine, once; settled once it is there and every message held for it handled. */
    this.askForEngine = () => {
      this.engineReady ??= askForEngine().then((loaded) => {
        this.engine = loaded;
        this.table.engine = loaded;
        if (this.settingsView) this.settingsView.engine = loaded;
        const held = this.held;
        this.held = null;
        for (const message of held) this.receive(message);
      });
      return this.engineReady;
    };
    const settingsDrawn = view.roomSettings ? this.loadSettingsView(view.roomSettings) : null;
    const welcomed = new Promise((resolve) => { this.welcomed = resolve; });
    /** Settled once the room has first been drawn, its seats and settings in (the page shows it then). */
    this.drawn = Promise.all([welcomed, settingsDrawn?.catch(() => {})]);
    // `room.drawn`: when the room was first drawn, its settings in (the performance tests read it).
    this.drawn.then(() => performance.mark('room.drawn')).then(afterPaint).then(this.askForEngine);
    this.connect();
  }

  /** What a room adds to the table: phrases, playing again, leaving, freeing seats, one's name. */
  parts(view) {
    const { t } = view;
    this.phrases = new Phrases(view.roll.closest('.controls'), view.board.closest('.board-wrap'), {
      t,
      say: (phrase) => this.request({ t: 'say', phrase }, 'phrase'),
      log: (line) => this.table.note(line),
      onSeatBubble: (shown) => {
        this.showSeats();
        // The lobby shows a new bubble on its seat too; one gone has left it already.
        if (shown && this.room) this.drawSeats(this.playing());
      },
    });
    const box = Object.assign(document.createElement('div'), { id: 'rematch', hidden: true });
    // The offer first, then Home (and the ratings' changes, once known).
    view.end.querySelector('.end-buttons').before(box);
    this.rematch = new Rematch(box, { t, ask: (message) => this.request(message, 'rematch'),
      onOffer: () => {
        view.end.classList.remove('tucked');
        sound.play('turn');
      } });
    // Before the first game, the host's start of a game that counts for ratings is an offer the
    // others accept: shown in the lobby, above the seats.
    const first = element('div', { id: 'first-offer', hidden: true });
    view.seats.before(first);
    this.firstOffer = new Rematch(first, { t, ask: (message) => this.request(message, 'offer'), first: true,
      onOffer: () => sound.play('turn') });
    this.leaveGame = new LeaveGame(view.roll.closest('.controls').querySelector('#back'), { t,
      leave: () => this.request({ t: 'leave' }), goHome: () => location.assign('/') });
    this.awaySeats = new AwaySeats(view.players, { t, ask: (message) => this.ask(message) });
    new RoomName(view.connection, { t, saved: savedName(), shown: playerName(), save: (name) => {
      setPlayerName(name);
      this.helloAgain();
    } });
  }

  /** The room's settings, drawn once the presets and their choices are known. */
  async loadSettingsView(section) {
    const rules = await served().catch(() => null);
    if (!rules) return;
    this.settingsView = new RoomSettings(section, {
      rules, engine: this.engine, t: this.view.t,
      ask: (message) => this.ask(message),
      refuse: (text) => this.sayUnderSeats(text),
    });
    this.drawRoom();
  }

  connect() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    this.socket = new WebSocket(`${scheme}://${location.host}/ws?room=${encodeURIComponent(this.code)}`);
    this.view.connection.textContent = this.view.t('online.connecting');
    this.view.connection.classList.remove('ok');
    this.socket.onopen = () => {
      this.retry = 0;
      this.send({ t: 'hello', room: this.code, device: deviceSecret(), name: playerName() });
    };
    this.socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    this.socket.onclose = () => {
      this.table.setOffline(true);
      this.view.connection.classList.remove('ok');
      this.view.connection.textContent = this.view.t('online.reconnecting');
      const wait = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    };
  }

  /** Says hello again on a new connection (under a new name, which the room then shows). */
  helloAgain() {
    const old = this.socket;
    old.onclose = null;
    old.onmessage = null;
    old.close();
    this.connect();
  }

  send(message) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /**
   * A request from the table (a throw or a move), or from another part of the page (`where`:
   * `phrase`, `rematch`, `offer`); its refusal is shown there.
   */
  request(message, where = 'table') {
    this.asked = where;
    this.send(this.numbered(message, where));
  }

  /** A request from the lobby (sit, add a CPU, start…); its refusal is shown by the seats. */
  ask(message) {
    this.asked = 'lobby';
    this.view.lobbyNotice.textContent = '';
    this.send(this.numbered(message, 'lobby'));
  }

  /**
   * `message` with a request id of its own (`req`), which the server's refusal of it echoes, and
   * `where` its refusal is to be shown kept under that id: a refusal finds the control that asked
   * even when another request was made since.
   */
  numbered(message, where) {
    this.nextReq = ((this.nextReq ?? 0) % 0xffff_ffff) + 1;
    this.asking ??= new Map();
    this.asking.set(this.nextReq, where);
    // Only the latest few can still be answered: older ones are forgotten.
    if (this.asking.size > 64) this.asking.delete(this.asking.keys().next().value);
    return { ...message, req: this.nextReq };
  }

  receive(message) {
    if (this.held && (this.held.length || showsAGame(message))) {
      this.held.push(message);
      this.askForEngine();
      return;
    }
    switch (message.t) {
      case 'welcome':
        this.you = message.you;
        rememberMe(message.you);
        this.room = message.room;
        this.game = message.game;
        this.sameGame = this.gameId === this.game?.id;
        this.gameId = this.game?.id;
        this.view.connection.textContent = this.view.t('online.connected');
        this.view.connection.classList.add('ok');
        this.showSeats();
        if (this.game) {
          // Back online with the game as it is now: the table is drawn from it, never from the
          // state it showed before the connection dropped.
          this.table.offline = false;
          this.showGame();
        } else {
          this.table.setOffline(false);
        }
        this.welcomed();
        break;
      case 'room':
        if (this.room && this.room.host !== this.you
          && JSON.stringify(this.room.settings) !== JSON.stringify(message.room.settings)) {
          // Said where the guest looks, under the seats, as well as to a screen reader.
          this.sayUnderSeats(this.view.t('room.changed'));
        }
        this.room = message.room;
        this.showSeats();
        break;
      case 'game':
        // A new game, or the game as it is now after a request on an old state.
        this.game = message.game;
        this.sameGame = this.gameId === this.game.id;
        this.gameId = this.game.id;
        this.showSeats();
        this.showGame();
        break;
      case 'action':
        this.acted(message);
        break;
      case 'rated':
        this.showRatings(message.changes);
        break;
      case 'error':
        // A room that does not exist (a mistyped or very old link) answers the hello so.
        if (!this.room && message.code === 'no_such_room') {
          this.noSuchRoom();
          return;
        }
        this.refused(message);
        break;
      case 'declined': {
        const args = [message.seat, this.occupantName(message.seat), message.seat === this.mySeat()];
        // The first game's offer goes with its news: said under the seats.
        if (!this.game) this.sayUnderSeats(this.firstOffer.declined(...args));
        else this.view.announce(this.rematch.declined(...args));
        break;
      }
      case 'left': {
        const name = this.occupantName(message.seat);
        this.table.note({ text: this.view.t(message.freed ? 'log.freed' : 'log.left', { name }), kind: 'left' });
        break;
      }
      case 'said':
        this.phrases.said(message, this.you);
        break;
      case 'cancelled':
        this.sayUnderSeats(this.view.t('room.cancelled'));
        break;
      case 'bye':
        this.view.connection.textContent = this.view.t('online.reconnecting');
        break;
    }
    this.drawRoom();
  }

  /**
   * The link leads to no room: said in place of the table, with the way home, and no more
   * attempts to connect.
   */
  noSuchRoom() {
    const { t } = this.view;
    this.socket.onclose = null;
    this.socket.close();
    document.body.classList.add('no-room');
    this.view.connection.classList.remove('ok');
    this.view.connection.textContent = `${t('refusal.no_such_room')} ${t('room.noSuchRoomHint')}`;
  }

  /** Shows the game as the server sent it whole; the log is kept when it is the same game. */
  showGame() {
    // A new game's end will have its own rating changes, if any.
    if (!this.sameGame) this.view.rated.replaceChildren();
    // A game starting before one's eyes (after the lobby, or another's end read lower down the
    // page) is shown from the top: the status, the seats and the board.
    if (!this.sameGame && this.game.version === 0) window.scrollTo({ top: 0 });
    this.table.reset(stateOf(this.game), this.sameGame ? this.table.log : []);
    if (!this.sameGame && this.game.version > 0) this.restoreLog(this.game);
  }

  /** The log of a game joined part-way (after a reload, say), from its record. */
  async restoreLog({ id, version }) {
    const record = await fetch(`/api/games/${id}`).then((r) => (r.ok ? r.json() : null)).catch(() => null);
    if (!record || this.gameId !== id) return;
    // A game joined after it was played: its record names the people whose seats are free now.
    this.keepGameNames();
    for (const [seat, player] of Object.entries(record.players ?? {})) {
      if (player.kind !== 'person') continue;
      this.gameNames[seat] ??= player.name;
      this.gameIds[seat] ??= player.id;
    }
    this.showSeats();
    const lines = recordLines(this.engine, this.table.voice, record, version);
    this.table.prependLog(lines);
    // A ranked game that ended before the page opened: what it did to the ratings.
    if (record.ratings?.length && !this.view.rated.childElementCount) this.showRatings(record.ratings, false);
    // Back after being away: if the CPU played the person's latest turn, they are told, as they
    // would have been had they watched it happen.
    const you = this.mySeat();
    const latest = you ? lines.findLast((line) => line.seat === you) : undefined;
    if (latest && this.game?.position.turn.phase !== 'over') this.table.standInNotice(latest);
  }

  /** An accepted action: handed to the table with the move the engine plays for it. */
  acted({ seat, action, game, stand_in: standIn }) {
    const before = this.game;
    this.game = game;
    // A game just over gives the seat its person left back to them, for its result.
    this.showSeats();
    const after = stateOf(game);
    if ('throw' in action) {
      this.table.push({ seat, dice: action.throw, after, standIn });
      return;
    }
    if (!before || before.version + 1 !== game.version) {
      this.table.reset(after);
      return;
    }
    const { move } = this.engine.move(before.position, action.move);
    this.table.push({ seat, move, after, standIn });
  }

  /** A refusal, in the reader's words, where the request was made. */
  refused({ code, engine, req }) {
    const text = errorText({ code, engine }, this.view.t);
    // By the request's id; a refusal without one (a flood, a frame too large) where the last
    // request came from.
    const where = this.asking?.get(req) ?? this.asked;
    this.asking?.delete(req);
    if (where === 'lobby') this.sayUnderSeats(text);
    else if (where === 'phrase') this.phrases.refused(code, text);
    else if (where === 'rematch') this.rematch.refused(text);
    else if (where === 'offer') this.firstOffer.refused(text);
    else this.table.refused(text);
  }

  /** Said under the seats (a refusal, or news of the room), and to a screen reader. */
  sayUnderSeats(text) {
    this.view.lobbyNotice.textContent = text;
    this.view.announce(text);
  }

  /**
   * The rating changes of a ranked game that ended: said as they arrive (`live`), or shown
   * quietly for a game that ended before the page opened (from its record).
   */
  showRatings(changes, live = true) {
    const { t } = this.view;
    // Best first, each with what it gained or lost (a true minus sign), as players read a result.
    const signed = new Intl.NumberFormat(document.documentElement.lang || 'en', { signDisplay: 'exceptZero' });
    const sorted = [...changes].sort((a, b) => (b.after - b.before) - (a.after - a.before));
    const texts = sorted.map((c) => {
      const [before, after] = [Math.round(c.before), Math.round(c.after)];
      const change = signed.format(after - before).replace('-', '\u2212');
      return t('rated.change', { name: c.name, before, after, change });
    });
    // Each player's change stays on one line; the reader's own stands out.
    const spans = texts.map((text, i) => Object.assign(document.createElement('span'), {
      textContent: text, className: sorted[i].id === this.you ? 'mine' : '',
    }));
    this.view.rated.replaceChildren(...spans.flatMap((span, i) => (i ? [' · ', span] : [span])));
    if (live) this.view.announce(texts.join(' · '));
    // The seats' ratings become the new ones, as the players' pages now say them.
    for (const change of changes) this.ratings.delete(`${this.gameId}/${change.id}`);
    this.showSeats();
  }

  /**
   * Tells the table who sits where now (see `seatsState`): called whenever the room, the game
   * shown, a rating or a bubble changes.
   */
  showSeats() {
    // The names of the game's people are kept first, for the seats they may have freed since.
    this.keepGameNames();
    this.table.setSeats(this.seatsState());
  }

  /** Who sits where, as the table takes it (see `SeatsState` in table.js). */
  seatsState() {
    const clock = this.room?.settings.clock;
    // After a game, the seat this device played is still its own for the result, though it
    // has left the table since.
    const you = this.mySeat() ?? (this.playing() ? null : this.yourGameSeat()) ?? null;
    return { you, clockMs: clock ? clock * 1000 : null,
      seats: Object.fromEntries(COLOURS.map((colour) => [colour, this.seatState(colour)])) };
  }

  /** One seat as the table takes it (see `Seat` in table.js). */
  seatState(colour) {
    const seat = this.room?.seats[colour];
    const occupant = seat?.occupant;
    return {
      name: this.occupantName(colour),
      playedHere: colour === this.mySeat(),
      // The log names the people at the table; a CPU's seat goes by its colour.
      logName: !occupant ? this.gameNames[colour] ?? null : occupant.kind === 'person' ? this.occupantName(colour) : null,
      cpu: occupant?.kind === 'cpu' ? occupant.level : null,
      away: seat?.connected === false && !seat.left,
      left: Boolean(seat?.left),
      rating: this.ratingAt(colour),
      bubble: this.phrases.bubbleOf(colour),
    };
  }

  /** Who sits at each seat, in words (see `occupantName`), by colour. */
  seatNames() {
    return Object.fromEntries(COLOURS.map((colour) => [colour, this.occupantName(colour)]));
  }

  /**
   * Who sits at a seat, in words; for a seat freed since (its person left, or was freed while
   * away), the person who played it in the game shown.
   */
  occupantName(seat) {
    const occupant = this.room?.seats[seat]?.occupant;
    if (!occupant) return this.gameNames[seat] ?? '';
    return occupant.kind === 'cpu' ? this.view.t('cpu.named', { level: this.view.t(`level.${occupant.level}`) })
      : occupant.name;
  }

  /** Whether every seat of the table is taken. */
  full() {
    return Object.keys(this.room.seats).length >= COLOURS.length;
  }

  /** The seat this device plays: none for a watcher, nor once the person left the game. */
  mySeat() {
    const seat = this.seatOf(this.you);
    return this.room?.seats[seat]?.left ? undefined : seat;
  }

  /** The seat of the person `id`, even one they left during the game being played. */
  seatOf(id) {
    const entry = Object.entries(this.room?.seats ?? {}).find(
      ([, s]) => s.occupant.kind === 'person' && s.occupant.id === id,
    );
    return entry?.[0];
  }

  /** Whether a game is being played (not over). */
  playing() {
    return Boolean(this.game && this.game.position.turn.phase !== 'over');
  }

  /**
   * Remembers who plays each seat of the game being played, so that a seat freed later (its
   * person left, or was freed while away) still shows their name at the end.
   */
  keepGameNames() {
    if (this.gameNamesFor !== this.gameId) {
      this.gameNames = {};
      this.gameIds = {};
      this.gameNamesFor = this.gameId;
    }
    if (!this.game || !this.room || this.game.position.turn.phase === 'over') return;
    for (const [seat, { occupant }] of Object.entries(this.room.seats)) {
      if (occupant.kind === 'person') [this.gameNames[seat], this.gameIds[seat]] = [occupant.name, occupant.id];
    }
  }

  /**
   * During a ranked game, the rating the person at `seat` brought to it under its rules
   * (`"1532"`, or `"1500?"` while provisional, as the records write it), once fetched from
   * their player page; null otherwise. The first call for a person fetches it, then redraws.
   */
  ratingAt(seat) {
    const occupant = this.room?.seats[seat]?.occupant;
    if (!this.game?.ranked || occupant?.kind !== 'person') return null;
    const key = `${this.gameId}/${occupant.id}`;
    if (!this.ratings.has(key)) {
      this.ratings.set(key, null);
      const family = this.game.position.rules.preset;
      fetch(`/api/players/${encodeURIComponent(occupant.id)}`).then((r) => (r.ok ? r.json() : null)).catch(() => null)
        .then((player) => {
          const found = player?.ratings.find((r) => r.family === family);
          // Someone without a rated game under these rules starts at 1500, provisional.
          this.ratings.set(key, ratingText(found ?? { rating: 1500, provisional: true }));
          this.showSeats();
        });
    }
    return this.ratings.get(key);
  }

  /** The seat this device's person played in the game shown, even if they left the table since. */
  yourGameSeat() {
    return Object.keys(this.gameIds).find((seat) => this.gameIds[seat] === this.you);
  }

  /** The lobby, the invitation and what follows a game; the table draws the game itself. */
  drawRoom() {
    const { t } = this.view;
    if (!this.room) return;
    this.keepGameNames();
    const playing = this.playing();
    const host = this.room.host === this.you;
    // A table matchmaking formed keeps its people and settings: no link to pass on, no seat to
    // take, no settings to change (the server refuses them there).
    const { matched } = this.room;
    document.body.classList.toggle('matched', Boolean(matched));
    document.getElementById('ranked-pill').hidden = !this.game?.ranked;
    // The players see that they are watched while they play (the count is of people without a
    // seat: after a game, those who left the table would count).
    const watchers = document.getElementById('watchers');
    watchers.hidden = !(playing && this.room.watchers > 0);
    watchers.textContent = t('room.watchers', { count: this.room.watchers });
    // The host sends the link to friends; someone invited may pass it on.
    const invite = document.getElementById('invite-words');
    document.body.classList.toggle('guest', !host);
    invite.dataset.t = host ? 'online.invite' : 'online.inviteMore';
    invite.textContent = t(invite.dataset.t);
    document.body.classList.toggle('in-game', Boolean(this.game));
    document.body.classList.toggle('playing', Boolean(playing));
    this.drawSeats(playing);
    this.drawWatching(playing);
    this.drawNotify();
    if (this.view.roomSettings) this.view.roomSettings.hidden = Boolean(playing);
    this.settingsView?.draw(this.room.settings, {
      host: host && !matched,
      open: !playing,
      cpuSeated: Object.values(this.room.seats).some((s) => s.occupant.kind === 'cpu'),
    });
    this.view.board.closest('.table')?.classList.toggle('waiting', !this.game);
    // Before the first game, what to do next is said above the seats: the host starts, a seated
    // guest waits for that, anyone else picks a free seat (a full room says they watch).
    const lobby = document.getElementById('lobby-status');
    // While the host's start is offered, the offer itself says what comes next.
    const offered = !this.game && Boolean(this.room.rematch);
    const next = this.game || offered ? null : matched ? 'room.matchedArriving' : host ? 'room.hostStarts'
      : this.mySeat() ? 'online.waiting' : this.full() ? null : 'online.pickSeat';
    lobby.hidden = !next;
    lobby.textContent = next ? t(next) : '';
    // Someone who opened an invitation is told whose table it is, and what it plays.
    const hostName = this.hostName();
    if (next === 'online.pickSeat' && hostName) {
      lobby.textContent = t('room.invited', { name: hostName, rules: rulesText(this.room.settings.rules, t) });
    }
    if (!this.game) this.view.roll.setAttribute('aria-disabled', 'true');
    const over = this.game?.position.turn.phase === 'over';
    // A finished game's result comes first, the room (seats, the next game's settings) after it,
    // folded away behind one button: the lobby does not come back under the game.
    document.body.classList.toggle('finished', over);
    const showTable = document.getElementById('show-table');
    showTable.hidden = !over;
    if (!over) document.body.classList.remove('show-table');
    showTable.onclick = () => {
      const open = document.body.classList.toggle('show-table');
      showTable.setAttribute('aria-expanded', String(open));
    };
    // A table this device sits at, waiting or playing, can be come back to from the home screen.
    if (!over && this.mySeat()) rememberRoom(this.code, Boolean(this.game));
    else forgetRoom(this.code);
    // Whoever played a matched table's game may look for a new opponent, seated still or not.
    const played = this.mySeat() ?? this.yourGameSeat();
    const names = this.seatNames();
    this.rematch.draw(this.room, this.mySeat(), over, names, matched && played ? this.newOpponentLink() : null);
    this.firstOffer.draw(this.room, this.mySeat(), offered, names);
    this.leaveGame.draw(playing && Boolean(this.mySeat()), this.game?.ranked);
    this.awaySeats.draw(this.room, { host, playing, names });
    this.phrases.setPeople(Object.values(this.room.seats)
      .filter((s) => s.occupant.kind === 'person' && s.occupant.id !== this.you)
      .map((s) => ({ id: s.occupant.id, name: s.occupant.name })));
    this.view.afterGame.hidden = !over;
    this.view.replayLink.hidden = !over;
    if (this.game) this.view.replayLink.href = `/games/${this.game.id}`;
  }

  /**
   * Where a player of a matched table looks for another: the home page, searching at once under
   * the same rules for a table of the same size.
   */
  newOpponentLink() {
    const { preset } = this.room.settings.rules;
    const size = this.game?.position.seats.length ?? 'any';
    return `/?seek=${encodeURIComponent(preset)}&size=${size}`;
  }

  /** The host's name as the room shows it, while the host has a seat. */
  hostName() {
    const seat = Object.keys(this.room.seats)
      .find((s) => this.room.seats[s].occupant.kind === 'person' && this.room.seats[s].occupant.id === this.room.host);
    return seat ? this.occupantName(seat) : null;
  }

  /**
   * Tells a person without a seat that they are watching, and why: they left the game; during a
   * game (the seats belong to the devices that took them, so opening the invitation elsewhere
   * cannot play; at a public table, simply that they watch); or when every seat is taken. Nothing
   * is said while a seat is free to take.
   */
  drawWatching(playing) {
    let notice = document.getElementById('watching');
    if (!notice) {
      notice = document.createElement('p');
      notice.id = 'watching';
      notice.className = 'watching';
      this.view.status.after(notice);
    }
    const watching = !this.mySeat() && (playing || this.full());
    notice.hidden = !watching;
    // Someone watching a game has no die to throw: the button would only be in the way.
    document.body.classList.toggle('watcher', watching && Boolean(playing));
    const left = this.room.seats[this.seatOf(this.you)]?.left;
    const why = left ? 'room.youLeft' : !playing ? 'room.watchingFull'
      : this.room.settings.public ? 'room.watchingPublic' : 'room.watching';
    notice.textContent = watching ? this.view.t(why) : '';
  }

  drawSeats(playing) {
    const { t } = this.view;
    const host = this.room.host === this.you;
    const { ranked } = this.room.settings;
    const { matched } = this.room;
    this.view.seats.hidden = Boolean(playing);
    // A matched table's free seats are nobody's to take: only its people are listed.
    const rows = COLOURS.filter((colour) => !matched || this.room.seats[colour]).map((colour) => {
      const li = document.createElement('li');
      li.dataset.seat = colour;
      const seat = this.room.seats[colour];
      const label = document.createElement('span');
      const mine = seat?.occupant.kind === 'person' && seat.occupant.id === this.you;
      if (seat?.occupant.kind === 'cpu') li.classList.add('cpu');
      const who = seat
        ? seat.occupant.kind === 'cpu'
          ? t('cpu.named', { level: t(`level.${seat.occupant.level}`) })
          : seat.occupant.name + (seat.left ? ` (${t('seat.left')})` : seat.connected ? '' : ` (${t('online.away')})`)
        : t('online.free');
      label.textContent = t('seat.who', { seat: t(`seat.${colour}`), who });
      li.append(label);
      if (mine) {
        const badge = document.createElement('span');
        badge.className = 'badge';
        badge.textContent = t('you');
        li.append(' ', badge);
      }
      if (this.room.rematch?.includes(colour)) {
        const ready = document.createElement('span');
        ready.className = 'ready';
        ready.textContent = `✓ ${t('rematch.ready')}`;
        li.append(' ', ready);
      }
      const bubble = this.phrases.bubbleOf(colour);
      // Before the first game the seats show who said what; once a game shows, its seats strip does.
      if (bubble && !this.game) li.append(bubble);
      const button = (text, message) => {
        const b = document.createElement('button');
        b.textContent = text;
        b.onclick = () => this.ask(message);
        li.append(' ', b);
      };
      // Only what can succeed is offered: no CPU at a ranked table, nothing but seats for guests.
      // A seated person may change seats: the button says it is a move, not a second seat.
      if (!playing && !seat && !matched) button(t(this.mySeat() ? 'online.move' : 'online.sit'), { t: 'sit', colour });
      if (!playing && !seat && host && !ranked) this.addCpuControls(li, colour);
      if (!playing && seat?.occupant.kind === 'cpu' && host) button(t('online.removeCpu'), { t: 'remove_cpu', colour });
      if (!playing && mine) button(t('room.leaveTable'), { t: 'leave' });
      return li;
    });
    // The first game is the host's to start; after it, playing again is an offer (see rematch.js),
    // as is the host's start of a game that counts for ratings, drawn above the seats meanwhile.
    if (host && !this.game && !matched && !this.room.rematch) {
      // The host's one way forward stays in sight below the seats however long they are (a
      // phone shows four free seats' controls and not much more).
      const li = document.createElement('li');
      li.className = 'start-row';
      const b = document.createElement('button');
      b.id = 'start';
      b.textContent = t('online.start');
      // Starting is accepting the settings as drawn now.
      b.onclick = () => this.ask({ t: 'start', settings_version: this.room.settings_version });
      const enough = Object.keys(this.room.seats).length >= 2;
      b.disabled = !enough;
      li.append(b);
      // Beside it, who would play: the seats scrolled under it stay known (a friend who just sat).
      const hint = document.createElement('span');
      hint.className = 'start-who';
      hint.textContent = enough
        ? t('room.wouldPlay', { names: listOf(COLOURS.filter((c) => this.room.seats[c]).map((c) => this.occupantName(c))) })
        : t('online.needTwo');
      li.append(hint);
      rows.push(li);
    }
    this.view.seats.replaceChildren(...rows);
  }

  /**
   * The host's way to seat a CPU at a free seat: a choice of strength (the last one chosen, at
   * first medium) and the button that adds it.
   */
  addCpuControls(li, colour) {
    const { t } = this.view;
    const level = document.createElement('select');
    level.setAttribute('aria-label', `${t('home.level')} (${t(`seat.${colour}`)})`);
    level.className = 'cpu-level';
    // Expert only where it has a network (a preset without house rules) for some number of seats;
    // a start with another number is refused, said in the lobby.
    const expert = [2, 3, 4].some((seats) => expertPlays(this.room.settings.rules, seats));
    const chosen = this.cpuLevel === 'expert' && !expert ? 'hard' : this.cpuLevel ?? 'medium';
    for (const name of ['random', 'easy', 'medium', 'hard', 'expert']) {
      const option = new Option(t(`level.${name}`), name, false, name === chosen);
      if (name === 'expert' && !expert) Object.assign(option, { disabled: true, textContent: t('level.expertOnly') });
      level.append(option);
    }
    level.onchange = () => { this.cpuLevel = level.value; };
    const add = document.createElement('button');
    add.textContent = t('online.addCpu');
    add.onclick = () => this.ask({ t: 'add_cpu', colour, level: level.value });
    li.append(' ', add, ' ', level);
  }

  /**
   * A button that asks to be told by a notification when it is the person's turn: offered while
   * the browser has not been asked yet and the person has a seat (not once they left the game).
   */
  notifyButton() {
    const button = this.view.notify;
    if (!button) return;
    button.onclick = async () => {
      const answer = await Notification.requestPermission().catch(() => 'denied');
      this.drawNotify();
      this.view.announce(this.view.t(answer === 'granted' ? 'notify.on' : 'notify.off'));
    };
    this.drawNotify();
  }

  drawNotify() {
    const button = this.view.notify;
    if (!button) return;
    const ask = globalThis.Notification && Notification.permission === 'default';
    button.hidden = !(ask && this.mySeat());
  }
}
