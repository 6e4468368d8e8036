/** Lines of a file: how text splits into them, and inclusive 1-based ranges of them. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** How many lines `splitLines(text)` returns, without making them. */
export function lineCount(text: string): number {
  let n = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
  return n > 1 && text.endsWith('\n') ? n - 1 : n;
}

/** A line range [start, end], both inclusive, 1-based. */
export type LineRange = [number, number];

export function overlaps(a: LineRange, ranges: LineRange[]): boolean {
  return ranges.some((r) => a[0] <= r[1] && r[0] <= a[1]);
}

/** The ranges sorted, those that overlap or touch joined into one. */
export function mergeRanges(ranges: LineRange[]): LineRange[] {
  const out: LineRange[] = [];
  for (const [s, e] of [...ranges].sort((x, y) => x[0] - y[0])) {
    const last = out.at(-1);
    if (last && s <= last[1] + 1) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** At most `max` characters of `text`, cut with a mark that says so. */
export function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [cut at ${max} characters]`;
}
