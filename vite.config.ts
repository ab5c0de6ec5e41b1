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
  environments: {
    client: {
      build: {
        rollupOptions: {
          output: {
            // The small modules every storefront page needs travel as one chunk: each chunk
            // costs its own wrapper and compresses alone, which the 120 KB first-load budget feels.
            manualChunks(id) {
              const storefrontCore = [
                "/core/money.ts",
                "/app/lib/seo.ts",
                "/app/lib/cart.ts",
                "/app/lib/use-cart.ts",
                "/app/components/ui/icons.tsx",
                "/app/components/shop/product-card.tsx",
                // Root, header and chat button of every storefront page: three requests of under 2 KB each otherwise.
                "/app/lib/nonce.ts",
                "/app/lib/route-handle.ts",
                "/app/lib/whatsapp.ts",
                "/app/components/ui/logo-mark.tsx",
              ];
              if (storefrontCore.some((file) => id.endsWith(file))) return "storefront";
              // Small modules shared by checkout, the account and the staff pages, but by none of the
              // catalogue pages above: one file instead of seven. The driver app's first load is six
              // module files with it, one round of a phone's six connections (decision 0086). Each
              // must import only what the storefront chunk already holds: Rollup pulls a manual
              // chunk's other imports (React Router itself, once) into it; client-bundle.test.ts checks.
              const common = [
                "/core/lima-dates.ts",
                "/core/delivery-schedule.ts",
                "/core/delivery-labels.ts",
                "/core/cash-box.ts",
                // Contra entrega's words (issue 38): the driver's stop, the checkout and "Nuevo pedido".
                "/core/door-payment.ts",
                "/app/components/deliveries/delivery-status.tsx",
                "/app/components/ui/form-field.tsx",
                "/app/components/admin/admin-page-header.tsx",
                "/app/lib/staff-labels.ts",
              ];
              if (common.some((file) => id.endsWith(file))) return "common";
            },
          },
        },
      },
    },
  },
  build: {
    // Terser squeezes ~3% more than esbuild out of the first-load JavaScript (bench/RESULTS.md).
    minify: "terser",
    terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    target: "es2022",
  },
});
