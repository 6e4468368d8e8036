import assert from 'node:assert/strict';
import Anthropic, {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  BadRequestError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
} from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import {
  BatchReview,
  ChallengeResult,
  FileAnalysis,
  PerFunctionReview,
  Step1Record,
  SynthesisResult,
} from '../../src/model/records';
import { findFunctions } from '../../src/scope/functionFinder';
import { parseScenario, ScenarioError, type Scenario } from './scenario';
import { startFakeAnthropic, type FakeAnthropic } from './server';

const CART_TS = [
  "import { Item } from './item';",
  '',
  'export class Cart {',
  '  private items: Item[] = [];',
  '',
  '  add(item: Item): void {',
  '    this.items.push(item);',
  '  }',
  '',
  '  total(): number {',
  '    let sum = 0;',
  '    for (const i of this.items) sum += i.price;',
  '    return sum;',
  '  }',
  '',
  '  private reset() {',
  '    this.items = [];',
  '  }',
  '}',
  '',
  'export function emptyCart(): Cart {',
  '  return new Cart();',
  '}',
  '',
  'const double = (n: number) => n * 2;',
].join('\n');

/** A source block as the engine formats it. */
function sourceBlock(path: string, code: string, role = 'primary'): string {
  const lines = code.split('\n');
  const numbered = lines.map((l, i) => `${String(i + 1).padStart(4)}| ${l}`).join('\n');
  return `<untrusted_source_0badf00d path="${path}" role="${role}" lines="${lines.length}">\n${numbered}\n</untrusted_source_0badf00d>`;
}

function packetText(packet: object): string {
  return `Review this. Context packet:\n\`\`\`json\n${JSON.stringify(packet, null, 2)}\n\`\`\``;
}

interface Ask {
  schema: z.ZodType;
  packet: object;
  sources?: string[];
  system?: string;
  later?: MessageParam[];
}

/** A request laid out like the engine's: system blocks, source blocks, then the packet last. */
function ask({
  schema,
  packet,
  sources = [],
  system = 'You are a reviewer.',
  later = [],
}: Ask): MessageCreateParamsNonStreaming {
  const content: ContentBlockParam[] = [
    ...sources.map((s) => ({ type: 'text' as const, text: s })),
    { type: 'text', text: packetText(packet) },
  ];
  return {
    model: 'claude-sonnet-4-6',
    max_tokens: 4096,
    system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }],
    output_config: { format: zodOutputFormat(schema) },
    messages: [{ role: 'user', content }, ...later],
  };
}

function recordOf(message: Message): unknown {
  const block = message.content[0];
  assert.equal(block.type, 'text');
  return JSON.parse(block.text);
}

/** The file breadcrumbs every Step 3 packet carries. */
const cartCrumbs = {
  file_path: 'src/cart.ts',
  companion_path: null,
  brutal_one_line: 'A cart.',
  invariants: [],
  risk_flags: [],
  concurrency_present: false,
};

const cartReviewPacket = {
  ...cartCrumbs,
  function_qualified_name: 'Cart.total',
  kind: 'method',
  visibility: 'public',
  role_in_file: 'sums prices',
  start_line: 10,
};

const cartBatchPacket = {
  ...cartCrumbs,
  functions: [
    { function_qualified_name: 'Cart.add', kind: 'method', visibility: 'public', role_in_file: 'adds', start_line: 6 },
    {
      function_qualified_name: 'Cart.total',
      kind: 'method',
      visibility: 'public',
      role_in_file: 'sums',
      start_line: 10,
    },
  ],
};

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  assert.fail('expected the call to fail');
}

describe('fake Anthropic server', () => {
  let server: FakeAnthropic;
  let client: Anthropic;

  before(async () => {
    server = await startFakeAnthropic({ port: 0 });
    client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
  });
  after(() => server.close());
  beforeEach(() => {
    server.setScenario({});
    server.reset();
  });

  describe('default records', () => {
    it('answers a Step1Record from the packet path and the source block', async () => {
      const message = await client.messages.create(
        ask({
          schema: Step1Record,
          packet: { path: 'src/cart.ts', companion_path: null },
          sources: [sourceBlock('src/cart.ts', CART_TS)],
        }),
      );
      assert.equal(message.stop_reason, 'end_turn');
      assert.equal(message.model, 'claude-sonnet-4-6');
      assert.match(message.id, /^msg_/);
      const record = Step1Record.parse(recordOf(message));
      assert.equal(record.file_path, 'src/cart.ts');
      assert.equal(record.language, 'typescript');
      assert.equal(record.primary_kind, 'implementation');
      assert.equal(record.review_as, 'code_review');
      assert.equal(record.include_in_pipeline, true);
      assert.equal(record.approx_line_count, 25);
    });

    it('classifies tests, docs and config by name', async () => {
      const kinds: Record<string, [string, string]> = {
        'src/cart.test.ts': ['test_code', 'code_review'],
        'tests/test_cart.py': ['test_code', 'code_review'],
        'pkg/cart_test.go': ['test_code', 'code_review'],
        'README.md': ['documentation', 'documentation_review'],
        'config/app.yaml': ['configuration', 'configuration_review'],
      };
      for (const [path, [kind, reviewAs]] of Object.entries(kinds)) {
        const record = Step1Record.parse(
          recordOf(await client.messages.create(ask({ schema: Step1Record, packet: { path, companion_path: null } }))),
        );
        assert.deepEqual([record.primary_kind, record.review_as], [kind, reviewAs], path);
      }
    });

    it('lists the functions of the primary source in a FileAnalysis', async () => {
      const packet = {
        file_path: 'src/cart.ts',
        review_as: 'code_review',
        primary_kind: 'implementation',
        companion_path: 'src/item.ts',
      };
      const sources = [
        sourceBlock('src/item.ts', 'export function price() {}', 'companion'),
        sourceBlock('src/cart.ts', CART_TS),
      ];
      const record = FileAnalysis.parse(
        recordOf(await client.messages.create(ask({ schema: FileAnalysis, packet, sources }))),
      );
      assert.deepEqual(
        record.functions.map((f) => [f.qualified_name, f.visibility, f.start_line]),
        [
          ['Cart.add', 'public', 6],
          ['Cart.total', 'public', 10],
          ['Cart.reset', 'private', 16],
          ['emptyCart', 'public', 21],
          ['double', 'internal', 25],
        ],
      );
    });

    it('gives documentation no functions', async () => {
      const packet = { file_path: 'README.md', review_as: 'documentation_review' };
      const record = FileAnalysis.parse(
        recordOf(
          await client.messages.create(
            ask({ schema: FileAnalysis, packet, sources: [sourceBlock('README.md', 'function x() {')] }),
          ),
        ),
      );
      assert.deepEqual(record.functions, []);
    });

    it('reviews every asked function of a batch clean, in order', async () => {
      const record = BatchReview.parse(
        recordOf(await client.messages.create(ask({ schema: BatchReview, packet: cartBatchPacket }))),
      );
      assert.deepEqual(
        record.reviews.map((r) => [r.function_qualified_name, r.start_line]),
        [
          ['Cart.add', 6],
          ['Cart.total', 10],
        ],
      );
      assert.ok(record.reviews.every((r) => r.verdicts.every((v) => v.verdict === 'clean')));
    });

    it('lets every finding survive a challenge, in packet order', async () => {
      const findings = [
        {
          rule_id: 'A1',
          function_qualified_name: 'Cart.total',
          line: 12,
          action: 'x',
          rationale: 'y',
          confidence: 'high',
          priority: null,
        },
        {
          rule_id: 'F2',
          function_qualified_name: null,
          line: 3,
          action: 'x',
          rationale: 'y',
          confidence: 'low',
          priority: 'should_fix',
        },
      ];
      const packet = { file_path: 'src/cart.ts', companion_path: null, brutal_one_line: '', invariants: [], findings };
      const record = ChallengeResult.parse(
        recordOf(await client.messages.create(ask({ schema: ChallengeResult, packet }))),
      );
      assert.deepEqual(
        record.challenges.map((c) => [c.rule_id, c.function_qualified_name, c.line, c.survived, c.revised_priority]),
        [
          ['A1', 'Cart.total', 12, true, null],
          ['F2', null, 3, true, null],
        ],
      );
    });

    it('groups a synthesis by top-level folder', async () => {
      const packet = {
        review_roots: ['.'],
        file_entries: [
          { path: 'src/a.ts', companion_path: null },
          { path: 'src/b.ts', companion_path: null },
          { path: 'lib/c.py', companion_path: null },
        ],
        step1_results: [],
        file_analyses: [],
        function_findings: [],
        file_level_findings: [],
      };
      const record = SynthesisResult.parse(
        recordOf(await client.messages.create(ask({ schema: SynthesisResult, packet }))),
      );
      assert.deepEqual(
        record.file_groups.map((g) => [g.group_name, g.file_paths]),
        [
          ['src', ['src/a.ts', 'src/b.ts']],
          ['lib', ['lib/c.py']],
        ],
      );
      assert.equal(record.file_profiles.length, 3);
      assert.deepEqual(record.cross_file_findings, []);
    });

    it('builds a minimal valid value for an unknown record title', async () => {
      const LensReview = z
        .object({
          file_path: z.string(),
          lens: z.enum(['security', 'performance']),
          notes: z.array(z.string()),
          score: z.number().int().min(1),
          reason: z.string().min(1),
          line: z.number().int().nullable(),
          ok: z.boolean(),
        })
        .meta({ title: 'LensReview' });
      const message = await client.messages.create(ask({ schema: LensReview, packet: { file_path: 'src/cart.ts' } }));
      const record = LensReview.parse(recordOf(message));
      assert.deepEqual(record, {
        file_path: 'src/cart.ts',
        lens: 'security',
        notes: [],
        score: 1,
        reason: 'x',
        line: null,
        ok: false,
      });
      assert.equal(server.requests[0].record, 'LensReview');
    });
  });

  describe('planted records', () => {
    const scenario: Scenario = {
      files: {
        'src/cart.ts': {
          step1: { concurrency_present: true, primary_entrypoints: ['Cart'] },
          reviews: {
            'Cart.total': {
              A1: {
                verdict: 'flag',
                confidence: 'high',
                line: 12,
                action: 'Guard the sum.',
                rationale: 'Overflows.',
                priority: null,
              },
            },
          },
          challenges: [{ rule_id: 'A1', line: 12, survived: false, challenge_reason: 'The loop is bounded.' }],
        },
      },
      synthesis: { verdict_one_line: 'Planted verdict.' },
    };

    it('returns a planted review verdict, other rules clean', async () => {
      server.setScenario(scenario);
      const record = PerFunctionReview.parse(
        recordOf(await client.messages.create(ask({ schema: PerFunctionReview, packet: cartReviewPacket }))),
      );
      assert.equal(record.function_qualified_name, 'Cart.total');
      assert.equal(record.start_line, 10);
      const a1 = record.verdicts.find((v) => v.rule_id === 'A1');
      assert.deepEqual(a1, {
        rule_id: 'A1',
        verdict: 'flag',
        confidence: 'high',
        line: 12,
        action: 'Guard the sum.',
        rationale: 'Overflows.',
        priority: null,
        // Not planted: the fake fills the category a model would give a finding under A1.
        category: 'logic',
      });
      assert.deepEqual(
        record.verdicts.filter((v) => v.verdict !== 'clean').map((v) => v.rule_id),
        ['A1'],
      );
    });

    it('plants per function in a batch, and merges step1 and synthesis overrides', async () => {
      server.setScenario(scenario);
      const batch = BatchReview.parse(
        recordOf(await client.messages.create(ask({ schema: BatchReview, packet: cartBatchPacket }))),
      );
      assert.deepEqual(
        batch.reviews.map((r) => r.verdicts.filter((v) => v.verdict === 'flag').map((v) => v.line)),
        [[], [12]],
      );
      const step1 = Step1Record.parse(
        recordOf(await client.messages.create(ask({ schema: Step1Record, packet: { path: 'src/cart.ts' } }))),
      );
      assert.equal(step1.concurrency_present, true);
      assert.deepEqual(step1.primary_entrypoints, ['Cart']);
      assert.equal(step1.language, 'typescript');
      const synthesis = SynthesisResult.parse(
        recordOf(
          await client.messages.create(
            ask({ schema: SynthesisResult, packet: { file_entries: [{ path: 'src/cart.ts' }] } }),
          ),
        ),
      );
      assert.equal(synthesis.verdict_one_line, 'Planted verdict.');
      assert.deepEqual(
        synthesis.file_profiles.map((p) => p.file_path),
        ['src/cart.ts'],
      );
    });

    it('matches planted challenges by rule and line; others survive', async () => {
      server.setScenario(scenario);
      const findings = [
        { rule_id: 'A1', function_qualified_name: 'Cart.total', line: 12 },
        { rule_id: 'A1', function_qualified_name: 'Cart.add', line: 7 },
      ];
      const packet = { file_path: 'src/cart.ts', companion_path: null, brutal_one_line: '', invariants: [], findings };
      const record = ChallengeResult.parse(
        recordOf(await client.messages.create(ask({ schema: ChallengeResult, packet }))),
      );
      assert.deepEqual(
        record.challenges.map((c) => [c.line, c.survived, c.challenge_reason]),
        [
          [12, false, 'The loop is bounded.'],
          [7, true, record.challenges[1].challenge_reason],
        ],
      );
    });

    it('answers a forced submit tool with a tool_use block', async () => {
      server.setScenario(scenario);
      const params = ask({ schema: PerFunctionReview, packet: cartReviewPacket });
      const { schema } = zodOutputFormat(PerFunctionReview);
      const message = await client.messages.create({
        ...params,
        output_config: undefined,
        tools: [
          {
            name: 'submit_PerFunctionReview',
            description: 'Submit the review.',
            input_schema: { ...schema, type: 'object' },
          },
        ],
        tool_choice: { type: 'tool', name: 'submit_PerFunctionReview' },
      });
      assert.equal(message.stop_reason, 'tool_use');
      const block = message.content[0];
      assert.equal(block.type, 'tool_use');
      assert.equal(block.name, 'submit_PerFunctionReview');
      const record = PerFunctionReview.parse(block.input);
      assert.equal(record.verdicts[0].verdict, 'flag');
      assert.equal(server.requests[0].record, 'PerFunctionReview');
    });
  });

  describe('faults', () => {
    const review = () => client.messages.create(ask({ schema: PerFunctionReview, packet: cartReviewPacket }));

    it('status 429 carries retry-after, and stops after `times` hits', async () => {
      server.setScenario({
        faults: [
          {
            match: { record: 'PerFunctionReview', file: 'src/cart.ts', function: 'Cart.total' },
            kind: 'status',
            status: 429,
            retry_after: 3,
            times: 2,
          },
        ],
      });
      for (let i = 0; i < 2; i++) {
        const err = await rejection(review());
        assert.ok(err instanceof RateLimitError);
        assert.equal(err.status, 429);
        assert.equal(err.headers?.get('retry-after'), '3');
        assert.equal(err.type, 'rate_limit_error');
        assert.match(err.requestID ?? '', /^req_/);
      }
      PerFunctionReview.parse(recordOf(await review()));
      assert.deepEqual(
        server.requests.map((r) => [r.status, r.fault]),
        [
          [429, 'status'],
          [429, 'status'],
          [200, null],
        ],
      );
    });

    it('529 and 500 use the overloaded and api error types', async () => {
      server.setScenario({
        faults: [
          { kind: 'status', status: 529 },
          { kind: 'status', status: 500 },
        ],
      });
      const overloaded = await rejection(review());
      assert.ok(overloaded instanceof APIError);
      assert.deepEqual(
        [overloaded.status, overloaded.type, overloaded.headers?.get('retry-after')],
        [529, 'overloaded_error', null],
      );
      const internal = await rejection(review());
      assert.ok(internal instanceof APIError);
      assert.deepEqual([internal.status, internal.type], [500, 'api_error']);
    });

    it('matches only the named function; times -1 hits forever', async () => {
      server.setScenario({ faults: [{ match: { function: 'Cart.add' }, kind: 'status', status: 500, times: -1 }] });
      PerFunctionReview.parse(recordOf(await review()));
      const batch = () => client.messages.create(ask({ schema: BatchReview, packet: cartBatchPacket }));
      for (let i = 0; i < 3; i++) assert.ok((await rejection(batch())) instanceof APIError);
    });

    it('drop closes the connection without an answer', async () => {
      server.setScenario({ faults: [{ kind: 'drop' }] });
      const err = await rejection(review());
      assert.ok(err instanceof APIConnectionError, String(err));
      assert.equal(server.requests[0].fault, 'drop');
      assert.equal(server.requests[0].status, null);
      PerFunctionReview.parse(recordOf(await review()));
    });

    it('slow delays the answer: a call sent after it is answered first', async () => {
      server.setScenario({ faults: [{ kind: 'slow', ms: 1000 }] });
      const held = review();
      await server.until(() => server.requests[0]?.fault === 'slow', 'the first call to take the slow fault');
      PerFunctionReview.parse(recordOf(await review()));
      assert.equal(server.requests[0]!.ended_at, null, 'the slow call is still held');
      PerFunctionReview.parse(recordOf(await held));
      assert.equal(server.requests[0]!.status, 200);
    });

    it('invalid_json answers text that is not JSON', async () => {
      server.setScenario({ faults: [{ kind: 'invalid_json' }] });
      const message = await review();
      const block = message.content[0];
      assert.equal(block.type, 'text');
      assert.throws(() => JSON.parse(block.text), SyntaxError);
    });

    it('schema_invalid breaks the record; the repair turn gets a valid one', async () => {
      server.setScenario({
        faults: [
          { match: { record: 'PerFunctionReview' }, kind: 'schema_invalid' },
          { match: { record: 'Step1Record' }, kind: 'schema_invalid' },
        ],
      });
      const params = ask({ schema: PerFunctionReview, packet: cartReviewPacket });
      const bad = await client.messages.create(params);
      const invalid = PerFunctionReview.safeParse(recordOf(bad));
      assert.equal(invalid.success, false);
      const repair = await client.messages.create({
        ...params,
        messages: [
          ...params.messages,
          { role: 'assistant', content: bad.content },
          { role: 'user', content: 'Your reply was rejected: verdicts must have 8 entries.' },
        ],
      });
      PerFunctionReview.parse(recordOf(repair));
      assert.equal(server.requests[1].turn, 2);
      const step1 = await client.messages.create(ask({ schema: Step1Record, packet: { path: 'src/cart.ts' } }));
      assert.equal(Step1Record.safeParse(recordOf(step1)).success, false);
    });

    it('omit_functions leaves the named functions out of a batch', async () => {
      server.setScenario({ faults: [{ kind: 'omit_functions', functions: ['Cart.add'] }] });
      const record = BatchReview.parse(
        recordOf(await client.messages.create(ask({ schema: BatchReview, packet: cartBatchPacket }))),
      );
      assert.deepEqual(
        record.reviews.map((r) => r.function_qualified_name),
        ['Cart.total'],
      );
    });

    it('bad_line moves every cited line past the end of the file', async () => {
      server.setScenario({
        files: { 'src/cart.ts': { reviews: { 'Cart.total': { A1: { verdict: 'flag', line: 12 } } } } },
        faults: [{ kind: 'bad_line' }],
      });
      const params = ask({
        schema: PerFunctionReview,
        packet: cartReviewPacket,
        sources: [sourceBlock('src/cart.ts', CART_TS)],
      });
      const record = PerFunctionReview.parse(recordOf(await client.messages.create(params)));
      assert.ok(record.verdicts[0].line !== null && record.verdicts[0].line > 25);
      assert.ok(record.start_line > 25);
    });

    it('tool_use calls the tool first, then answers the tool-result turn normally', async () => {
      server.setScenario({ faults: [{ kind: 'tool_use', tool: 'read_file', input: { path: 'src/item.ts' } }] });
      const params = ask({ schema: PerFunctionReview, packet: cartReviewPacket });
      const first = await client.messages.create(params);
      assert.equal(first.stop_reason, 'tool_use');
      const call = first.content[0];
      assert.equal(call.type, 'tool_use');
      assert.deepEqual([call.name, call.input], ['read_file', { path: 'src/item.ts' }]);
      const second = await client.messages.create({
        ...params,
        messages: [
          ...params.messages,
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: call.id, content: 'export interface Item {}' }],
          },
        ],
      });
      assert.equal(second.stop_reason, 'end_turn');
      assert.equal(PerFunctionReview.parse(recordOf(second)).function_qualified_name, 'Cart.total');
      assert.deepEqual(
        server.requests.map((r) => [r.turn, r.fault]),
        [
          [1, 'tool_use'],
          [2, null],
        ],
      );
    });

    it('an answer longer than max_tokens is cut there: stop_reason max_tokens, every token spent', async () => {
      server.setScenario({ faults: [{ kind: 'verbose', chars: 2_000, times: -1 }] });
      const params = { ...ask({ schema: Step1Record, packet: { path: 'src/cart.ts' } }), max_tokens: 100 };
      // A structured output's JSON text stops mid-text.
      const text = await client.messages.create(params);
      assert.equal(text.stop_reason, 'max_tokens');
      assert.equal(text.usage.output_tokens, 100);
      const block = text.content[0];
      assert.equal(block?.type, 'text');
      assert.equal(block.text.length, 400);
      assert.throws(() => JSON.parse(block.text) as unknown);
      // A submit tool's input is what a partial parse of its cut arguments gives.
      const { schema } = zodOutputFormat(Step1Record);
      const tool = await client.messages.create({
        ...params,
        output_config: undefined,
        tools: [{ name: 'submit_Step1Record', input_schema: { ...schema, type: 'object' } }],
        tool_choice: { type: 'tool', name: 'submit_Step1Record' },
      });
      assert.equal(tool.stop_reason, 'max_tokens');
      const call = tool.content[0];
      assert.equal(call?.type, 'tool_use');
      // The fields before the long one whole, that one begun, none after it.
      const input = call.input as Record<string, unknown>;
      assert.equal(input.file_path, 'src/cart.ts');
      assert.deepEqual(Object.keys(input).at(-1), 'appearance');
      assert.match(String(input.appearance), /^A typescript file .* And there is more to say about it\./);
      assert.ok(JSON.stringify(input).length < 410);
      assert.ok(!Step1Record.safeParse(input).success);
      // Within max_tokens the same answer is whole.
      server.setScenario({});
      const whole = await client.messages.create(params);
      assert.equal(whole.stop_reason, 'end_turn');
      Step1Record.parse(recordOf(whole));
    });
  });

  describe('prompt-cache accounting', () => {
    const longSystem = 'Review rules. '.repeat(800);

    it('reads a cached prefix on the second identical call', async () => {
      const params = ask({ schema: PerFunctionReview, packet: cartReviewPacket, system: longSystem });
      const first = await client.messages.create(params);
      assert.equal(first.usage.cache_read_input_tokens, 0);
      assert.ok((first.usage.cache_creation_input_tokens ?? 0) >= 1024);
      const second = await client.messages.create(params);
      assert.equal(second.usage.cache_read_input_tokens, first.usage.cache_creation_input_tokens);
      assert.equal(second.usage.cache_creation_input_tokens, 0);
      assert.equal(second.usage.input_tokens, first.usage.input_tokens);
      assert.ok(second.usage.output_tokens > 0);
    });

    it('misses when the output schema (earlier in the prefix) differs', async () => {
      await client.messages.create(ask({ schema: PerFunctionReview, packet: cartReviewPacket, system: longSystem }));
      const other = await client.messages.create(
        ask({ schema: BatchReview, packet: cartBatchPacket, system: longSystem }),
      );
      assert.equal(other.usage.cache_read_input_tokens, 0);
      assert.ok((other.usage.cache_creation_input_tokens ?? 0) > 0);
    });

    it('never caches a prefix under the minimum, and reset() forgets the cache', async () => {
      const short = ask({ schema: PerFunctionReview, packet: cartReviewPacket });
      await client.messages.create(short);
      const again = await client.messages.create(short);
      assert.deepEqual([again.usage.cache_read_input_tokens, again.usage.cache_creation_input_tokens], [0, 0]);
      const long = ask({ schema: PerFunctionReview, packet: cartReviewPacket, system: longSystem });
      await client.messages.create(long);
      server.reset();
      assert.equal((await client.messages.create(long)).usage.cache_read_input_tokens, 0);
    });

    it('makes a written prefix readable only once its response has begun: calls that start together all write it', async () => {
      const slow = await startFakeAnthropic({ latencyMs: 400, msPerOutputToken: 1 });
      try {
        const slowClient = new Anthropic({ apiKey: 'test', baseURL: slow.url, maxRetries: 0 });
        const params = ask({ schema: PerFunctionReview, packet: cartReviewPacket, system: longSystem });
        const first = slowClient.messages.create(params);
        // Arrived (its cache accounted), and waiting out its latency before the response begins.
        await slow.until(() => slow.requests[0]?.record, 'the first call to arrive');
        const together = await slowClient.messages.create(params);
        assert.equal(together.usage.cache_read_input_tokens, 0, 'the first call had not begun its response');
        assert.equal(together.usage.cache_creation_input_tokens, (await first).usage.cache_creation_input_tokens);
        const [writer] = slow.requests;
        assert.ok(
          writer!.began_at !== null && writer!.ended_at! - writer!.began_at >= writer!.usage!.output_tokens,
          'output time follows the first token',
        );
        assert.equal(
          (await slowClient.messages.create(params)).usage.cache_read_input_tokens,
          together.usage.cache_creation_input_tokens,
        );
      } finally {
        await slow.close();
      }
    });

    it('refuses more than 4 breakpoints, as the API does', async () => {
      const marked = (text: string): ContentBlockParam => ({
        type: 'text',
        text,
        cache_control: { type: 'ephemeral' },
      });
      const base = ask({ schema: PerFunctionReview, packet: cartReviewPacket });
      const four = {
        ...base,
        messages: [
          { role: 'user' as const, content: [marked('a'), marked('b'), marked(packetText(cartReviewPacket))] },
        ],
      };
      assert.equal((await client.messages.create(four)).type, 'message');
      const five = {
        ...four,
        messages: [
          {
            role: 'user' as const,
            content: [marked('a'), marked('b'), marked('c'), marked(packetText(cartReviewPacket))],
          },
        ],
      };
      const err = await rejection(client.messages.create(five));
      assert.ok(err instanceof APIError && err.status === 400);
      assert.match(err.message, /maximum of 4 blocks with cache_control.*Found 5/);
    });

    it('reads a prefix cached at an earlier breakpoint up to 20 blocks back (a moved breakpoint still hits)', async () => {
      const turn1 = ask({ schema: PerFunctionReview, packet: cartReviewPacket, system: longSystem });
      const packet = turn1.messages[0]!.content as ContentBlockParam[];
      const withPacketCached = {
        ...turn1,
        messages: [
          {
            role: 'user' as const,
            content: [...packet.slice(0, -1), { ...packet.at(-1)!, cache_control: { type: 'ephemeral' as const } }],
          },
        ],
      };
      const first = await client.messages.create(withPacketCached);
      const repair = {
        ...turn1,
        messages: [
          ...turn1.messages,
          { role: 'assistant' as const, content: 'not json' },
          {
            role: 'user' as const,
            content: [{ type: 'text' as const, text: 'Answer again.', cache_control: { type: 'ephemeral' as const } }],
          },
        ],
      };
      const second = await client.messages.create(repair);
      assert.equal(second.usage.cache_read_input_tokens, first.usage.cache_creation_input_tokens);
      assert.ok((second.usage.cache_creation_input_tokens ?? 0) > 0, 'the new turn is written');
    });
  });

  describe('protocol', () => {
    it("states the model's window on the Models API and counts a prompt as the window does, through the SDK", async () => {
      const small = await startFakeAnthropic({ contextWindow: 10_000, bytesPerToken: 2 });
      try {
        const sdk = new Anthropic({ apiKey: 'test', baseURL: small.url, maxRetries: 0 });
        const info = await sdk.models.retrieve('claude-opus-5-5');
        assert.deepEqual([info.id, info.type, info.max_input_tokens], ['claude-opus-5-5', 'model', 10_000]);
        const body = ask({ schema: Step1Record, packet: { path: 'a.ts', pad: 'é'.repeat(4_000) } });
        const { max_tokens: _, ...countable } = body;
        const { input_tokens } = await sdk.messages.countTokens(countable);
        assert.equal(small.counted(), 1);
        // Two bytes a token: the 4,000 two-byte characters alone are 4,000 tokens.
        assert.ok(input_tokens > 4_000, String(input_tokens));
        // The count is the one the window refuses by; max_tokens is no part of a count.
        await assert.rejects(
          sdk.messages.create({ ...body, max_tokens: 10_000 - input_tokens + 1 }),
          new RegExp(`prompt is too long: ${input_tokens} tokens > ${input_tokens - 1} maximum`),
        );
        await assert.rejects(
          sdk.messages.countTokens(body as unknown as Anthropic.Messages.MessageCountTokensParams),
          /max_tokens: Extra inputs are not permitted/,
        );
        // Counts are not messages: the log holds only the one refused.
        assert.deepEqual(
          small.requests.map((r) => r.status),
          [400],
        );
      } finally {
        await small.close();
      }
      // A fake told not to state it answers null, as the Models API may.
      const silent = await startFakeAnthropic({ statesWindow: false });
      try {
        const sdk = new Anthropic({ apiKey: 'test', baseURL: silent.url, maxRetries: 0 });
        assert.equal((await sdk.models.retrieve('claude-opus-5-5')).max_input_tokens, null);
      } finally {
        await silent.close();
      }
    });

    it('answers 401 without a key, and takes x-api-key or a bearer token', async () => {
      const post = (headers: Record<string, string>) =>
        fetch(`${server.url}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(ask({ schema: Step1Record, packet: { path: 'a.ts' } })),
        });
      const missing: Record<string, string>[] = [{}, { 'x-api-key': ' ' }, { authorization: 'Bearer ' }];
      for (const headers of missing) {
        const res = await post(headers);
        assert.equal(res.status, 401, JSON.stringify(headers));
        const body = (await res.json()) as { type: string; error: { type: string } };
        assert.deepEqual([body.type, body.error.type], ['error', 'authentication_error']);
      }
      assert.equal((await post({ 'x-api-key': 'k' })).status, 200);
      assert.equal((await post({ authorization: 'Bearer k' })).status, 200);
      assert.deepEqual(
        server.requests.map((r) => r.status),
        [401, 401, 401, 200, 200],
      );
    });

    it('refuses streaming with an API-shaped 400', async () => {
      const err = await rejection(
        client.messages.create({ ...ask({ schema: Step1Record, packet: { path: 'a.ts' } }), stream: true }),
      );
      assert.ok(err instanceof APIError);
      assert.equal(err.status, 400);
      assert.match(err.message, /streaming is not supported/);
    });

    it('logs each call, overlapping calls overlap, and the log is served over HTTP', async () => {
      const slow = await startFakeAnthropic({ latencyMs: 200 });
      try {
        const slowClient = new Anthropic({ apiKey: 'test', baseURL: slow.url, maxRetries: 0 });
        await Promise.all([
          slowClient.messages.create(ask({ schema: PerFunctionReview, packet: cartReviewPacket })),
          slowClient.messages.create(ask({ schema: BatchReview, packet: cartBatchPacket })),
        ]);
        const [a, b] = slow.requests;
        assert.ok(a.ended_at !== null && b.ended_at !== null);
        assert.ok(a.started_at < b.ended_at && b.started_at < a.ended_at, 'the calls overlapped');
        assert.deepEqual(
          slow.requests.map((r) => [r.seq, r.record, r.file, r.functions, r.turn, r.status, r.fault]),
          [
            [1, 'PerFunctionReview', 'src/cart.ts', ['Cart.total'], 1, 200, null],
            [2, 'BatchReview', 'src/cart.ts', ['Cart.add', 'Cart.total'], 1, 200, null],
          ],
        );
        assert.equal((a.body as { model: string }).model, 'claude-sonnet-4-6');
        const served = (await (await fetch(`${slow.url}/_requests`)).json()) as unknown[];
        assert.deepEqual(served, JSON.parse(JSON.stringify(slow.requests)));
        assert.equal((await fetch(`${slow.url}/_reset`, { method: 'POST' })).status, 200);
        assert.deepEqual(slow.requests, []);
      } finally {
        await slow.close();
      }
    });

    it('stops work when the client goes away', async () => {
      const slow = await startFakeAnthropic({ latencyMs: 300, minCacheTokens: 1 });
      try {
        const slowClient = new Anthropic({ apiKey: 'test', baseURL: slow.url, maxRetries: 0 });
        const params = ask({ schema: PerFunctionReview, packet: cartReviewPacket });
        const controller = new AbortController();
        const pending = slowClient.messages.create(params, { signal: controller.signal });
        await slow.until(() => slow.requests[0]?.record, 'the call to arrive');
        controller.abort();
        assert.ok((await rejection(pending)) instanceof APIUserAbortError);
        const [entry] = slow.requests;
        await slow.until(() => entry!.ended_at !== null, 'the server to see the client go away');
        assert.equal(entry!.status, null);
        // A call of another prefix, sent later with the same latency, ends after the abandoned one would have:
        // had that one gone on, it would have begun its response and cached its prefix by then.
        await slowClient.messages.create({ ...params, system: 'A later call.' });
        assert.deepEqual([entry!.began_at, entry!.usage], [null, null], 'the abandoned call never began');
        assert.equal((await slowClient.messages.create(params)).usage.cache_read_input_tokens, 0);
      } finally {
        await slow.close();
      }
    });
  });

  describe('Message Batches: cancel, as the API reference describes it', () => {
    afterEach(() => server.setBatchDelay(0));

    const request = (custom_id: string) => ({
      custom_id,
      params: { model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hi' }] },
    });

    it('a batch canceled before it runs is canceling, then ended with every request canceled', async () => {
      server.setBatchDelay(60_000);
      const batch = await client.messages.batches.create({ requests: [request('a'), request('b')] });
      const canceling = await client.messages.batches.cancel(batch.id);
      assert.equal(canceling.processing_status, 'canceling');
      assert.ok(canceling.cancel_initiated_at);

      let ended = await client.messages.batches.retrieve(batch.id);
      for (let i = 0; ended.processing_status !== 'ended' && i < 50; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        ended = await client.messages.batches.retrieve(batch.id);
      }
      assert.equal(ended.processing_status, 'ended');
      assert.deepEqual(ended.request_counts, { processing: 0, succeeded: 0, errored: 0, canceled: 2, expired: 0 });
      const results = [];
      for await (const line of await client.messages.batches.results(batch.id)) results.push(line.result.type);
      assert.deepEqual(results, ['canceled', 'canceled']);

      // Ended: nothing left to cancel.
      await assert.rejects(client.messages.batches.cancel(batch.id), BadRequestError);
    });
  });

  describe('the Messages API contract, as strict as the API', () => {
    const step1 = () => ask({ schema: Step1Record, packet: { path: 'a.ts' } });
    const refused = async (params: object, why: RegExp) => {
      const err = await rejection(client.messages.create(params as MessageCreateParamsNonStreaming));
      assert.ok(err instanceof BadRequestError, String(err));
      assert.equal((err.error as { error: { type: string } }).error.type, 'invalid_request_error');
      assert.match(err.message, why);
    };
    const toolUse = { type: 'tool_use' as const, id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } };
    const toolResult = { type: 'tool_result' as const, tool_use_id: 'toolu_1', content: 'x' };
    const turns = (...later: MessageParam[]) => ({ ...step1(), messages: [...step1().messages, ...later] });

    it('refuses an unknown field at the top, in a block, a tool, a tool_choice or output_config', async () => {
      await refused({ ...step1(), temprature: 0 }, /temprature: Extra inputs are not permitted/);
      const [first] = step1().messages;
      const blocks = first!.content as ContentBlockParam[];
      await refused(
        { ...step1(), messages: [{ ...first, content: [{ ...blocks[0], note: 1 }] }] },
        /messages\.0\.content/,
      );
      await refused(
        { ...step1(), tools: [{ name: 't', input_schema: { type: 'object' }, required: true }] },
        /tools\.0/,
      );
      await refused({ ...step1(), tool_choice: { type: 'auto', name: 'x' } }, /tool_choice/);
      await refused({ ...step1(), output_config: { ...step1().output_config, strict: true } }, /output_config/);
      assert.equal(server.requests.filter((r) => r.status === 400).length, 5);
    });

    it('refuses a tool_use left without its tool_result in the next turn, and a tool_result with no tool_use', async () => {
      await refused(
        turns({ role: 'assistant', content: [toolUse] }, { role: 'user', content: 'go on' }),
        /`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1/,
      );
      await refused(
        turns(
          { role: 'assistant', content: [toolUse, { ...toolUse, id: 'toolu_2', name: 'submit_Step1Record' }] },
          { role: 'user', content: [toolResult] },
        ),
        /without `tool_result` blocks immediately after: toolu_2/,
      );
      await refused(
        turns({ role: 'assistant', content: 'ok' }, { role: 'user', content: [toolResult] }),
        /unexpected `tool_use_id` found in `tool_result` blocks: toolu_1/,
      );
      await refused(
        turns(
          { role: 'assistant', content: [toolUse] },
          { role: 'user', content: [{ type: 'text', text: 'first' }, toolResult] },
        ),
        /tool_result blocks must come first/,
      );
      await refused(
        { ...step1(), messages: [{ role: 'assistant', content: 'hi' }] },
        /first message must use the .+user.+ role/,
      );
      // Answered as the API requires: accepted.
      await client.messages.create(
        turns({ role: 'assistant', content: [toolUse] }, { role: 'user', content: [toolResult] }),
      );
    });

    it('a batch create with an unknown field is refused; its params are held to the same contract when they run', async () => {
      const params = {
        model: 'claude-sonnet-4-5',
        max_tokens: 16,
        messages: [{ role: 'user' as const, content: 'hi' }],
      };
      const create = client.messages.batches.create({ requests: [{ custom_id: 'a', params }], priority: 1 } as never);
      assert.ok((await rejection(create)) instanceof BadRequestError);
      const batch = await client.messages.batches.create({
        requests: [{ custom_id: 'a', params: { ...params, bogus: true } as never }],
      });
      let ended = await client.messages.batches.retrieve(batch.id);
      for (let i = 0; ended.processing_status !== 'ended' && i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        ended = await client.messages.batches.retrieve(batch.id);
      }
      const results = [];
      for await (const line of await client.messages.batches.results(batch.id)) results.push(line.result);
      assert.equal(results[0]?.type, 'errored');
      assert.match(JSON.stringify(results[0]), /bogus: Extra inputs are not permitted/);
    });
  });

  describe('scenario validation', () => {
    it('rejects an incoherent planted verdict with its path', () => {
      assert.throws(
        () => parseScenario({ files: { 'src/cart.ts': { reviews: { 'Cart.total': { A1: { verdict: 'flag' } } } } } }),
        (err: unknown) =>
          err instanceof ScenarioError &&
          err.message.includes('files["src/cart.ts"].reviews["Cart.total"].A1.line: A1 is flag: line is required'),
      );
    });

    it('rejects unknown faults and fields on one line', () => {
      for (const bad of [
        { faults: [{ kind: 'explode' }] },
        { faults: [{ kind: 'status' }] },
        { files: { 'a.ts': { step3: {} } } },
        { fautls: [] },
      ]) {
        assert.throws(
          () => parseScenario(bad, 'bad.json'),
          (err: unknown) =>
            err instanceof ScenarioError && err.message.startsWith('bad.json: ') && !err.message.includes('\n'),
          JSON.stringify(bad),
        );
      }
    });
  });
});

describe('fake Anthropic function finder', () => {
  const lines = (code: string) => code.split('\n').map((text, i) => ({ no: i + 1, text }));
  const names = (language: string, code: string) =>
    findFunctions(language, lines(code)).map((f) => `${f.qualified_name}:${f.visibility}:${f.start_line}`);

  it('finds Python functions and methods', () => {
    const code = [
      'class Cart:',
      '    def total(self):',
      '        def inner(): pass',
      '    def _reset(self):',
      '        pass',
      '',
      'async def load(path):',
      '    pass',
    ].join('\n');
    assert.deepEqual(names('python', code), ['Cart.total:public:2', 'Cart._reset:internal:4', 'load:public:7']);
  });

  it('finds Rust, Go and Java functions', () => {
    const rust = [
      'impl Cart {',
      '    pub fn total(&self) -> u32 {',
      '    }',
      '    fn reset(&mut self) {}',
      '}',
      'pub(crate) async fn load() {}',
    ].join('\n');
    assert.deepEqual(names('rust', rust), ['Cart.total:public:2', 'Cart.reset:private:4', 'load:internal:6']);
    const go = ['func (c *Cart) Total() int {', '}', 'func load(path string) error {', '}'].join('\n');
    assert.deepEqual(names('go', go), ['Cart.Total:public:1', 'load:internal:3']);
    const java = [
      'public class Cart {',
      '    public int total() {',
      '        return sum(items);',
      '    }',
      '    private void reset() {',
      '    }',
      '}',
    ].join('\n');
    assert.deepEqual(names('java', java), ['Cart.total:public:2', 'Cart.reset:private:5']);
    const c = [
      'static int helper(int x);',
      'static int helper(int x) {',
      '}',
      'int main(int argc, char **argv)',
      '{',
      '}',
    ].join('\n');
    assert.deepEqual(names('c', c), ['helper:internal:2', 'main:public:4']);
  });
});
