/**
 * Lens-mode prompts. One system prompt serves every reviewer, validator and cross-repo check of a run, so
 * their prefixes can share the cache; what differs — the lens brief, ending in the self-critique contract,
 * or the validator's brief — goes in the last user block.
 */
import system from '../../../prompts/lens-system.md';
import noise from '../../../prompts/noise.md';
import selfCritique from '../../../prompts/lens-self-critique.md';
import security from '../../../prompts/lens-security.md';
import logic from '../../../prompts/lens-logic.md';
import performance from '../../../prompts/lens-performance.md';
import types from '../../../prompts/lens-types.md';
import silentFailures from '../../../prompts/lens-silent-failures.md';
import specCompliance from '../../../prompts/lens-spec-compliance.md';
import comments from '../../../prompts/lens-comments.md';
import tests from '../../../prompts/lens-tests.md';
import crossRepo from '../../../prompts/lens-cross-repo.md';
import validator from '../../../prompts/lens-validator.md';
import { CROSS_REPO, type ReviewerName } from '../../model/reviewers';

const withCritique = (brief: string) => `${brief.trim()}\n\n${selfCritique.trim()}`;

/** The one system text of every lens call: reviewers, validators and the cross-repo check. */
export const LENS_SYSTEM = `${system.trim()}\n\n${noise.trim()}`;
/** A validator's brief, after the scope like a reviewer's (it relies on the shared text's layout and rules). */
export const VALIDATOR_BRIEF = validator.trim();

export const BRIEFS: Record<ReviewerName | typeof CROSS_REPO, string> = {
  security: withCritique(security),
  logic: withCritique(logic),
  performance: withCritique(performance),
  types: withCritique(types),
  'silent-failures': withCritique(silentFailures),
  'spec-compliance': withCritique(specCompliance),
  comments: withCritique(comments),
  tests: withCritique(tests),
  [CROSS_REPO]: withCritique(crossRepo),
};
