//! Scratch PostgreSQL databases for tests: each test makes its own, with a random name, on the
//! server `LUDO_TEST_POSTGRES` names, and drops it at the end, so tests run in parallel.

use postgres::{Client, NoTls};

/// The environment variable naming a PostgreSQL server where the test user may create
/// databases, e.g. `postgres://postgres@127.0.0.1:55432/postgres`.
pub const VARIABLE: &str = "LUDO_TEST_POSTGRES";

/// A fresh, empty database, dropped (with any connection still open to it) when this is.
pub struct TestDatabase {
    admin: String,
    name: String,
    url: String,
}

/// Runs `work` on a thread of its own: the synchronous client must not run inside an async
/// runtime, and a test may be one.
fn off_thread<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(work)
        .join()
        .expect("the PostgreSQL helper thread finishes")
}

/// `url` naming the database `name` instead of its own.
fn with_database(url: &str, name: &str) -> String {
    let Some(scheme) = url.find("://") else {
        // The `key=value` form.
        return format!("{url} dbname={name}");
    };
    let (base, query) = url.split_at(url.find('?').unwrap_or(url.len()));
    let authority_end = base[scheme + 3..]
        .find('/')
        .map_or(base.len(), |i| scheme + 3 + i);
    format!("{}/{name}{query}", &base[..authority_end])
}

impl TestDatabase {
    /// A new database on the server `LUDO_TEST_POSTGRES` names. Without that variable: `None`
    /// after saying the PostgreSQL tests are skipped, or, when `CI` is set, a panic (CI must run
    /// them).
    ///
    /// # Panics
    /// When the variable is missing on CI, or the database cannot be created.
    pub fn create() -> Option<TestDatabase> {
        let admin = std::env::var(VARIABLE).ok().filter(|url| !url.is_empty());
        let Some(admin) = admin else {
            crate::skips::skipped(
                "PostgreSQL tests",
                &format!(
                    "{VARIABLE} is not set (run `scripts/test-postgres.sh start` and export the \
                     URL it prints)"
                ),
            );
            return None;
        };
        let mut random = [0u8; 8];
        getrandom::fill(&mut random).expect("the operating system gives random bytes");
        let name = format!(
            "ludo_test_{}",
            random
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        );
        let url = with_database(&admin, &name);
        let (server, create) = (admin.clone(), format!("CREATE DATABASE {name}"));
        off_thread(move || {
            let mut client = Client::connect(&server, NoTls)
                .unwrap_or_else(|e| panic!("{VARIABLE} names a server that answers: {e}"));
            client
                .batch_execute(&create)
                .unwrap_or_else(|e| panic!("the test user may create a database: {e}"));
        });
        Some(TestDatabase { admin, name, url })
    }

    /// The database's URL, for `--db` or [`super::PostgresBackend::connect`].
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A connection to the server as the test user, on a thread of its own, for `work` (ending
    /// another connection, say).
    pub fn as_admin<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Client) -> T + Send + 'static,
    ) -> T {
        let admin = self.admin.clone();
        off_thread(move || {
            let mut client = Client::connect(&admin, NoTls).expect("the test server answers");
            work(&mut client)
        })
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let drop = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
        let dropped = self.as_admin(move |client| client.batch_execute(&drop));
        if let Err(e) = dropped {
            eprintln!("the test database {} was not dropped: {e}", self.name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn a_test_database_url_names_the_new_database_and_keeps_the_rest() {
        let cases = [
            ("postgres://u@h:1/postgres", "postgres://u@h:1/t"),
            ("postgres://u@h:1", "postgres://u@h:1/t"),
            (
                "postgresql://u:p@h/db?sslmode=disable",
                "postgresql://u:p@h/t?sslmode=disable",
            ),
            ("host=h user=u", "host=h user=u dbname=t"),
        ];
        for (admin, wanted) in cases {
            assert_eq!(with_database(admin, "t"), wanted, "{admin}");
        }
    }
}
