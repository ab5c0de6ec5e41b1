const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Ids from URLs are checked before they reach a `uuid` column: PostgreSQL refuses a malformed
 * one with an error, and a page asked for a bad id should answer 'not found', not fail.
 */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
