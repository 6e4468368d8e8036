/** Throwaway git repositories for scope tests, isolated from the user's git configuration. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: devNull,
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
};

export class TempRepo {
  readonly dir: string;

  constructor(opts: { init?: boolean } = {}) {
    this.dir = mkdtempSync(join(tmpdir(), 'skeptic-scope-'));
    if (opts.init ?? true) {
      this.git('init', '-q', '-b', 'main');
      this.git('config', 'user.name', 'Test');
      this.git('config', 'user.email', 'test@example.com');
      this.git('config', 'commit.gpgsign', 'false');
    }
  }

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.dir, env: ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  write(path: string, content: string | Buffer): this {
    const abs = join(this.dir, ...path.split('/'));
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    return this;
  }

  /** Stages everything and commits. */
  commit(message: string): this {
    this.git('add', '-A');
    this.git('commit', '-q', '--no-verify', '-m', message);
    return this;
  }

  path(rel = '.'): string {
    return join(this.dir, ...rel.split('/'));
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `n` numbered lines: "line 1\n" … */
export function numbered(n: number, label = 'line'): string {
  return Array.from({ length: n }, (_, i) => `${label} ${i + 1}\n`).join('');
}
