/**
 * The shop's SVG drawings (public/images), bundled into the server as text so the Open Graph
 * cards (server/social-images) can draw them wherever the server runs, whatever its folder.
 */
const drawings = import.meta.glob<string>("/public/images/**/*.svg", { query: "?raw", import: "default", eager: true });

export function shareArtwork(publicPath: string): string | undefined {
  return drawings[`/public${publicPath}`];
}
