/**
 * Builds the record a request asks for: what the scenario planted for that file over a plausible default
 * derived from the packet and the source blocks, so an unplanted run still flows through every stage.
 */
import type { LensReview, LensValidation } from '../../src/model/lensRecords';
import type {
  BatchReview,
  ChallengeResult,
  FileAnalysis,
  PerFunctionReview,
  Step1Record,
  SynthesisMerge,
  SynthesisResult,
} from '../../src/model/records';
import type { JudgeVerdict } from '../../src/eval/verdict';
import { findFunctions } from '../../src/scope/functionFinder';
import { extensionOf, languageOf } from '../../src/model/languages';
import type { Category } from '../../src/model/categories';
import { minimalValue } from './generic';
import { isObject, list, text, type Json, type ParsedRequest, type SourceBlock } from './request';
import type { LoadedScenario, PlantedFile } from './scenario';
import { plantedVerdicts } from './verdicts';

type PrimaryKind = Step1Record['primary_kind'];

export function buildRecord(req: ParsedRequest, scenario: LoadedScenario): unknown {
  const planted: PlantedFile = (req.file !== null ? scenario.files[req.file] : undefined) ?? {};
  switch (req.record) {
    case 'Step1Record':
      return step1(req, planted);
    case 'FileAnalysis':
      return fileAnalysis(req, planted);
    case 'PerFunctionReview':
      return perFunctionReview(req, planted);
    case 'BatchReview':
      return batchReview(req, planted);
    case 'ChallengeResult':
      return challengeResult(req, planted);
    case 'SynthesisResult':
      return plantedSynthesis(synthesis(req.packet), scenario);
    case 'SynthesisMerge':
      return synthesisMerge(req.packet);
    case 'LensReview':
      // A LensReview of another shape (a test's own schema) gets the generic value.
      return isObject(req.schema?.properties) && 'findings' in req.schema.properties
        ? lensReview(req, scenario)
        : unknownRecord(req);
    case 'LensValidation':
      return lensValidation(req, scenario);
    case 'JudgeVerdict':
      return judgeVerdict(req, scenario);
    default:
      return unknownRecord(req);
  }
}

/** The primary source block of the file, for line counts and function scanning. */
export function primarySource(req: ParsedRequest): SourceBlock | undefined {
  const primaries = req.sources.filter((s) => s.role === 'primary');
  return primaries.find((s) => s.path === req.file) ?? primaries[0];
}

function primaryKindOf(path: string): PrimaryKind {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const ext = extensionOf(path);
  if (/\.(test|spec)\./.test(base) || /^test_.*\.py$/.test(base) || /_test\.[^.]+$/.test(base)) return 'test_code';
  if (ext === 'md') return 'documentation';
  if (['json', 'yaml', 'yml', 'toml'].includes(ext)) return 'configuration';
  return 'implementation';
}

const REVIEW_AS: Record<PrimaryKind, Step1Record['review_as']> = {
  implementation: 'code_review',
  header_or_interface: 'code_review',
  test_code: 'code_review',
  test_fixture_or_data: 'fixture_review',
  documentation: 'documentation_review',
  configuration: 'configuration_review',
  generated_or_vendor: 'skip',
  unknown: 'skip',
};

function step1(req: ParsedRequest, planted: PlantedFile): Step1Record {
  const path = req.file ?? '';
  const kind = primaryKindOf(path);
  const language = languageOf(path);
  const lines = primarySource(req)?.lineCount ?? null;
  return {
    file_path: path,
    primary_kind: kind,
    review_as: REVIEW_AS[kind],
    include_in_pipeline: REVIEW_AS[kind] !== 'skip',
    language,
    approx_line_count: lines,
    appearance: `A ${lines === null ? '' : `${lines}-line `}${language} file (${kind.replace(/_/g, ' ')}), as seen by the fake.`,
    primary_entrypoints: [],
    external_touchpoints: [],
    concurrency_present: false,
    ...planted.step1,
  };
}

function fileAnalysis(req: ParsedRequest, planted: PlantedFile): FileAnalysis {
  const path = req.file ?? '';
  const reviewAs = text(req.packet, 'review_as') ?? REVIEW_AS[primaryKindOf(path)];
  return {
    file_path: path,
    brutal_one_line: `Fake analysis of ${path}: nothing alarming at a glance.`,
    invariants: [],
    risk_flags: [],
    functions: reviewAs === 'code_review' ? inventoryRows(req) : [],
    ...planted.step2,
    file_level_findings: (planted.step2?.file_level_findings ?? []).map((f) => ({
      ...f,
      category: f.category === undefined ? FILE_RULE_CATEGORY[f.rule_id] : f.category,
    })),
    // A later part of a split inventory leaves the file-wide fields to part 1, as the prompt asks.
    ...(laterPart(req) ? { invariants: [], risk_flags: [], file_level_findings: [] } : {}),
  };
}

const laterPart = (req: ParsedRequest) => {
  const part = req.packet.inventory_part;
  return isObject(part) && typeof part.part === 'number' && part.part > 1;
};

/**
 * The functions Step 2's packet lists (the parser's inventory), each with a role: what a model that
 * follows the prompt answers. Without an inventory, what the regex finder sees in the source block.
 */
function inventoryRows(req: ParsedRequest): FileAnalysis['functions'] {
  const source = primarySource(req);
  const found: Json[] = Array.isArray(req.packet.function_inventory)
    ? list(req.packet, 'function_inventory')
    : source
      ? findFunctions(languageOf(req.file ?? ''), source.lines).map((f) => ({ ...f }))
      : [];
  return found.map((f) => {
    const visibility = f.visibility === 'private' || f.visibility === 'internal' ? f.visibility : 'public';
    const kind = typeof f.kind === 'string' ? f.kind : 'function';
    return {
      qualified_name: String(f.qualified_name),
      kind,
      visibility,
      role_in_file: `${visibility} ${kind}`,
      start_line: Number(f.start_line),
      solo_review: false,
    };
  });
}

function lineOf(obj: Json, key: string): number {
  const v = obj[key];
  return typeof v === 'number' ? v : 1;
}

function perFunctionReview(req: ParsedRequest, planted: PlantedFile): PerFunctionReview {
  const fn = text(req.packet, 'function_qualified_name') ?? '';
  return {
    file_path: req.file ?? '',
    function_qualified_name: fn,
    start_line: lineOf(req.packet, 'start_line'),
    verdicts: plantedVerdicts(planted.reviews?.[fn]),
  };
}

function batchReview(req: ParsedRequest, planted: PlantedFile): BatchReview {
  return {
    file_path: req.file ?? '',
    reviews: list(req.packet, 'functions').map((f) => {
      const fn = text(f, 'function_qualified_name') ?? '';
      return {
        function_qualified_name: fn,
        start_line: lineOf(f, 'start_line'),
        verdicts: plantedVerdicts(planted.reviews?.[fn]),
      };
    }),
  };
}

/** Planted challenges match findings by (rule_id, line), and by function when the plant names one. */
function challengeResult(req: ParsedRequest, planted: PlantedFile): ChallengeResult {
  return {
    file_path: req.file ?? '',
    challenges: list(req.packet, 'findings').map((f) => {
      const rule_id = text(f, 'rule_id') ?? '';
      const fn = text(f, 'function_qualified_name');
      const line = lineOf(f, 'line');
      const plant = planted.challenges?.find(
        (c) =>
          c.rule_id === rule_id &&
          c.line === line &&
          (c.function_qualified_name === undefined || c.function_qualified_name === fn),
      );
      const survived = plant?.survived ?? true;
      return {
        rule_id,
        function_qualified_name: fn,
        line,
        survived,
        revised_priority: plant?.revised_priority ?? null,
        challenge_reason:
          plant?.challenge_reason ??
          (survived ? 'The fake found no reason to doubt this finding.' : 'Planted: the finding does not hold.'),
      };
    }),
  };
}

/** One group per top-level folder of the reviewed files, one profile per file. */
function synthesis(packet: Json): SynthesisResult {
  const paths = list(packet, 'file_entries').flatMap((e) => text(e, 'path') ?? []);
  const groups = new Map<string, string[]>();
  for (const path of paths) {
    const top = path.includes('/') ? path.slice(0, path.indexOf('/')) : '(root)';
    groups.set(top, [...(groups.get(top) ?? []), path]);
  }
  const findings = list(packet, 'function_findings').length;
  // A summary that follows the records it read, as a model's does: an added function changes it.
  const functions = list(packet, 'file_analyses').reduce((n, a) => n + list(a, 'functions').length, 0);
  return {
    verdict_one_line: `Fake synthesis: ${paths.length} files reviewed, ${findings} function findings.`,
    executive_summary: `The fake reviewed ${paths.length} files (${functions} functions) in ${groups.size} groups and reports the findings it was given.`,
    file_groups: [...groups].map(([group_name, file_paths]) => ({
      group_name,
      group_description: group_name === '(root)' ? 'Files at the repository root.' : `Files under ${group_name}/.`,
      file_paths,
    })),
    file_profiles: paths.map((file_path) => ({ file_path, profile: `Fake profile of ${file_path}.` })),
    cross_cutting_analysis: 'The fake sees no cross-cutting pattern.',
    cross_file_findings: [],
  };
}

/** The category a model would most likely give a finding under each file-level and cross-file rule. */
const FILE_RULE_CATEGORY = { F1: 'documentation', F2: 'formatting', F3: 'duplication' } as const;
const CROSS_RULE_CATEGORY = { G1: 'duplication', G2: 'naming', G3: 'design', G4: 'design' } as const;

/** The category a reviewer's findings most likely carry (others: logic). */
const LENS_CATEGORY: Record<string, Category> = {
  security: 'security',
  performance: 'performance',
  types: 'types',
  'silent-failures': 'error_handling',
  'spec-compliance': 'spec',
  comments: 'documentation',
  tests: 'tests',
};

/**
 * The scenario's synthesis over the default; its cross-file findings only where the call was shown a file
 * they cite (a part of a large review sees only its own files), as a model cites what it read.
 */
function plantedSynthesis(base: SynthesisResult, scenario: LoadedScenario): SynthesisResult {
  const planted = scenario.synthesis ?? {};
  const shown = new Set(base.file_profiles.map((p) => p.file_path));
  const cross = planted.cross_file_findings?.filter((f) =>
    f.locations.some((l) => shown.has(l.slice(0, l.lastIndexOf(':')))),
  );
  const categorized = cross?.map((f) => ({
    ...f,
    category: f.category === undefined ? CROSS_RULE_CATEGORY[f.rule_id] : f.category,
  }));
  return { ...base, ...planted, cross_file_findings: categorized ?? base.cross_file_findings };
}

/** The overall view over a large review's parts: how many, and no finding across them. */
function synthesisMerge(packet: Json): SynthesisMerge {
  const parts = list(packet, 'parts');
  const files = parts.reduce((n, p) => n + (typeof p.files === 'number' ? p.files : 0), 0);
  return {
    verdict_one_line: `Fake synthesis over ${parts.length} parts: ${files} files reviewed.`,
    executive_summary: `The fake merged ${parts.length} partial syntheses.`,
    cross_cutting_analysis: 'The fake sees no pattern across the parts.',
    cross_file_findings: [],
  };
}

/**
 * A lens reviewer's planted findings, stock text filled in; only those in files the call was shown
 * (a split scope or one repository of several), or all of them for a call that shows no source (cross-repo).
 */
function lensReview(req: ParsedRequest, scenario: LoadedScenario): LensReview {
  const planted = scenario.lenses[req.reviewer ?? ''] ?? [];
  const shown = new Set(req.sources.map((s) => s.path));
  return {
    findings: planted
      .filter((f) => shown.size === 0 || shown.has(f.file))
      .map((f) => ({
        severity: 'MEDIUM',
        title: `Planted ${req.reviewer ?? 'lens'} finding`,
        evidence: 'Planted by the scenario.',
        recommendation: 'Fix the planted issue.',
        confidence: 4,
        category: LENS_CATEGORY[req.reviewer ?? ''] ?? 'logic',
        ...f,
      })),
  };
}

function lensValidation(req: ParsedRequest, scenario: LoadedScenario): LensValidation {
  const line = lineOf(req.packet, 'line');
  const plant = scenario.validations.find((v) => v.file === req.file && v.line === line);
  return {
    verdict: plant?.verdict ?? 'VALIDATED',
    reason:
      plant?.reason ??
      (plant?.verdict === 'REJECTED'
        ? 'Planted: the code does not do that.'
        : 'Fake validator: the cited code shows it.'),
  };
}

function judgeVerdict(req: ParsedRequest, scenario: LoadedScenario): JudgeVerdict {
  const plant = scenario.judgements.find((j) => {
    const at = req.text.indexOf(j.golden);
    return at >= 0 && req.text.lastIndexOf(j.finding) > at;
  });
  if (!plant) return { reasoning: 'Fake judge: no planted match for this pair.', match: false, confidence: 0.9 };
  return {
    reasoning: plant.reasoning ?? `Planted: ${plant.match ? 'the same issue' : 'a different issue'}.`,
    match: plant.match,
    confidence: plant.confidence ?? 0.9,
  };
}

/** An unknown title: a minimal value of its schema, echoing the packet's strings (e.g. file_path) by name. */
function unknownRecord(req: ParsedRequest): unknown {
  const value = minimalValue(req.schema ?? {});
  if (!isObject(value)) return value;
  for (const key of Object.keys(value)) {
    const echoed = text(req.packet, key);
    if (typeof value[key] === 'string' && echoed !== null) value[key] = echoed;
  }
  return value;
}
