// The bench's own dependencies live in bench/node_modules, installed only to run the benches
// (`npm --prefix bench install`); the typecheck of a plain checkout must not need them.
declare module "lighthouse";
declare module "chrome-launcher";
declare module "autocannon";
declare module "undici";
