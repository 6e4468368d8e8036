/**
 * `.skeptic/` in a workspace folder: the extension's reports (under `reports/`) and the team's dismissals
 * (`dismissed.json`). The folder ignores itself in git through its own .gitignore, except the dismissal
 * file, which a team commits and reviews like any other configuration (io/skepticFolder.ts creates it).
 */
export const SKEPTIC_FOLDER = '.skeptic';
export const REPORTS_FOLDER = `${SKEPTIC_FOLDER}/reports`;
