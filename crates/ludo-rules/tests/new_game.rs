//! What the rules vectors (`tests/data/*.jsonl`) cannot say, because a vector starts from a
//! position and gives back positions: who throws first in a game `Game::new` starts (rules.md
//! §4.1), and that a refused action leaves the `Game` it was asked of unchanged.

use ludo_rules::{Colour, Game, Phase, PlayError, Rules, Throw};
use serde_json::json;

fn rules(json: serde_json::Value) -> Rules {
    serde_json::from_value(json).expect("the rules read")
}

#[test]
fn first_player_seat_order_lets_the_first_listed_seat_throw_first() {
    let seats = [Colour::Blue, Colour::Red, Colour::Green, Colour::Yellow];
    let g = Game::new(Rules::default(), &seats).unwrap();
    assert_eq!(
        (g.phase(), g.seat(), g.throws()),
        (Phase::Roll, Colour::Blue, 0)
    );
    let g = Game::new(rules(json!("vietnamese")), &[Colour::Red, Colour::Yellow]).unwrap();
    assert_eq!((g.phase(), g.seat()), (Phase::Roll, Colour::Red));
}

#[test]
fn first_player_highest_roll_starts_with_a_one_die_roll_off_from_the_first_listed_seat() {
    let g = Game::new(
        rules(json!("classic")),
        &[Colour::Yellow, Colour::Blue, Colour::Red],
    )
    .unwrap();
    assert_eq!((g.phase(), g.seat()), (Phase::Rolloff, Colour::Yellow));
    let r = rules(json!({"preset": "vietnamese", "first_player": "highest_roll"}));
    let g = Game::new(r, &[Colour::Yellow, Colour::Blue, Colour::Red]).unwrap();
    assert_eq!((g.phase(), g.dice_to_throw()), (Phase::Rolloff, 1));
}

#[test]
fn refused_actions_change_nothing() {
    let position = json!({"rules": "qdan", "seats": ["yellow", "red"],
        "pieces": {"yellow": [10, "base", "base", "base"], "red": ["base", "base", "base", "base"]},
        "turn": {"seat": "yellow", "phase": "roll", "roll": null, "bonus_streak": 0, "throws": 0}});
    let mut g = Game::from_json(&position.to_string()).unwrap();
    let fresh = g;
    assert!(matches!(g.play(0), Err(PlayError::WrongPhase { .. })));
    assert!(matches!(
        g.roll(Throw::two(1, 2)),
        Err(PlayError::WrongDice { .. })
    ));
    assert_eq!(g, fresh);
    g.roll(Throw::one(3)).unwrap();
    let before = g;
    assert!(g.play(1).is_err());
    assert!(g.play(4).is_err());
    assert!(g.roll(Throw::one(3)).is_err());
    assert_eq!(g, before);
}
