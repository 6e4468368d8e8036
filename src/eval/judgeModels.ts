/**
 * What is known of a judge model's end of life (Anthropic's model deprecations page): a run says so before
 * it spends, since a retired model's calls fail and a deprecated one's results will not be repeatable for long.
 */
interface Lifecycle {
  deprecated: string;
  retires: string;
  /** The model Anthropic names as the replacement. */
  replacement: string;
}

const LIFECYCLE: Record<string, Lifecycle> = {
  'claude-opus-4-5-20251101': { deprecated: '2026-11-23', retires: '2027-01-22', replacement: 'claude-opus-5-5' },
};

/** A line about the model's end of life on `today`, or null when nothing is known against it. */
export function lifecycleNote(model: string, today: Date): string | null {
  const known = LIFECYCLE[model];
  if (!known) return null;
  const day = today.toISOString().slice(0, 10);
  if (day >= known.retires)
    return `the judge model ${model} was retired on ${known.retires}: its calls will fail (Anthropic's replacement: ${known.replacement})`;
  if (day >= known.deprecated)
    return `the judge model ${model} is deprecated and retires on ${known.retires} (Anthropic's replacement: ${known.replacement}); figures judged by another model are not comparable with the published ones`;
  return null;
}
