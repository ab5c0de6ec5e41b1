import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "@server": fileURLToPath(new URL("./server", import.meta.url)),
      "@core": fileURLToPath(new URL("./core", import.meta.url)),
    },
  },
  ssr: {
    // PGlite ships WASM and data files that must be loaded from node_modules at run time.
    external: ["@electric-sql/pglite", "pg"],
  },
  optimizeDeps: { exclude: ["@electric-sql/pglite"] },
  build: {
    // Terser squeezes ~3% more than esbuild out of the first-load JavaScript (bench/RESULTS.md).
    minify: "terser",
    terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    target: "es2022",
  },
});
