//! The statements of the busiest writes, prepared once per connection and kept: PostgreSQL
//! parses and plans them once, and each use is a single round trip (bind and execute).

use std::collections::HashMap;

use postgres::{Client, Statement};

/// Prepared statements by their SQL, valid on the connection that prepared them only.
#[derive(Default)]
pub(super) struct Statements {
    prepared: HashMap<&'static str, Statement>,
}

impl Statements {
    /// The statement for `sql`, prepared on `client` the first time it is asked for.
    pub fn get(
        &mut self,
        client: &mut Client,
        sql: &'static str,
    ) -> Result<Statement, postgres::Error> {
        if let Some(statement) = self.prepared.get(sql) {
            return Ok(statement.clone());
        }
        let statement = client.prepare(sql)?;
        self.prepared.insert(sql, statement.clone());
        Ok(statement)
    }

    /// Forgets every statement: the connection they were prepared on is gone.
    pub fn clear(&mut self) {
        self.prepared.clear();
    }
}
