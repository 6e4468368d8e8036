/** The reviewers of lens mode: three always run; five more join with --full-fanout when routing picks them. */
export const DEFAULT_REVIEWERS = ['security', 'logic', 'performance'] as const;
/** In routing priority: when --max-reviewers caps the list, the later ones are left out first. */
export const EXTRA_REVIEWERS = ['types', 'silent-failures', 'spec-compliance', 'comments', 'tests'] as const;
export const REVIEWERS = [...DEFAULT_REVIEWERS, ...EXTRA_REVIEWERS] as const;
export type ReviewerName = (typeof REVIEWERS)[number];
export type ExtraReviewer = (typeof EXTRA_REVIEWERS)[number];

export const MAX_REVIEWERS = DEFAULT_REVIEWERS.length + EXTRA_REVIEWERS.length;
export const defaultMaxReviewers = (fullFanout: boolean) => (fullFanout ? MAX_REVIEWERS : DEFAULT_REVIEWERS.length);

/** Everything that makes a lens-mode call and can be given its own model. */
export const LENS_ROLES = [...REVIEWERS, 'validator', 'cross-repo'] as const;
export type LensRole = (typeof LENS_ROLES)[number];

/** Names the cross-repo check in findings and failures, as a reviewer would be named. */
export const CROSS_REPO = 'cross-repo';
