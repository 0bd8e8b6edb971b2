// Every text shown to a person comes from these tables.
//
// Texts that speak of the pieces may say it in the board's own words. Vietnamese players call the
// pieces of cờ cá ngựa horses ("ngựa", kept in stables, "chuồng") and those of Ludo "quân"; so a
// table may hold, beside `key`, a variant `key@horse` that `t(key)` gives instead while the board
// shown is the horse board. Whatever shows a game, or the rules of one, for a given board says so
// first with `setBoard(board)` (the engine's board kind: `ludo` or `horse`): the table whenever it
// draws or describes a position (`Table.numbers`), the replay viewer for its record, the home
// screen for the preset chosen (its side-by-side table of presets in the Ludo board's words) and a
// rules page for its preset. A language without the variant keeps its one text for both boards
// (only Vietnamese has horse words today); a variant for another board would be `key@<board>` in
// the same way. Texts loaded later (`addTexts`) may carry variants too.

import { ERROR_TEXTS } from './texts-errors.js';
import { HOME_TEXTS } from './texts-home.js';
import { RECORD_TEXTS } from './texts-records.js';
import { ROOM_TEXTS } from './texts-room.js';
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
    'level.random': 'Random', 'level.easy': 'Easy', 'level.medium': 'Medium', 'level.hard': 'Hard',
    'preset.qdan': 'Qdan (default)', 'preset.classic': 'Classic', 'preset.vietnamese': 'Vietnamese (cờ cá ngựa)',
    'seat.yellow': 'yellow ○', 'seat.blue': 'blue □', 'seat.red': 'red △', 'seat.green': 'green ✚',
    'turn.roll': '{seat} to throw', 'turn.rolloff': '{seat} throws for who starts',
    'turn.move': '{seat} to move', 'turn.over': 'Game over',
    'roll': 'Throw the die', 'roll.two': 'Throw the dice',
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
    'online.free': 'free', 'online.away': 'away', 'online.sit': 'Sit here', 'online.move': 'Move here',
    'online.addCpu': 'Add a CPU', 'online.removeCpu': 'Remove', 'online.start': 'Start the game',
    'online.playAgain': 'Play again',
    'table.option': 'option',
    'language': 'Language',
    'home.hotSeat': 'Play on this device', 'home.people': 'People', 'home.houseRules': 'House rules',
    'default': 'default', 'play.rules': 'Rules of this game', 'play.rulesPage': 'All the rules of this game (new tab)', 'yes': 'yes', 'no': 'no',
    'option.board': 'Board', 'option.layout': 'Layout', 'option.dice': 'Dice',
    'option.exit_values': 'Throws that bring a piece out', 'option.exit_on_double': 'A double brings a piece out',
    'option.bonus_values': 'Throws that give another throw', 'option.bonus_on_double': 'A double gives another throw',
    'option.three_bonus_forfeit': 'A third bonus throw in a row ends the turn',
    'option.bonus_on_capture': 'A capture gives another throw', 'option.bonus_on_finish': 'Finishing a piece gives another throw',
    'option.bonus_if_no_move': 'A bonus throw with no move still gives another throw',
    'option.no_piece_out': 'With no piece on the track', 'option.safe': 'Safe squares', 'option.passing': 'What blocks a piece',
    'option.stacking': 'Own pieces may share a square', 'option.exact_finish': 'The finish needs the exact count',
    'option.rank_everyone': 'Play on until everyone is placed', 'option.first_player': 'Who starts',
    'value.ludo': 'Ludo', 'value.horse': 'Horse board (cờ cá ngựa)', 'value.cross': 'Cross',
    'value.by_players': 'One arm per player', 'value.1': '1', 'value.2': '2',
    'value.roll': 'Throw as usual', 'value.auto_exit': 'A piece comes out by itself', 'value.three_tries': 'Three tries',
    'value.starts_and_stars': 'Starts and stars', 'value.starts': 'Starts only', 'value.none': 'None',
    'value.blockades': 'Blockades', 'value.free': 'Nothing', 'value.opponents': 'Any opponent', 'value.any': 'Any piece',
    'value.seat_order': 'The first seat', 'value.highest_roll': 'The highest throw',
    'board': 'Ludo board', 'board@horse': 'Horse board (cờ cá ngựa)',
    'piece.at': '{colour} piece {piece}: {where}', 'place.base': 'in the base', 'place.finished': 'finished',
    'place.square': 'square {n}',
  },
  fr: {
    'home.rulesPages': 'Les règles de chaque jeu',
    'title': 'Ludo',
    'tagline': 'Gratuit, sans inscription. Jouez contre le CPU sur cet appareil ; le moteur tourne dans votre navigateur.',
    'home.vsCpu': 'Jouer contre le CPU', 'home.opponents': 'Adversaires CPU', 'home.level': 'Niveau',
    'home.rules': 'Règles', 'home.start': 'Commencer',
    'level.random': 'Au hasard', 'level.easy': 'Facile', 'level.medium': 'Moyen', 'level.hard': 'Difficile',
    'preset.qdan': 'Qdan (par défaut)', 'preset.classic': 'Classique', 'preset.vietnamese': 'Vietnamien (cờ cá ngựa)',
    'seat.yellow': 'jaune ○', 'seat.blue': 'bleu □', 'seat.red': 'rouge △', 'seat.green': 'vert ✚',
    'turn.roll': 'À {seat} de lancer', 'turn.rolloff': '{seat} lance pour savoir qui commence',
    'turn.move': 'À {seat} de jouer', 'turn.over': 'Partie terminée',
    'roll': 'Lancer le dé', 'roll.two': 'Lancer les dés', 'piece.move': 'Jouer la pièce {piece} ({colour}) : {to}',
    'home': 'Accueil', 'home.friends': 'Jouer avec des amis', 'home.name': 'Votre nom',
    'online.invite': 'Envoyez ce lien à vos amis :', 'online.copy': 'Copier le lien', 'online.copied': 'Lien copié',
    'online.connecting': 'Connexion…', 'online.connected': 'Connecté',
    'online.reconnecting': 'Connexion perdue, reconnexion…', 'online.waiting': 'En attente de l’hôte',
    'online.free': 'libre', 'online.away': 'absent', 'online.sit': 'S’asseoir ici', 'online.move': 'Prendre cette place',
    'online.addCpu': 'Ajouter un CPU', 'online.removeCpu': 'Retirer', 'online.start': 'Commencer la partie',
    'online.playAgain': 'Rejouer', 'table.option': 'option', 'language': 'Langue',
    'home.hotSeat': 'Jouer sur cet appareil', 'home.people': 'Joueurs', 'home.houseRules': 'Règles locales', 'default': 'par défaut', 'play.rules': 'Règles de cette partie', 'play.rulesPage': 'Toutes les règles de ce jeu (nouvel onglet)', 'yes': 'oui', 'no': 'non',
    'option.board': 'Plateau', 'option.layout': 'Disposition', 'option.dice': 'Dés', 'option.exit_values': 'Lancers qui font sortir une pièce',
    'option.exit_on_double': 'Un double fait sortir une pièce', 'option.bonus_values': 'Lancers qui donnent un nouveau lancer',
    'option.bonus_on_double': 'Un double donne un nouveau lancer', 'option.three_bonus_forfeit': 'Un troisième nouveau lancer d’affilée termine le tour',
    'option.bonus_on_capture': 'Capturer une pièce donne un nouveau lancer', 'option.bonus_on_finish': 'Amener une pièce à l’arrivée donne un nouveau lancer',
    'option.bonus_if_no_move': 'Un lancer qui donne un nouveau lancer le donne même sans coup possible',
    'option.no_piece_out': 'Sans pièce sur le parcours', 'option.safe': 'Cases sûres', 'option.passing': 'Ce qui bloque une pièce',
    'option.stacking': 'Ses pièces peuvent partager une case', 'option.exact_finish': 'L’arrivée exige le résultat exact',
    'option.rank_everyone': 'Continuer jusqu’à classer tout le monde', 'option.first_player': 'Qui commence',
    'value.ludo': 'Ludo', 'value.horse': 'Plateau des chevaux (cờ cá ngựa)', 'value.cross': 'Croix',
    'value.by_players': 'Une branche par joueur', 'value.1': '1', 'value.2': '2', 'value.roll': 'Lancer comme d’habitude',
    'value.auto_exit': 'Une pièce sort toute seule', 'value.three_tries': 'Trois essais', 'value.starts_and_stars': 'Départs et étoiles',
    'value.starts': 'Départs seulement', 'value.none': 'Aucune', 'value.blockades': 'Les barrages',
    'value.free': 'Rien', 'value.opponents': 'Toute pièce adverse', 'value.any': 'Toute pièce', 'value.seat_order': 'La première place',
    'value.highest_roll': 'Le plus haut lancer', 'board': 'Plateau de Ludo', 'board@horse': 'Plateau des chevaux (cờ cá ngựa)',
    'piece.at': 'Pièce {piece} ({colour}) : {where}', 'place.base': 'à la base', 'place.finished': 'arrivée',
    'place.square': 'case {n}',
  },
  pt: {
    'home.rulesPages': 'As regras de cada jogo',
    'title': 'Ludo',
    'tagline': 'Grátis, sem registo. Joga contra a CPU neste dispositivo; o motor do jogo corre no teu navegador.',
    'home.vsCpu': 'Jogar contra a CPU', 'home.opponents': 'Adversários (CPU)', 'home.level': 'Nível',
    'home.rules': 'Regras', 'home.start': 'Começar',
    'level.random': 'Aleatório', 'level.easy': 'Fácil', 'level.medium': 'Médio', 'level.hard': 'Difícil',
    'preset.qdan': 'Qdan (por omissão)', 'preset.classic': 'Clássico', 'preset.vietnamese': 'Vietnamita (cờ cá ngựa)',
    'seat.yellow': 'amarelo ○', 'seat.blue': 'azul □', 'seat.red': 'vermelho △', 'seat.green': 'verde ✚',
    'turn.roll': '{seat}: vez de lançar', 'turn.rolloff': '{seat} lança para ver quem começa',
    'turn.move': '{seat}: vez de jogar', 'turn.over': 'Fim da partida',
    'roll': 'Lançar o dado', 'roll.two': 'Lançar os dados', 'piece.move': 'Mover a peça {piece} ({colour}): {to}',
    'home': 'Início', 'home.friends': 'Jogar com amigos', 'home.name': 'O teu nome',
    'online.invite': 'Envia esta ligação aos teus amigos:', 'online.copy': 'Copiar a ligação', 'online.copied': 'Ligação copiada',
    'online.connecting': 'A ligar…', 'online.connected': 'Ligado',
    'online.reconnecting': 'Ligação perdida, a voltar a ligar…', 'online.waiting': 'A aguardar que o anfitrião comece',
    'online.free': 'livre', 'online.away': 'ausente', 'online.sit': 'Sentar aqui', 'online.move': 'Mudar para cá',
    'online.addCpu': 'Adicionar a CPU', 'online.removeCpu': 'Retirar', 'online.start': 'Começar a partida',
    'online.playAgain': 'Jogar novamente', 'table.option': 'opção', 'language': 'Idioma',
    'home.hotSeat': 'Jogar neste dispositivo', 'home.people': 'Jogadores', 'home.houseRules': 'Regras locais', 'default': 'por omissão', 'play.rules': 'Regras desta partida', 'play.rulesPage': 'Todas as regras deste jogo (novo separador)', 'yes': 'sim', 'no': 'não',
    'option.board': 'Tabuleiro', 'option.layout': 'Disposição', 'option.dice': 'Dados', 'option.exit_values': 'Lançamentos que tiram uma peça da base',
    'option.exit_on_double': 'Um duplo tira uma peça da base', 'option.bonus_values': 'Lançamentos que dão outro lançamento',
    'option.bonus_on_double': 'Um duplo dá outro lançamento', 'option.three_bonus_forfeit': 'Um terceiro lançamento extra seguido acaba a vez',
    'option.bonus_on_capture': 'Capturar dá outro lançamento', 'option.bonus_on_finish': 'Levar uma peça à chegada dá outro lançamento',
    'option.bonus_if_no_move': 'Um lançamento extra sem jogada possível dá mesmo assim outro lançamento', 'option.no_piece_out': 'Sem nenhuma peça no percurso',
    'option.safe': 'Casas seguras', 'option.passing': 'O que bloqueia uma peça', 'option.stacking': 'As peças da mesma cor podem partilhar uma casa',
    'option.exact_finish': 'A chegada exige o valor exato', 'option.rank_everyone': 'Continuar até todos estarem classificados',
    'option.first_player': 'Quem começa', 'value.ludo': 'Ludo', 'value.horse': 'Tabuleiro dos cavalos (cờ cá ngựa)',
    'value.cross': 'Cruz', 'value.by_players': 'Um braço por jogador', 'value.1': '1', 'value.2': '2',
    'value.roll': 'Lançar como sempre', 'value.auto_exit': 'Uma peça sai sozinha', 'value.three_tries': 'Três tentativas',
    'value.starts_and_stars': 'Saídas e estrelas', 'value.starts': 'Só as saídas', 'value.none': 'Nenhuma',
    'value.blockades': 'Bloqueios', 'value.free': 'Nada', 'value.opponents': 'Qualquer peça adversária',
    'value.any': 'Qualquer peça', 'value.seat_order': 'O primeiro lugar', 'value.highest_roll': 'O lançamento mais alto',
    'board': 'Tabuleiro de Ludo', 'board@horse': 'Tabuleiro dos cavalos (cờ cá ngựa)',
    'piece.at': 'Peça {piece} ({colour}): {where}', 'place.base': 'na base', 'place.finished': 'na chegada',
    'place.square': 'casa {n}',
  },
  ru: {
    'home.rulesPages': 'Правила каждой игры',
    'title': 'Лудо',
    'tagline': 'Бесплатно и без регистрации. Играйте с CPU на этом устройстве: движок работает в браузере.',
    'home.vsCpu': 'Играть с CPU', 'home.opponents': 'Соперники (CPU)', 'home.level': 'Сила',
    'home.rules': 'Правила', 'home.start': 'Начать',
    'level.random': 'Случайный', 'level.easy': 'Лёгкий', 'level.medium': 'Средний', 'level.hard': 'Сильный',
    'preset.qdan': 'Qdan (по умолчанию)', 'preset.classic': 'Классические', 'preset.vietnamese': 'Вьетнамские (cờ cá ngựa)',
    'seat.yellow': 'жёлтые ○', 'seat.blue': 'синие □', 'seat.red': 'красные △', 'seat.green': 'зелёные ✚',
    'turn.roll': 'Бросают {seat}', 'turn.rolloff': '{seat} бросают, чтобы решить, кто начинает',
    'turn.move': 'Ходят {seat}', 'turn.over': 'Игра окончена',
    'roll': 'Бросить кубик', 'roll.two': 'Бросить кубики', 'piece.move': 'Ходить фишкой {piece} ({colour}): {to}',
    'home': 'На главную', 'home.friends': 'Играть с друзьями', 'home.name': 'Ваше имя',
    'online.invite': 'Отправьте эту ссылку друзьям:', 'online.copy': 'Копировать ссылку', 'online.copied': 'Ссылка скопирована',
    'online.connecting': 'Подключение…', 'online.connected': 'Подключено',
    'online.reconnecting': 'Связь потеряна, переподключение…', 'online.waiting': 'Ждём, пока хозяин начнёт',
    'online.free': 'свободно', 'online.away': 'нет на месте', 'online.sit': 'Сесть сюда', 'online.move': 'Пересесть сюда',
    'online.addCpu': 'Добавить CPU', 'online.removeCpu': 'Убрать', 'online.start': 'Начать игру',
    'online.playAgain': 'Ещё партия', 'table.option': 'параметр', 'language': 'Язык',
    'home.hotSeat': 'Играть на одном устройстве', 'home.people': 'Игроки', 'home.houseRules': 'Местные правила', 'default': 'по умолчанию', 'play.rules': 'Правила этой игры', 'play.rulesPage': 'Все правила этой игры (в новой вкладке)', 'yes': 'да', 'no': 'нет',
    'option.board': 'Доска', 'option.layout': 'Форма доски', 'option.dice': 'Кубики', 'option.exit_values': 'Броски, выводящие фишку',
    'option.exit_on_double': 'Дубль выводит фишку', 'option.bonus_values': 'Броски, дающие ещё бросок',
    'option.bonus_on_double': 'Дубль даёт ещё бросок', 'option.three_bonus_forfeit': 'Ещё бросок третий раз подряд завершает ход',
    'option.bonus_on_capture': 'За сбитую фишку — ещё бросок', 'option.bonus_on_finish': 'За фишку на финише — ещё бросок',
    'option.bonus_if_no_move': 'Бросок, дающий ещё бросок, даёт его и без хода', 'option.no_piece_out': 'Когда на дорожке нет ни одной фишки',
    'option.safe': 'Безопасные клетки', 'option.passing': 'Что преграждает путь фишке', 'option.stacking': 'Свои фишки могут стоять на одной клетке',
    'option.exact_finish': 'Для финиша нужно точное число', 'option.rank_everyone': 'Играть, пока все не займут места',
    'option.first_player': 'Кто начинает', 'value.ludo': 'Лудо', 'value.horse': 'Доска cờ cá ngựa',
    'value.cross': 'Крест', 'value.by_players': 'По лучу на игрока', 'value.1': '1', 'value.2': '2',
    'value.roll': 'Бросать как обычно', 'value.auto_exit': 'Фишка выходит сама', 'value.three_tries': 'Три попытки',
    'value.starts_and_stars': 'Старты и звёзды', 'value.starts': 'Только старты', 'value.none': 'Нет',
    'value.blockades': 'Блокады', 'value.free': 'Ничто', 'value.opponents': 'Любая чужая фишка', 'value.any': 'Любая фишка',
    'value.seat_order': 'Первый за столом', 'value.highest_roll': 'Наибольший бросок', 'board': 'Доска лудо',
    'board@horse': 'Доска cờ cá ngựa',
    'piece.at': 'Фишка {piece} ({colour}): {where}', 'place.base': 'на базе', 'place.finished': 'на финише',
    'place.square': 'клетка {n}',
  },
  vi: {
    'home.rulesPages': 'Luật của từng kiểu chơi',
    'title': 'Cờ cá ngựa · Ludo',
    'tagline': 'Miễn phí, không cần đăng ký. Chơi với máy trên thiết bị này; bộ luật chạy ngay trong trình duyệt.',
    'home.vsCpu': 'Chơi với máy', 'home.opponents': 'Số đối thủ', 'home.level': 'Độ khó',
    'home.rules': 'Luật chơi', 'home.start': 'Bắt đầu',
    'level.random': 'Ngẫu nhiên', 'level.easy': 'Dễ', 'level.medium': 'Vừa', 'level.hard': 'Khó',
    'preset.qdan': 'Qdan (mặc định)', 'preset.classic': 'Cổ điển', 'preset.vietnamese': 'Cờ cá ngựa Việt Nam',
    'seat.yellow': 'vàng ○', 'seat.blue': 'xanh dương □', 'seat.red': 'đỏ △', 'seat.green': 'xanh lá ✚',
    'turn.roll': 'Đến lượt {seat} gieo', 'turn.rolloff': '{seat} gieo để chọn người đi trước',
    'turn.move': 'Đến lượt {seat} đi', 'turn.over': 'Ván đấu kết thúc',
    'roll': 'Gieo xúc xắc', 'roll.two': 'Gieo xúc xắc', 'piece.move': 'Đi quân {piece} ({colour}): {to}',
    'piece.move@horse': 'Đi ngựa {piece} ({colour}): {to}',
    'home': 'Trang chủ', 'home.friends': 'Chơi với bạn bè', 'home.name': 'Tên của bạn',
    'online.invite': 'Gửi đường link này cho bạn bè:', 'online.copy': 'Sao chép link', 'online.copied': 'Đã sao chép',
    'online.connecting': 'Đang kết nối…', 'online.connected': 'Đã kết nối',
    'online.reconnecting': 'Mất kết nối, đang kết nối lại…', 'online.waiting': 'Chờ chủ phòng bắt đầu',
    'online.free': 'trống', 'online.away': 'vắng mặt', 'online.sit': 'Ngồi đây', 'online.move': 'Chuyển sang đây',
    'online.addCpu': 'Thêm máy', 'online.removeCpu': 'Bỏ', 'online.start': 'Bắt đầu ván',
    'online.playAgain': 'Chơi lại', 'table.option': 'tùy chọn', 'language': 'Ngôn ngữ',
    'home.hotSeat': 'Chơi chung trên thiết bị này', 'home.people': 'Số người', 'home.houseRules': 'Luật riêng', 'default': 'mặc định', 'play.rules': 'Luật của ván này', 'play.rulesPage': 'Toàn bộ luật của kiểu chơi này (thẻ mới)', 'yes': 'có', 'no': 'không',
    'option.board': 'Bàn cờ', 'option.layout': 'Kiểu bàn', 'option.dice': 'Số xúc xắc', 'option.exit_values': 'Số gieo được ra quân',
    'option.exit_values@horse': 'Số gieo được ra ngựa',
    'option.exit_on_double': 'Gieo đôi được ra quân', 'option.exit_on_double@horse': 'Gieo đôi được ra ngựa',
    'option.bonus_values': 'Số gieo được gieo thêm',
    'option.bonus_on_double': 'Gieo đôi được gieo thêm', 'option.three_bonus_forfeit': 'Gieo thưởng lần thứ ba liên tiếp thì mất lượt',
    'option.bonus_on_capture': 'Đá quân được gieo thêm', 'option.bonus_on_capture@horse': 'Đá ngựa được gieo thêm',
    'option.bonus_on_finish': 'Đưa quân về đích được gieo thêm', 'option.bonus_on_finish@horse': 'Đưa ngựa về đích được gieo thêm',
    'option.bonus_if_no_move': 'Lần gieo thưởng không đi được vẫn được gieo thêm',
    'option.no_piece_out': 'Khi không có quân nào trên đường đi',
    'option.no_piece_out@horse': 'Khi không có ngựa nào trên đường đi',
    'option.safe': 'Ô an toàn', 'option.passing': 'Quân nào chặn đường', 'option.passing@horse': 'Ngựa nào chặn đường',
    'option.stacking': 'Quân cùng màu được đứng chung ô', 'option.stacking@horse': 'Ngựa cùng màu được đứng chung ô',
    'option.exact_finish': 'Về đích phải đúng số', 'option.rank_everyone': 'Chơi tiếp đến khi xếp hạng hết',
    'option.first_player': 'Ai đi trước', 'value.ludo': 'Ludo', 'value.horse': 'Bàn cờ cá ngựa',
    'value.cross': 'Chữ thập', 'value.by_players': 'Mỗi người một nhánh', 'value.1': '1', 'value.2': '2',
    'value.roll': 'Gieo như thường', 'value.auto_exit': 'Tự động ra quân', 'value.auto_exit@horse': 'Tự động ra ngựa',
    'value.three_tries': 'Gieo ba lần',
    'value.starts_and_stars': 'Ô xuất phát và ô sao', 'value.starts': 'Chỉ ô xuất phát', 'value.none': 'Không có',
    'value.blockades': 'Hàng rào', 'value.free': 'Không gì', 'value.opponents': 'Mọi quân đối thủ',
    'value.opponents@horse': 'Mọi ngựa đối thủ',
    'value.any': 'Mọi quân', 'value.any@horse': 'Mọi ngựa',
    'value.seat_order': 'Người ngồi đầu', 'value.highest_roll': 'Người gieo cao nhất',
    'board': 'Bàn cờ Ludo', 'board@horse': 'Bàn cờ cá ngựa',
    'piece.at': 'Quân {piece} ({colour}): {where}', 'piece.at@horse': 'Ngựa {piece} ({colour}): {where}',
    'place.base': 'trong chuồng', 'place.finished': 'đã về đích',
    'place.square': 'ô {n}',
  },
};

for (const extra of [RECORD_TEXTS, TABLE_TEXTS, ERROR_TEXTS, HOME_TEXTS, ROOM_TEXTS]) {
  for (const [language, texts] of Object.entries(extra)) Object.assign(TABLES[language], texts);
}

/** The languages offered, by code, each named in itself. */
export const LANGUAGES = { en: 'English', fr: 'Français', pt: 'Português', ru: 'Русский', vi: 'Tiếng Việt' };

/** Every language's texts, by code, then key (a board's variants as `key@board`). */
export const TEXTS = TABLES;

let table = TABLES.en;

/** The board whose words the texts use (see the top of this file). */
let board = 'ludo';

/** Makes the texts speak of `kind`'s pieces (`ludo` or `horse`) until said otherwise. */
export function setBoard(kind) {
  board = kind ?? 'ludo';
}

const LANGUAGE_KEY = 'ludo.language';

/**
 * The language the address asks for (`?lang=fr`, for this visit only), else the one chosen here
 * before, else the browser's first that we have, else English.
 */
export function chooseLanguage(languages = navigator.languages ?? [],
  asked = new URLSearchParams(globalThis.location?.search ?? '').get('lang')) {
  const chosen = asked in TABLES ? asked : localStorage.getItem(LANGUAGE_KEY);
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

/**
 * The text for `key`, with `{name}` placeholders filled from `values`: the current board's variant
 * (`key@horse`) when the page's language has one, else the text itself.
 */
export function t(key, values = {}) {
  if (!(key in table)) missing.add(key);
  const text = table[`${key}@${board}`] ?? table[key] ?? TABLES.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
}
