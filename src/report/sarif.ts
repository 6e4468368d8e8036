/**
 * SARIF 2.1.0 from either mode's findings, for code-scanning tools (GitHub, Azure DevOps, IDE viewers).
 * Levels follow the diagnostics: must_fix → error, should_fix → warning, nice_to_have → note.
 */
import { z } from 'zod';
import type { ReviewResult } from '../model/events';
import type { Location as Place } from '../model/location';
import type { Priority } from '../model/records';

const LEVEL: Record<Priority, 'error' | 'warning' | 'note'> = { must_fix: 'error', should_fix: 'warning', nice_to_have: 'note' };

const Location = z.object({
  physicalLocation: z.object({
    artifactLocation: z.object({ uri: z.string() }),
    region: z.object({ startLine: z.number().int().min(1), endLine: z.number().int().min(1).optional() }),
  }),
});

/** The part of the SARIF 2.1.0 schema this writer produces. */
export const SarifLog = z.object({
  version: z.literal('2.1.0'),
  $schema: z.string(),
  runs: z
    .array(
      z.object({
        tool: z.object({ driver: z.object({ name: z.literal('Skeptic'), informationUri: z.string().optional(), rules: z.array(z.object({ id: z.string(), name: z.string() })) }) }),
        results: z.array(
          z.object({
            ruleId: z.string(),
            level: z.enum(['error', 'warning', 'note']),
            message: z.object({ text: z.string() }),
            locations: z.array(Location).length(1),
            relatedLocations: z.array(Location.extend({ id: z.number().int() })).optional(),
            properties: z.object({ priority: z.string(), confidence: z.string(), preExisting: z.boolean().optional() }),
          }),
        ),
      }),
    )
    .length(1),
});
export type SarifLog = z.infer<typeof SarifLog>;

export function toSarif(result: ReviewResult): SarifLog {
  const rules = [...new Set(result.findings.map((f) => f.rule_id))].sort();
  return {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: { driver: { name: 'Skeptic', rules: rules.map((id) => ({ id, name: ruleName(id, result.mode) })) } },
        results: result.findings.map((f) => ({
          ruleId: f.rule_id,
          level: LEVEL[f.priority],
          message: { text: `${f.action} (${f.rationale})` },
          locations: [location(f.file, f.line, f.end_line)],
          ...(f.locations.length > 1 ? { relatedLocations: f.locations.slice(1).map((loc, i) => ({ id: i + 1, ...place(loc) })) } : {}),
          properties: { priority: f.priority, confidence: f.confidence, ...(f.pre_existing ? { preExisting: true } : {}) },
        })),
      },
    ],
  };
}

function location(file: string, line: number, endLine?: number) {
  return {
    physicalLocation: {
      artifactLocation: { uri: encodeURI(file) },
      region: { startLine: Math.max(1, line), ...(endLine && endLine > line ? { endLine } : {}) },
    },
  };
}

function place(loc: Place) {
  return location(loc.file, loc.line);
}

function ruleName(id: string, mode: ReviewResult['mode']): string {
  return mode === 'lenses' ? `${id} reviewer` : `Skeptic rule ${id}`;
}
