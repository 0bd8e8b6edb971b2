//! The analysis of a game: a fixed game's figures, checked in so that a change to the network or
//! to what it sees shows here, and what every analysis holds to.

use ludo_bots::analysis::{Analysis, AnalysisError, COSTLY, TURNING, analyse};
use ludo_bots::expert::{Model, Net, TRAINED, Variant, network};
use ludo_bots::{Level, Rng, throw_dice};
use ludo_fair::{Action, VerifyError};
use ludo_rules::{Colour, Phase, PlayError, Preset, Rules, Throw};
use serde_json::{Value, json};

/// A whole `qdan` game of a `random`, an `easy` and two `medium` CPUs, as a local game exports
/// it (green wins after 533 actions).
const RECORD: &str = include_str!("data/game.json");

/// The fixed game's rules, seats and actions.
fn record() -> (Rules, Vec<Colour>, Vec<Action>) {
    let record: Value = serde_json::from_str(RECORD).unwrap();
    (
        serde_json::from_value(record["rules"].clone()).unwrap(),
        serde_json::from_value(record["seats"].clone()).unwrap(),
        serde_json::from_value(record["actions"].clone()).unwrap(),
    )
}

fn net() -> Option<&'static Net> {
    network(&Rules::default(), 4, Model::Medium)
}

/// The fixed game analysed over `range`.
fn analysed(range: std::ops::Range<usize>) -> Analysis {
    let (rules, seats, actions) = record();
    analyse(rules, &seats, &actions, net(), range).unwrap()
}

/// Chances to 4 decimals.
fn four(chances: &[f32]) -> Vec<f64> {
    chances
        .iter()
        .map(|&c| (f64::from(c) * 1e4).round() / 1e4)
        .collect()
}

#[test]
fn the_fixed_game_gives_its_checked_in_chances_choices_costly_moves_and_turning_points() {
    let analysis = analysed(0..usize::MAX);
    assert!(analysis.is_whole());
    assert_eq!((analysis.actions, analysis.chances.len()), (533, 534));
    assert_eq!(four(&analysis.chances[0]), [0.2574, 0.2475, 0.2475, 0.2475]);
    assert_eq!(
        four(&analysis.chances[100]),
        [0.2418, 0.1837, 0.3151, 0.2594]
    );
    assert_eq!(
        four(&analysis.chances[300]),
        [0.1213, 0.094, 0.3738, 0.4109]
    );
    assert_eq!(
        four(&analysis.chances[500]),
        [0.0011, 0.0063, 0.0812, 0.9114]
    );
    assert_eq!(analysis.choices.len(), 185);
    let costly: Vec<_> = analysis.costly().collect();
    assert_eq!(costly.len(), 2);
    let first = costly[0];
    assert_eq!(
        (first.action, first.seat, first.played, first.best),
        (340, Colour::Red, 0, 1)
    );
    assert_eq!(
        four(&[first.played_chance, first.best_chance, first.worst_chance]),
        [0.3587, 0.4164, 0.3531]
    );
    let points: Vec<(usize, Colour, Vec<f64>)> = analysis
        .turning_points()
        .iter()
        .map(|p| (p.action, p.seat, four(&[p.before, p.after])))
        .collect();
    assert_eq!(
        points,
        [
            (445, Colour::Red, vec![0.4933, 0.2515]),
            (497, Colour::Green, vec![0.6916, 0.8674]),
            (447, Colour::Green, vec![0.5883, 0.7221]),
            (532, Colour::Green, vec![0.8743, 1.0]),
            (449, Colour::Green, vec![0.7054, 0.809]),
        ]
    );
    let red = analysis.summary(Colour::Red);
    assert_eq!((red.best, red.costliest), (Some(434), Some(391)));
}

#[test]
fn every_row_of_chances_sums_to_one() {
    for row in analysed(0..usize::MAX).chances {
        let sum: f32 = row.iter().sum();
        assert!((sum - 1.0).abs() < 1e-5, "{row:?}");
        assert!(row.iter().all(|c| (0.0..=1.0).contains(c)), "{row:?}");
    }
}

#[test]
fn once_the_winner_has_finished_its_chance_is_one_and_the_others_none() {
    let analysis = analysed(0..usize::MAX);
    let last = analysis.chances.last().unwrap();
    assert_eq!(last, &[0.0, 0.0, 0.0, 1.0]);
    // The row before is the network's, which never says certain.
    assert!(analysis.chances[532][3] < 1.0);
}

#[test]
fn every_choice_values_the_move_played_and_the_best_as_the_network_does() {
    let analysis = analysed(0..usize::MAX);
    for c in &analysis.choices {
        assert!(
            c.worst_chance <= c.played_chance && c.played_chance <= c.best_chance,
            "{c:?}"
        );
        assert!(
            c.worst_chance < c.best_chance,
            "two positions at least: {c:?}"
        );
        assert_eq!(c.played == c.best, c.cost() == 0.0, "{c:?}");
    }
    assert!(analysis.costly().all(|c| c.cost() >= COSTLY));
    for p in analysis.turning_points() {
        assert!((p.after - p.before).abs() >= TURNING, "{p:?}");
    }
}

#[test]
fn games_with_house_rules_are_not_analysed_and_another_games_network_counts_as_none() {
    let (_, seats, actions) = record();
    let house = Rules::check_json(r#"{"preset": "qdan", "passing": "free"}"#).unwrap();
    let refused = analyse(house, &seats, &actions, net(), 0..10).unwrap_err();
    assert_eq!(refused, AnalysisError::Unavailable);
    assert_eq!(refused.code(), "analysis_unavailable");
    // Known before any network is asked for.
    assert_eq!(
        analyse(house, &seats, &actions, None, 0..10),
        Err(AnalysisError::Unavailable)
    );
    let without = analyse(Rules::default(), &seats, &actions, None, 0..10).unwrap_err();
    assert_eq!(without.code(), "no_network");
    // The standard game's network for a classic game.
    let classic = Rules::preset(Preset::Classic);
    let other = analyse(classic, &seats, &actions, net(), 0..10).unwrap_err();
    assert_eq!(other, AnalysisError::NoNetwork);
    assert_eq!(AnalysisError::CODES, ["analysis_unavailable", "no_network"]);
}

/// The first `length` actions of a game of `variant` between `medium` players.
fn played(variant: Variant, length: usize) -> Vec<Action> {
    let mut game = variant.game();
    let (mut dice, mut choices) = (Rng::new(7), Rng::new(8));
    let mut medium = Level::Medium.player();
    let mut actions = Vec::new();
    while actions.len() < length && !game.is_over() {
        let action = if game.phase() == Phase::Move {
            let moves = game.legal_moves();
            Action::Move(medium.choose(&game, &moves, &mut choices).piece)
        } else {
            Action::Throw(throw_dice(&game, &mut dice))
        };
        action.apply(&mut game).unwrap();
        actions.push(action);
    }
    actions
}

#[test]
fn a_game_of_every_preset_and_seat_count_with_a_network_is_analysed_with_its_own() {
    for key in TRAINED.iter().filter(|k| k.model == Model::Medium) {
        let variant = key.variant;
        let game = variant.game();
        let actions = played(variant, 200);
        let net = network(game.rules(), game.seats().len(), Model::Medium);
        assert_eq!(net.map(Net::key), Some(*key));
        let analysis = analyse(variant.rules(), game.seats(), &actions, net, 0..usize::MAX)
            .unwrap_or_else(|e| panic!("{key}: {e}"));
        assert_eq!(analysis.chances.len(), actions.len() + 1, "{key}");
        for row in &analysis.chances {
            let sum: f32 = row.iter().sum();
            assert!((sum - 1.0).abs() < 1e-4, "{key}: {row:?}");
        }
        assert!(!analysis.choices.is_empty(), "{key}");
    }
}

#[test]
fn an_analysis_in_parts_joins_into_the_analysis_of_the_whole() {
    let whole = analysed(0..usize::MAX);
    let mut parts = analysed(0..100);
    assert_eq!((parts.first, parts.chances.len()), (0, 101));
    assert!(!parts.is_whole());
    let rest = analysed(100..533);
    assert_eq!(rest.first, 101);
    assert_eq!(rest.chances[..], whole.chances[101..]);
    parts.join(rest);
    assert_eq!(parts, whole);
    // Ranges past the end are clamped.
    let beyond = analysed(500..10_000);
    assert_eq!(beyond.chances[..], whole.chances[501..]);
    assert!(analysed(600..700).chances.is_empty());
}

#[test]
fn a_record_with_an_illegal_action_answers_its_index_whatever_part_is_analysed() {
    let (rules, seats, mut actions) = record();
    // A throw where a move is due.
    let at = actions
        .iter()
        .position(|a| matches!(a, Action::Move(_)))
        .unwrap();
    actions[at] = Action::Throw(Throw::one(6));
    for range in [0..usize::MAX, 0..1, 300..400] {
        let refused = analyse(rules, &seats, &actions, net(), range).unwrap_err();
        let AnalysisError::Record(VerifyError::Illegal { index, error }) = &refused else {
            panic!("{refused:?}");
        };
        assert_eq!(*index, at);
        assert!(matches!(error, PlayError::WrongPhase { .. }), "{error:?}");
        assert_eq!(refused.code(), "wrong_phase");
        assert_eq!(refused.params()["index"], at);
    }
}

#[test]
fn the_json_answer_rounds_chances_and_adds_the_highlights_only_for_the_whole_game() {
    let whole = analysed(0..usize::MAX).to_json();
    assert_eq!(whole["start"], 0);
    assert_eq!(whole["chances"][0], json!([0.2574, 0.2475, 0.2475, 0.2475]));
    assert_eq!(whole["chances"][533], json!([0.0, 0.0, 0.0, 1.0]));
    assert_eq!(
        whole["costly"][0],
        json!({"action": 340, "seat": "red", "played": 0, "best": 1,
               "played_chance": 0.3587, "best_chance": 0.4164, "worst_chance": 0.3531})
    );
    assert_eq!(
        whole["turning_points"][0],
        json!({"action": 445, "seat": "red", "before": 0.4933, "after": 0.2515})
    );
    assert_eq!(
        whole["summary"]["red"],
        json!({"best": 434, "costliest": 391})
    );
    assert_eq!(whole["summary"]["green"]["costliest"], Value::Null);
    let part = analysed(100..200).to_json();
    assert_eq!(part["start"], 101);
    assert_eq!(part["chances"].as_array().unwrap().len(), 100);
    for derived in ["turning_points", "costly", "summary"] {
        assert!(part.get(derived).is_none(), "{derived}");
    }
}
