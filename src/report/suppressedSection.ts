/** The markdown reports' section for findings hidden by suppressions the change under review adds (both modes). */
import { addedByChange, type SuppressedFinding } from '../model/suppressed';

/**
 * The findings hidden by suppressions the change under review adds, under their own heading (nothing when
 * there are none): its author silenced them, so a reader of the change should see them as findings.
 */
export function suppressedByChange(
  list: SuppressedFinding[] | undefined,
  render: (s: SuppressedFinding, i: number) => string[],
): string[] {
  const hidden = addedByChange(list);
  if (!hidden.length) return [];
  return [
    '## Suppressed by This Change',
    '',
    'The change under review adds the suppressions that hide these findings: read them as findings until the team agrees to the suppression.',
    '',
    ...hidden.flatMap(render),
  ];
}
