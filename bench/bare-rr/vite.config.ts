import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// Minified like the shop's build (../../vite.config.ts), so first-load JavaScript compares like for like.
export default defineConfig({
  plugins: [reactRouter()],
  build: { minify: "terser", terserOptions: { compress: { passes: 2 }, format: { comments: false } }, target: "es2022" },
});
