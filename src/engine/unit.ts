import type { Effort } from '../model/models';
/**
 * One sub-agent unit as the engine asks it (what to send, which record comes back, how it is cached and
 * checked) and how it ended. Apart from runner.ts, which runs units, so that the result cache (unitCache.ts)
 * and both modes can name them without importing the runner.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { z } from 'zod';
import type { PriorityOf } from '../model/semaphore';
import type { Sharer } from './sharers';

type ContentBlock = Anthropic.Messages.ContentBlockParam;

type SystemBlock = Anthropic.Messages.TextBlockParam;

export interface UnitSpec<T> {
  /** Names the unit in progress, retries and the report's list of failures. */
  label: string;
  /** The step the call belongs to, for usage accounting. */
  step: string;
  /** The file the call is about, if one (for per-call events). */
  file?: string;
  model: string;
  /** A string is sent as one system block ending at a cache breakpoint; blocks are sent as they are. */
  system: string | SystemBlock[];
  record: z.ZodType<T>;
  content: ContentBlock[];
  /** Offer read_file / grep / list_dir. Off for calls that must not see source (synthesis). */
  tools: boolean;
  /**
   * Cache-first layout: the record is submitted through a strict `submit_<record>` tool from this list,
   * which every call of the kind carries unchanged (with the read tools), and no output schema or forced
   * tool_choice is sent — so the tool list, system and shared user blocks form one prefix across records.
   */
  recordTools?: readonly z.ZodType[];
  /**
   * What the result-cache key is built from besides model, system, record and effort: undefined, the whole
   * user turn; an object, just what it lists (e.g. a file's own text but only its companion's path); false,
   * the unit is not cached here (its caller caches at a finer grain).
   */
  cacheKey?: object | false;
  /** The request queue serves higher `rank` first, then lower `order` (see Semaphore); a function is re-read while the call waits. */
  priority?: PriorityOf;
  /**
   * On a result-cache miss, first make sure the prefix up to the first `blocks` user blocks is cached: one
   * one-token call per `key` writes it while every call sharing it waits (a prefix is readable only once
   * its writer's response has begun, so calls that start together would each pay to write it). `sharer`: the
   * caller's count of the calls planned on the prefix, which decides whether the prime goes (two or more of
   * them miss the result cache: sharers.ts), whatever the timing; without one (the count is not known when
   * the call starts), only if another call for `key` comes within a moment. The one way the engine primes;
   * whether a prime goes at all is the client's (ModelClient.primes).
   */
  primeFirst?: { key: string; blocks: number; sharer?: Sharer };
  /** This unit's effort, over the run's (staged Steps 3 and 4 send one of their own: model/models.ts). */
  effort?: Effort;
  maxTokens: number;
  /**
   * The least output budget the unit's record can do with: a request that does not fit the window with
   * `maxTokens` goes with what the window leaves, down to this, before anything is cut from it. None: maxTokens.
   */
  minTokens?: number;
  /** Sampling temperature; absent: the model's default. Part of the result-cache key when set. */
  temperature?: number;
  /** Checks the schema cannot express (lines exist, the right functions answered). Returns errors. */
  check?: (value: T) => string[];
  /**
   * When repairs are used up and the last reply still fails `check`: keep what is sound and say what was
   * left out (e.g. a synthesis whose one bad cross-file finding should not cost the whole synthesis).
   */
  salvage?: (value: T) => { value: T; leftOut: string[] };
  /**
   * The same unit rebuilt smaller, asked for when its request does not fit the model's window (by the local
   * check, or the API's refusal, which the check has learned from by then); undefined when nothing more can go.
   */
  smaller?: () => Promise<UnitSpec<T> | undefined>;
}

/**
 * `cached`: answered from the result cache, no call made. A failure is `tooLong` when its request did not fit
 * the model's context window, and `answered` when the model did answer but no answer could be used (after
 * the repair turns, a refusal, a spent tool budget): such a failure is kept, so unchanged input does not pay again.
 */
export type UnitOutcome<T> =
  | { ok: true; value: T; repairs: number; leftOut?: string[]; cached?: true }
  | { ok: false; reason: string; tooLong?: true; answered?: true; cached?: true };
