// Layering and async hygiene. The layers and who may import whom are described in ARCHITECTURE.md; each
// zone below forbids the imports that would point the wrong way. Only src/ui/ and src/extension.ts may
// import 'vscode': everything else must run in the worker, the CLI and plain mocha alike.
import tseslint from 'typescript-eslint';

const VSCODE = { name: 'vscode', message: "Only src/ui/ and src/extension.ts may import 'vscode'." };
/** A folder of src/ as seen in a relative import, however deep the importer sits. */
const folder = (name, message) => ({ group: [`**/${name}`, `**/${name}/**`], message });
const LAYER = {
  model: folder('model', ''),
  io: folder('io', 'io/ sits above model/: the vocabulary does no I/O.'),
  scope: folder('scope', 'scope/ is reached through app/, never from here.'),
  engine: folder('engine', 'engine/ is reached through app/, never from here.'),
  report: folder('report', 'report/ is reached through app/, never from here.'),
  app: folder('app', 'app/ sits above this layer.'),
  ui: folder('ui', 'ui/ is the VS Code host: nothing imports it but src/extension.ts.'),
  cli: folder('cli', 'cli/ is the command line: nothing imports it but src/cli.ts.'),
  eval: folder('eval', 'eval/ sits above app/: only cli/ imports it.'),
  // The two pipelines share what they both need through engine/ itself (source.ts, runner.ts, layout.ts, …).
  staged: folder(
    'staged',
    'lens mode does not reach into the staged pipeline: hoist the shared helper to src/engine/.',
  ),
  lenses: folder(
    'lenses',
    'the staged pipeline does not reach into lens mode: hoist the shared helper to src/engine/.',
  ),
};
const forbid = (...layers) => ({
  'no-restricted-imports': ['error', { paths: [VSCODE], patterns: layers.map((l) => LAYER[l]) }],
});

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
  // The vocabulary every layer shares: it imports nothing of ours.
  { files: ['src/model/**/*.ts'], rules: forbid('io', 'scope', 'engine', 'report', 'app', 'ui', 'cli', 'eval') },
  // File and process I/O that several rooms share (git, regular-file reads, the user's cache folder, .skeptic/).
  { files: ['src/io/**/*.ts'], rules: forbid('scope', 'engine', 'report', 'app', 'ui', 'cli', 'eval') },
  // The three middle rooms know the vocabulary and nothing of each other.
  { files: ['src/scope/**/*.ts'], rules: forbid('engine', 'report', 'app', 'ui', 'cli', 'eval') },
  { files: ['src/engine/**/*.ts'], rules: forbid('scope', 'report', 'app', 'ui', 'cli', 'eval') },
  { files: ['src/engine/lenses/**/*.ts'], rules: forbid('scope', 'report', 'app', 'ui', 'cli', 'eval', 'staged') },
  { files: ['src/engine/staged/**/*.ts'], rules: forbid('scope', 'report', 'app', 'ui', 'cli', 'eval', 'lenses') },
  { files: ['src/report/**/*.ts'], rules: forbid('scope', 'engine', 'app', 'ui', 'cli', 'eval') },
  // app/ wires scope → engine → report for the CLI, the worker and the bench.
  { files: ['src/app/**/*.ts'], rules: forbid('ui', 'cli', 'eval') },
  // eval/ (skeptic eval) runs reviews through app/ and its judge through the engine's sub-agent runner.
  { files: ['src/eval/**/*.ts'], rules: forbid('scope', 'report', 'ui', 'cli') },
  { files: ['src/cli/**/*.ts'], rules: forbid('engine', 'ui') },
  // boot/ starts a bundle from V8's code cache before anything else loads: the vocabulary and io/ at most.
  { files: ['src/boot/**/*.ts'], rules: forbid('scope', 'engine', 'report', 'app', 'ui', 'cli', 'eval') },
  // The host knows the vocabulary and app's protocol only: the worker's messages, and the ids package.json
  // contributes (app/contributions). Everything else runs in the worker.
  {
    files: ['src/ui/**/*.ts', 'src/extension.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            LAYER.scope,
            LAYER.engine,
            LAYER.report,
            LAYER.cli,
            LAYER.eval,
            {
              group: ['**/app/*', '!**/app/protocol', '!**/app/contributions', '!**/app/choices', '!**/app/connection'],
              message: 'The host imports only app/protocol and app/contributions; the rest of app/ runs in the worker.',
            },
          ],
        },
      ],
    },
  },
  { files: ['test/integration/**/*.ts'], rules: { 'no-restricted-imports': 'off' } },
);
