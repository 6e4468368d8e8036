// Types for exthost-mocha.cjs, which the TypeScript extension-host entry (test/integration/index.ts) uses.
export function runMochaSuite(options: {
  files: string[];
  timeoutMs?: number;
  ui?: string;
  grep?: string;
}): Promise<void>;
export function writeResult(result: unknown): void;
