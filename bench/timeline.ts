/**
 * Where a run's model phase goes, from the fake's request log (`bench:cache --timeline`): how full the
 * slots were over time, the idle slot-seconds at the start, in the middle, in the tail and during
 * synthesis, the cache primes and what waited on them, and the critical file's chain against its actual
 * finish. Also the lower bound the bench divides by, so both are computed in one place.
 */
import type { LoggedRequest } from '../test/fake-anthropic/server';

export const STEP_OF: Record<string, string> = {
  Step1Record: 'curate',
  FileAnalysis: 'analyze',
  PerFunctionReview: 'review',
  BatchReview: 'review',
  ChallengeResult: 'challenge',
  SynthesisResult: 'synthesize',
};
const FILE_STEPS = ['curate', 'analyze', 'review', 'challenge'];

/** A call with its times relative to the CLI's spawn; only answered calls have an `ended_at`. */
type Call = LoggedRequest;

const duration = (c: Call) => c.ended_at! - c.started_at;
const isPrime = (c: Call) => (c.body as { max_tokens?: number } | null)?.max_tokens === 1;
const isSynthesis = (c: Call) => c.record === 'SynthesisResult';

/** Answered calls about each reviewed file (one that reached Step 2), synthesis apart. */
export function callsByFile(answered: Call[]): Map<string, Call[]> {
  const byFile = new Map<string, Call[]>();
  for (const c of answered) if (c.file && !isSynthesis(c)) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  return new Map([...byFile].filter(([, cs]) => cs.some((c) => c.record === 'FileAnalysis')));
}

/** A file's steps in sequence, each as long as its longest call. */
export function chainMs(calls: Call[]): number {
  return FILE_STEPS.reduce((n, step) => n + longest(calls.filter((c) => STEP_OF[c.record ?? ''] === step)), 0);
}

const longest = (calls: Call[]) => Math.max(0, ...calls.map(duration));

/**
 * The lower bound on the model phase: the longest file chain plus synthesis, or all the calls' time spread
 * perfectly over the slots, whichever is longer. `barrier`: the same with synthesis after every file's calls
 * (Step 5 reads every file's records): the file calls' own bound, then synthesis.
 */
export function lowerBound(
  answered: Call[],
  slots: number,
): { chain: number; spread: number; bound: number; barrier: number } {
  const synthesis = longest(answered.filter(isSynthesis));
  const fileChain = Math.max(0, ...[...callsByFile(answered).values()].map(chainMs));
  const time = (cs: Call[]) => cs.reduce((n, c) => n + duration(c), 0);
  const chain = fileChain + synthesis;
  const spread = time(answered) / slots;
  const barrier = Math.max(fileChain, time(answered.filter((c) => !isSynthesis(c))) / slots) + synthesis;
  return { chain, spread, bound: Math.max(chain, spread), barrier: Math.max(barrier, chain, spread) };
}

/** Requests in flight over time: a step function from the log's start and end times. */
function occupancy(calls: Call[]): { at: number; inFlight: number }[] {
  const edges = calls.flatMap((c) => [
    { at: c.started_at, d: 1 },
    { at: c.ended_at!, d: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  let inFlight = 0;
  return edges.map((e) => ({ at: e.at, inFlight: (inFlight += e.d) }));
}

/** Idle slot-milliseconds within [from, to). */
function idleBetween(steps: { at: number; inFlight: number }[], slots: number, from: number, to: number): number {
  let idle = 0;
  let level = 0;
  let t = from;
  for (const s of steps) {
    if (s.at > t && t < to) {
      const until = Math.min(s.at, to);
      if (until > t) idle += (until - t) * Math.max(0, slots - level);
      t = until;
    }
    level = s.inFlight;
  }
  if (t < to) idle += (to - t) * Math.max(0, slots - level);
  return idle;
}

const s = (ms: number) => (ms / 1000).toFixed(2);

export function timeline(all: Call[], slots: number): string {
  const calls = all.filter((c) => c.ended_at !== null).sort((a, b) => a.started_at - b.started_at);
  const answered = calls.filter((c) => c.usage);
  if (answered.length === 0) return 'timeline: no answered calls';
  const t0 = calls[0]!.started_at;
  const t1 = Math.max(...calls.map((c) => c.ended_at!));
  const steps = occupancy(calls);
  const full = steps.filter((x) => x.inFlight >= slots);
  const synth = answered.find(isSynthesis);
  const tailEnd = synth?.started_at ?? t1;
  const fullFirst = full[0]?.at ?? t0;
  const fullLast = Math.max(
    fullFirst,
    ...steps
      .filter((x, i) => steps[i - 1]?.inFlight === slots && x.inFlight < slots && x.at <= tailEnd)
      .map((x) => x.at),
  );
  const phase = (name: string, from: number, to: number) =>
    `${name} ${s(from - t0)}–${s(to - t0)} s: ${s(idleBetween(steps, slots, from, to))} idle slot-s`;
  const bound = lowerBound(answered, slots);
  const out = [
    `timeline of the last cold run (model phase ${s(t1 - t0)} s from the first request; times below from there):`,
    `  lower bound ${s(bound.bound)} s = max(chain + synthesis ${s(bound.chain)} s, call time ÷ ${slots} slots ${s(bound.spread)} s) → wall ÷ bound ${((t1 - t0) / bound.bound).toFixed(2)}; with synthesis after every file ${s(bound.barrier)} s → ${((t1 - t0) / bound.barrier).toFixed(2)}`,
    `  idle slot-seconds ${s(idleBetween(steps, slots, t0, t1))} of ${s((t1 - t0) * slots)}: ` +
      [
        phase('start', t0, fullFirst),
        phase('middle', fullFirst, fullLast),
        phase('tail', fullLast, tailEnd),
        phase('synthesis', tailEnd, t1),
      ].join(' · '),
    `  slots in use, per ${s((t1 - t0) / 60)} s: ${histogram(steps, t0, t1, 60)}`,
    ...stepSpans(answered, t0),
    ...primes(calls, steps, slots, t0),
    ...criticalFile(answered, t0, tailEnd),
  ];
  return out.join('\n');
}

/** Average requests in flight per bucket, one digit each. */
function histogram(steps: { at: number; inFlight: number }[], t0: number, t1: number, buckets: number): string {
  const width = (t1 - t0) / buckets;
  let digits = '';
  for (let b = 0; b < buckets; b++) {
    const from = t0 + b * width;
    // Busy = slots − idle, with a large slot count so no level is clipped.
    const busy = width * 1000 - idleBetween(steps, 1000, from, from + width);
    digits += Math.round(busy / width).toString(36);
  }
  return digits;
}

/** When each step's calls ran. */
function stepSpans(answered: Call[], t0: number): string[] {
  return [...FILE_STEPS, 'synthesize'].flatMap((step) => {
    const cs = answered.filter((c) => STEP_OF[c.record ?? ''] === step);
    if (cs.length === 0) return [];
    const mean = cs.reduce((n, c) => n + duration(c), 0) / cs.length;
    return [
      `  ${step.padEnd(10)} ${String(cs.length).padStart(3)} calls, ${s(Math.min(...cs.map((c) => c.started_at)) - t0)}–${s(Math.max(...cs.map((c) => c.ended_at!)) - t0)} s, mean ${mean.toFixed(0)} ms`,
    ];
  });
}

/** Each prime, the idle slot-seconds while it was in flight, and the calls that started on its model right after it ended (its waiters). */
function primes(calls: Call[], steps: { at: number; inFlight: number }[], slots: number, t0: number): string[] {
  const ps = calls.filter(isPrime);
  if (ps.length === 0) return ['  primes: none'];
  return [
    `  primes: ${ps.length} calls, ${s(ps.reduce((n, p) => n + duration(p), 0))} slot-s`,
    ...ps.map((p) => {
      const model = (p.body as { model: string }).model;
      const file = /path="([^"]+)" role="primary"/.exec(JSON.stringify(p.body))?.[1];
      const waiters = calls.filter(
        (c) =>
          c !== p &&
          !isPrime(c) &&
          (c.body as { model: string }).model === model &&
          c.started_at >= p.ended_at! &&
          c.started_at < p.ended_at! + 50,
      ).length;
      return `    ${s(p.started_at - t0)}–${s(p.ended_at! - t0)} s ${model}${file ? ` file ${file}` : ' run-wide'}: ${waiters} calls started within 50 ms of its end; ${s(idleBetween(steps, slots, p.started_at, p.ended_at!))} idle slot-s meanwhile`;
    }),
  ];
}

/** The file with the longest chain and the file that finished last: each step's span and longest call, against the chain. */
function criticalFile(answered: Call[], t0: number, tailEnd: number): string[] {
  const files = [...callsByFile(answered)].map(([file, cs]) => ({
    file,
    cs,
    chain: chainMs(cs),
    end: Math.max(...cs.map((c) => c.ended_at!)),
  }));
  const critical = [...files].sort((a, b) => b.chain - a.chain)[0];
  if (!critical) return [];
  const last = files.reduce((a, b) => (b.end > a.end ? b : a));
  const describe = (f: typeof critical) => {
    const start = Math.min(...f.cs.map((c) => c.started_at));
    const parts = FILE_STEPS.flatMap((step) => {
      const cs = f.cs.filter((c) => STEP_OF[c.record ?? ''] === step);
      if (cs.length === 0) return [];
      return [
        `${step} ×${cs.length} ${s(Math.min(...cs.map((c) => c.started_at)) - t0)}–${s(Math.max(...cs.map((c) => c.ended_at!)) - t0)} (longest ${s(longest(cs))})`,
      ];
    });
    return `${f.file}: chain ${s(f.chain)} s, ran ${s(start - t0)}–${s(f.end - t0)} s (${s(f.end - start)} s): ${parts.join(', ')}`;
  };
  return [
    `  critical file ${describe(critical)}`,
    `  last file done ${describe(last)}; synthesis started at ${s(tailEnd - t0)} s`,
  ];
}
