//! Why a throw gives a piece no move: the move generator's own checks (`movegen.rs`), read back
//! piece by piece, for the table to tell a player what held each piece back.

use serde::Serialize;
use serde::ser::SerializeStruct;

use crate::colour::Colour;
use crate::game::{Game, Phase};
use crate::movegen::Checks;
use crate::options::{FaceSet, Passing};
use crate::throw::Throw;

/// Why one piece cannot move with a throw: the first of the move generator's checks that
/// refuses it. Written in JSON with its name as `reason` (`"in_base"`, `"exact_count"`…) beside
/// its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Refusal {
    /// In the base, and the throw does not bring a piece out: only these faces do, or any double
    /// when `exit_on_double` holds (the options of the same names).
    InBase {
        /// The faces that bring a piece out.
        exit_values: FaceSet,
        /// Whether any double does too.
        exit_on_double: bool,
    },
    /// Already finished: on the Ludo finish, or in a horse home cell.
    Finished,
    /// The throw would take it past the finish, or into a horse home cell other than the
    /// deepest free one: it needs exactly `needs` to finish.
    ExactCount {
        /// The count that would finish it.
        needs: u8,
    },
    /// An opponent blockade stands on its way or where it would land (passing `blockades`); for
    /// a piece in the base, on its start.
    Blockade,
    /// A piece it may not pass stands on its way: an opponent's (passing `opponents`), or any
    /// other (passing `any`, the horse board's rule).
    InTheWay,
    /// It would land on a piece of its own, where these rules let no two share a square (stacking
    /// off); for a piece in the base, on its start.
    OwnPiece,
}

/// Why a throw gives a seat's pieces no move (see [`Game::why_no_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WhyNoMove {
    /// The throw ends the turn before any piece is looked at: the third bonus throw in a row
    /// with `three_bonus_forfeit`. The pieces then have no reason of their own.
    pub forfeit: bool,
    /// Why each piece cannot move, by piece index; `None` for a piece the throw lets move.
    pub pieces: [Option<Refusal>; 4],
}

impl WhyNoMove {
    /// Whether the throw gives no move at all.
    pub fn is_no_move(&self) -> bool {
        self.forfeit || self.pieces.iter().all(Option::is_some)
    }
}

/// A piece and why it cannot move, as one JSON object.
#[derive(Serialize)]
struct Stuck {
    piece: usize,
    #[serde(flatten)]
    refusal: Refusal,
}

/// `{"forfeit": false, "pieces": [{"piece": 1, "reason": "exact_count", "needs": 3}, …]}`: only
/// the pieces that cannot move are listed.
impl Serialize for WhyNoMove {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let pieces: Vec<Stuck> = self
            .pieces
            .iter()
            .enumerate()
            .filter_map(|(piece, r)| r.map(|refusal| Stuck { piece, refusal }))
            .collect();
        let mut m = s.serialize_struct("WhyNoMove", 2)?;
        m.serialize_field("forfeit", &self.forfeit)?;
        m.serialize_field("pieces", &pieces)?;
        m.end()
    }
}

impl Game {
    /// Why `throw` gives the pieces of `seat` no move in this position: for each piece that
    /// cannot move, the first check of the move generator that refuses it. A piece with a
    /// reason is exactly a piece [`Game::moves_of`] gives no move.
    ///
    /// When `seat` is to throw (phase `roll`), a throw that forfeits the turn is said so first
    /// ([`WhyNoMove::forfeit`]), as [`Game::roll`] would end it.
    ///
    /// ```
    /// use ludo_rules::{Colour, Game, Refusal, Rules, Throw};
    ///
    /// let game = Game::new(Rules::default(), &[Colour::Yellow, Colour::Red]).unwrap();
    /// let why = game.why_no_move(Colour::Yellow, Throw::one(5));
    /// assert!(why.is_no_move());
    /// assert!(matches!(why.pieces[0], Some(Refusal::InBase { .. })));
    /// ```
    pub fn why_no_move(&self, seat: Colour, throw: Throw) -> WhyNoMove {
        let options = self.options();
        if seat == self.seat() && self.phase() == Phase::Roll {
            let streak = self.bonus_streak_after(throw);
            if options.forfeits(streak) {
                return WhyNoMove {
                    forfeit: true,
                    pieces: [None; 4],
                };
            }
        }
        let checks = self.checks(seat, throw);
        let pieces = self.pieces(seat).map(|piece| {
            let Some(steps) = piece.steps() else {
                return if !checks.exit_throw {
                    Some(Refusal::InBase {
                        exit_values: options.exit_values,
                        exit_on_double: options.exit_on_double,
                    })
                } else {
                    landing(&checks, 1)
                };
            };
            let at = 1u64 << steps;
            if checks.unfinished & at == 0 {
                Some(Refusal::Finished)
            } else if checks.overshoots & at != 0 {
                Some(Refusal::ExactCount {
                    needs: checks.home - steps,
                })
            } else if checks.passes & at != 0 {
                Some(match checks.passing {
                    Passing::Blockades => Refusal::Blockade,
                    _ => Refusal::InTheWay,
                })
            } else if checks.home_squares >> checks.count & at != 0 {
                Some(Refusal::ExactCount {
                    needs: checks.home - steps,
                })
            } else {
                landing(&checks, at << checks.count)
            }
        });
        WhyNoMove {
            forfeit: false,
            pieces,
        }
    }
}

/// Why a piece may not land on square `to` (a one-bit mask of the seat's progress), if it may
/// not.
fn landing(checks: &Checks, to: u64) -> Option<Refusal> {
    if checks.blockade_squares & to != 0 {
        Some(Refusal::Blockade)
    } else if checks.own_squares & to != 0 {
        Some(Refusal::OwnPiece)
    } else {
        None
    }
}
