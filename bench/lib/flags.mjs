// The benchmarks' command lines: `node bench/compare.mjs --only=load --record`.

/** `--name=value` and bare `--flag` (true) command-line arguments, by name. */
export function parseFlags(argv = process.argv.slice(2)) {
  return Object.fromEntries(
    argv.map((arg) => {
      const [key, value] = arg.replace(/^--/, "").split("=");
      return [key, value ?? true];
    }),
  );
}
