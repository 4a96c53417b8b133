// ESLint for the whole project (`npm run lint`): JavaScript's recommended rules everywhere,
// typescript-eslint's recommended ones with type information over the TypeScript (through
// TypeScript 6's API, as TypeScript 7 has none yet: scripts/typescript6-for-eslint.mjs), its syntax-only
// ones over the JavaScript, eslint-plugin-astro's over the .astro components; eslint-config-prettier
// last, so layout is Prettier's alone (.prettierrc.json).
import './scripts/typescript6-for-eslint.mjs';
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // Made by the build, the Vercel CLI, `astro sync` and the tests, never edited.
  globalIgnores(['dist/', '.vercel/', '.astro/', '.data/', 'coverage/', 'test-results/']),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // Everything outside public/ runs in Node (server, functions, build, scripts, tests).
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    // Type information comes from tsconfig.json, which covers the TypeScript only.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['**/*.astro'],
    extends: [astro.configs['flat/recommended'], tseslint.configs.disableTypeChecked],
  },
  {
    files: ['**/*.{ts,mjs,js,cjs,astro}'],
    rules: {
      // `_name` says a value is deliberately unused (an argument a signature requires).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      // Off: an async method that fulfils a Promise-returning interface without awaiting keeps a throw a rejection.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['tests/**/*.ts'],
    rules: {
      // Off in tests: they read JSON (Response.json(), parsed documents), `any` by its typing, and assert its shape.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The browser's files, served as they are: classic scripts, one module, one service worker.
    files: ['public/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
  { files: ['public/webmcp-tools.js'], languageOptions: { sourceType: 'module' } },
  { files: ['public/sw.js'], languageOptions: { globals: globals.serviceworker } },
  {
    // CommonJS config read by dependency-cruiser.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  prettier,
);
