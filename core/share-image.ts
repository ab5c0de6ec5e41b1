/** Open Graph pictures (decision 0039): what WhatsApp and Facebook show, a raster 1200×630 PNG. */
export const SHARE_IMAGE = { width: 1200, height: 630, type: "image/png" } as const;
