import { format } from "node:util";

/**
 * Issue 9: a failed query must not put a customer's name, e-mail, phone, document or address in
 * the server's log. Drizzle's error message is "Failed query: <sql> params: <every value>", and
 * PostgreSQL's own message and detail quote values too ('invalid input syntax for type uuid:
 * "…"', 'Key (email)=(…) already exists'). What is logged of a database error is its SQLSTATE,
 * the names PostgreSQL gives (constraint, table, column, routine) and the statement with its
 * $n placeholders — never a parameter, message or detail.
 */

interface QueryErrorLike {
  query?: unknown;
  params?: unknown;
  code?: unknown;
  cause?: unknown;
}

function isDatabaseError(value: unknown): value is Error & Record<string, unknown> {
  if (!(value instanceof Error)) return false;
  const candidate = value as unknown as QueryErrorLike & Record<string, unknown>;
  const sqlState = typeof candidate.code === "string" && /^[0-9A-Z]{5}$/.test(candidate.code) && ("severity" in candidate || "routine" in candidate);
  const drizzle = typeof candidate.query === "string" && Array.isArray(candidate.params);
  return sqlState || drizzle;
}

/** Whether an error or anything in its `cause` chain came from the database. */
export function involvesDatabaseError(error: unknown, depth = 0): boolean {
  if (depth > 8 || !(error instanceof Error)) return false;
  return isDatabaseError(error) || involvesDatabaseError((error as QueryErrorLike).cause, depth + 1);
}

const shape = (query: string) => query.replace(/\s+/g, " ").trim().slice(0, 300);
const frames = (error: Error) =>
  (error.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 8)
    .join("\n");

function describeDatabaseError(error: Error & Record<string, unknown>): string {
  const parts: string[] = [];
  let sqlState: Record<string, unknown> | undefined = error;
  if (typeof error.code !== "string") sqlState = error.cause instanceof Error ? (error.cause as unknown as Record<string, unknown>) : undefined;
  if (sqlState) {
    parts.push(`SQLSTATE ${String(sqlState.code ?? "unknown")}`);
    for (const name of ["severity", "routine", "table", "column", "constraint", "dataType"] as const) {
      if (typeof sqlState[name] === "string" && sqlState[name]) parts.push(`${name} ${sqlState[name] as string}`);
    }
  }
  const query = typeof error.query === "string" ? error.query : typeof sqlState?.query === "string" ? sqlState.query : null;
  if (query) parts.push(`query: ${shape(query)}`);
  const params = Array.isArray(error.params) ? error.params : Array.isArray(sqlState?.params) ? sqlState.params : null;
  if (params) parts.push(`(${params.length} parameters, not logged)`);
  return `Database error: ${parts.join("; ")}\n${frames(error)}`;
}

/** A log-safe description of an error whose chain holds a database error. */
export function describeErrorSafely(error: unknown, depth = 0): string {
  if (!(error instanceof Error)) return format("%s", error);
  if (isDatabaseError(error)) return describeDatabaseError(error);
  const head = `${error.name}: ${error.message}\n${frames(error)}`;
  const cause = (error as QueryErrorLike).cause;
  return depth < 8 && cause !== undefined ? `${head}\n  [cause] ${describeErrorSafely(cause, depth + 1)}` : head;
}

/** Console arguments with every database error (or error caused by one) replaced by its safe description. */
export function redactDatabaseErrors(args: unknown[]): unknown[] {
  return args.map((arg) => (involvesDatabaseError(arg) ? describeErrorSafely(arg) : arg));
}

let installed = false;

/**
 * Routes, domains, jobs and React Router itself log errors with console.error/warn; this makes
 * every one of those calls log-safe in one place, for the whole process.
 */
export function installSafeErrorLogging(): void {
  if (installed) return;
  installed = true;
  for (const level of ["error", "warn"] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => original(...redactDatabaseErrors(args));
  }
}
