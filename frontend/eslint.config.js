// ESLint for the web client: typescript-eslint's recommended rules and React's hooks rules
// (dependencies of effects and memos, hooks only at the top level). Types are checked by
// tsc (`npm run typecheck`); this lints what the compiler does not see.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "test-results/", "playwright-report/", "src/protocol/*.gen.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      // The classic hooks rules. The React Compiler's stricter rules in the plugin's
      // recommended set (set-state-in-effect, refs, purity) are not on yet: TableScreen and
      // the session hooks need reshaping for them first.
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["e2e/**/*.ts", "scripts/**/*.mjs", "*.config.{ts,js}"],
    languageOptions: { globals: { ...globals.node } },
  },
);
