import assert from 'node:assert/strict';
import { findSecret } from '../../src/scope/secretContent';

const TOKEN = 'ghp_0123456789abcdefghijklmnopqrstuvwxyz';
const KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\n${'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n'.repeat(4)}-----END OPENSSH PRIVATE KEY-----\n`;

describe('scope/secretContent', () => {
  it('finds secrets by content, naming the kind and line, and passes ordinary code', async () => {
    assert.deepEqual(await findSecret(`// config\nconst token = "${TOKEN}";\n`), { line: 2, kind: 'GITHUB_TOKEN' });
    assert.equal((await findSecret(`a\nb\n${KEY}`))?.line, 3);
    assert.match(
      (await findSecret('const url = "postgres://admin:hunter2@db.example.com:5432/prod";\n'))?.kind ?? '',
      /PostgreSQL/i,
    );
    assert.equal(await findSecret('export function add(a: number, b: number): number {\n  return a + b;\n}\n'), null);
  });

  it('texts asked for together each get their own verdict and their own line numbers', async () => {
    const texts = [
      'const a = 1;\r\nconst b = 2;\r\n',
      `one\ntwo\nthree\nconst t = "${TOKEN}";\n`,
      'const clean = true;\n'.repeat(50),
      `x\n${KEY}`,
      'no newline at the end',
    ];
    const hits = await Promise.all(texts.map((t) => findSecret(t)));
    assert.deepEqual(
      hits.map((h) => h && h.line),
      [null, 4, null, 2, null],
    );
  });

  it("a secretlint-disable comment silences its own file only, never another file's secret", async () => {
    const [quiet, other] = await Promise.all([
      findSecret(`// secretlint-disable\nconst t = "${TOKEN}";\n`),
      findSecret(`const t = "${TOKEN}";\n`),
    ]);
    assert.equal(quiet, null);
    assert.deepEqual(other, { line: 1, kind: 'GITHUB_TOKEN' });
  });
});
