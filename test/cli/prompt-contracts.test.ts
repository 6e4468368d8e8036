/**
 * The contracts between what a prompt says and what its call carries, checked on the requests the fake
 * API receives from a real run: the lines a function owns, the places the challenger is given, the packet
 * synthesis is told about, the priority each flag bar implies, the rules each brief cites, and the tags
 * that fence untrusted text.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StagedJsonReport } from '../../src/report/json';
import { MessagesBody, parseRequest, type Json } from '../fake-anthropic/request';
import type { Scenario } from '../fake-anthropic/scenario';
import { startFakeAnthropic, type FakeAnthropic, type LoggedRequest } from '../fake-anthropic/server';
import { loadJson, runCli, type CliRun } from '../helpers/cli';

const DOC = `/**
 * Returns the sum of a and b.
 */
export function add(a: number, b: number): number {
  return a - b;
}

export function twice(n: number): number {
  return n * 2;
}
`;
const CONTEXT = '# Conventions\n\nErrors are thrown, never returned.\n';

const SCENARIO: Scenario = {
  files: {
    'lib/doc.ts': {
      step2: {
        file_level_findings: [
          {
            rule_id: 'F1',
            confidence: 'high',
            priority: 'should_fix',
            location: 'file-wide',
            action: 'Document twice() as add() is documented.',
            rationale: 'Half the public surface has no doc.',
          },
          {
            rule_id: 'F3',
            confidence: 'high',
            priority: 'nice_to_have',
            location: 'lib/doc.ts:4-10',
            action: 'Share the arithmetic helpers.',
            rationale: 'Two near-identical bodies.',
          },
        ],
      },
      // On the doc comment: the comment belongs to add(), so no repair turn is needed.
      reviews: {
        add: {
          A2: {
            verdict: 'flag',
            line: 2,
            action: 'Make add() add, as its doc says.',
            rationale: 'A caller trusting the doc gets a - b.',
          },
        },
      },
    },
  },
  lenses: {
    logic: [{ file: 'lib/doc.ts', line: 5, severity: 'HIGH', title: 'Subtracts instead of adding', confidence: 5 }],
  },
};

type Body = { system: Array<{ text: string }>; messages: Array<{ content: Array<{ text?: string }> }> };
const body = (r: LoggedRequest) => r.body as Body;
const systemOf = (r: LoggedRequest) =>
  body(r)
    .system.map((b) => b.text)
    .join('\n');
/** What a call is told: its system text, then its step's brief, which follows the file (the last user block). */
const instructionsOf = (r: LoggedRequest) => `${systemOf(r)}\n${body(r).messages[0]!.content.at(-1)!.text ?? ''}`;
const packetOf = (r: LoggedRequest): Json => parseRequest(MessagesBody.parse(r.body)).packet;
const firstTurn = (server: FakeAnthropic, record: string) =>
  server.requests.filter((r) => r.record === record && r.turn === 1 && r.body !== null);

/** Each rule's section of a system text (`## A1. Bugs` up to the next heading), by rule id. */
function ruleSections(system: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const m of system.matchAll(/^## ([AFG]\d)\. [^\n]*\n([\s\S]*?)(?=^#{1,2} |(?![\s\S]))/gm))
    sections.set(m[1]!, m[2]!);
  return sections;
}

/** The shared noise rules in a system text: from their heading to the next top-level heading. */
const noiseSection = (system: string) =>
  /^# What is never a finding\n[\s\S]*?(?=^# |(?![\s\S]))/m.exec(system)?.[0] ?? '';

describe('prompt contracts, on the requests of a real run through the fake API', function () {
  this.timeout(60_000);
  let server: FakeAnthropic;
  let cwd: string;
  let json: StagedJsonReport;
  let run: CliRun;
  let challengeSystem: string;

  before(async () => {
    server = await startFakeAnthropic({ scenario: SCENARIO });
    cwd = await mkdtemp(join(tmpdir(), 'skeptic-contracts-'));
    await mkdir(join(cwd, 'lib'));
    await writeFile(join(cwd, 'lib/doc.ts'), DOC);
    await writeFile(join(cwd, 'CLAUDE.md'), CONTEXT);
    run = await runCli(['review', 'lib', '--json', 'result.json'], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
    });
    json = await loadJson<StagedJsonReport>(join(cwd, 'result.json'));
    challengeSystem = systemOf(firstTurn(server, 'ChallengeResult')[0]!);
  });
  after(() => server.close());

  it("accepts a finding on a function's leading doc comment without a repair turn", () => {
    assert.equal(run.code, 0, run.stderr);
    assert.ok(
      json.findings.some(
        (f) => f.file === 'lib/doc.ts' && f.line === 2 && f.rule_id === 'A2' && f.priority === 'must_fix',
      ),
      JSON.stringify(json.findings),
    );
    const step3 = server.requests.filter((r) => r.record === 'PerFunctionReview' || r.record === 'BatchReview');
    assert.ok(step3.length > 0);
    assert.deepEqual(
      step3.filter((r) => r.turn > 1).map((r) => r.functions),
      [],
    );
    // The packet places add() from its doc comment on.
    const asked = step3.flatMap((r) => {
      const p = packetOf(r);
      return Array.isArray(p.functions) ? (p.functions as Json[]) : [p];
    });
    assert.deepEqual(
      asked.filter((f) => f.function_qualified_name === 'add').map((f) => [f.start_line, f.end_line]),
      [[1, 6]],
    );
  });

  it("gives the challenger each finding's location or range, and a file-wide finding as file-wide", () => {
    const [challenge] = firstTurn(server, 'ChallengeResult');
    assert.ok(challenge, 'the file was challenged');
    const findings = packetOf(challenge).findings as Json[];
    const byRule = new Map(findings.map((f) => [f.rule_id, f]));
    assert.equal(byRule.get('F1')!.location, 'file-wide');
    assert.equal(byRule.get('F3')!.location, 'lib/doc.ts:4-10');
    assert.equal(byRule.get('A2')!.location, 'lib/doc.ts:2');
    assert.deepEqual(byRule.get('A2')!.function_lines, [1, 6]);
    assert.ok(
      json.findings.some((f) => f.rule_id === 'F1'),
      'the file-wide finding survived',
    );
  });

  it('tells synthesis the field names its packet has, where it has them', () => {
    const [synthesis] = firstTurn(server, 'SynthesisResult');
    assert.ok(synthesis);
    const system = systemOf(synthesis);
    const packet = packetOf(synthesis);
    const named = (key: string) =>
      assert.ok(system.includes(`\`${key}\``), `the synthesis brief does not name \`${key}\``);
    Object.keys(packet).forEach(named);
    const analysis = (packet.file_analyses as Json[])[0]!;
    Object.keys(analysis).forEach(named);
    assert.ok(!('file_level_findings' in analysis));
    const finding = (packet.function_findings as Json[])[0]!;
    Object.keys(finding).forEach(named);
    assert.ok((packet.file_level_findings as Json[]).length > 0);
  });

  it('derives must_fix from the flag bar, and every flag bar names a failure the common text calls must_fix', () => {
    const fileSystem = instructionsOf(firstTurn(server, 'FileAnalysis')[0]!);
    const synthesisSystem = systemOf(firstTurn(server, 'SynthesisResult')[0]!);
    for (const system of [fileSystem, synthesisSystem]) {
      const mustFix = /^- `must_fix`: ([^\n]*)/m.exec(system)?.[1] ?? '';
      assert.match(mustFix, /flag bar/);
      const failures = ['wrong result', 'crash', 'hang', 'data loss', 'corrupt', 'security exposure', 'leak', 'misled'];
      for (const failure of failures) assert.ok(mustFix.includes(failure), `must_fix does not name "${failure}"`);
      const rules = ruleSections(system);
      assert.ok(rules.size >= 4, [...rules.keys()].join());
      for (const [id, text] of rules) {
        const bar = /^Flag[^:]*: ([^\n]*)/m.exec(text)?.[1];
        assert.ok(bar, `${id} has no flag bar`);
        if (/^never\b/i.test(bar)) continue;
        assert.ok(
          failures.some((f) => bar.includes(f)),
          `${id}'s flag bar names no failure that makes a must_fix: ${bar}`,
        );
      }
    }
    assert.deepEqual([...ruleSections(fileSystem).keys()].sort(), [
      'A1',
      'A2',
      'A3',
      'A4',
      'A5',
      'A6',
      'A7',
      'A8',
      'F1',
      'F2',
      'F3',
    ]);
    assert.deepEqual([...ruleSections(synthesisSystem).keys()].sort(), ['G1', 'G2', 'G3', 'G4']);
  });

  it('tells the challenger every rule its findings cite, and does not tell it to ignore them', () => {
    const [challenge] = firstTurn(server, 'ChallengeResult');
    const system = instructionsOf(challenge!);
    const cited = new Set((packetOf(challenge!).findings as Json[]).map((f) => String(f.rule_id)));
    for (const id of ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'F1', 'F2', 'F3']) {
      assert.ok(ruleSections(system).has(id), `${id} is not in the challenger's system text`);
    }
    assert.ok([...cited].every((id) => ruleSections(system).has(id)));
    assert.doesNotMatch(system, /ignore the other briefs/i);
  });

  it('tags each project context file like source, by a hash of its content, and never calls the suffix random', () => {
    const tag = `untrusted_context_${createHash('sha256').update(CONTEXT).digest('hex').slice(0, 8)}`;
    const calls = server.requests.filter((r) => r.body !== null);
    assert.ok(calls.length > 0);
    for (const r of calls) {
      const text = body(r)
        .messages[0]!.content.map((b) => b.text ?? '')
        .join('\n');
      assert.ok(
        text.includes(`<${tag} path="CLAUDE.md">\n${CONTEXT}\n</${tag}>`),
        `${r.record}: context block not tagged`,
      );
      assert.doesNotMatch(text, /<project_context/);
      assert.doesNotMatch(systemOf(r), /random suffix|same random/);
      assert.match(systemOf(r), /untrusted_context_XXXXXXXX/);
    }
  });

  it('gives a lens validator the shared lens text its brief relies on, as its system text', async () => {
    server.reset();
    const run = await runCli(['review', 'lib', '--mode', 'lenses', '--full-fanout', '--json', 'lens.json'], {
      cwd,
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
    });
    assert.equal(run.code, 0, run.stderr);
    const [validator] = firstTurn(server, 'LensValidation');
    const [reviewer] = firstTurn(server, 'LensReview');
    assert.ok(validator && reviewer);
    const system = systemOf(validator);
    for (const section of ['## How the user message is laid out', '## Untrusted content', '## Tools'])
      assert.ok(system.includes(section), `the validator's system text lacks "${section}"`);
    assert.equal(system, systemOf(reviewer), 'one system text for every lens call');
    // The list the validators reject by is the one the challenger disqualifies by, word for word.
    const noise = noiseSection(system);
    assert.match(noise, /^# What is never a finding\n[\s\S]*memory_safety/);
    assert.equal(noiseSection(challengeSystem).trim(), noise.trim());
    const last = body(validator).messages[0]!.content.at(-1)!.text!;
    assert.match(last, /validate one finding[\s\S]*LensValidation[\s\S]*```json/);
  });
});
