/**
 * SARIF 2.1.0 from either mode's findings, for code-scanning tools (GitHub, Azure DevOps, IDE viewers).
 * Levels follow the diagnostics: must_fix → error, should_fix → warning, nice_to_have → note; a pre-existing
 * finding (off the change of a diff review) sits one level lower, so a code-scanning gate counts the change's own.
 * Rules carry the catalog's name, descriptions and help page; results carry priority, confidence and the fingerprint
 * dismissals use, so a code-scanning tool tracks a finding across edits the same way Skeptic does.
 * A finding a suppression hid is a result too, with `suppressions` (SARIF 2.1.0 §3.35): kind `inSource` for a
 * skeptic-ignore comment, `external` for the team file and the user's list; status `underReview` when the
 * change under review adds the suppression (nobody has agreed to it yet), else `accepted`.
 */
import { z } from 'zod';
import type { ReviewResult } from '../model/events';
import type { Finding } from '../model/finding';
import type { SuppressedFinding } from '../model/suppressed';
import type { Location as Place } from '../model/location';
import type { Priority } from '../model/records';
import { renderRulePage, ruleInfo, rulePageName, RULES_HELP_URL } from '../model/rules';

/** A pre-existing finding's level: one below its priority's. */
const PRE_EXISTING_LEVEL: Record<Priority, 'warning' | 'note'> = {
  must_fix: 'warning',
  should_fix: 'note',
  nice_to_have: 'note',
};
const LEVEL: Record<Priority, 'error' | 'warning' | 'note'> = {
  must_fix: 'error',
  should_fix: 'warning',
  nice_to_have: 'note',
};

/** The partialFingerprints key: versioned, so a change of the fingerprint's recipe does not match old ones. */
export const FINGERPRINT_KEY = 'skeptic/v1';

const Location = z.object({
  physicalLocation: z.object({
    artifactLocation: z.object({ uri: z.string() }),
    region: z.object({ startLine: z.number().int().min(1), endLine: z.number().int().min(1).optional() }),
  }),
});

const Text = z.object({ text: z.string().min(1) });

const Rule = z.object({
  id: z.string(),
  name: z.string(),
  shortDescription: Text.optional(),
  fullDescription: Text.optional(),
  helpUri: z.url().optional(),
  help: z.object({ text: z.string(), markdown: z.string() }).optional(),
  properties: z.object({ tags: z.array(z.string()) }).optional(),
});

/** The part of the SARIF 2.1.0 schema this writer produces. */
export const SarifLog = z.object({
  version: z.literal('2.1.0'),
  $schema: z.string(),
  runs: z
    .array(
      z.object({
        tool: z.object({
          driver: z.object({ name: z.literal('Skeptic'), informationUri: z.string().optional(), rules: z.array(Rule) }),
        }),
        results: z.array(
          z.object({
            ruleId: z.string(),
            level: z.enum(['error', 'warning', 'note']),
            message: z.object({ text: z.string() }),
            locations: z.array(Location).length(1),
            relatedLocations: z.array(Location.extend({ id: z.number().int() })).optional(),
            partialFingerprints: z.record(z.string(), z.string()).optional(),
            suppressions: z
              .array(
                z.object({
                  kind: z.enum(['inSource', 'external']),
                  status: z.enum(['accepted', 'underReview']),
                  justification: z.string().optional(),
                  location: Location.optional(),
                }),
              )
              .length(1)
              .optional(),
            properties: z.object({
              priority: z.string(),
              confidence: z.string(),
              preExisting: z.boolean().optional(),
              verdict: z.string().optional(),
              category: z.string().optional(),
            }),
          }),
        ),
      }),
    )
    .length(1),
});
export type SarifLog = z.infer<typeof SarifLog>;

export function toSarif(result: ReviewResult): SarifLog {
  const suppressed = result.suppressed ?? [];
  const rules = [...new Set([...result.findings, ...suppressed.map((s) => s.finding)].map((f) => f.rule_id))].sort();
  return {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: { driver: { name: 'Skeptic', rules: rules.map(ruleMetadata) } },
        results: [
          ...result.findings.map((f) => sarifResult(f)),
          ...suppressed.map((s) => ({ ...sarifResult(s.finding), suppressions: [suppression(s)] })),
        ],
      },
    ],
  };
}

type SarifResult = SarifLog['runs'][number]['results'][number];

function sarifResult(f: Finding): SarifResult {
  return {
    ruleId: f.rule_id,
    level: (f.pre_existing ? PRE_EXISTING_LEVEL : LEVEL)[f.priority],
    message: { text: `${f.action} (${f.rationale})` },
    locations: [location(f.file, f.line, f.end_line)],
    ...(f.locations.length > 1
      ? { relatedLocations: f.locations.slice(1).map((loc, i) => ({ id: i + 1, ...place(loc) })) }
      : {}),
    ...(f.fingerprint ? { partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint } } : {}),
    properties: {
      priority: f.priority,
      confidence: f.confidence,
      ...(f.pre_existing ? { preExisting: true } : {}),
      ...(f.verdict ? { verdict: f.verdict } : {}),
      ...(f.category ? { category: f.category } : {}),
    },
  };
}

/** Where the suppression is kept, and whether the team has agreed to it (not when this change adds it). */
function suppression(s: SuppressedFinding): NonNullable<SarifResult['suppressions']>[number] {
  return {
    kind: s.by === 'comment' ? 'inSource' : 'external',
    status: s.addedInChange ? 'underReview' : 'accepted',
    ...(s.note ? { justification: s.note } : {}),
    ...(s.at ? { location: place(s.at) } : {}),
  };
}

/** The catalog's entry as a SARIF reportingDescriptor; an id outside the catalog gets its id as its name. */
function ruleMetadata(id: string): z.infer<typeof Rule> {
  const r = ruleInfo(id);
  if (!r) return { id, name: id };
  const page = renderRulePage(r);
  return {
    id,
    name: r.name.replace(/(^|\s+)(\w)/g, (_m, _s, c: string) => c.toUpperCase()).replace(/\W/g, ''),
    shortDescription: { text: r.summary },
    fullDescription: { text: `${r.summary} It checks: ${r.checks.join('; ')}.` },
    helpUri: RULES_HELP_URL + rulePageName(r.id),
    help: { text: page, markdown: page },
    properties: { tags: ['skeptic', r.scope, r.flag ? 'can-flag' : 'advisory-only'] },
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
