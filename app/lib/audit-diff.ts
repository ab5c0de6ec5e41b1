/**
 * The audit page's "before → after" (issue 10), short enough to read on a phone: for two objects,
 * one line per field that changed; otherwise the two values whole. Values are compact JSON.
 */
export interface AuditChange {
  field: string | null;
  before: string;
  after: string;
}

const MAX_VALUE_LENGTH = 160;

export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  if (isPlainObject(before) || isPlainObject(after)) {
    const from = isPlainObject(before) ? before : {};
    const to = isPlainObject(after) ? after : {};
    const fields = [...new Set([...Object.keys(from), ...Object.keys(to)])];
    return fields
      .filter((field) => compact(from[field]) !== compact(to[field]))
      .map((field) => ({ field, before: compact(from[field]), after: compact(to[field]) }));
  }
  if (compact(before) === compact(after)) return [];
  return [{ field: null, before: compact(before), after: compact(after) }];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `—` for nothing; strings without quotes; anything else as one line of JSON, cut when long. */
function compact(value: unknown): string {
  if (value === null || value === undefined) return "—";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}
