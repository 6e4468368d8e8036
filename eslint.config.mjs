// Layering and async hygiene. The rooms of src/ and who may import whom are ARCHITECTURE.md's table, held in
// eslint/zones.mjs and checked by path on every import (static, type-only, dynamic, require), 'vscode' and
// node's I/O modules included. Outside src/, only the extension-host suite may import 'vscode'.
import tseslint from 'typescript-eslint';
import zones from './eslint/zones.mjs';

const VSCODE = { name: 'vscode', message: "Only the extension-host suite (test/integration/) may import 'vscode'." };

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      '.vscode-test/**',
      'test/e2e/.cache/**',
      'test/fixtures/**',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      'no-restricted-imports': ['error', { paths: [VSCODE] }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { skeptic: zones },
    rules: { 'skeptic/zones': 'error', 'no-restricted-imports': 'off' },
  },
  // The extension-host suite runs inside the VS Code host.
  { files: ['test/integration/**/*.ts'], rules: { 'no-restricted-imports': 'off' } },
);
