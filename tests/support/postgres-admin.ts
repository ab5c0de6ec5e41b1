/**
 * Creating and dropping databases on the PostgreSQL server of CI's second pass. Kept apart from
 * test-database.ts so that starting a shop server does not load the shop's database client.
 */
import pg from "pg";

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
