import { describe, expect, it } from "vitest";
import { csvField, csvLine, csvSoles } from "@core/csv";

/**
 * Issue 24, defect 7 (decision 0071): the staff exports are comma-separated, but a spreadsheet in
 * a Spanish locale splits on `;` (and does not honour a quote that does not open its field), so a
 * cell's `;` parts, and the lines after a line break, each begin a cell of their own there.
 */
describe("CSV cells for spreadsheets that split on commas or on semicolons", () => {
  it("quotes a cell with a semicolon and keeps the part after it from becoming a formula", () => {
    expect(csvField("Calle 1;=1+1")).toBe(`"Calle 1;'=1+1"`);
    expect(csvField("Calle 1;Piso 2")).toBe(`"Calle 1;Piso 2"`);
  });

  it("guards every comma, semicolon and line part, not only the cell's start", () => {
    expect(csvField("Av. Larco 123,+51 999")).toBe(`"Av. Larco 123,'+51 999"`);
    expect(csvField('Av. Uno 123\n=HYPERLINK("http://x")')).toBe(`"Av. Uno 123\n'=HYPERLINK(""http://x"")"`);
    expect(csvField("a;@SUM(1);-2,b")).toBe(`"a;'@SUM(1);'-2,b"`);
    expect(csvField("=cmd|' /C calc'!A0")).toBe(`'=cmd|' /C calc'!A0`);
  });

  it("leaves ordinary text, and the shop's own amounts, as they are", () => {
    expect(csvField("Rosa Quispe")).toBe("Rosa Quispe");
    expect(csvField("Av. Uno 123, -2do piso")).toBe(`"Av. Uno 123, -2do piso"`);
    expect(csvField(csvSoles(-1000))).toBe("-10.00");
    expect(csvLine(["VA-000001", "Calle 1;=1+1", csvSoles(5990)])).toBe(`VA-000001,"Calle 1;'=1+1",59.90\r\n`);
  });

  it("leaves no cell of a semicolon reading that starts a formula", () => {
    const hostile = ["Calle 1;=1+1", "x,=2", "y\r\n+3", "z;\t@4", "-5", 'a"b;=6'];
    const line = csvLine(hostile);
    // How a spreadsheet splitting on `;` that ignores quotes inside a field would cut the line.
    const cells = line.split(/[;\r\n]/);
    expect(cells.filter((cell) => /^[=+\-@\t]/.test(cell))).toEqual([]);
    // And how one splitting on commas, honouring quotes, reads it back: each value, guarded, whole.
    expect(line.match(/"(?:[^"]|"")*"|[^,\r\n]+/g)).toHaveLength(hostile.length);
  });
});
