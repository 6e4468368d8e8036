/** Lines of a file: how text splits into them, and inclusive 1-based ranges of them. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A line range [start, end], both inclusive, 1-based. */
export type LineRange = [number, number];

export function overlaps(a: LineRange, ranges: LineRange[]): boolean {
  return ranges.some((r) => a[0] <= r[1] && r[0] <= a[1]);
}

/** At most `max` characters of `text`, cut with a mark that says so. */
export function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [cut at ${max} characters]`;
}
