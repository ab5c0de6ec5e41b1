import { describe, expect, it } from "vitest";
import { auditChanges } from "~/lib/audit-diff";

describe("the audit page's before → after", () => {
  it("shows only the fields that changed, one line each", () => {
    expect(auditChanges({ role: "operaciones", status: "active" }, { role: "operaciones", status: "inactive" })).toEqual([
      { field: "status", before: "active", after: "inactive" },
    ]);
  });

  it("shows a field that appeared or went away against a dash", () => {
    expect(auditChanges(null, { email: "a@b.pe", role: "admin" })).toEqual([
      { field: "email", before: "—", after: "a@b.pe" },
      { field: "role", before: "—", after: "admin" },
    ]);
  });

  it("writes nested values as compact JSON, cut when too long for a phone", () => {
    const [change] = auditChanges({ items: [1] }, { items: [1, 2], note: "x".repeat(400) });
    expect(change).toEqual({ field: "items", before: "[1]", after: "[1,2]" });
    const note = auditChanges({}, { note: "x".repeat(400) })[0]!;
    expect(note.after).toHaveLength(160);
    expect(note.after.endsWith("…")).toBe(true);
  });

  it("compares plain values whole, and shows nothing when nothing changed", () => {
    expect(auditChanges(3, 5)).toEqual([{ field: null, before: "3", after: "5" }]);
    expect(auditChanges({ a: 1 }, { a: 1 })).toEqual([]);
  });
});
