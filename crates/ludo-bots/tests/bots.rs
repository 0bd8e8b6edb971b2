//! Every CPU level under every preset and random mixes of house rules: every choice is legal,
//! every game ends, the same seed gives the same game; and an arena shows the levels' order.

use ludo_bots::{Level, Player, Rng, play_out, run_arena, seats_for, throw_dice};
use ludo_rules::{
    Board, FaceSet, FirstPlayer, Game, Layout, NoPieceOut, Options, Passing, Phase, Preset, Rules,
    Safe,
};

/// A random valid ruleset: a random preset with every option redrawn until the mix is valid.
fn random_rules(rng: &mut Rng) -> Rules {
    let preset = Preset::ALL[rng.below(3) as usize];
    loop {
        let mut o = preset.options();
        let coin = |rng: &mut Rng| rng.below(2) == 1;
        o.board = if rng.below(4) == 0 {
            Board::Horse
        } else {
            o.board
        };
        o.layout = if o.board == Board::Ludo && coin(rng) {
            Layout::ByPlayers
        } else {
            Layout::Cross
        };
        o.dice = if rng.below(4) == 0 {
            3 - o.dice
        } else {
            o.dice
        };
        o.exit_values = [
            FaceSet::of(&[6]),
            FaceSet::of(&[1, 6]),
            FaceSet::of(&[5, 6]),
        ][rng.below(3) as usize];
        o.exit_on_double = o.dice == 2 && coin(rng);
        o.bonus_values = if o.dice == 1 && coin(rng) {
            FaceSet::of(&[6])
        } else {
            FaceSet::EMPTY
        };
        o.bonus_on_double = o.dice == 2 && coin(rng);
        o.three_bonus_forfeit = coin(rng);
        o.bonus_on_capture = coin(rng);
        o.bonus_on_finish = coin(rng);
        o.bonus_if_no_move = coin(rng);
        o.no_piece_out = [
            NoPieceOut::Roll,
            NoPieceOut::AutoExit,
            NoPieceOut::ThreeTries,
        ][rng.below(3) as usize];
        o.safe = [Safe::StartsAndStars, Safe::Starts, Safe::None][rng.below(3) as usize];
        o.passing = [
            Passing::Blockades,
            Passing::Free,
            Passing::Opponents,
            Passing::Any,
        ][rng.below(4) as usize];
        o.stacking = coin(rng);
        o.exact_finish = o.board == Board::Horse || (o.dice == 1 && coin(rng));
        o.rank_everyone = coin(rng);
        o.first_player = if coin(rng) {
            FirstPlayer::SeatOrder
        } else {
            FirstPlayer::HighestRoll
        };
        if let Ok(rules) = Rules::new(preset, Options { ..o }) {
            return rules;
        }
    }
}

/// Plays one game with `level` in every seat, checking each choice against the legal moves;
/// the final position as JSON.
fn checked_game(level: Level, rules: Rules, seats: usize, seed: u64) -> String {
    let mut game = Game::new(rules, seats_for(seats).unwrap()).unwrap();
    let mut player = level.player();
    let (mut dice, mut choices) = (Rng::new(seed), Rng::new(seed ^ 0xB07));
    for _ in 0..200_000 {
        match game.phase() {
            Phase::Over => return game.to_json(),
            Phase::Rolloff | Phase::Roll => {
                game.roll(throw_dice(&game, &mut dice)).unwrap();
            }
            Phase::Move => {
                let moves = game.legal_moves();
                let choice = player.choose(&game, &moves, &mut choices);
                assert!(
                    moves.iter().any(|m| *m == choice),
                    "{level} chose {choice:?}, not among {moves:?} in {}",
                    game.to_json()
                );
                game.play(choice.piece).unwrap();
            }
        }
    }
    panic!("{level} did not finish a game under {:?}", rules);
}

#[test]
fn every_level_makes_only_legal_choices_and_finishes_games_under_every_preset() {
    for level in Level::ALL {
        for preset in Preset::ALL {
            for seats in 2..=4 {
                checked_game(level, Rules::preset(preset), seats, seats as u64);
            }
        }
    }
}

#[test]
fn every_level_copes_with_random_mixes_of_house_rules() {
    let mut rng = Rng::new(2024);
    for round in 0..60 {
        let rules = random_rules(&mut rng);
        let seats = 2 + rng.below(3) as usize;
        for level in Level::ALL {
            checked_game(level, rules, seats, round);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_game() {
    for level in Level::ALL {
        let rules = Rules::preset(Preset::Qdan);
        assert_eq!(
            checked_game(level, rules, 4, 77),
            checked_game(level, rules, 4, 77)
        );
    }
}

#[test]
fn a_bot_chooses_the_same_move_for_the_same_position_and_seed() {
    let mut game = Game::new(Rules::default(), seats_for(4).unwrap()).unwrap();
    let mut dice = Rng::new(5);
    let mut random = ludo_bots::RandomPlayer;
    let mut checked = 0;
    while !game.is_over() && checked < 300 {
        if game.phase() == Phase::Move {
            let moves = game.legal_moves();
            for level in Level::ALL {
                let a = level.player().choose(&game, &moves, &mut Rng::new(9));
                let b = level.player().choose(&game, &moves, &mut Rng::new(9));
                assert_eq!(a, b, "{level}");
            }
            checked += 1;
            let m = random.choose(&game, &moves, &mut dice);
            game.play_unchecked(&m);
        } else {
            game.roll(throw_dice(&game, &mut dice)).unwrap();
        }
    }
    assert!(checked > 50);
}

/// How many times the usual number of games a soak plays (`LUDO_SOAK`, at least 1; see
/// `scripts/soak.sh`): the floors stay, measured over more games.
fn soak_factor() -> u64 {
    std::env::var("LUDO_SOAK")
        .ok()
        .and_then(|factor| factor.parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// Runs an arena under `qdan` and prints what each entrant won, for the floors below.
fn win_rate(bots: &[Level], games: u64, seed: u64) -> f64 {
    win_rate_under(Preset::Qdan, bots, games, seed)
}

/// Runs an arena under `preset`'s rules and prints what each entrant won.
fn win_rate_under(preset: Preset, bots: &[Level], games: u64, seed: u64) -> f64 {
    win_rate_in(Rules::preset(preset), bots, games, seed)
}

/// Runs an arena under `rules` and prints what the first entrant won.
fn win_rate_in(rules: Rules, bots: &[Level], games: u64, seed: u64) -> f64 {
    let games = games * soak_factor();
    let arena = run_arena(rules, bots, games, seed, |_| {}).unwrap();
    let rate = arena.entrants[0].win_rate();
    let (preset, layout) = (rules.preset_name(), rules.options().layout);
    eprintln!("{preset} ({layout:?}) {bots:?}: {rate:.3} over {games} games");
    rate
}

// The floors sit about three standard errors of each arena's size below the rates measured over
// 20,000 games (4,000 for `hard`; docs/cpu-players.md, "Strength"): a level that lost a few points of
// strength fails them, while the seeds make every run the same.

#[test]
fn medium_wins_about_four_games_in_five_against_three_random_players() {
    // Measured 81.0%; 600 games give a standard error of 1.6 points.
    assert!(
        win_rate(
            &[Level::Medium, Level::Random, Level::Random, Level::Random],
            600,
            1
        ) > 0.76
    );
}

#[test]
fn easy_beats_random_players_and_loses_to_medium() {
    // Measured 47.1% against three random players (parity 25%), 2.0 points of standard error.
    assert!(
        win_rate(
            &[Level::Easy, Level::Random, Level::Random, Level::Random],
            600,
            2
        ) > 0.41
    );
    // Measured 81.2% for medium against easy, 1.6 points of standard error.
    assert!(win_rate(&[Level::Medium, Level::Easy], 600, 3) > 0.76);
}

#[test]
fn hard_beats_medium_head_to_head() {
    // Measured 62.5%; 300 two-seat games give a standard error of 2.8 points.
    assert!(win_rate(&[Level::Hard, Level::Medium], 300, 4) > 0.55);
}

#[test]
fn a_playout_with_random_players_ends_with_every_seat_placed() {
    let mut game = Game::new(Rules::preset(Preset::Classic), seats_for(3).unwrap()).unwrap();
    let mut random = ludo_bots::RandomPlayer;
    let tally = play_out(
        &mut game,
        &mut Rng::new(1),
        &mut [&mut random],
        &mut Rng::new(2),
        1_000_000,
    )
    .unwrap();
    assert!(tally.moves > 0 && game.is_over());
    assert!(game.seats().iter().all(|&s| game.place(s).is_some()));
}

/// An `expert` floor: its win rate in a small fixed-seed arena under `preset`'s own rules on the
/// board `layout` draws, against `hard` with two seats and against `medium` in every other seat
/// with three or four.
struct ExpertFloor {
    preset: Preset,
    seats: usize,
    layout: Layout,
    games: u64,
    floor: f64,
}

impl ExpertFloor {
    /// The game it is played in.
    fn variant(&self) -> ludo_bots::expert::Variant {
        let seats = u8::try_from(self.seats).unwrap();
        ludo_bots::expert::Variant::on(self.preset, seats, self.layout).unwrap()
    }
}

/// One floor for each game `expert` has a network for, about three standard errors of its
/// arena's size below the rate measured over 2,000 games or more (docs/cpu-players.md,
/// "Strength"). They are cheap, so they catch a network that is missing, mismatched or broken
/// rather than a point or two of strength.
const EXPERT_FLOORS: &[ExpertFloor] = &[
    ExpertFloor {
        preset: Preset::Qdan,
        seats: 2,
        layout: Layout::Cross,
        games: 60,
        floor: 0.36,
    },
    ExpertFloor {
        preset: Preset::Qdan,
        seats: 3,
        layout: Layout::Cross,
        games: 100,
        floor: 0.35,
    },
    ExpertFloor {
        preset: Preset::Qdan,
        seats: 4,
        layout: Layout::Cross,
        games: 100,
        floor: 0.30,
    },
    ExpertFloor {
        preset: Preset::Classic,
        seats: 2,
        layout: Layout::Cross,
        games: 60,
        floor: 0.36,
    },
    ExpertFloor {
        preset: Preset::Classic,
        seats: 3,
        layout: Layout::Cross,
        games: 100,
        floor: 0.55,
    },
    ExpertFloor {
        preset: Preset::Classic,
        seats: 4,
        layout: Layout::Cross,
        games: 100,
        floor: 0.42,
    },
    ExpertFloor {
        preset: Preset::Vietnamese,
        seats: 2,
        layout: Layout::Cross,
        games: 60,
        floor: 0.36,
    },
    // Boards of one arm per seat: the two-arm board (against `hard`) and the T.
    ExpertFloor {
        preset: Preset::Qdan,
        seats: 2,
        layout: Layout::ByPlayers,
        games: 60,
        floor: 0.33,
    },
    ExpertFloor {
        preset: Preset::Qdan,
        seats: 3,
        layout: Layout::ByPlayers,
        games: 100,
        floor: 0.33,
    },
    ExpertFloor {
        preset: Preset::Classic,
        seats: 2,
        layout: Layout::ByPlayers,
        games: 60,
        floor: 0.32,
    },
    ExpertFloor {
        preset: Preset::Classic,
        seats: 3,
        layout: Layout::ByPlayers,
        games: 100,
        floor: 0.45,
    },
];

/// Plays the arenas of `preset`'s floors on the board `layout` draws.
fn expert_holds_its_floors_under(preset: Preset, layout: Layout) {
    let floors = EXPERT_FLOORS.iter();
    for f in floors.filter(|f| f.preset == preset && f.layout == layout) {
        let mut bots = vec![Level::Expert];
        let opponent = if f.seats == 2 {
            Level::Hard
        } else {
            Level::Medium
        };
        bots.resize(f.seats, opponent);
        let variant = f.variant();
        let rate = win_rate_in(variant.rules(), &bots, f.games, 6);
        assert!(rate > f.floor, "{variant}: {rate:.3}");
    }
}

#[test]
fn every_game_expert_is_offered_for_has_a_floor() {
    use ludo_bots::expert::{Model, TRAINED};
    let with_floors: Vec<String> = EXPERT_FLOORS
        .iter()
        .map(|f| f.variant().to_string())
        .collect();
    let against_medium: Vec<String> = TRAINED
        .iter()
        .filter(|k| k.model == Model::Medium)
        .map(|k| k.to_string())
        .collect();
    for key in &against_medium {
        assert!(with_floors.contains(key), "{key} has no floor");
    }
    assert_eq!(
        with_floors.len(),
        against_medium.len(),
        "a floor for a game without network"
    );
}

#[test]
fn expert_holds_its_floors_under_the_standard_rules() {
    expert_holds_its_floors_under(Preset::Qdan, Layout::Cross);
}

#[test]
fn expert_holds_its_floors_under_the_classic_rules() {
    expert_holds_its_floors_under(Preset::Classic, Layout::Cross);
}

#[test]
fn expert_holds_its_floors_on_boards_of_one_arm_per_seat() {
    expert_holds_its_floors_under(Preset::Qdan, Layout::ByPlayers);
    expert_holds_its_floors_under(Preset::Classic, Layout::ByPlayers);
}

#[test]
fn expert_holds_its_floors_under_the_vietnamese_rules() {
    expert_holds_its_floors_under(Preset::Vietnamese, Layout::Cross);
}
