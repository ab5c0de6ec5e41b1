/**
 * The text a PDF really shows, for assertions: inflates each content stream (FlateDecode), reads
 * the strings of its text operators (pdfkit writes hex strings `<...>` in TJ arrays, split where it
 * kerns) and joins them, one text run per line. Enough for the documents pdfkit makes with the
 * standard fonts (WinAnsi, which matches Latin-1 for Spanish letters); not a general PDF reader.
 */
import { inflateSync } from "node:zlib";

function streams(pdf: Buffer): Buffer[] {
  const found: Buffer[] = [];
  let from = 0;
  for (;;) {
    const start = pdf.indexOf("stream", from, "latin1");
    if (start < 0) break;
    const dataStart = pdf[start + 6] === 0x0d ? start + 8 : start + 7;
    const end = pdf.indexOf("endstream", dataStart, "latin1");
    if (end < 0) break;
    const dictionary = pdf.subarray(Math.max(0, start - 300), start).toString("latin1");
    const data = pdf.subarray(dataStart, end);
    if (dictionary.lastIndexOf("FlateDecode") > dictionary.lastIndexOf("<<")) {
      try {
        found.push(inflateSync(data));
      } catch {
        // A stream that is not deflate data after all (e.g. an image): not text.
      }
    } else {
      found.push(data);
    }
    from = end + 9;
  }
  return found;
}

function decodeHex(hex: string): string {
  return Buffer.from(hex.replace(/\s+/g, ""), "hex").toString("latin1");
}

function decodeLiteral(literal: string): string {
  return literal.replace(/\\([nrtbf()\\]|\d{1,3})/g, (_, escape: string) => {
    if (/^\d/.test(escape)) return String.fromCharCode(parseInt(escape, 8));
    return ({ n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" } as Record<string, string>)[escape] ?? escape;
  });
}

export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const stream of streams(pdf)) {
    const content = stream.toString("latin1");
    for (const match of content.matchAll(/\[((?:[^\]\\]|\\.)*)\]\s*TJ|(<[0-9a-fA-F\s]*>|\((?:[^)\\]|\\.)*\))\s*Tj/g)) {
      const operands = match[1] ?? match[2] ?? "";
      let line = "";
      for (const piece of operands.matchAll(/<([0-9a-fA-F\s]*)>|\(((?:[^)\\]|\\.)*)\)/g)) {
        line += piece[1] !== undefined ? decodeHex(piece[1]) : decodeLiteral(piece[2] ?? "");
      }
      lines.push(line);
    }
  }
  return lines.join("\n");
}

/** The text with line breaks and repeated spaces folded, so wrapped sentences read whole. */
export function pdfPlainText(pdf: Buffer): string {
  return pdfText(pdf).replace(/\s+/g, " ");
}
