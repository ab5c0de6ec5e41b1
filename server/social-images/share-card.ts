import { SHARE_IMAGE } from "@core/share-image";

/**
 * Open Graph pictures (docs/decisions/0039-contact-and-og-images.md): WhatsApp and Facebook show
 * no SVG, so shared pages point to a 1200×630 PNG drawn from the shop's own SVG artwork.
 */
export interface ShareCard {
  brandName: string;
  /** One or more SVG drawings placed on the right half, side by side. */
  artwork: string[];
  title: string;
  subtitle?: string;
  /** A price line in large type, e.g. "S/ 12.50 - S/ 30.00". */
  price?: string;
}

// librsvg picks the first family installed; DejaVu and Liberation come with Debian's fontconfig.
const FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
const BACKGROUND = "#ecfeff";

function escapeXml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Breaks text into at most `maxLines` lines of about `perLine` characters, ending with "…" if cut. */
export function wrapText(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.trim().split(/\s+/)) {
    const candidate = current ? `${current} ${word}` : word;
    if (candidate.length <= perLine || !current) current = candidate;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, perLine - 1).trimEnd()}…`;
  return kept;
}

function textLayer(card: ShareCard): string {
  // About 16 bold characters fit left of the artwork (DejaVu Sans Bold at 52 px: ~33 px each).
  const titleLines = wrapText(card.title, 16, 3);
  const subtitleLines = card.subtitle ? wrapText(card.subtitle, 30, 2) : [];
  let y = 190;
  const parts: string[] = [];
  for (const line of titleLines) {
    parts.push(`<text x="64" y="${y}" font-family="${FONT}" font-size="52" font-weight="700" fill="#164e63">${escapeXml(line)}</text>`);
    y += 64;
  }
  y += 10;
  for (const line of subtitleLines) {
    parts.push(`<text x="64" y="${y}" font-family="${FONT}" font-size="30" fill="#334155">${escapeXml(line)}</text>`);
    y += 42;
  }
  if (card.price) {
    parts.push(
      `<text x="64" y="${Math.max(y + 40, 470)}" font-family="${FONT}" font-size="52" font-weight="700" fill="#0e7490">${escapeXml(card.price)}</text>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_IMAGE.width}" height="${SHARE_IMAGE.height}">
<rect width="100%" height="100%" fill="${BACKGROUND}"/>
<rect x="0" y="0" width="${SHARE_IMAGE.width}" height="14" fill="#0e7490"/>
<text x="64" y="96" font-family="${FONT}" font-size="32" font-weight="700" fill="#0e7490">${escapeXml(card.brandName)}</text>
${parts.join("\n")}
<text x="64" y="580" font-family="${FONT}" font-size="26" fill="#475569">Agua alcalina pH 8.5 · Delivery en Lima</text>
</svg>`;
}

/** Draws the card as a PNG of exactly SHARE_IMAGE's size. */
export async function renderShareCard(card: ShareCard): Promise<Buffer> {
  // Loaded on the first card drawn, not at the server's start (sharp costs it ~60 ms).
  const { default: sharp } = await import("sharp");
  const areaWidth = 540;
  const areaHeight = 560;
  const each = Math.floor(areaWidth / Math.max(1, card.artwork.length));
  const drawings = await Promise.all(
    card.artwork.map((svg) =>
      sharp(Buffer.from(svg), { density: 144 })
        .resize(each, areaHeight, { fit: "contain", background: BACKGROUND })
        .flatten({ background: BACKGROUND })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(Buffer.from(textLayer(card)))
    .composite(drawings.map((input, index) => ({ input, left: SHARE_IMAGE.width - areaWidth - 40 + index * each, top: 45 })))
    .png({ compressionLevel: 9 })
    .toBuffer();
}
