// The rules pages: one per preset at /rules/<preset>, in every language (?lang=), stating every
// fact the players' rules pages state, true for that preset's options, in the players' own words;
// offering only the house-rule choices the engine accepts; and starting games of those rules.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { accessibilityViolations, launch, url } from './browser.mjs';
import { DRIFT, TERMS } from './terms.mjs';

const shots = process.env.LUDO_SHOTS ?? '/tmp/ludo-shots';
mkdirSync(shots, { recursive: true });

const browser = await launch();
after(() => browser.close());

const PRESETS = ['qdan', 'classic', 'vietnamese'];
const LANGUAGES = ['en', 'fr', 'pt', 'ru', 'vi'];
/** The language each preset's page is played from. */
const PLAYED_IN = { qdan: 'ru', classic: 'pt', vietnamese: 'vi' };

/** What every Ludo-board page states (words.md, "What each rules page says"). */
const LUDO_FACTS = ['players', 'pieces', 'board-shape', 'owner-marks', 'first-player', 'turn', 'exit',
  'no-piece-out', 'bonus', 'three-in-a-row', 'capture', 'capture-throw', 'safe', 'stacking',
  'home-column', 'exact', 'no-move', 'winner', 'places'];

/** The facts each page must carry, by its `data-fact` name. */
const FACTS = {
  qdan: [...LUDO_FACTS, 'star', 'blockade'],
  classic: [...LUDO_FACTS, 'passing'],
  vietnamese: ['players', 'pieces', 'board-shape', 'owner-marks', 'dice', 'exit', 'total', 'bonus',
    'passing', 'capture', 'capture-throw', 'stacking', 'safe', 'home-column', 'no-move', 'winner',
    'friendly'],
};

/** Every page: the site's defaults, the words, the questions. */
const COMMON_FACTS = ['site-players', 'site-clock', 'site-leave', 'site-shared-place', 'term-base',
  'term-start', 'term-home-column', 'term-finish', 'term-safe', 'term-blockade', 'faq-exit',
  'faq-capture', 'faq-no-capture', 'faq-bigger', 'house-rotate'];

/** The vocabulary entry of each concept, by its fact name. */
const VOCABULARY = { 'term-base': 'base', 'term-start': 'start', 'term-home-column': 'homeColumn',
  'term-finish': 'finish', 'term-safe': 'safeSquare', 'term-star': 'star', 'term-blockade': 'blockade' };

/** Vietnamese words, kept here: cờ cá ngựa's on the horse board, Ludo's on the Ludo board. */
const VIETNAMESE = {
  base: 'chuồng', start: 'ô xuất phát', homeColumn: 'đường về đích', finish: 'đích',
  safeSquare: 'ô an toàn', star: 'ô sao', blockade: 'hàng rào', houseRules: 'luật riêng',
};
const VIETNAMESE_PIECE = { ludo: 'quân', horse: 'ngựa' };

/**
 * Facts that must say what each preset's options do, in every language: per fact, per language, a
 * pattern holding the fact's key claim in the players' words (which squares are safe, what gives
 * another throw, who starts, how places are decided…), so that a translation stating something
 * else fails. Where the false claim is the true one negated, the pattern refuses the negation too:
 * `^(?!.*no)` before "another throw" (a capture that gives no extra throw is another preset's rule).
 */
const TRUE_FOR = {
  qdan: {
    safe: {
      en: /Each start is a safe square: no piece can be captured there/,
      fr: /Chaque départ est une case sûre : aucune pièce ne peut y être capturée/,
      pt: /Cada saída é uma casa segura: nenhuma peça pode ser capturada ali/,
      ru: /Каждый старт — безопасная клетка: там фишку нельзя сбить/,
      vi: /Mỗi ô xuất phát là ô an toàn: không quân nào bị đá ở đó/,
    },
    // "So is": a safe square too, the eighth square on from every start.
    star: {
      en: /So is the star, eight squares further on from each start/,
      fr: /étoile, huit cases après chaque départ, est aussi une case sûre/,
      pt: /estrela, oito casas depois de cada saída, também é uma casa segura/,
      ru: /Звезда — восьмая клетка после каждого старта — тоже безопасная клетка/,
      vi: /Ô sao, cách mỗi ô xuất phát tám ô, cũng là ô an toàn/,
    },
    'capture-throw': {
      en: /^(?!.*(\b(no|not|never)\b|n[’']t\b)).*capture gives another throw/,
      fr: /^(?!.*\b(ne|pas|jamais)\b).*capture donne un nouveau lancer/,
      pt: /^(?!.*(não|nunca|nenhum)).*captura dá outro lançamento/i,
      ru: /^(?!.*(?<![а-яё])(не|нет|ни)(?![а-яё])).*сбитую фишку дают ещё бросок/i,
      vi: /^(?!.*không).*Đá được quân thì được gieo thêm/,
    },
    blockade: {
      en: /Two or more pieces of one colour .*blockade: opponents can neither pass it nor land on it/,
      fr: /Deux pièces ou plus d’une même couleur .*barrage : .*adversaires ne peuvent ni le dépasser ni s’y arrêter/,
      pt: /Duas ou mais peças da mesma cor .*bloqueio: os adversários não o podem ultrapassar nem parar nele/,
      ru: /Две или больше фишек одного цвета .*блокаду: соперники не могут ни пройти через неё, ни встать на неё/,
      vi: /Hai quân cùng màu trở lên .*hàng rào: đối thủ không được vượt qua, cũng không được dừng vào đó/,
    },
    // Who sits first, not who throws highest.
    'first-player': {
      en: /The first player at the table starts/,
      fr: /Le premier joueur à la table commence/,
      pt: /Começa o primeiro jogador à mesa/,
      ru: /Начинает первый игрок за столом/,
      vi: /Người ngồi đầu bàn đi trước/,
    },
    // The game ends at the first to finish; the others are placed in that order of criteria.
    places: {
      en: /game ends there; .*placed by pieces finished, then pieces out of the base, then total progress/,
      fr: /partie s’arrête là ; .*classés par pièces arrivées, puis .*sorties de la base, puis par chemin parcouru/,
      pt: /partida acaba aí; .*por peças na chegada, depois por peças fora da base, depois pelo caminho percorrido/,
      ru: /игра заканчивается; .*по числу фишек на финише, затем по числу фишек вне базы, затем по пройденному пути/,
      vi: /Ván kết thúc ở đó; .*theo số quân đã về đích, rồi số quân đã ra khỏi chuồng, rồi tổng quãng đường/,
    },
    'no-move': {
      en: /no possible move ends the turn, even a 6/,
      fr: /sans coup possible termine le tour, même un 6/,
      pt: /sem jogada possível acaba a vez, mesmo um 6/,
      ru: /ходить нечем, заканчивает ход, даже если выпало 6/,
      vi: /không đi được nước nào thì hết lượt, kể cả khi gieo được 6/,
    },
    'three-in-a-row': {
      en: /three in a row end the turn, with no move on the third/,
      fr: /troisième fois d’affilée, le tour s’arrête aussitôt, sans coup joué/,
      pt: /terceira vez seguida, a vez acaba logo, sem jogada/,
      ru: /три таких броска подряд заканчивают ход: третьим не ходят/,
      vi: /ba lần liên tiếp thì mất lượt, lần thứ ba không được đi/,
    },
    // A 6, and nothing else, brings a piece out; the throw is spent on it.
    exit: {
      en: /^Throwing a 6 brings a piece out of the base onto your start; that uses the throw/,
      fr: /^Avec un 6, vous sortez une pièce de la base sur votre départ ; ce lancer ne sert qu’à cela/,
      pt: /^Com um 6, tiras uma peça da base para a tua saída; esse lançamento serve só para isso/,
      ru: /^Если выпало 6, фишка выходит с базы на ваш старт; на это уходит весь бросок/,
      vi: /^Gieo được 6 thì đưa một quân ra khỏi chuồng lên ô xuất phát; lần gieo đó dùng hết/,
    },
    'board-shape': {
      en: /stays a cross with four arms whatever the number of players/,
      fr: /reste une croix à quatre branches quel que soit le nombre de joueurs/,
      pt: /é sempre uma cruz de quatro braços, seja qual for o número de jogadores/,
      ru: /всегда остаётся крестом с четырьмя лучами, сколько бы ни было игроков/,
      vi: /luôn là hình chữ thập bốn nhánh, dù có bao nhiêu người chơi/,
    },
    // Each colour with its own mark, on its pieces, its base and its home column.
    'owner-marks': {
      en: /yellow ○, blue □, red △, green ✚\. .*pieces .*base .*home column/,
      fr: /jaune ○, bleu □, rouge △, vert ✚\. .*pièces, sur sa base et sur son couloir d’arrivée/,
      pt: /amarelo ○, azul □, vermelho △, verde ✚\. .*peças .*base e o corredor de chegada/,
      ru: /жёлтый ○, синий □, красный △, зелёный ✚\. .*на фишках, на базе и на финишной дорожке/,
      vi: /vàng ○, xanh dương □, đỏ △, xanh lá ✚\. .*trên quân, trên chuồng và trên đường về đích/,
    },
  },
  classic: {
    safe: {
      en: /There are no safe squares: a piece can be captured on any square/,
      fr: /Il n’y a aucune case sûre : une pièce peut être capturée sur n’importe quelle case/,
      pt: /Não há casas seguras: uma peça pode ser capturada em qualquer casa/,
      ru: /Безопасных клеток нет: фишку можно сбить на любой клетке/,
      vi: /Không có ô an toàn: quân có thể bị đá ở bất kỳ ô nào/,
    },
    'capture-throw': {
      en: /capture gives no extra throw/,
      fr: /capture ne donne pas de nouveau lancer/,
      pt: /captura não dá outro lançamento/,
      ru: /сбитую фишку ещё бросок не дают/,
      vi: /Đá được quân không được gieo thêm/,
    },
    // Not even a single piece may be passed; your own never block.
    passing: {
      en: /No piece may pass an opponent’s piece, alone or not: .*Your own pieces never block you/,
      fr: /Aucune pièce ne peut dépasser une pièce adverse, seule ou non : .*propres pièces ne vous bloquent jamais/,
      pt: /Nenhuma peça pode ultrapassar uma peça adversária, sozinha ou não: .*As tuas peças nunca te bloqueiam/,
      ru: /Обгонять чужие фишки нельзя — ни одиночную, ни несколько .*Свои фишки вам никогда не мешают/,
      vi: /Không quân nào được vượt qua quân đối thủ, dù một hay nhiều: .*Quân của bạn không bao giờ chặn bạn/,
    },
    'first-player': {
      en: /the highest throw starts, and players tied for it throw again/,
      fr: /celui qui fait le plus haut lancer commence, et les ex æquo relancent/,
      pt: /começa quem tirar o número mais alto, e os empatados lançam novamente/,
      ru: /начинает тот, у кого бросок выше, а при ничьей эти игроки бросают снова/,
      vi: /ai gieo cao nhất đi trước, ai bằng nhau thì gieo lại/,
    },
    // The game goes on after the first to finish, and the order of finishing places the others.
    places: {
      en: /others play on for the next places, in the order they finish, until one is left/,
      fr: /continuent pour les places suivantes, dans l’ordre où ils finissent, jusqu’à ce qu’il n’en reste qu’un/,
      pt: /outros continuam a jogar pelos lugares seguintes, pela ordem em que acabam, até restar um/,
      ru: /Остальные играют дальше за следующие места в порядке финиша, пока не останется один/,
      vi: /còn lại chơi tiếp để giành các hạng sau, theo thứ tự về đích, đến khi chỉ còn một người/,
    },
    'no-move': {
      en: /no possible move ends the turn, except a 6: you throw again/,
      fr: /sans coup possible termine le tour, sauf un 6 : vous relancez/,
      pt: /sem jogada possível acaba a vez, exceto um 6: lanças novamente/,
      ru: /ходить нечем, заканчивает ход — кроме случая, когда выпало 6: тогда вы бросаете снова/,
      vi: /không đi được nước nào thì hết lượt, trừ khi gieo được 6: bạn gieo tiếp/,
    },
  },
  vietnamese: {
    dice: { en: /two dice/, fr: /deux dés/, pt: /dois dados/, ru: /два кубика/, vi: /hai xúc xắc/ },
    // A 1 or a 6 on either die, or any double, brings a horse out; the throw is spent on it.
    exit: {
      en: /^Throwing a 1 or 6 on either die or any double brings a horse out of the base.*; that uses the throw/,
      fr: /^Avec un 1 ou 6 sur l’un des dés ou n’importe quel double, vous sortez un cheval.*ne sert qu’à cela/,
      pt: /^Com um 1 ou 6 num dos dados ou qualquer duplo, tiras um cavalo da base.*serve só para isso/,
      ru: /^Если выпало 1 или 6 хотя бы на одном кубике или любой дубль, конь выходит с базы.*уходит весь бросок/,
      vi: /^Gieo được 1 hoặc 6 ở một trong hai xúc xắc hoặc một đôi bất kỳ thì đưa một con ngựa ra.*dùng hết/,
    },
    // One horse moves the sum, the dice are not split, and a move that can be made must be.
    total: {
      en: /one horse moves the total of both dice: the dice cannot be split .*you must move one/,
      fr: /un seul cheval avance du total des deux dés : on ne partage pas les dés .*vous devez en jouer un/,
      pt: /um só cavalo avança o total dos dois dados: os dados não se dividem .*tens de mover um/,
      ru: /один конь идёт на сумму двух кубиков: делить кубики между конями нельзя\. .*ходить обязательно/,
      vi: /một con ngựa đi bằng tổng hai xúc xắc: không được chia xúc xắc .*thì phải đi/,
    },
    bonus: {
      en: /^(?!.*(\b(no|not|never)\b|n[’']t\b)).*double gives another throw/,
      fr: /^(?!.*\b(ne|pas|jamais)\b).*double donne un nouveau lancer/,
      pt: /^(?!.*(não|nunca|nenhum)).*duplo dá outro lançamento/i,
      ru: /^(?!.*(?<![а-яё])(не|нет|ни)(?![а-яё])).*выпало дубль, вы получаете ещё бросок/i,
      vi: /^(?!.*không).*được đôi thì được gieo thêm/,
    },
    // No jumping at all: over your own horses as well as an opponent's.
    passing: {
      en: /No horse may jump any other horse, yours or an opponent’s/,
      fr: /Aucun cheval ne peut sauter un autre cheval, le vôtre ou un adverse/,
      pt: /Nenhum cavalo pode saltar outro cavalo, teu ou adversário/,
      ru: /Ни один конь не может перепрыгнуть другого коня, своего или чужого/,
      vi: /Không ngựa nào được nhảy qua ngựa khác, dù của mình hay của đối thủ/,
    },
    safe: {
      en: /There are no safe squares: a horse can be captured on any square/,
      fr: /Il n’y a aucune case sûre : un cheval peut être capturé sur n’importe quelle case/,
      pt: /Não há casas seguras: um cavalo pode ser capturado em qualquer casa/,
      ru: /Безопасных клеток нет: коня можно сбить на любой клетке/,
      vi: /Không có ô an toàn: ngựa có thể bị đá ở bất kỳ ô nào/,
    },
    stacking: {
      en: /You may not land on your own horse: .*never share a square/,
      fr: /Vous ne pouvez pas vous arrêter sur votre propre cheval : .*ne partagent jamais une case/,
      pt: /Não podes parar sobre um cavalo teu: .*nunca partilham uma casa/,
      ru: /На своего коня вставать нельзя: .*никогда не стоят на одной клетке/,
      vi: /Không được dừng vào ô có ngựa mình: .*không bao giờ đứng chung một ô/,
    },
    // After a full lap, the deepest free cell, filled from 6 down to 3, by the exact total.
    'home-column': {
      en: /full lap .*to the deepest free cell: the first to cell 6, then 5, 4 and 3\. .*exact total/,
      fr: /tour complet, .*case libre la plus profonde : le premier sur la case 6, puis 5, 4 et 3\. .*total exact/,
      pt: /volta completa, .*casa livre mais funda: o primeiro para a casa 6, depois 5, 4 e 3\. .*total exato/,
      ru: /полный круг, .*самую дальнюю свободную клетку: первый — на клетку 6, затем 5, 4 и 3\. .*точная сумма/,
      vi: /hết một vòng, .*ô trống sâu nhất: con đầu tiên vào ô 6, rồi 5, 4 và 3\. .*đúng tổng/,
    },
    winner: {
      en: /The first to bring four horses home wins/,
      fr: /Le premier à rentrer ses quatre chevaux gagne/,
      pt: /Ganha o primeiro a levar os quatro cavalos para casa/,
      ru: /Побеждает тот, кто первым приведёт домой четырёх коней/,
      vi: /Ai đưa đủ bốn con ngựa về đích trước thì thắng/,
    },
    friendly: {
      en: /more than two players are friendly: they are never rated/,
      fr: /plus de deux joueurs sont amicales : elles ne sont jamais classées/,
      pt: /mais de dois jogadores são amigáveis: nunca contam para a classificação/,
      ru: /на троих и на четверых — товарищеские: рейтинговыми они не бывают/,
      vi: /hơn hai người chơi là ván giao hữu: không bao giờ tính điểm xếp hạng/,
    },
    // The question, then its answer: no, only the exact total brings a horse home.
    'faq-bigger': {
      en: /\?\s*No: a horse needs the exact total/,
      fr: /\?\s*Non : un cheval a besoin du total exact/,
      pt: /\?\s*Não: um cavalo precisa do total exato/,
      ru: /\?\s*Нет: коню нужна точная сумма/,
      vi: /\?\s*Không: ngựa phải gieo đúng tổng/,
    },
  },
};


/** A fresh person's page with `path` open and the rules page drawn; `errors` collects errors. */
async function open(path, viewport = { width: 360, height: 640 }, context = null) {
  const owned = context ?? await browser.newContext({ viewport });
  const page = await owned.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(url + path);
  await page.waitForSelector('body[data-ready=true]');
  return { page, errors, context: owned };
}

const shown = (page) => page.waitForSelector('#rules-page:not([hidden]) h2');

/**
 * For each house rule, the values a game of each preset may change it to, the rest of the preset
 * unchanged: written out here from docs/rules.md §3 (each option's values, and the combinations
 * it refuses), not computed the way the page computes them, so that a page and an engine that
 * agreed on something wrong would still fail. An empty list: no other value goes with the rest of
 * the preset (two dice need a finish that does not ask the exact count, say).
 */
const CHOICES = {
  qdan: { board: ['horse'], bonus_if_no_move: [true], bonus_on_capture: [false], bonus_on_double: [],
    bonus_on_finish: [true], bonus_values: [[1, 6], [5, 6], [1, 5, 6], []], dice: [], exact_finish: [false],
    exit_on_double: [], exit_values: [[1, 6], [5, 6], [1, 5, 6]], first_player: ['highest_roll'],
    layout: ['by_players'], no_piece_out: ['auto_exit', 'three_tries'], passing: ['free', 'opponents', 'any'],
    rank_everyone: [true], safe: ['starts', 'none'], stacking: [false], three_bonus_forfeit: [false] },
  classic: { board: ['horse'], bonus_if_no_move: [false], bonus_on_capture: [true], bonus_on_double: [],
    bonus_on_finish: [true], bonus_values: [[1, 6], [5, 6], [1, 5, 6], []], dice: [], exact_finish: [false],
    exit_on_double: [], exit_values: [[1, 6], [5, 6], [1, 5, 6]], first_player: ['seat_order'],
    layout: ['by_players'], no_piece_out: ['auto_exit', 'three_tries'], passing: ['blockades', 'free', 'any'],
    rank_everyone: [false], safe: ['starts_and_stars', 'starts'], stacking: [false], three_bonus_forfeit: [false] },
  vietnamese: { board: [], bonus_if_no_move: [false], bonus_on_capture: [true], bonus_on_double: [false],
    bonus_on_finish: [true], bonus_values: [], dice: [], exact_finish: [], exit_on_double: [false],
    exit_values: [[6], [5, 6], [1, 5, 6], []], first_player: ['highest_roll'], no_piece_out: ['auto_exit', 'three_tries'],
    passing: ['blockades', 'free', 'opponents'], rank_everyone: [true], safe: ['starts_and_stars', 'starts'],
    stacking: [true], three_bonus_forfeit: [true] },
};

/**
 * What the page's own engine answers, for each house rule and each of its values in
 * `/api/rules`, with the rest of the preset unchanged: the values it accepts, and the values it
 * refuses without the code of a contradiction (which must be none: a check that failed for
 * some other reason is not a refusal).
 */
const engineChoices = (page, preset) => page.evaluate(async (name) => {
  const { loadEngine } = await import('/engine/engine.js');
  const engine = await loadEngine();
  const answer = await (await fetch('/api/rules')).json();
  const { options } = answer.presets.find((p) => p.preset === name);
  const accepted = {};
  const refusedOddly = [];
  for (const [option, values] of Object.entries(answer.choices)) {
    if (option === 'layout' && options.board === 'horse') continue;
    accepted[option] = [];
    for (const value of values) {
      if (JSON.stringify(value) === JSON.stringify(options[option])) continue;
      try {
        engine.checkRules({ ...options, [option]: value });
        accepted[option].push(value);
      } catch (error) {
        if (typeof error.code !== 'string' || !error.option) refusedOddly.push([option, value, error.message]);
      }
    }
  }
  return { accepted, refusedOddly };
}, preset);

for (const preset of PRESETS) {
  for (const language of LANGUAGES) {
    test(`the ${preset} rules page in ${language} states every fact in the players' words and offers only what the engine accepts`, async () => {
      const { page, errors, context } = await open(`/rules/${preset}?lang=${language}`);
      await shown(page);
      assert.equal(await page.getAttribute('html', 'lang'), language);
      assert.equal(new URL(page.url()).pathname, `/rules/${preset}`);
      assert.ok(await page.isHidden('#home'));
      assert.equal(await page.getAttribute('#rules-page', 'data-preset'), preset);
      const facts = await page.$$eval('#rules-page [data-fact]', (n) => n.map((e) => e.dataset.fact));
      const missingFacts = [...FACTS[preset], ...COMMON_FACTS].filter((f) => !facts.includes(f));
      assert.deepEqual(missingFacts, [], 'every fact the page must state');
      assert.equal(facts.includes('term-star'), preset === 'qdan', 'the star, where it is a safe square');
      // Where the standard rules come from, said once; Qdan is the site that wrote them, never their name.
      assert.equal(facts.includes('source'), preset === 'qdan', 'where these rules come from');
      const named = await page.$$eval('#rules-page *', (n) => n.filter((e) => [...e.childNodes]
        .some((c) => c.nodeType === Node.TEXT_NODE && c.textContent.includes('Qdan'))).map((e) => e.dataset.fact ?? e.tagName));
      assert.deepEqual(named, preset === 'qdan' ? ['source'] : [], 'Qdan only in the sentence saying where the rules come from');

      // One heading structure: the site's h1, the page's h2, sections in h3, house rules in h4.
      const headings = await page.$$eval('h1, h2, h3, h4', (n) => n.filter((h) => h.offsetParent)
        .map((h) => h.tagName));
      assert.equal(headings.filter((h) => h === 'H1').length, 1);
      assert.equal(headings.filter((h) => h === 'H2').length, 1);
      assert.ok(headings.filter((h) => h === 'H3').length >= 5);

      // No English left on a page in another language, and no raw key.
      const missing = await page.evaluate(async () => (await import('/i18n/i18n.js')).missingKeys());
      assert.deepEqual(missing, [], `keys ${language} lacks`);
      const text = await page.textContent('#rules-page');
      assert.doesNotMatch(text, /\b(fact|hr|term|faq|rules|site|ways)\.[a-zA-Z_.]+/);

      // The players' terms where each concept is named, and none of the words that drift.
      const board = preset === 'vietnamese' ? 'horse' : 'ludo';
      const term = (concept) => (language === 'vi' ? VIETNAMESE[concept] : TERMS[concept][language]);
      const lower = (s) => s.toLocaleLowerCase(language);
      for (const [fact, concept] of Object.entries(VOCABULARY)) {
        if (!facts.includes(fact)) continue;
        const named = await page.textContent(`#rules-page [data-fact="${fact}"] dt`);
        assert.ok(lower(named).includes(lower(term(concept))), `${fact} is named “${term(concept)}” (${named})`);
      }
      assert.ok(lower(await page.textContent('#rules-house')).includes(lower(term('houseRules'))));
      const drift = (DRIFT[language] ?? []).filter((word) => lower(text).includes(word));
      assert.deepEqual(drift, [], 'words that drift from the players’');
      if (language === 'vi') {
        // The horse board says ngựa, the Ludo board quân, each throughout ("cờ cá ngựa" is a name).
        const other = VIETNAMESE_PIECE[board === 'horse' ? 'ludo' : 'horse'];
        assert.ok(!lower(text).replaceAll('cá ngựa', '').includes(other), `no “${other}” on the ${board} board`);
        assert.ok(lower(await page.textContent('[data-fact=pieces]')).includes(VIETNAMESE_PIECE[board]));
      } else if (board === 'ludo') {
        assert.ok(lower(await page.textContent('[data-fact=pieces]')).includes(lower(TERMS.piece[language])));
      }
      // Each fact states what is true of the preset, in every language: a translation saying otherwise fails.
      for (const [fact, patterns] of Object.entries(TRUE_FOR[preset])) {
        assert.ok(patterns[language], `${fact} has a ${language} pattern`);
        assert.match(await page.textContent(`#rules-page [data-fact="${fact}"]`), patterns[language], fact);
      }
      // Numbers and marks are the same in every language.
      assert.match(await page.textContent('[data-fact=players]'), /2.*4.*20/);
      assert.match(await page.textContent('[data-fact=owner-marks]'), /○.*□.*△.*✚/);
      if (preset === 'vietnamese') assert.match(await page.textContent('[data-fact=home-column]'), /6.*5.*4.*3/);

      // House rules by the settings' names, each with its default and only the engine's choices.
      const names = await page.$$eval('#rules-page [data-option] h4', (n) => n.map((e) => e.textContent));
      const settingsNames = await page.evaluate(async (options) => {
        const { t } = await import('/i18n/i18n.js');
        const { optionLabel } = await import('/rulebook/options.js');
        return options.map((name) => (name === 'rotate' ? t('home.rotate') : optionLabel(name, t)));
      }, await page.$$eval('#rules-page [data-option]', (n) => n.map((e) => e.dataset.option)));
      assert.deepEqual(names, settingsNames, 'the option names the settings use');
      if (board === 'ludo' && language !== 'vi') {
        const exit = await page.textContent('[data-option=exit_values] h4');
        assert.ok(lower(exit).includes(lower(TERMS.piece[language])), exit);
      }
      const offered = Object.fromEntries(await page.$$eval('#rules-page [data-option]', (n) => n
        .map((e) => [e.dataset.option, JSON.parse(e.querySelector('[data-choices]').dataset.choices)])));
      assert.deepEqual(offered, { ...CHOICES[preset], rotate: [false] }, 'the choices the rules allow, and no other');
      const engine = await engineChoices(page, preset);
      assert.deepEqual(engine.accepted, CHOICES[preset], 'the engine accepts the same choices');
      assert.deepEqual(engine.refusedOddly, [], 'every other value refused as a contradiction naming its option');
      if (preset === 'qdan') assert.deepEqual(offered.dice, [], 'no two dice while the finish needs the exact count');
      if (preset === 'vietnamese') {
        assert.deepEqual(offered.exact_finish, [], 'the horse board always needs the exact count');
        assert.ok(!('layout' in offered), 'no layout on the horse board');
      }
      for (const item of await page.$$('#rules-page [data-option]')) {
        assert.equal(await item.$$eval('p', (p) => p.length), 2, 'what it does, then its default and choices');
      }
      // The page's contents, one tap from each section; the address stays the rules page's.
      const sections = await page.$$eval('#rules-page section:not(.play-rules) h3', (h) => h.map((e) => e.textContent));
      assert.deepEqual(await page.$$eval('#rules-page .rules-contents a', (a) => a.map((e) => e.textContent)), sections);
      assert.equal(sections.length, 5);
      const address = page.url();
      await page.click('#rules-page .rules-contents li:last-child a');
      await page.waitForFunction(() => document.activeElement?.id === 'rules-faq');
      assert.ok(await page.evaluate(() => { const box = document.getElementById('rules-faq').getBoundingClientRect();
        return box.top >= 0 && box.bottom <= innerHeight; }), 'the questions are on screen');
      assert.equal(page.url(), address);

      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 360, `no horizontal scrolling on a phone (${width}px)`);
      assert.deepEqual(await accessibilityViolations(page), []);
      if (['en', 'fr', 'vi'].includes(language)) {
        await page.screenshot({ path: `${shots}/rules-${preset}-${language}-360.png`, fullPage: true });
      }
      assert.deepEqual(errors, []);
      await context.close();
    });

    // What the play buttons start does not depend on the language: each preset's page is played
    // from once, each in a language of its own.
    if (language !== PLAYED_IN[preset]) continue;
    test(`the ${preset} rules page in ${language} plays its rules against the CPU, on this device and with friends`, async () => {
      const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
      const local = async (kind) => {
        const { page, errors } = await open(`/rules/${preset}?lang=${language}&cpu-delay=0`, undefined, context);
        await shown(page);
        await page.click(`#rules-page [data-play=${kind}]`);
        await page.waitForSelector('#play:not([hidden])');
        const game = await page.evaluate(() => JSON.parse(localStorage.getItem('ludo.games'))[0]);
        assert.deepEqual(game.position.rules, { preset }, `${kind}: the preset's own rules`);
        assert.equal(new URL(page.url()).pathname, '/');
        assert.ok(await page.isHidden('#rules-page'));
        assert.deepEqual(errors, []);
        await page.close();
        return Object.values(game.players);
      };
      const cpu = await local('cpu');
      assert.equal(cpu.filter((p) => p === 'human').length, 1, 'one person against the CPU');
      const device = await local('device');
      assert.ok(device.length >= 2 && device.every((p) => p === 'human'), 'people only, on one device');

      const { page, errors } = await open(`/rules/${preset}?lang=${language}`, undefined, context);
      await shown(page);
      const created = page.waitForRequest((r) => r.url().endsWith('/api/rooms') && r.method() === 'POST');
      // No name was given before on this device: the page asks for one.
      assert.ok(await page.isVisible('#rules-page .play-friends input[name=name]'));
      await page.fill('#rules-page .play-friends input[name=name]', 'Ana');
      await page.click('#rules-page [data-play=friends]');
      const request = JSON.parse((await created).postData());
      assert.deepEqual(request.rules, { preset });
      assert.equal(request.name, 'Ana');
      assert.equal(request.ranked, false);
      await page.waitForURL(/\/r\/[a-z0-9]+$/);
      await page.waitForSelector('body[data-ready=true]');
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

test('with a name given before, "with friends" creates the room at once under that name', async () => {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('ludo.name', 'Bao'));
  const { page, errors } = await open('/rules/classic', undefined, context);
  await shown(page);
  assert.ok(await page.isHidden('#rules-page .play-friends input[name=name]'));
  const created = page.waitForRequest((r) => r.url().endsWith('/api/rooms') && r.method() === 'POST');
  await page.click('#rules-page [data-play=friends]');
  const request = JSON.parse((await created).postData());
  assert.deepEqual([request.name, request.rules], ['Bao', { preset: 'classic' }]);
  await page.waitForURL(/\/r\/[a-z0-9]+$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the home page links to each rules page at its own address, and Back returns home', async () => {
  const { page, errors, context } = await open('/', { width: 1280, height: 800 });
  for (const preset of PRESETS) {
    await page.click(`#rules-pages a[href="/rules/${preset}"]`);
    await page.waitForFunction((name) => document.querySelector('#rules-page').dataset.preset === name
      && !document.querySelector('#rules-page').hidden, preset);
    assert.equal(new URL(page.url()).pathname, `/rules/${preset}`);
    assert.ok(await page.isHidden('#home'));
    await page.goBack();
    await page.waitForSelector('#home:not([hidden])');
    assert.equal(new URL(page.url()).pathname, '/');
    assert.ok(await page.isHidden('#rules-page'));
  }
  // Forward shows the page again; its own link goes home.
  await page.goForward();
  await shown(page);
  await page.click('#rules-page a[href="/"]');
  await page.waitForSelector('#home:not([hidden])');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an old #rules/… address leads to the page at its own address', async () => {
  const { page, errors, context } = await open('/#rules/vietnamese');
  await shown(page);
  assert.equal(new URL(page.url()).pathname, '/rules/vietnamese');
  assert.equal(new URL(page.url()).hash, '');
  assert.equal(await page.getAttribute('#rules-page', 'data-preset'), 'vietnamese');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a preset that does not exist has no rules page', async () => {
  const response = await fetch(`${url}/rules/monopoly`);
  assert.equal(response.status, 404);
});

test('?lang= chooses the language for that visit, and the switcher puts the one picked in the address', async () => {
  const { page, errors, context } = await open('/rules/qdan?lang=fr');
  await shown(page);
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  assert.match(await page.textContent('#rules-page h2'), /Règles/);
  await page.selectOption('#language', 'pt');
  // On a rules page the address says the language picked, so that the page can be shared in it.
  await page.waitForURL((u) => u.searchParams.get('lang') === 'pt');
  await page.waitForSelector('body[data-ready=true]');
  await shown(page);
  assert.equal(await page.getAttribute('html', 'lang'), 'pt');
  assert.equal(new URL(page.url()).pathname, '/rules/qdan');
  assert.equal(await page.getAttribute('#rules-page .home-link', 'href'), '/?lang=pt');
  // Without ?lang=, the language picked is remembered.
  await page.goto(`${url}/`);
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.getAttribute('html', 'lang'), 'pt');
  assert.deepEqual(errors, []);
  await context.close();
});

/** The rules page of `preset` in each language, as its head lists them (`hreflang` → address). */
// By full address: search engines read an alternate only so.
const alternatesOf = (preset) => ({
  ...Object.fromEntries(LANGUAGES.map((code) => [code, `${url}/rules/${preset}?lang=${code}`])),
  'x-default': `${url}/rules/${preset}`,
});
const alternates = (page) => page.$$eval('head link[rel=alternate][hreflang]',
  (links) => Object.fromEntries(links.map((l) => [l.hreflang, l.getAttribute('href')])));

test('a rules page opened with ?lang= keeps it on its links, and its head names it in every language', async () => {
  const { page, errors, context } = await open('/rules/classic?lang=fr', { width: 1280, height: 800 });
  await shown(page);
  assert.deepEqual(await alternates(page), alternatesOf('classic'));
  // Its title and description for search engines are its own, in its language.
  assert.equal(await page.title(), `${await page.textContent('#rules-page h2')} · Ludo`);
  assert.equal(await page.getAttribute('meta[name=description]', 'content'),
    await page.evaluate(() => import('/i18n/texts-fr.js').then((texts) => texts.default['home.about.classic'])));
  const links = await page.$$eval('a[href^="/"]', (a) => a.filter((e) => e.offsetParent).map((e) => e.getAttribute('href')));
  assert.ok(links.includes('/?lang=fr'), `the way home keeps the language (${links})`);
  assert.deepEqual(links.filter((href) => new URL(href, 'https://x').searchParams.get('lang') !== 'fr'), [],
    'every link to another page of the site keeps ?lang=fr');

  // Home keeps it, and so do the home page's links to the rules pages.
  await page.click('#rules-page .home-link');
  await page.waitForSelector('#home:not([hidden])');
  assert.equal(new URL(page.url()).search, '?lang=fr');
  assert.deepEqual(await alternates(page), {}, 'no alternates off a rules page');
  assert.equal(await page.getAttribute('meta[name=description]', 'content'), await page.textContent('.tagline'));
  assert.deepEqual(await page.$$eval('#read-rules, #rulesets a', (a) => a.map((e) => e.getAttribute('href'))),
    ['/rules/qdan?lang=fr', '/rules/qdan?lang=fr', '/rules/classic?lang=fr', '/rules/vietnamese?lang=fr']);
  await page.click('#rulesets a[href="/rules/vietnamese?lang=fr"]');
  await page.waitForFunction(() => document.querySelector('#rules-page').dataset.preset === 'vietnamese'
    && !document.querySelector('#rules-page').hidden);
  assert.equal(new URL(page.url()).pathname, '/rules/vietnamese');
  assert.equal(new URL(page.url()).search, '?lang=fr');
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  assert.deepEqual(await alternates(page), alternatesOf('vietnamese'), 'the alternates follow the preset shown');

  // The address copied from the page opens it in French in a browser that never chose a language.
  const copied = new URL(page.url());
  const other = await open(copied.pathname + copied.search, { width: 1280, height: 800 });
  await shown(other.page);
  assert.equal(await other.page.getAttribute('html', 'lang'), 'fr');
  assert.equal(await other.page.getAttribute('#rules-page', 'data-preset'), 'vietnamese');
  await other.context.close();

  // Opened without ?lang=, the links stay plain.
  const plain = await open('/rules/classic');
  await shown(plain.page);
  assert.equal(await plain.page.getAttribute('#rules-page .home-link', 'href'), '/');
  assert.deepEqual(await alternates(plain.page), alternatesOf('classic'));
  assert.deepEqual([...errors, ...plain.errors], []);
  await plain.context.close();
  await context.close();
});

/**
 * Sentences of the standard rules page that read badly before (in the comments): who starts by
 * default ("La première place" / "O primeiro lugar" read as a ranking), the option ending the turn
 * on a third throw in a row, the fact saying so, and the exact count.
 */
const WORDING = {
  fr: {
    '[data-option=first_player] .default': 'Par défaut : le premier joueur à la table.', // La première place
    '[data-option=three_bonus_forfeit] h4': 'Le troisième lancer d’affilée qui fait relancer termine le tour', // Un troisième nouveau lancer d’affilée…
    '[data-fact=three-in-a-row]': 'Mais la troisième fois d’affilée, le tour s’arrête aussitôt, sans coup joué.', // Mais trois d’affilée terminent le tour, sans coup au troisième.
    '[data-fact=capture]': 'Une pièce qui s’arrête exactement sur une pièce adverse la capture : celle-ci est renvoyée à la base.', // S’arrêter exactement… la capture
  },
  pt: {
    '[data-option=first_player] .default': 'Por omissão: o primeiro jogador à mesa.', // O primeiro lugar
    '[data-fact=exact]': 'Para alcançar a chegada, é preciso o valor exato.', // Precisa do valor exato… (no subject)
    '[data-fact=three-in-a-row]': 'Mas, à terceira vez seguida, a vez acaba logo, sem jogada.', // Mas três seguidos acabam a vez…
  },
  ru: {
    '[data-option=first_player] .default': 'По умолчанию: первый игрок за столом.',
    '[data-option=three_bonus_forfeit] h4': 'Третий подряд бросок, дающий ещё бросок, завершает ход', // Ещё бросок третий раз подряд завершает ход
    '[data-fact=star]': 'Звезда — восьмая клетка после каждого старта — тоже безопасная клетка.', // Звезда в восьми клетках после…
  },
};

test('the standard rules page says who starts and what ends a turn as a French, Portuguese or Russian player would', async () => {
  for (const [language, sentences] of Object.entries(WORDING)) {
    const { page, errors, context } = await open(`/rules/qdan?lang=${language}`);
    await shown(page);
    for (const [selector, sentence] of Object.entries(sentences)) {
      assert.equal((await page.textContent(`#rules-page ${selector}`)).trim(), sentence, `${language}: ${selector}`);
    }
    // Who starts is never a place in the ranking.
    assert.doesNotMatch(await page.textContent('#rules-page'), /première place|primeiro lugar/);
    if (language === 'fr' || language === 'ru') {
      await page.screenshot({ path: `${shots}/rules-qdan-${language}-360-wording.png`, fullPage: true });
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("the in-game rules panel links to the game's rules page", async () => {
  const { page, errors, context } = await open('/rules/vietnamese?cpu-delay=0');
  await shown(page);
  await page.click('#rules-page [data-play=device]');
  await page.waitForSelector('#play:not([hidden])');
  await page.click('#game-rules summary');
  // The link is pointed when the panel opens (its toggle event comes just after the click).
  await page.waitForSelector('#rules-page-link[href]');
  assert.equal(await page.getAttribute('#rules-page-link', 'href'), '/rules/vietnamese');
  assert.ok(await page.isVisible('#rules-page-link'));
  assert.deepEqual(errors, []);
  await context.close();
});

/** The places each page's picture numbers, in order, in English. */
const LANDMARKS = {
  qdan: ['Base', 'Start', 'Star', 'Home column', 'Finish'],
  classic: ['Base', 'Start', 'Home column', 'Finish'],
  vietnamese: ['Base', 'Start', 'Home column'],
};

for (const preset of PRESETS) {
  test(`the ${preset} rules page pictures a piece's way and numbers the places on the right squares`, async () => {
    const { page, errors, context } = await open(`/rules/${preset}`);
    await shown(page);
    const picture = await page.$eval('#rules-page section[aria-labelledby=rules-how] .rules-picture', (figure) => {
      const key = (node) => ['x', 'y'].map((a) => Math.round(Number(node.getAttribute(a)))).join(',');
      const board = (selector) => [...figure.querySelectorAll(`svg > rect${selector}`)].map(key).sort();
      return {
        names: [...figure.querySelectorAll('figcaption li')].map((li) => li.textContent),
        numbers: [...figure.querySelectorAll('.landmark text')].map((n) => n.textContent),
        outlined: Object.fromEntries([...figure.querySelectorAll('.landmark')].map((g) => [g.dataset.term,
          [...g.querySelectorAll('.landmark-cell')].map(key).sort()])),
        start: board('.start[data-colour=yellow]'),
        stars: board('.safe:not(.start)'),
        home: board('.home[data-colour=yellow]'),
        way: figure.querySelector('.way').getAttribute('points').trim().split(/\s+/).length,
      };
    });
    assert.deepEqual(picture.names, LANDMARKS[preset]);
    assert.deepEqual(picture.numbers, LANDMARKS[preset].map((_, i) => String(i + 1)));
    assert.deepEqual(picture.outlined['term.start'], picture.start, 'the start is yellow\'s start');
    assert.deepEqual(picture.outlined['term.home'], picture.home, 'the whole home column, nothing else');
    if (preset === 'qdan') {
      assert.equal(picture.outlined['term.star'].length, 1);
      assert.ok(picture.stars.includes(picture.outlined['term.star'][0]), 'the star is a star square');
    }
    // From the start to the end: 57 places on the Ludo board (the start, 50 more squares, five of
    // the home column and the finish), 62 on the horse board (56 squares and six home cells).
    assert.equal(picture.way, preset === 'vietnamese' ? 62 : 57);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("a rules page's words show before the engine is loaded; its picture and choices, and a game tapped then, follow", async () => {
  const errors = [];
  const contexts = [];
  /** The page opened afresh (the engine in no cache) with the engine held back until `letThrough()`. */
  const heldBack = async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    let letThrough;
    const held = new Promise((resolve) => { letThrough = resolve; });
    await page.route('**/engine.wasm', async (route) => { await held; await route.continue(); });
    await page.goto(`${url}/rules/classic?lang=fr&cpu-delay=0`);
    await page.waitForSelector('body[data-drawn=true] #rules-page:not([hidden]) h2');
    assert.equal(await page.getAttribute('body', 'data-ready'), null, 'the engine is still loading');
    return { page, letThrough };
  };
  const { page, letThrough } = await heldBack();
  assert.equal(await page.textContent('#rules-page h2'), 'Règles classiques');
  assert.ok(await page.locator('#rules-page [data-fact]').count() > 30, 'every fact is written');
  // The picture's caption is there, and its board has its room (no shift when it is drawn).
  assert.deepEqual(await page.$$eval('.rules-picture figcaption li', (items) => items.map((li) => li.dataset.term)),
    ['term.base', 'term.start', 'term.home', 'term.finish']);
  const box = () => page.$eval('.rules-picture svg', (svg) => svg.getBoundingClientRect().toJSON());
  const room = await box();
  assert.equal(room.width, room.height, 'a square kept for the board');
  assert.equal(await page.locator('.rules-picture svg rect').count(), 0, 'the board waits for the engine');
  const waiting = '#rules-page li:not([data-option=rotate]) > .values > .choices';
  assert.equal(await page.locator(`${waiting}[data-choices]`).count(), 0, "the rules' choices wait for the engine");
  letThrough();
  // Then the board is drawn in the room kept for it, and every house rule says its choices.
  await page.waitForSelector('body[data-ready=true]');
  assert.ok(await page.locator('.rules-picture svg rect').count() > 50, 'the picture is drawn');
  assert.deepEqual(await box(), room);
  assert.equal(await page.locator(`${waiting}:not([data-choices])`).count(), 0);
  // A game asked for before the engine is there starts once it is.
  const second = await heldBack();
  await second.page.click('#rules-page [data-play=cpu]');
  assert.ok(await second.page.isHidden('#play'), 'no game before the engine is there');
  second.letThrough();
  await second.page.waitForSelector('#play:not([hidden]) #board rect');
  assert.deepEqual(errors, []);
  await Promise.all(contexts.map((context) => context.close()));
});

test('the rules pages read well on a wide screen', async () => {
  for (const [preset, language] of [['qdan', 'en'], ['vietnamese', 'vi'], ['classic', 'fr']]) {
    const { page, errors, context } = await open(`/rules/${preset}?lang=${language}`, { width: 1280, height: 800 });
    await shown(page);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 1280, `${preset} in ${language}: ${width}px`);
    await page.screenshot({ path: `${shots}/rules-${preset}-${language}-1280.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('once loaded, the rules pages work offline', async () => {
  const { page, errors, context } = await open('/', undefined,
    await browser.newContext({ viewport: { width: 360, height: 640 }, serviceWorkers: 'allow' }));
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  await context.setOffline(true);
  for (const preset of PRESETS) {
    await page.goto(`${url}/rules/${preset}?lang=vi`);
    await page.waitForSelector('body[data-ready=true]');
    await shown(page);
    assert.equal(await page.getAttribute('#rules-page', 'data-preset'), preset);
  }
  await page.click('#rules-page [data-play=device]');
  await page.waitForSelector('#play:not([hidden])');
  assert.deepEqual(errors, []);
  await context.close();
});
