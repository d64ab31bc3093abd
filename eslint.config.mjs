// Type-aware lint: the rules here catch bugs (a promise nobody awaits can lose an ack or
// crash the process on rejection), not style; formatting is left to the author.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-bench/**', 'coverage/**', 'node_modules/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Values parsed from JSON, the database and broker clients are `any` at the edge and
      // narrowed by zod or by hand; flagging every touch of them is noise, not safety.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // An async method that satisfies a Promise-returning interface without awaiting is fine.
      '@typescript-eslint/require-await': 'off',
      // Field values are `unknown` until validated; stringifying them for a message or a key is deliberate.
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Optional drivers and compiled code are loaded lazily with require() on purpose.
      '@typescript-eslint/no-require-imports': 'off',
      // The decoders reject NUL and other control bytes on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests stub interfaces with plain objects and reach into loosely typed answers.
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { module: 'writable', require: 'readonly', process: 'readonly', console: 'readonly', __dirname: 'readonly' },
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ignores: ['assets/**'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // The console's scripts run in the browser, with uPlot loaded by a <script> tag before them.
    files: ['assets/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { document: 'readonly', window: 'readonly', fetch: 'readonly', uPlot: 'readonly' } },
  },
);
