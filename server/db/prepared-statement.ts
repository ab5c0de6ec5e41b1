import { createHash } from "node:crypto";
import type { Query, SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { DatabaseOrTransaction } from "./transaction";

/**
 * A statement of a fixed shape, built by Drizzle once (with `sql.placeholder(…)` for every value)
 * and sent under its own name, so neither the server nor PostgreSQL builds or plans it again
 * (decision 0069: building checkout's order statement cost the server about as much CPU as sending
 * it). On PostgreSQL the connection keeps the parsed statement for the next run; PGlite runs it as
 * it would any other. `build` must produce the same text every time (one name, one text: the
 * driver refuses a name given two texts); values go through the placeholders, with each column's
 * own conversion (dates, JSON). Rows come back as the driver gives them, keyed by column alias.
 */
export function preparedStatement<Row extends Record<string, unknown>>(name: string, build: (db: DatabaseOrTransaction) => { toSQL(): Query }) {
  let query: Query | undefined;
  return async (db: DatabaseOrTransaction, values: Record<string, unknown>): Promise<Row[]> => {
    query ??= build(db).toSQL();
    const result = (await db._.session.prepareQuery(query, undefined, name, false).execute(values)) as { rows: Row[] };
    return result.rows;
  };
}

const dialect = new PgDialect();

/**
 * A raw statement (values as parameters, never spliced into the text) sent under a name derived
 * from its text, so each connection parses it once and PostgreSQL may keep its plan (decision
 * 0101: checkout's read of district, calendar, capacity and prices, planned again for every order
 * before). For statements of a bounded number of shapes only: each distinct text stays parsed on
 * every connection that ran it.
 */
export async function executeByText<Row extends Record<string, unknown>>(db: DatabaseOrTransaction, statement: SQL): Promise<Row[]> {
  const query = dialect.sqlToQuery(statement);
  const name = `by_text_${createHash("sha1").update(query.sql).digest("base64url")}`;
  const result = (await db._.session.prepareQuery(query, undefined, name, false).execute()) as { rows: Row[] };
  return result.rows;
}
