import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "bench/", ".data/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // Route modules and components reach the server only through a domain's `index.server` door,
    // which React Router refuses to bundle for the browser.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/**/*.server.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ regex: "^@server/(?!.+/index\\.server$)", message: "Import server code through a domain's index.server door." }],
          // Issue 9: app/lib/zod.ts sets the Spanish messages; importing zod directly skips them.
          paths: [{ name: "zod", message: "Import { z } from \"~/lib/zod\" (Spanish messages)." }],
        },
      ],
    },
  },
  {
    // Decision 0025: every top-level transaction goes through inTransaction, which retries what
    // PostgreSQL aborts as a deadlock or serialization failure.
    files: ["server/**/*.ts"],
    ignores: ["server/db/transaction.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='transaction'][callee.object.name='db']",
          message: "Use inTransaction(db, …) from server/db/transaction.ts (decision 0025).",
        },
      ],
    },
  },
  {
    files: ["app/lib/zod.ts", "app/lib/zod-without-eval.ts"],
    rules: { "no-restricted-imports": "off" },
  },
);
