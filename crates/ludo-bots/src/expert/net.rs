//! The expert's value network: the chance that the viewer wins, from the inputs that are on
//! (see [`crate::expert::features`]).
//!
//! One hidden layer of [`HIDDEN`] sigmoid units and a sigmoid output. The inputs are 0 or 1 and
//! few are on, so the hidden layer adds the rows of the inputs that are on instead of multiplying
//! a whole vector.
//!
//! Stored as little-endian bytes: the magic `LUDOVAL2`; the number of inputs and of hidden units
//! (`u32` each); what it was learned for ([`Key`]): the preset's index in `Preset::ALL`, the
//! seats, the opponents' model (0 `medium`, 1 `random`) and the board's layout (0 the cross, 1 one
//! arm per seat), a byte each; then
//! the weights as `f32`, input by input (each input's row of [`HIDDEN`]), the hidden biases, the
//! output weights and the output bias.

use std::fmt;

use ludo_rules::{Layout, Preset};

use super::Model;
use super::networks::{Key, Variant};

/// Hidden units.
pub const HIDDEN: usize = 80;

/// What a stored network starts with.
const MAGIC: &[u8; 8] = b"LUDOVAL2";
/// The bytes before the weights.
const HEADER: usize = 20;

/// A value network.
#[derive(Clone, PartialEq)]
pub struct Net {
    /// What it was learned for.
    key: Key,
    /// Per input, its weight into each hidden unit.
    hidden_weights: Vec<[f32; HIDDEN]>,
    hidden_bias: [f32; HIDDEN],
    output_weights: [f32; HIDDEN],
    output_bias: f32,
}

impl fmt::Debug for Net {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Net({}, {} inputs, {HIDDEN} hidden units)",
            self.key,
            self.hidden_weights.len()
        )
    }
}

/// Why stored bytes are not a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetError(String);

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetError {}

/// The logistic function, with `libm`'s `expf`: the same bits natively and in the browser (the
/// platform's own `exp` may round differently, and a choice between two close moves with it).
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + libm::expf(-x))
}

impl Net {
    /// A network for `key`'s game with small weights drawn from `seed`: where training starts.
    pub fn untrained(key: Key, seed: u64) -> Net {
        let mut rng = crate::Rng::new(seed);
        let mut small = || ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.2;
        let mut hidden_weights = vec![[0.0; HIDDEN]; key.variant.shape().inputs()];
        for w in hidden_weights.iter_mut().flatten() {
            *w = small();
        }
        let output_weights = std::array::from_fn(|_| small());
        Net {
            key,
            hidden_weights,
            hidden_bias: [0.0; HIDDEN],
            output_weights,
            output_bias: 0.0,
        }
    }

    /// What it was learned for.
    pub fn key(&self) -> Key {
        self.key
    }

    /// The hidden units' outputs for the inputs that are on.
    #[inline]
    fn hidden(&self, active: &[u16]) -> [f32; HIDDEN] {
        let mut sum = self.hidden_bias;
        for &input in active {
            let row = &self.hidden_weights[usize::from(input)];
            for (s, w) in sum.iter_mut().zip(row) {
                *s += w;
            }
        }
        sum.map(sigmoid)
    }

    /// The output before its sigmoid.
    #[inline]
    fn output(&self, hidden: &[f32; HIDDEN]) -> f32 {
        let dot: f32 = hidden
            .iter()
            .zip(&self.output_weights)
            .map(|(h, w)| h * w)
            .sum();
        self.output_bias + dot
    }

    /// The chance of winning for the inputs that are on.
    pub fn value(&self, active: &[u16]) -> f32 {
        sigmoid(self.output(&self.hidden(active)))
    }

    /// Moves the value of `active` toward `target` (a chance, 0 to 1) by one step of gradient
    /// ascent on the log-likelihood, with step size `rate`.
    pub fn learn(&mut self, active: &[u16], target: f32, rate: f32) {
        let hidden = self.hidden(active);
        let error = rate * (target - sigmoid(self.output(&hidden)));
        let mut back = [0.0f32; HIDDEN];
        for ((b, w), h) in back.iter_mut().zip(&mut self.output_weights).zip(&hidden) {
            *b = error * *w * h * (1.0 - h);
            *w += error * h;
        }
        self.output_bias += error;
        for &input in active {
            for (w, b) in self.hidden_weights[usize::from(input)]
                .iter_mut()
                .zip(&back)
            {
                *w += b;
            }
        }
        for (w, b) in self.hidden_bias.iter_mut().zip(&back) {
            *w += b;
        }
    }

    /// The network as bytes (see the module's docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let inputs = self.hidden_weights.len();
        let mut out = Vec::with_capacity(HEADER + 4 * (inputs * HIDDEN + 2 * HIDDEN + 1));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(inputs as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let Key { variant, model } = self.key;
        let preset = Preset::ALL.iter().position(|&p| p == variant.preset);
        out.extend_from_slice(&[
            preset.expect("every preset is listed") as u8,
            variant.seats,
            model as u8,
            variant.layout as u8,
        ]);
        let weights = self.hidden_weights.iter().flatten();
        let rest = self.hidden_bias.iter().chain(&self.output_weights);
        for w in weights.chain(rest).chain([&self.output_bias]) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// A network from its bytes (see the module's docs).
    ///
    /// # Errors
    /// When the bytes are not a stored network, or one whose inputs do not fit the board of the
    /// game it names.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(NetError(format!(
                "not a value network ({} bytes, not starting with LUDOVAL2)",
                bytes.len()
            )));
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let model = match bytes[18] {
            0 => Some(Model::Medium),
            1 => Some(Model::Random),
            _ => None,
        };
        let layout = match bytes[19] {
            0 => Some(Layout::Cross),
            1 => Some(Layout::ByPlayers),
            _ => None,
        };
        let preset = Preset::ALL.get(usize::from(bytes[16]));
        let variant = preset
            .zip(layout)
            .and_then(|(&preset, layout)| Variant::on(preset, bytes[17], layout))
            .filter(|variant| Some(variant.layout) == layout);
        let (Some(variant), Some(model)) = (variant, model) else {
            return Err(NetError(format!(
                "a value network for no game there is (rules {}, {} seats, model {}, layout {})",
                bytes[16], bytes[17], bytes[18], bytes[19]
            )));
        };
        let key = Key { variant, model };
        let inputs = variant.shape().inputs();
        if word(8) as usize != inputs || word(12) as usize != HIDDEN {
            return Err(NetError(format!(
                "a network of {} inputs and {} hidden units, not {inputs} and {HIDDEN} as its game has",
                word(8),
                word(12)
            )));
        }
        let expected = HEADER + 4 * (inputs * HIDDEN + 2 * HIDDEN + 1);
        if bytes.len() != expected {
            return Err(NetError(format!(
                "a network of {} bytes, not {expected}",
                bytes.len()
            )));
        }
        let mut floats = bytes[HEADER..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")));
        let mut next = || floats.next().expect("the length was checked");
        let mut net = Net {
            key,
            hidden_weights: vec![[0.0; HIDDEN]; inputs],
            hidden_bias: [0.0; HIDDEN],
            output_weights: [0.0; HIDDEN],
            output_bias: 0.0,
        };
        for w in net.hidden_weights.iter_mut().flatten() {
            *w = next();
        }
        for w in net.hidden_bias.iter_mut().chain(&mut net.output_weights) {
            *w = next();
        }
        net.output_bias = next();
        Ok(net)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_reads_back_from_its_bytes() {
        let net = Net::untrained(Key::STANDARD, 3);
        assert_eq!(Net::from_bytes(&net.to_bytes()).unwrap(), net);
    }

    #[test]
    fn bytes_of_another_shape_are_refused() {
        let mut bytes = Net::untrained(Key::STANDARD, 3).to_bytes();
        bytes.pop();
        assert!(Net::from_bytes(&bytes).is_err());
        let mut bytes = Net::untrained(Key::STANDARD, 3).to_bytes();
        bytes[0] = b'X';
        assert!(Net::from_bytes(&bytes).is_err());
        let mut bytes = Net::untrained(Key::STANDARD, 3).to_bytes();
        // The same bytes said to be for the Vietnamese game, on the horse board's 56 squares.
        bytes[16] = 2;
        let error = Net::from_bytes(&bytes).unwrap_err().to_string();
        assert!(
            error.contains("942 inputs and 80 hidden units, not 1010"),
            "{error}"
        );
    }

    #[test]
    fn the_layout_byte_names_the_board_and_one_arm_per_seat_is_refused_where_it_is_no_board() {
        let t = Key {
            variant: Variant::on(Preset::Qdan, 3, Layout::ByPlayers).unwrap(),
            model: Model::Medium,
        };
        let bytes = Net::untrained(t, 1).to_bytes();
        assert_eq!(bytes[19], 1);
        assert_eq!(Net::from_bytes(&bytes).unwrap().key(), t);
        let mut bytes = Net::untrained(Key::STANDARD, 1).to_bytes();
        // One arm per seat with four seats is the cross, which is stored as the cross.
        bytes[19] = 1;
        assert!(Net::from_bytes(&bytes).is_err());
        bytes[19] = 2;
        assert!(Net::from_bytes(&bytes).is_err());
    }

    #[test]
    fn a_network_knows_the_game_it_was_learned_for() {
        let key = Key {
            variant: Variant::new(Preset::Vietnamese, 2).unwrap(),
            model: Model::Medium,
        };
        let net = Net::from_bytes(&Net::untrained(key, 1).to_bytes()).unwrap();
        assert_eq!(net.key(), key);
        assert_eq!(
            format!("{net:?}"),
            "Net(vietnamese-2, 1010 inputs, 80 hidden units)"
        );
    }

    #[test]
    fn learning_moves_the_value_toward_the_target_and_leaves_other_inputs_alone() {
        let mut net = Net::untrained(Key::STANDARD, 1);
        let (seen, unseen) = ([3u16, 70, 400], [5u16, 71, 401]);
        let before = (net.value(&seen), net.value(&unseen));
        for _ in 0..200 {
            net.learn(&seen, 1.0, 0.05);
        }
        assert!(net.value(&seen) > 0.9, "{}", net.value(&seen));
        // The biases are shared, so the unseen inputs move less than the seen ones.
        assert!(net.value(&unseen) - before.1 < net.value(&seen) - before.0);
    }
}
