import assert from 'node:assert/strict';
import { readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FactStore, Step0Facts } from '../../src/scope/facts';
import { takeInventory } from '../../src/scope/inventory';
import type { FileStream } from '../../src/model/fileStream';
import { TempRepo } from '../helpers/git-repo';

/** Every file and folder of the tree (outside .git) an hour old: past the window where a time is not trusted. */
async function ageAll(dir: string, rel = '.'): Promise<void> {
  for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
    if (e.name === '.git' || e.isSymbolicLink()) continue;
    if (e.isDirectory()) await ageAll(dir, join(rel, e.name));
    else await age(join(dir, rel, e.name));
  }
  await age(join(dir, rel));
}

/** One file or folder an hour old (touching no other: each of their times stays as the kept inventory saw it). */
const age = (path: string) => utimes(path, new Date(Date.now() - 3600_000), new Date(Date.now() - 3600_000));

describe('scope: an unchanged scope takes its kept inventory', () => {
  let repo: TempRepo;
  let keptIn: string;
  let factsDir: string;

  /** Each run as a new process: its own store over the same folder, kept at the end as a run keeps it. */
  const inventory = async (facts = new Step0Facts(new FactStore(factsDir)), excludes: string[] = []) => {
    const inv = await takeInventory(['.'], { cwd: repo.dir, keptIn, facts, excludes });
    await facts.store.flush();
    return inv;
  };
  const companions = async (excludes: string[] = []) =>
    Object.fromEntries(
      (await inventory(undefined, excludes)).discovery.file_entries.map((e) => [e.path, e.companion_path]),
    );
  const keptFiles = async () => (await readdir(keptIn).catch(() => [])).filter((n) => n.endsWith('.json'));

  /**
   * Marks the kept inventory: each companion it names becomes "MARK". A run that answers with MARK took the
   * kept inventory; a run that answers with the real companions took stock again.
   */
  async function mark(): Promise<void> {
    const [name] = await keptFiles();
    assert.ok(name, 'an inventory was kept');
    const file = join(keptIn, name);
    const kept = JSON.parse(await readFile(file, 'utf8')) as { files: { companions: Array<string | null> } };
    kept.files.companions = kept.files.companions.map((c) => (c === null ? null : 'MARK'));
    await writeFile(file, JSON.stringify(kept));
  }

  beforeEach(async () => {
    repo = new TempRepo();
    keptIn = mkdtempSync(join(tmpdir(), 'skeptic-kept-'));
    factsDir = mkdtempSync(join(tmpdir(), 'skeptic-kept-facts-'));
    repo.write('src/util.ts', 'export const u = 1;\n');
    repo.write('src/util.test.ts', 'u;\n');
    repo.write('src/other.ts', 'export const o = 1;\n');
    repo.write('notes/draft.md', 'untracked\n');
    repo.write('.gitignore', '*.spec.ts\n');
    repo.commit('tree');
    repo.write('notes/draft.md', 'untracked, and not committed\n');
    await ageAll(repo.dir);
    await inventory();
    await mark();
  });

  afterEach(async () => {
    repo.remove();
    await rm(keptIn, { recursive: true, force: true });
    await rm(factsDir, { recursive: true, force: true });
  });

  it('answers from what was kept, with the content ids the files were judged with and their facts at hand', async () => {
    const facts = new Step0Facts(new FactStore(factsDir));
    const inv = await inventory(facts);
    assert.deepEqual(Object.fromEntries(inv.discovery.file_entries.map((e) => [e.path, e.companion_path])), {
      '.gitignore': null,
      'notes/draft.md': null,
      'src/other.ts': null,
      'src/util.test.ts': 'MARK',
      'src/util.ts': 'MARK',
    });
    const blob = repo.git('rev-parse', 'HEAD:src/util.ts').trim();
    assert.equal(facts.idOf(repo.path('src/util.ts')), blob);
    // What a judge would have left held: the estimate asks for sizes without waiting.
    assert.equal(facts.known(repo.path('src/util.ts'))?.bytes, 'export const u = 1;\n'.length);
  });

  it("streams the kept files: each is handed on once its own facts are in, not once every file's are", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = repo.path('src/other.ts');
    /** A store whose read of one file's facts waits for the test (a large tree's facts take seconds to read). */
    class SlowStore extends FactStore {
      override async get(id: string): ReturnType<FactStore['get']> {
        if (id === facts.idOf(slow)) await gate;
        return super.get(id);
      }
    }
    const facts: Step0Facts = new Step0Facts(new SlowStore(factsDir));
    let handOn!: (files: FileStream) => void;
    const handed = new Promise<FileStream>((resolve) => (handOn = resolve));
    let whole = false;
    const taking = takeInventory(['.'], { cwd: repo.dir, keptIn, facts, onFiles: handOn }).then((inv) => {
      whole = true;
      return inv;
    });
    const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 10_000).unref());
    const files = await Promise.race([handed, waited]);
    assert.notEqual(files, 'waited', "the files are handed on while one file's facts are still being read");
    const stream = files as FileStream;
    const at = (path: string) => stream.candidates.indexOf(path);
    assert.equal((await stream.entry(at('src/util.ts')))?.companion_path, 'MARK', 'the kept inventory, streamed');
    assert.equal(facts.known(repo.path('src/util.ts'))?.bytes, 'export const u = 1;\n'.length);
    let slowIn = false;
    void stream.entry(at('src/other.ts')).then(() => (slowIn = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(slowIn, false, 'the slow file waits for its facts');
    assert.equal(whole, false, 'the inventory is whole only once every file is held');
    release();
    await taking;
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(slowIn);
    assert.equal(facts.known(slow)?.bytes, 'export const o = 1;\n'.length);
  });

  it('takes stock again when a tracked file changes, an untracked one changes or appears, or a folder gains a name git does not list', async () => {
    // Each change, then the times it moved set back an hour (the file's, and its folder's where it is new).
    const changes: Array<[string, string, string[]]> = [
      ['a tracked file edited', 'src/other.ts', []],
      ['an untracked file edited', 'notes/draft.md', []],
      ['an untracked file added', 'src/new.ts', ['src']],
      ['an ignored test added beside a file', 'src/other.spec.ts', ['src']],
    ];
    for (const [what, path, folders] of changes) {
      repo.write(path, `// ${what}\n`);
      for (const p of [path, ...folders]) await age(repo.path(p));
      const now = await companions();
      assert.equal(now['src/util.ts'], 'src/util.test.ts', what);
      // What was found again is kept in turn, and the next unchanged run takes it.
      await mark();
      assert.equal((await companions())['src/util.ts'], 'MARK', `${what}: kept again`);
    }
    assert.equal((await companions())['src/other.ts'], 'MARK');
  });

  it('keeps each scope apart: other options are another inventory', async () => {
    const other = await companions(['notes/**']);
    assert.equal(other['src/util.ts'], 'src/util.test.ts');
    assert.equal(other['notes/draft.md'], undefined);
    assert.equal((await keptFiles()).length, 2);
    assert.equal((await companions())['src/util.ts'], 'MARK');
  });

  it('keeps nothing while a time is too recent to tell two contents apart, or for a tree with a link', async () => {
    await rm(keptIn, { recursive: true, force: true });
    // Just written: a second write within the clock's resolution would leave every time as it is.
    repo.write('notes/draft.md', 'edited a moment ago\n');
    await inventory();
    assert.deepEqual(await keptFiles(), []);
    await symlink('util.ts', repo.path('src/alias.ts'));
    await ageAll(repo.dir);
    await inventory();
    assert.deepEqual(await keptFiles(), [], 'a link can lead elsewhere with nothing stamped changing');
    await rm(repo.path('src/alias.ts'));
    await ageAll(repo.dir);
    await inventory();
    assert.equal((await keptFiles()).length, 1);
  });

  it('ignores a kept inventory it cannot read as one', async () => {
    const [name] = await keptFiles();
    await writeFile(join(keptIn, name!), '{"f":1,"stamp":');
    assert.equal((await companions())['src/util.ts'], 'src/util.test.ts');
  });
});
