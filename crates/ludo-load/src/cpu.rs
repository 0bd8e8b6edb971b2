//! The CPU time a process has used, from Linux's `/proc/<pid>/stat`: for the CPU a run costs
//! the server and this tool, an action.

use std::time::Duration;

/// How long a clock tick of `/proc/<pid>/stat` lasts: Linux reports user and system time in
/// ticks of `USER_HZ`, 100 a second on every architecture it runs on.
const TICK: Duration = Duration::from_millis(10);

/// The user and system time process `pid` (`"self"` for this one) has used so far; `None`
/// where there is no such process or no `/proc`.
fn used(pid: &str) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    ticks_used(&stat).map(|ticks| TICK * u32::try_from(ticks).unwrap_or(u32::MAX))
}

/// User plus system ticks in the text of a `/proc/<pid>/stat`. Its second field, the command
/// in parentheses, may hold spaces and parentheses itself: the fields are counted after its
/// last `)`. User time is the 14th field, system time the 15th.
fn ticks_used(stat: &str) -> Option<u64> {
    let (_, after_command) = stat.rsplit_once(')')?;
    // After the command come the state (the 3rd field) and the rest.
    let mut fields = after_command.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

/// CPU time used so far by the server (when its process id is known) and by this tool.
pub struct Reading {
    server: Option<Duration>,
    tool: Option<Duration>,
}

/// The CPU time an action cost, in microseconds, where it could be measured.
pub struct PerAction {
    /// The server's.
    pub server: Option<f64>,
    /// This tool's.
    pub tool: Option<f64>,
}

impl Reading {
    /// What the server (process `server_pid`) and this tool have used so far.
    pub fn now(server_pid: Option<u32>) -> Reading {
        Reading {
            server: server_pid.and_then(|pid| used(&pid.to_string())),
            tool: used("self"),
        }
    }

    /// The CPU each spent an action from `self` to `later`, over `actions` actions.
    pub fn per_action(&self, later: &Reading, actions: u64) -> PerAction {
        PerAction {
            server: per_action(self.server, later.server, actions),
            tool: per_action(self.tool, later.tool, actions),
        }
    }
}

/// The CPU a process used between two readings, in microseconds an action; `None` when either
/// reading is missing or there were no actions.
fn per_action(before: Option<Duration>, after: Option<Duration>, actions: u64) -> Option<f64> {
    let spent = after?.checked_sub(before?)?;
    (actions > 0).then(|| spent.as_secs_f64() * 1e6 / actions as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_and_system_ticks_are_read_after_a_command_holding_spaces_and_parentheses() {
        let stat = "4242 (tokio (rt) 1) S 1 4242 4242 0 -1 4194560 100 0 0 0 \
                    731 154 0 0 20 0 3 0 100 1000 200";
        assert_eq!(ticks_used(stat), Some(731 + 154));
        assert_eq!(ticks_used("4242 (cut short) S 1"), None);
    }

    #[test]
    fn the_time_a_process_has_used_is_read_when_it_exists() {
        assert!(used("self").is_some());
        assert_eq!(used("no-such-process"), None);
    }

    #[test]
    fn per_action_divides_the_time_used_between_two_readings_by_the_actions() {
        let per = per_action(
            Some(Duration::from_millis(100)),
            Some(Duration::from_millis(300)),
            1000,
        );
        assert_eq!(per, Some(200.0));
        assert_eq!(per_action(None, Some(Duration::ZERO), 1), None);
        assert_eq!(
            per_action(Some(Duration::ZERO), Some(Duration::ZERO), 0),
            None
        );
    }
}
