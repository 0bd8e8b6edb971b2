// Every text shown to a person comes from these tables.

import { RECORD_TEXTS } from './texts-records.js';
import { TABLE_TEXTS } from './texts-table.js';

const TABLES = {
  en: {
    'home.rulesPages': 'The rules of each game',
    'title': 'Ludo',
    'tagline': 'Free, no sign-up. Play against the CPU on this device; the engine runs in your browser.',
    'home.vsCpu': 'Play against the CPU',
    'home.opponents': 'CPU opponents',
    'home.level': 'Strength',
    'home.rules': 'Rules',
    'home.start': 'Start',
    'home.resume': 'Resume the saved game',
    'level.random': 'Random', 'level.easy': 'Easy', 'level.medium': 'Medium', 'level.hard': 'Hard',
    'preset.qdan': 'Qdan (default)', 'preset.classic': 'Classic', 'preset.vietnamese': 'Vietnamese (cờ cá ngựa)',
    'seat.yellow': 'yellow ○', 'seat.blue': 'blue □', 'seat.red': 'red △', 'seat.green': 'green ✚',
    'turn.roll': '{seat} to throw', 'turn.rolloff': '{seat} throws for who starts',
    'turn.move': '{seat} to move', 'turn.over': 'Game over',
    'roll': 'Throw the dice',
    'piece.move': 'Move {colour} piece {piece}: {to}',
    'home': 'Home',
    'home.friends': 'Play with friends',
    'home.name': 'Your name',
    'online.invite': 'Send this link to your friends:',
    'online.copy': 'Copy the link',
    'online.copied': 'Link copied',
    'online.connecting': 'Connecting…', 'online.connected': 'Connected',
    'online.reconnecting': 'Connection lost, reconnecting…',
    'online.waiting': 'Waiting for the host to start',
    'online.free': 'free', 'online.away': 'away', 'online.sit': 'Sit here',
    'online.addCpu': 'Add a CPU', 'online.removeCpu': 'Remove', 'online.start': 'Start the game',
    'online.playAgain': 'Play again',
    'table.option': 'option',
    'language': 'Language',
    'home.hotSeat': 'Play on this device', 'home.people': 'People', 'home.houseRules': 'House rules',
    'default': 'default', 'play.rules': 'Rules of this game', 'yes': 'yes', 'no': 'no',
    'option.board': 'Board', 'option.layout': 'Layout', 'option.dice': 'Dice',
    'option.exit_values': 'Throws that bring a piece out', 'option.exit_on_double': 'A double brings a piece out',
    'option.bonus_values': 'Throws that give another throw', 'option.bonus_on_double': 'A double gives another throw',
    'option.three_bonus_forfeit': 'A third bonus throw in a row ends the turn',
    'option.bonus_on_capture': 'A capture gives another throw', 'option.bonus_on_finish': 'Finishing a piece gives another throw',
    'option.bonus_if_no_move': 'A bonus throw with no move still gives another throw',
    'option.no_piece_out': 'With no piece out', 'option.safe': 'Safe squares', 'option.passing': 'What blocks a piece',
    'option.stacking': 'Own pieces may share a square', 'option.exact_finish': 'The finish needs the exact count',
    'option.rank_everyone': 'Play on until everyone is placed', 'option.first_player': 'Who starts',
    'value.ludo': 'Ludo', 'value.horse': 'Horse board (cờ cá ngựa)', 'value.cross': 'Cross',
    'value.by_players': 'One arm per player', 'value.1': '1', 'value.2': '2',
    'value.roll': 'Throw as usual', 'value.auto_exit': 'A piece comes out by itself', 'value.three_tries': 'Three tries',
    'value.starts_and_stars': 'Starts and stars', 'value.starts': 'Starts only', 'value.none': 'None',
    'value.blockades': 'Blockades', 'value.free': 'Nothing', 'value.opponents': 'Any opponent', 'value.any': 'Any piece',
    'value.seat_order': 'The first seat', 'value.highest_roll': 'The highest throw',
    'board': 'Ludo board',
    'piece.at': '{colour} piece {piece}: {where}', 'place.base': 'in the base', 'place.finished': 'finished',
    'place.square': 'square {n}',
  },
  fr: {
    'home.rulesPages': 'Les règles de chaque jeu',
    'title': 'Ludo',
    'tagline': 'Gratuit, sans inscription. Jouez contre l’ordinateur sur cet appareil ; le moteur tourne dans votre navigateur.',
    'home.vsCpu': 'Jouer contre l’ordinateur', 'home.opponents': 'Adversaires', 'home.level': 'Niveau',
    'home.rules': 'Règles', 'home.start': 'Commencer', 'home.resume': 'Reprendre la partie enregistrée',
    'level.random': 'Au hasard', 'level.easy': 'Facile', 'level.medium': 'Moyen', 'level.hard': 'Difficile',
    'preset.qdan': 'Qdan (par défaut)', 'preset.classic': 'Classique', 'preset.vietnamese': 'Vietnamien (cờ cá ngựa)',
    'seat.yellow': 'jaune ○', 'seat.blue': 'bleu □', 'seat.red': 'rouge △', 'seat.green': 'vert ✚',
    'turn.roll': 'À {seat} de lancer', 'turn.rolloff': '{seat} lance pour savoir qui commence',
    'turn.move': 'À {seat} de jouer', 'turn.over': 'Partie terminée',
    'roll': 'Lancer les dés', 'piece.move': 'Jouer le pion {piece} ({colour}) : {to}',
    'home': 'Accueil', 'home.friends': 'Jouer avec des amis', 'home.name': 'Votre nom',
    'online.invite': 'Envoyez ce lien à vos amis :', 'online.copy': 'Copier le lien', 'online.copied': 'Lien copié',
    'online.connecting': 'Connexion…', 'online.connected': 'Connecté',
    'online.reconnecting': 'Connexion perdue, reconnexion…', 'online.waiting': 'En attente de l’hôte',
    'online.free': 'libre', 'online.away': 'absent', 'online.sit': 'S’asseoir ici',
    'online.addCpu': 'Ajouter l’ordinateur', 'online.removeCpu': 'Retirer', 'online.start': 'Commencer la partie',
    'online.playAgain': 'Rejouer', 'table.option': 'option', 'language': 'Langue',
    'home.hotSeat': 'Jouer sur cet appareil', 'home.people': 'Joueurs', 'home.houseRules': 'Règles maison', 'default': 'par défaut', 'play.rules': 'Règles de cette partie', 'yes': 'oui', 'no': 'non',
    'option.board': 'Plateau', 'option.layout': 'Disposition', 'option.dice': 'Dés', 'option.exit_values': 'Lancers qui font sortir un pion',
    'option.exit_on_double': 'Un double fait sortir un pion', 'option.bonus_values': 'Lancers qui donnent un lancer de plus',
    'option.bonus_on_double': 'Un double donne un lancer de plus', 'option.three_bonus_forfeit': 'Un troisième lancer bonus d’affilée termine le tour',
    'option.bonus_on_capture': 'Une prise donne un lancer de plus', 'option.bonus_on_finish': 'Amener un pion à l’arrivée donne un lancer de plus',
    'option.bonus_if_no_move': 'Un lancer bonus sans coup possible donne quand même un lancer de plus',
    'option.no_piece_out': 'Sans pion sorti', 'option.safe': 'Cases sûres', 'option.passing': 'Ce qui bloque un pion',
    'option.stacking': 'Ses pions peuvent partager une case', 'option.exact_finish': 'L’arrivée exige le compte exact',
    'option.rank_everyone': 'Continuer jusqu’à classer tout le monde', 'option.first_player': 'Qui commence',
    'value.ludo': 'Ludo', 'value.horse': 'Plateau des chevaux (cờ cá ngựa)', 'value.cross': 'Croix',
    'value.by_players': 'Une branche par joueur', 'value.1': '1', 'value.2': '2', 'value.roll': 'Lancer comme d’habitude',
    'value.auto_exit': 'Un pion sort tout seul', 'value.three_tries': 'Trois essais', 'value.starts_and_stars': 'Départs et étoiles',
    'value.starts': 'Départs seulement', 'value.none': 'Aucune', 'value.blockades': 'Les barrages',
    'value.free': 'Rien', 'value.opponents': 'Tout pion adverse', 'value.any': 'Tout pion', 'value.seat_order': 'La première place',
    'value.highest_roll': 'Le plus haut lancer', 'board': 'Plateau de Ludo',
    'piece.at': 'Pion {piece} ({colour}) : {where}', 'place.base': 'à la base', 'place.finished': 'arrivé',
    'place.square': 'case {n}',
  },
  pt: {
    'home.rulesPages': 'As regras de cada jogo',
    'title': 'Ludo',
    'tagline': 'Grátis, sem cadastro. Jogue contra o computador neste aparelho; o motor roda no seu navegador.',
    'home.vsCpu': 'Jogar contra o computador', 'home.opponents': 'Adversários', 'home.level': 'Nível',
    'home.rules': 'Regras', 'home.start': 'Começar', 'home.resume': 'Continuar o jogo salvo',
    'level.random': 'Aleatório', 'level.easy': 'Fácil', 'level.medium': 'Médio', 'level.hard': 'Difícil',
    'preset.qdan': 'Qdan (padrão)', 'preset.classic': 'Clássico', 'preset.vietnamese': 'Vietnamita (cờ cá ngựa)',
    'seat.yellow': 'amarelo ○', 'seat.blue': 'azul □', 'seat.red': 'vermelho △', 'seat.green': 'verde ✚',
    'turn.roll': 'Vez de {seat} lançar', 'turn.rolloff': '{seat} lança para decidir quem começa',
    'turn.move': 'Vez de {seat} mover', 'turn.over': 'Fim de jogo',
    'roll': 'Lançar os dados', 'piece.move': 'Mover a peça {piece} ({colour}): {to}',
    'home': 'Início', 'home.friends': 'Jogar com amigos', 'home.name': 'Seu nome',
    'online.invite': 'Envie este link aos seus amigos:', 'online.copy': 'Copiar o link', 'online.copied': 'Link copiado',
    'online.connecting': 'Conectando…', 'online.connected': 'Conectado',
    'online.reconnecting': 'Conexão perdida, reconectando…', 'online.waiting': 'Esperando o anfitrião começar',
    'online.free': 'livre', 'online.away': 'ausente', 'online.sit': 'Sentar aqui',
    'online.addCpu': 'Adicionar computador', 'online.removeCpu': 'Remover', 'online.start': 'Começar o jogo',
    'online.playAgain': 'Jogar de novo', 'table.option': 'opção', 'language': 'Idioma',
    'home.hotSeat': 'Jogar neste aparelho', 'home.people': 'Pessoas', 'home.houseRules': 'Regras da casa', 'default': 'padrão', 'play.rules': 'Regras deste jogo', 'yes': 'sim', 'no': 'não',
    'option.board': 'Tabuleiro', 'option.layout': 'Formato', 'option.dice': 'Dados', 'option.exit_values': 'Lances que tiram uma peça',
    'option.exit_on_double': 'Um duplo tira uma peça', 'option.bonus_values': 'Lances que dão outro lance',
    'option.bonus_on_double': 'Um duplo dá outro lance', 'option.three_bonus_forfeit': 'Um terceiro lance bônus seguido encerra a vez',
    'option.bonus_on_capture': 'Uma captura dá outro lance', 'option.bonus_on_finish': 'Levar uma peça ao fim dá outro lance',
    'option.bonus_if_no_move': 'Um lance bônus sem jogada ainda dá outro lance', 'option.no_piece_out': 'Sem peça em jogo',
    'option.safe': 'Casas seguras', 'option.passing': 'O que bloqueia uma peça', 'option.stacking': 'Peças da mesma cor podem dividir uma casa',
    'option.exact_finish': 'O fim exige a contagem exata', 'option.rank_everyone': 'Continuar até todos terem colocação',
    'option.first_player': 'Quem começa', 'value.ludo': 'Ludo', 'value.horse': 'Tabuleiro de cavalos (cờ cá ngựa)',
    'value.cross': 'Cruz', 'value.by_players': 'Um braço por jogador', 'value.1': '1', 'value.2': '2',
    'value.roll': 'Lançar normalmente', 'value.auto_exit': 'Uma peça sai sozinha', 'value.three_tries': 'Três tentativas',
    'value.starts_and_stars': 'Saídas e estrelas', 'value.starts': 'Só as saídas', 'value.none': 'Nenhuma',
    'value.blockades': 'Bloqueios', 'value.free': 'Nada', 'value.opponents': 'Qualquer adversária',
    'value.any': 'Qualquer peça', 'value.seat_order': 'O primeiro lugar', 'value.highest_roll': 'O maior lance',
    'board': 'Tabuleiro de Ludo',
    'piece.at': 'Peça {piece} ({colour}): {where}', 'place.base': 'na base', 'place.finished': 'chegou ao fim',
    'place.square': 'casa {n}',
  },
  ru: {
    'home.rulesPages': 'Правила каждой игры',
    'title': 'Лудо',
    'tagline': 'Бесплатно и без регистрации. Играйте с компьютером на этом устройстве: движок работает в браузере.',
    'home.vsCpu': 'Играть с компьютером', 'home.opponents': 'Соперники', 'home.level': 'Сила',
    'home.rules': 'Правила', 'home.start': 'Начать', 'home.resume': 'Продолжить сохранённую игру',
    'level.random': 'Случайный', 'level.easy': 'Лёгкий', 'level.medium': 'Средний', 'level.hard': 'Сильный',
    'preset.qdan': 'Qdan (по умолчанию)', 'preset.classic': 'Классические', 'preset.vietnamese': 'Вьетнамские (cờ cá ngựa)',
    'seat.yellow': 'жёлтые ○', 'seat.blue': 'синие □', 'seat.red': 'красные △', 'seat.green': 'зелёные ✚',
    'turn.roll': 'Бросают {seat}', 'turn.rolloff': '{seat} бросают, чтобы решить, кто начинает',
    'turn.move': 'Ходят {seat}', 'turn.over': 'Игра окончена',
    'roll': 'Бросить кубик', 'piece.move': 'Ходить фишкой {piece} ({colour}): {to}',
    'home': 'На главную', 'home.friends': 'Играть с друзьями', 'home.name': 'Ваше имя',
    'online.invite': 'Отправьте эту ссылку друзьям:', 'online.copy': 'Копировать ссылку', 'online.copied': 'Ссылка скопирована',
    'online.connecting': 'Подключение…', 'online.connected': 'Подключено',
    'online.reconnecting': 'Связь потеряна, переподключение…', 'online.waiting': 'Ждём, пока хозяин начнёт',
    'online.free': 'свободно', 'online.away': 'нет на месте', 'online.sit': 'Сесть сюда',
    'online.addCpu': 'Добавить компьютер', 'online.removeCpu': 'Убрать', 'online.start': 'Начать игру',
    'online.playAgain': 'Сыграть ещё', 'table.option': 'параметр', 'language': 'Язык',
    'home.hotSeat': 'Играть на одном устройстве', 'home.people': 'Игроки', 'home.houseRules': 'Домашние правила', 'default': 'по умолчанию', 'play.rules': 'Правила этой игры', 'yes': 'да', 'no': 'нет',
    'option.board': 'Поле', 'option.layout': 'Форма поля', 'option.dice': 'Кубики', 'option.exit_values': 'Броски, выводящие фишку',
    'option.exit_on_double': 'Дубль выводит фишку', 'option.bonus_values': 'Броски, дающие ещё бросок',
    'option.bonus_on_double': 'Дубль даёт ещё бросок', 'option.three_bonus_forfeit': 'Третий бонусный бросок подряд завершает ход',
    'option.bonus_on_capture': 'Взятие даёт ещё бросок', 'option.bonus_on_finish': 'Фишка на финише даёт ещё бросок',
    'option.bonus_if_no_move': 'Бонусный бросок без хода всё равно даёт ещё бросок', 'option.no_piece_out': 'Когда нет фишек в игре',
    'option.safe': 'Безопасные клетки', 'option.passing': 'Что преграждает путь', 'option.stacking': 'Свои фишки могут стоять вместе',
    'option.exact_finish': 'Для финиша нужно точное число', 'option.rank_everyone': 'Играть, пока все не займут места',
    'option.first_player': 'Кто начинает', 'value.ludo': 'Лудо', 'value.horse': 'Поле cờ cá ngựa',
    'value.cross': 'Крест', 'value.by_players': 'По лучу на игрока', 'value.1': '1', 'value.2': '2',
    'value.roll': 'Бросать как обычно', 'value.auto_exit': 'Фишка выходит сама', 'value.three_tries': 'Три попытки',
    'value.starts_and_stars': 'Старты и звёзды', 'value.starts': 'Только старты', 'value.none': 'Нет',
    'value.blockades': 'Блоки', 'value.free': 'Ничто', 'value.opponents': 'Любая чужая фишка', 'value.any': 'Любая фишка',
    'value.seat_order': 'Первый за столом', 'value.highest_roll': 'Наибольший бросок', 'board': 'Поле лудо',
    'piece.at': 'Фишка {piece} ({colour}): {where}', 'place.base': 'на базе', 'place.finished': 'на финише',
    'place.square': 'клетка {n}',
  },
  vi: {
    'home.rulesPages': 'Luật của từng kiểu chơi',
    'title': 'Cờ cá ngựa · Ludo',
    'tagline': 'Miễn phí, không cần đăng ký. Chơi với máy trên thiết bị này; bộ luật chạy ngay trong trình duyệt.',
    'home.vsCpu': 'Chơi với máy', 'home.opponents': 'Số đối thủ', 'home.level': 'Độ khó',
    'home.rules': 'Luật chơi', 'home.start': 'Bắt đầu', 'home.resume': 'Chơi tiếp ván đã lưu',
    'level.random': 'Ngẫu nhiên', 'level.easy': 'Dễ', 'level.medium': 'Vừa', 'level.hard': 'Khó',
    'preset.qdan': 'Qdan (mặc định)', 'preset.classic': 'Cổ điển', 'preset.vietnamese': 'Cờ cá ngựa Việt Nam',
    'seat.yellow': 'vàng ○', 'seat.blue': 'xanh dương □', 'seat.red': 'đỏ △', 'seat.green': 'xanh lá ✚',
    'turn.roll': 'Đến lượt {seat} gieo', 'turn.rolloff': '{seat} gieo để chọn người đi trước',
    'turn.move': 'Đến lượt {seat} đi', 'turn.over': 'Ván đấu kết thúc',
    'roll': 'Gieo xúc xắc', 'piece.move': 'Đi quân {piece} ({colour}): {to}',
    'home': 'Trang chủ', 'home.friends': 'Chơi với bạn bè', 'home.name': 'Tên của bạn',
    'online.invite': 'Gửi đường link này cho bạn bè:', 'online.copy': 'Sao chép link', 'online.copied': 'Đã sao chép',
    'online.connecting': 'Đang kết nối…', 'online.connected': 'Đã kết nối',
    'online.reconnecting': 'Mất kết nối, đang kết nối lại…', 'online.waiting': 'Chờ chủ phòng bắt đầu',
    'online.free': 'trống', 'online.away': 'vắng mặt', 'online.sit': 'Ngồi đây',
    'online.addCpu': 'Thêm máy', 'online.removeCpu': 'Bỏ', 'online.start': 'Bắt đầu ván',
    'online.playAgain': 'Chơi lại', 'table.option': 'tùy chọn', 'language': 'Ngôn ngữ',
    'home.hotSeat': 'Chơi chung trên thiết bị này', 'home.people': 'Số người', 'home.houseRules': 'Luật riêng', 'default': 'mặc định', 'play.rules': 'Luật của ván này', 'yes': 'có', 'no': 'không',
    'option.board': 'Bàn cờ', 'option.layout': 'Kiểu bàn', 'option.dice': 'Số xúc xắc', 'option.exit_values': 'Số gieo được ra quân',
    'option.exit_on_double': 'Gieo đôi được ra quân', 'option.bonus_values': 'Số gieo được gieo thêm',
    'option.bonus_on_double': 'Gieo đôi được gieo thêm', 'option.three_bonus_forfeit': 'Gieo thưởng lần thứ ba liên tiếp thì mất lượt',
    'option.bonus_on_capture': 'Đá quân được gieo thêm', 'option.bonus_on_finish': 'Đưa quân về đích được gieo thêm',
    'option.bonus_if_no_move': 'Lần gieo thưởng không đi được vẫn được gieo thêm', 'option.no_piece_out': 'Khi không có quân nào ngoài bàn',
    'option.safe': 'Ô an toàn', 'option.passing': 'Quân nào chặn đường', 'option.stacking': 'Quân cùng màu được đứng chung ô',
    'option.exact_finish': 'Về đích phải đúng số', 'option.rank_everyone': 'Chơi tiếp đến khi xếp hạng hết',
    'option.first_player': 'Ai đi trước', 'value.ludo': 'Ludo', 'value.horse': 'Bàn cờ cá ngựa',
    'value.cross': 'Chữ thập', 'value.by_players': 'Mỗi người một nhánh', 'value.1': '1', 'value.2': '2',
    'value.roll': 'Gieo như thường', 'value.auto_exit': 'Tự động ra quân', 'value.three_tries': 'Gieo ba lần',
    'value.starts_and_stars': 'Ô xuất phát và ô sao', 'value.starts': 'Chỉ ô xuất phát', 'value.none': 'Không có',
    'value.blockades': 'Hàng rào', 'value.free': 'Không gì', 'value.opponents': 'Mọi quân đối thủ',
    'value.any': 'Mọi quân', 'value.seat_order': 'Người ngồi đầu', 'value.highest_roll': 'Người gieo cao nhất',
    'board': 'Bàn cờ',
    'piece.at': 'Quân {piece} ({colour}): {where}', 'place.base': 'trong chuồng', 'place.finished': 'đã về đích',
    'place.square': 'ô {n}',
  },
};

for (const extra of [RECORD_TEXTS, TABLE_TEXTS]) {
  for (const [language, texts] of Object.entries(extra)) Object.assign(TABLES[language], texts);
}

/** The languages offered, by code, each named in itself. */
export const LANGUAGES = { en: 'English', fr: 'Français', pt: 'Português', ru: 'Русский', vi: 'Tiếng Việt' };

let table = TABLES.en;

const LANGUAGE_KEY = 'ludo.language';

/** The language chosen here before, else the browser's first that we have, else English. */
export function chooseLanguage(languages = navigator.languages ?? []) {
  const chosen = localStorage.getItem(LANGUAGE_KEY);
  const found = chosen in TABLES ? chosen
    : languages.map((l) => l.slice(0, 2)).find((l) => l in TABLES) ?? 'en';
  table = TABLES[found];
  return found;
}

/** Remembers the language a person picked in the switcher. */
export function pickLanguage(code) {
  if (code in TABLES) localStorage.setItem(LANGUAGE_KEY, code);
}

/** Adds texts (by language, then key) that a part of the page loads only when it needs them. */
export function addTexts(tables) {
  for (const [code, texts] of Object.entries(tables)) Object.assign(TABLES[code] ?? {}, texts);
}

const missing = new Set();

/** The keys asked for so far that the page's language lacks (they were shown in English). */
export function missingKeys() {
  return [...missing];
}

/** The text for `key`, with `{name}` placeholders filled from `values`. */
export function t(key, values = {}) {
  if (!(key in table)) missing.add(key);
  const text = table[key] ?? TABLES.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
}
