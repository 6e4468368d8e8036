/**
 * Planted faults: which request a fault hits (first matching fault with hits left), and how the
 * record-mangling kinds change an otherwise correct record.
 */
import { isObject, type ParsedRequest } from './request';
import { placeOf, type Fault, type FaultPlace } from './scenario';

export class FaultBook {
  private readonly hits: number[];

  constructor(private readonly faults: Fault[]) {
    this.hits = faults.map(() => 0);
  }

  /**
   * The fault this request hits at `place`, counting the hit; null when none applies. The faults of a request's
   * line in a batch's results, or of its batch's create call, are never taken by the request itself.
   */
  take(req: ParsedRequest, place: FaultPlace = 'request'): Fault | null {
    const i = this.faults.findIndex(
      (f, j) => (f.times === -1 || this.hits[j] < f.times) && placeOf(f.kind) === place && matches(f, req),
    );
    if (i < 0) return null;
    this.hits[i]++;
    return this.faults[i];
  }

  reset(): void {
    this.hits.fill(0);
  }
}

function matches({ match }: Fault, req: ParsedRequest): boolean {
  return (
    (match.record === undefined || match.record === req.record) &&
    (match.file === undefined || match.file === req.file) &&
    (match.function === undefined || req.functions.includes(match.function)) &&
    (match.reviewer === undefined || match.reviewer === req.reviewer)
  );
}

/** The API's error type for a status, as the SDK maps it back to an error class. */
export function errorTypeOf(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? 'api_error';
}

/** Breaks the record's schema the way a model plausibly would; unknown records lose their first field. */
export function breakSchema(title: string | null, record: unknown): unknown {
  if (!isObject(record)) return null;
  const sevenVerdicts = (r: unknown) =>
    isObject(r) && Array.isArray(r.verdicts) ? { ...r, verdicts: r.verdicts.slice(0, 7) } : r;
  if (title === 'PerFunctionReview') return sevenVerdicts(record);
  if (title === 'BatchReview' && Array.isArray(record.reviews) && record.reviews.length)
    return { ...record, reviews: record.reviews.map(sevenVerdicts) };
  if (title === 'Step1Record')
    return { ...record, primary_entrypoints: ['main', 'init', 'run', 'start', 'serve', 'handle'] };
  const [first, ...rest] = Object.keys(record);
  return first === undefined ? null : Object.fromEntries(rest.map((k) => [k, record[k]]));
}

/**
 * A BatchReview without the named functions' reviews; a FileAnalysis whose inventory lacks them and lists
 * `invent`ed functions that the file does not have (on line 1).
 */
export function omitFunctions(record: unknown, names: string[], invent: string[] = []): unknown {
  if (!isObject(record)) return record;
  if (Array.isArray(record.reviews))
    return {
      ...record,
      reviews: record.reviews.filter((r) => !(isObject(r) && names.includes(String(r.function_qualified_name)))),
    };
  if (!Array.isArray(record.functions)) return record;
  const kept = record.functions.filter((f) => !(isObject(f) && names.includes(String(f.qualified_name))));
  const invented = invent.map((qualified_name) => ({
    qualified_name,
    kind: 'function',
    visibility: 'public',
    role_in_file: 'invented by the fake',
    start_line: 1,
    solo_review: false,
  }));
  return { ...record, functions: [...kept, ...invented] };
}

/** Every `line` and `start_line` in the record moved past the file's last line. */
export function linesPastEnd(value: unknown, lastLine: number): unknown {
  if (Array.isArray(value)) return value.map((v) => linesPastEnd(v, lastLine));
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      (k === 'line' || k === 'start_line') && typeof v === 'number' ? lastLine + 10 : linesPastEnd(v, lastLine),
    ]),
  );
}

/** The record with its longest top-level text field `chars` characters longer. */
export function ramble(record: unknown, chars: number): unknown {
  if (!isObject(record)) return record;
  const texts = Object.entries(record).filter((e): e is [string, string] => typeof e[1] === 'string');
  const longest = texts.reduce<[string, string] | undefined>(
    (a, b) => (!a || b[1].length > a[1].length ? b : a),
    undefined,
  );
  if (!longest) return record;
  const [key, text] = longest;
  const words = ' And there is more to say about it.';
  return { ...record, [key]: text + words.repeat(Math.ceil(chars / words.length)).slice(0, chars) };
}
