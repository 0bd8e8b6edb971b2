// The rules pages, one per preset at `/rules/<preset>`: how to play, the site's defaults, every
// house rule with what it does, its default and the other choices these rules allow, the words
// and a few questions. Every sentence is chosen from the preset's option values, so each page
// says what its rules do; the choices offered are those the engine accepts. Each fact's element
// carries `data-fact` with the fact's name.

import { addTexts, has, keepLanguage, setBoard, t } from '../i18n/i18n.js';
import { RULES_TEXTS } from './rulestext.js';
import { either, optionLabel, ordered, valueLabel } from './options.js';
import { errorText } from '../i18n/texts-errors.js';
import { rulesPicture } from './rulespicture.js';
import { limitName } from '../room/served.js';
import { styleSheet } from '../dom.js';

// This part's own styles, loaded with it (not with every page), before it draws anything.
await styleSheet(new URL('./rulespage.css', import.meta.url));

addTexts(RULES_TEXTS);

/** The site-level house rule beside the engine's options: the next seat starts a game played again. */
const ROTATE = 'rotate';

/** A new `tag` element holding `text`, added at the end of `parent`. */
function add(parent, tag, text = '') {
  const node = document.createElement(tag);
  node.textContent = text;
  parent.append(node);
  return node;
}

/** A heading of the page, with an id its section is labelled by. */
function section(parent, key, id) {
  const part = add(parent, 'section');
  const heading = add(part, 'h3', t(key));
  heading.id = `rules-${id}`;
  part.setAttribute('aria-labelledby', heading.id);
  return part;
}

/** The throws that bring a piece out, in words: die faces (on either die) and any double. */
function exitWays(options) {
  const faces = either(options.exit_values);
  if (options.dice === 1) return t('ways.faces', { faces });
  if (!options.exit_values.length) return t('ways.double');
  return t(options.exit_on_double ? 'ways.facesOrDouble' : 'ways.eitherDie', { faces });
}

/** The throws that give another throw, in words, or null when none does. */
function bonusWays(options) {
  if (options.dice === 2) return options.bonus_on_double ? t('ways.double') : null;
  return options.bonus_values.length ? t('ways.faces', { faces: either(options.bonus_values) }) : null;
}

/** Who plays with what: players, pieces, the board, the owner marks, who starts. */
function setupFacts(options) {
  const horse = options.board === 'horse';
  return [
    ['players', t('fact.players')],
    ['pieces', t(horse ? 'fact.pieces.horse' : 'fact.pieces')],
    ['board-shape', t(horse ? 'fact.board.horse' : `fact.board.${options.layout}`)],
    ['owner-marks', t('fact.marks')],
    ['first-player', t(`fact.first.${options.first_player}`)],
  ];
}

/** A throw: the dice, leaving the base, moving, and the throws that earn another. */
function throwFacts(options) {
  const exit = exitWays(options);
  const bonus = bonusWays(options);
  const moving = options.dice === 2
    ? [['dice', t('fact.dice')], ['exit', t('fact.exit', { ways: exit })], ['total', t('fact.total')]]
    : [['turn', t(options.board === 'horse' ? 'fact.turn.horse' : 'fact.turn')],
      ['exit', t('fact.exit', { ways: exit })]];
  return [
    ...moving,
    ['no-piece-out', t(`fact.noPieceOut.${options.no_piece_out}`, { ways: exit })],
    ['bonus', bonus ? t('fact.bonus', { ways: bonus }) : t('fact.bonus.none')],
    ...(bonus ? [['three-in-a-row', t(options.three_bonus_forfeit ? 'fact.three' : 'fact.three.no')]] : []),
  ];
}

/** Pieces meeting: captures, safe squares (and the star), sharing a square, what blocks the way. */
function meetingFacts(options) {
  return [
    ['capture', t('fact.capture')],
    ['capture-throw', t(options.bonus_on_capture ? 'fact.captureThrow' : 'fact.captureThrow.no')],
    ['safe', t(`fact.safe.${options.safe}`)],
    ...(options.safe === 'starts_and_stars' ? [['star', t('fact.star')]] : []),
    ['stacking', t(options.stacking ? 'fact.stacking' : 'fact.stacking.no')],
    // Where blockades are what stops a piece, the fact is the blockade itself.
    [options.passing === 'blockades' ? 'blockade' : 'passing', t(`fact.passing.${options.passing}`)],
  ];
}

/** The way home, a throw with no move, the winner and the places. */
function endFacts(preset, options) {
  const bonus = bonusWays(options);
  const home = options.board === 'horse' ? [['home-column', t('fact.home.horse')]]
    : [['home-column', t('fact.homeColumn')], ['exact', t(options.exact_finish ? 'fact.exact' : 'fact.exact.no')]];
  return [
    ...home,
    ...(options.bonus_on_finish ? [['finish-throw', t('fact.finishThrow')]] : []),
    ['no-move', !bonus ? t('fact.noMove')
      : t(options.bonus_if_no_move ? 'fact.noMove.again' : 'fact.noMove.even', { ways: bonus })],
    ['winner', t(options.board === 'horse' ? 'fact.winner.horse' : 'fact.winner')],
    ['places', t(options.rank_everyone ? 'fact.places.everyone' : 'fact.places')],
    // A site rule, not an option: this preset's games of three or four are never rated.
    ...(preset === 'vietnamese' ? [['friendly', t('fact.friendly')]] : []),
  ];
}

/** How to play, as `[fact, sentence]` pairs in the order of a game, from the preset's options. */
function facts(preset, options) {
  return [...setupFacts(options), ...throwFacts(options), ...meetingFacts(options), ...endFacts(preset, options)];
}

/** The site's defaults, which no preset changes, as a table of setting and value. */
function siteDefaults(parent) {
  const table = add(parent, 'table');
  table.className = 'site-defaults';
  const head = table.createTHead().insertRow();
  for (const key of ['site.setting', 'site.value']) add(head, 'th', t(key)).scope = 'col';
  const body = table.createTBody();
  for (const [fact, key] of [['site-players', 'site.players'], ['site-clock', 'site.clock'],
    ['site-leave', 'site.leave'], ['site-shared-place', 'site.shared']]) {
    const row = body.insertRow();
    row.dataset.fact = fact;
    add(row, 'th', t(key)).scope = 'row';
    row.insertCell().textContent = t(`${key}.v`);
  }
}

/**
 * The values of option `name` these rules can take instead of their own: every value the
 * settings offer that the engine accepts with the rest of the preset unchanged. `refusal` is
 * the engine's reason for the first one it refuses, for saying why when none is left.
 */
function otherChoices(engine, options, name, values) {
  const others = [];
  let refusal = null;
  for (const value of values) {
    if (JSON.stringify(value) === JSON.stringify(options[name])) continue;
    try {
      engine.checkRules({ ...options, [name]: value });
      others.push(value);
    } catch (error) {
      refusal ??= error;
    }
  }
  return { others, refusal };
}

/**
 * A value as a sentence says it after "Default:" or "Other choices:": a named choice in lower
 * case ("Par défaut : le premier joueur à la table"), but for a name (Ludo); yes, no and die
 * faces as they are.
 */
function inSentence(value) {
  const label = valueLabel(value, t);
  if (typeof value !== 'string' || value === 'ludo') return label;
  return label.charAt(0).toLocaleLowerCase(document.documentElement.lang || 'en') + label.slice(1);
}

/**
 * One house rule: its name, what it does and its default. Returns what writes its other choices
 * (`others`, or why there are none: `refusal`), which may come later than the rest.
 */
function houseRule(list, name, label, description, value) {
  const item = add(list, 'li');
  item.dataset.option = name;
  item.dataset.fact = `house-${name}`;
  add(item, 'h4', label);
  add(item, 'p', description);
  const values = add(item, 'p');
  values.className = 'values';
  add(values, 'span', t('rules.defaultIs', { value: inSentence(value) })).className = 'default';
  values.append(' ');
  const choices = add(values, 'span');
  choices.className = 'choices';
  return (others, refusal) => {
    choices.textContent = others.length
      ? t('rules.othersAre', { values: others.map(inSentence).join(t('rules.choiceBetween')) })
      : t('rules.noOthers', { why: errorText(refusal, t, 'rules.error.other') });
    choices.dataset.choices = JSON.stringify(others);
  };
}

/**
 * Every house rule of these rules (the layout only on the Ludo board) and the site's "the next
 * seat starts when playing again", with the choices the engine accepts here: those are written
 * once `engineLoaded` gives the engine (the section is far below the first screen).
 */
function houseRules(parent, engineLoaded, options, choices) {
  add(parent, 'p', t('rules.houseIntro', { name: t('home.houseRules') }));
  const list = add(parent, 'ul');
  list.className = 'house-rules';
  const pending = [];
  for (const [name, value] of ordered(options)) {
    if (name === 'layout' && options.board === 'horse') continue;
    const write = houseRule(list, name, optionLabel(name, t), t(`hr.${name}`), value);
    pending.push((engine) => {
      const { others, refusal } = otherChoices(engine, options, name, choices[name] ?? []);
      write(others, refusal);
    });
  }
  const rotate = [t('hr.rotate'), options.first_player === 'highest_roll'
    ? t('hr.rotate.rolloff', { option: optionLabel('first_player', t) }) : ''].filter(Boolean).join(' ');
  houseRule(list, ROTATE, t('home.rotate'), rotate, true)([false], null);
  engineLoaded.then((engine) => { for (const write of pending) write(engine); }, () => {});
}

/** A list of terms or questions and their meanings or answers, each with its fact name. */
function definitions(parent, entries) {
  const list = add(parent, 'dl');
  for (const [fact, term, meaning] of entries) {
    const pair = add(list, 'div');
    pair.dataset.fact = fact;
    add(pair, 'dt', term);
    add(pair, 'dd', meaning);
  }
}

/** The words of the game, as these rules use them. */
function vocabulary(options) {
  const horse = options.board === 'horse';
  const blockade = [t('term.blockade.d'), t(`term.blockade.${options.passing}`),
    options.stacking ? '' : t('term.blockade.noStacking')].filter(Boolean).join(' ');
  return [
    ['term-base', t('term.base'), t('term.base.d')],
    ['term-start', t('term.start'), t('term.start.d')],
    ['term-home-column', t('term.home'), t(horse ? 'term.home.d.horse' : 'term.home.d')],
    ['term-finish', t('term.finish'), t(horse ? 'term.finish.d.horse' : 'term.finish.d')],
    ['term-safe', t('term.safe'), t(`term.safe.d.${options.safe}`)],
    ...(options.safe === 'starts_and_stars' ? [['term-star', t('term.star'), t('term.star.d')]] : []),
    ['term-blockade', t('term.blockade'), blockade],
  ];
}

/** The questions players ask, answered for these rules. */
function questions(options) {
  const horse = options.board === 'horse';
  const capture = [t('fact.capture'),
    t(options.bonus_on_capture ? 'fact.captureThrow' : 'fact.captureThrow.no')].join(' ');
  const bigger = horse ? 'faq.bigger.horse' : options.exact_finish ? 'faq.bigger.no' : 'faq.bigger.yes';
  return [
    ['faq-exit', t('faq.exit'), t('fact.exit', { ways: exitWays(options) })],
    ['faq-capture', t('faq.capture'), capture],
    ['faq-no-capture', t('faq.noCapture'), t(`faq.noCapture.${options.safe}`)],
    ['faq-bigger', t('faq.bigger'), t(bigger)],
  ];
}

/**
 * The three ways to play these rules: against the CPU, on this device, or with friends in a new
 * room (asking for a name only when none was given before). `play(kind, name)` starts one and
 * may reject with the reason, shown here.
 */
function playButtons(parent, knownName, play) {
  const part = section(parent, 'rules.play', 'play');
  part.className = 'play-rules';
  const error = add(part, 'p');
  error.setAttribute('role', 'alert');
  const buttons = add(part, 'div');
  buttons.className = 'play-buttons';
  for (const [kind, key] of [['cpu', 'rules.play.cpu'], ['device', 'rules.play.device']]) {
    const button = add(buttons, 'button', t(key));
    button.type = 'button';
    button.dataset.play = kind;
    button.onclick = () => play(kind);
  }
  const form = add(buttons, 'form');
  form.className = 'play-friends';
  const label = add(form, 'label');
  add(label, 'span', t('home.name'));
  const name = add(label, 'input');
  Object.assign(name, { name: 'name', required: true, value: knownName ?? '' });
  limitName(name, t);
  label.hidden = Boolean(knownName);
  const submit = add(form, 'button', t('rules.play.friends'));
  submit.dataset.play = 'friends';
  form.onsubmit = async (event) => {
    event.preventDefault();
    error.textContent = '';
    submit.disabled = true;
    try {
      await play('friends', name.value);
    } catch (reason) {
      error.textContent = reason.message;
      submit.disabled = false;
    }
  };
}

/**
 * A list of links to the page's sections, put before `first`: on a phone the page is long, and the
 * questions at its foot are one tap away. A link scrolls to its heading and gives it the focus,
 * leaving the address as it is.
 */
function contents(first, headings) {
  const nav = document.createElement('nav');
  nav.className = 'rules-contents';
  nav.setAttribute('aria-label', t('rules.contents'));
  const list = add(nav, 'ul');
  for (const heading of headings) {
    const link = add(add(list, 'li'), 'a', heading.textContent);
    link.href = `#${heading.id}`;
    link.onclick = (event) => {
      event.preventDefault();
      heading.tabIndex = -1;
      heading.scrollIntoView();
      heading.focus({ preventScroll: true });
    };
  }
  first.before(nav);
}

/**
 * Fills `page` with the rules page of `preset` (`{preset, options}` from `/api/rules`, whose
 * `choices` are the values each option can take). Its words are written at once; its picture
 * and which of those choices these rules accept wait for the engine, `engineLoaded`. `knownName`
 * is the name given before on this device, if any; `play(kind, name)`
 * starts a game of these rules: `cpu`, `device` or `friends`.
 */
export function drawRulesPage(page, { preset, options }, choices, engineLoaded, knownName, play) {
  setBoard(options.board);
  page.replaceChildren();
  page.dataset.preset = preset;
  const back = add(add(page, 'p'), 'a', t('home'));
  back.href = keepLanguage('/');
  back.className = 'home-link';
  back.dataset.nav = '';
  const title = add(page, 'h2', t(`rules.title.${preset}`));
  title.tabIndex = -1;
  add(page, 'p', t(`rules.intro.${preset}`)).className = 'intro';
  // Where these rules come from, for the rules written after a players' page (Qdan's).
  if (has(`rules.source.${preset}`)) {
    const source = add(page, 'p', t(`rules.source.${preset}`));
    source.className = 'source';
    source.dataset.fact = 'source';
  }
  playButtons(page, knownName, play);
  const summary = section(page, 'rules.summary', 'how');
  summary.append(rulesPicture(preset, options, engineLoaded, t));
  const how = add(summary, 'ul');
  how.className = 'facts';
  for (const [fact, sentence] of facts(preset, options)) add(how, 'li', sentence).dataset.fact = fact;
  const site = add(section(page, 'rules.site', 'site'), 'div');
  site.className = 'scroll-box';
  siteDefaults(site);
  houseRules(section(page, 'rules.houseRules', 'house'), engineLoaded, options, choices);
  definitions(section(page, 'rules.glossary', 'words'), vocabulary(options));
  definitions(section(page, 'rules.faq', 'faq'), questions(options));
  contents(how.parentElement, [...page.querySelectorAll('section:not(.play-rules) > h3')]);
  document.title = `${title.textContent} · ${t('title')}`;
  title.focus();
}
