/** Counts in user-facing text: "1 file", "2 files". */

/** Step 0's announcement, as the spec words it ("[N] files under review, [M] companions discovered."). */
export function inventoryLine(files: number, companions: number): string {
  return `${plural(files, 'file')} under review, ${plural(companions, 'companion')} discovered.`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
