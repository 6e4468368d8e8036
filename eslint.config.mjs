// Layering and async hygiene. Only src/ui/ and src/extension.ts may import 'vscode': the engine, scope,
// report and CLI code must run in the worker, the CLI and plain mocha alike.
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: "Only src/ui/ and src/extension.ts may import 'vscode'." }] }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test/e2e/.cache/**', 'test/fixtures/**', '**/*.cjs', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      ...noVscode,
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/ui/**/*.ts', 'src/extension.ts', 'test/integration/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
