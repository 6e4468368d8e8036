import assert from 'node:assert/strict';
import { buildJob } from '../../src/app/buildJob';
import { OPTION_ROWS, OPTIONS, type FlagRow, type OptionRow } from '../../src/app/choiceTable';
import { LIMITS } from '../../src/app/contributions';
import { parseReviewArgs } from '../../src/cli/args';
import { UsageError } from '../../src/cli/help';

/** A value each kind of flag takes, and what comes with the flag for it to be taken. */
function validArgs(flag: FlagRow, limit: OptionRow['limit']): string[] {
  const v = flag.value;
  const value =
    v.kind === 'switch'
      ? []
      : v.kind === 'enum'
        ? [v.values[v.values.length - 1]!]
        : v.kind === 'pairs'
          ? [`${v.names[0]}=some-model`]
          : v.kind === 'file'
            ? [`out${v.noun}`]
            : v.kind === 'count' || v.kind === 'duration'
              ? [String(limit!.min)]
              : ['1'];
  const mode = flag.mode === 'lenses' ? ['--mode', 'lenses'] : [];
  const needs = flag.needs ? [`--${(OPTIONS[flag.needs as keyof typeof OPTIONS] as { flag: FlagRow }).flag.name}`] : [];
  return [...mode, ...needs, `--${flag.name}`, ...value];
}

describe('skeptic review flags, made from the table', () => {
  it('parses every flag of a choice into that choice', () => {
    for (const [name, row] of OPTION_ROWS) {
      if (row.command || !row.flag) continue;
      const argv = validArgs(row.flag, row.limit);
      const flags = parseReviewArgs(argv);
      // --prices and --intent name what cli/job.ts reads; the choice is made from it there.
      const got =
        name === 'prices' ? flags.pricesFile : name === 'intent' ? flags.intent : (flags.choices as never)[name];
      assert.notEqual(got, undefined, `${argv.join(' ')} sets ${name}`);
      if (row.flag.negated) assert.equal(got, false, name);
    }
  });

  it('leaves the defaults to buildJob: an unflagged choice is absent, and the job has the table default', () => {
    const { choices } = parseReviewArgs(['src']);
    for (const field of ['maxConcurrency', 'requestTimeout', 'maxAttempts', 'confirmThreshold', 'includeUntracked'])
      assert.equal((choices as Record<string, unknown>)[field], undefined, field);
    const job = buildJob({ ...choices, scope: { kind: 'paths', paths: ['src'] }, cwd: '/w' }, { apiKey: 'k' });
    assert.equal(job.maxConcurrency, LIMITS.maxConcurrency.default);
    assert.equal(job.includeUntracked, true);
  });

  it('refuses a value outside the row, naming the flag and the range', () => {
    assert.throws(() => parseReviewArgs(['--concurrency', '65']), /--concurrency takes a whole number from 1 to 64/);
    assert.throws(() => parseReviewArgs(['--effort', 'huge']), /--effort must be one of low, medium/);
    assert.throws(() => parseReviewArgs(['--mode', 'quick']), /--mode must be staged or lenses, got "quick"/);
    assert.throws(() => parseReviewArgs(['--json', 'out.txt']), /--json must name a \.json file/);
  });
});

describe('--timeout means one thing; the batch wait is --batch-timeout', () => {
  it('is the request attempt without --batch, in whole seconds', () => {
    assert.equal(parseReviewArgs(['--timeout', '90']).choices.requestTimeout, 90);
    assert.throws(() => parseReviewArgs(['--timeout', '90m']), /--timeout takes a whole number/);
  });

  it('--batch-timeout is the whole batch run, as a duration', () => {
    const { choices } = parseReviewArgs(['--batch', '--batch-timeout', '2h']);
    assert.equal(choices.batchTimeout, 7200);
    assert.equal(choices.requestTimeout, undefined);
  });

  it('--batch --timeout still means the whole batch run, as documented since batches came', () => {
    const { choices } = parseReviewArgs(['--batch', '--timeout', '90m']);
    assert.equal(choices.batchTimeout, 5400);
    assert.equal(choices.requestTimeout, undefined);
    assert.throws(
      () => parseReviewArgs(['--batch', '--timeout', 'soon']),
      /--timeout takes a duration from 1s to 72h \(e\.g\. 90m, 24h, 3600\), got "soon"/,
    );
  });

  it('refuses --batch-timeout without --batch, and both spellings at once', () => {
    assert.throws(() => parseReviewArgs(['--batch-timeout', '2h']), UsageError);
    assert.throws(() => parseReviewArgs(['--batch-timeout', '2h']), /--batch-timeout needs --batch/);
    assert.throws(
      () => parseReviewArgs(['--batch', '--timeout', '1h', '--batch-timeout', '2h']),
      /--timeout under --batch is --batch-timeout: give one of them/,
    );
  });
});
