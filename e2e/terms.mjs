// The players' own words: one term per concept and language, as the rules pages this platform
// follows use them. Option names, rules pages, the log, announcements and errors all use these.
// Vietnamese follows cờ cá ngựa's words on the horse board and Ludo's on the Ludo board; its
// terms are kept by the tests that check them.

/** Concept → language → the term (a word or phrase every text about the concept contains). */
export const TERMS = {
  piece: { en: 'piece', fr: 'pièce', pt: 'peça', ru: 'фишк' },
  base: { en: 'base', fr: 'base', pt: 'base', ru: 'баз' },
  start: { en: 'start', fr: 'départ', pt: 'saída', ru: 'старт' },
  track: { en: 'track', fr: 'parcours', pt: 'percurso', ru: 'дорожк' },
  square: { en: 'square', fr: 'case', pt: 'casa', ru: 'клетк' },
  homeColumn: { en: 'home column', fr: 'couloir d’arrivée', pt: 'corredor de chegada', ru: 'финишн' },
  finish: { en: 'finish', fr: 'arrivée', pt: 'chegada', ru: 'финиш' },
  safeSquare: { en: 'safe square', fr: 'case sûre', pt: 'casa segura', ru: 'безопасн' },
  star: { en: 'star', fr: 'étoile', pt: 'estrela', ru: 'звезд' },
  blockade: { en: 'blockade', fr: 'barrage', pt: 'bloqueio', ru: 'блокад' },
  die: { en: 'di', fr: 'dé', pt: 'dado', ru: 'кубик' },
  throw: { en: 'throw', fr: 'lancer', pt: 'lan', ru: 'брос' },
  capture: { en: 'captur', fr: 'captur', pt: 'captur', ru: 'сби' },
  anotherThrow: { en: 'another throw', fr: 'lancer', pt: 'lan', ru: 'ещё бросок' },
  exactCount: { en: 'exact', fr: 'exact', pt: 'exat', ru: 'точн' },
  houseRules: { en: 'house rules', fr: 'règles locales', pt: 'regras locais', ru: 'местные правила' },
  playAgain: { en: 'play again', fr: 'rejouer', pt: 'jogar novamente', ru: 'ещё партия' },
  board: { en: 'board', fr: 'plateau', pt: 'tabuleiro', ru: 'доск' },
  ownerMarks: { en: 'owner marks', fr: 'marques de propriétaire', pt: 'marcas de dono', ru: 'знак' },
  cpu: { en: 'CPU', fr: 'CPU', pt: 'CPU', ru: 'CPU' },
  ranked: { en: 'ranked', fr: 'classé', pt: 'classificad', ru: 'рейтингов' },
};

/**
 * Words that mean a concept but are not its term (a text containing one, at the start of a word
 * and whatever its case, drifts from the players').
 */
export const DRIFT = {
  fr: ['pion', 'colonne', 'règles maison', 'ordinateur', 'bonus', 'une prise', 'lancer de plus',
    'compte exact'],
  pt: ['cadastro', 'você', 'seu ', 'sua ', 'computador', 'bônus', 'regras da casa', 'ao fim',
    'conect', 'conexão', 'arquivo', 'aparelho', 'jogar de novo', 'ranquead', 'usuário', 'celular',
    'compartilh', 'em andamento'],
  ru: ['колонн', 'домашние правила', 'домашняя', 'компьютер', 'бонусн', 'взяти', 'блоки', 'кости',
    'поле', 'сыграть ещё'],
};
