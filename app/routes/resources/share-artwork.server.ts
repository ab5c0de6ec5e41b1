/**
 * The shop's SVG drawings (public/images, and the home's hero, which the page draws inline), bundled
 * into the server as text so the Open Graph cards (server/social-images) can draw them wherever the
 * server runs, whatever its folder.
 */
const drawings = import.meta.glob<string>(["/public/images/**/*.svg", "/app/components/home/hero.svg"], { query: "?raw", import: "default", eager: true });

/** A drawing by its public path ("/images/products/personal-625.svg") or, for the hero, its source path. */
export function shareArtwork(path: string): string | undefined {
  return drawings[path] ?? drawings[`/public${path}`];
}
