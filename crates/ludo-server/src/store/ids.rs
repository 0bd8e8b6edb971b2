//! Ids as the databases keep them: each id type is written and read as its text, so that a
//! backend passes ids to its queries and reads them from its rows as they are typed.

use std::error::Error;

use bytes::BytesMut;
use postgres::types::{FromSql, IsNull, ToSql, Type};
use rusqlite::types::{FromSqlResult, ToSqlOutput, ValueRef};

use crate::ids::{GameId, IdentityId, RoomCode};

/// Writes and reads `$id` as text in SQLite and PostgreSQL.
macro_rules! stored_as_text {
    ($($id:ty),*) => {$(
        impl rusqlite::ToSql for $id {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }

        impl rusqlite::types::FromSql for $id {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                String::column_result(value).map(<$id>::from)
            }
        }

        impl ToSql for $id {
            fn to_sql(
                &self,
                ty: &Type,
                out: &mut BytesMut,
            ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
                self.as_str().to_sql(ty, out)
            }

            fn accepts(ty: &Type) -> bool {
                <&str as ToSql>::accepts(ty)
            }

            postgres::types::to_sql_checked!();
        }

        impl<'a> FromSql<'a> for $id {
            fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
                String::from_sql(ty, raw).map(<$id>::from)
            }

            fn accepts(ty: &Type) -> bool {
                <String as FromSql>::accepts(ty)
            }
        }
    )*};
}

stored_as_text!(IdentityId, RoomCode, GameId);
