/**
 * A file whose calls do not fit the model's window whole: its companion goes first, then the project context
 * files, and a file still too large goes as the parser's outline (each call then carries the lines it is about
 * in full). Decided before the file's first call, with room for any step's packet, so that every step of the
 * file sends the same view and shares one cached prefix; a step that still does not fit (a large packet, or an
 * endpoint whose window is smaller than the table's) takes the next cut then. A file that fits in no form
 * fails with the window's reason: reported, never sent cut.
 */
import type { CodeFunction } from '../../model/functions';
import { FILE_STEPS } from '../../model/models';
import { curateCall } from './curate';
import { fileSpec, MAX_TOKENS, type FileUnderReview, type FitSetup, type StageSetup } from './context';

/**
 * Beyond the first request's max_tokens: a later step's packet (Step 1's record, Step 3's breadcrumbs). Not
 * room for repair turns, which in a small window would leave no file whole: a turn that outgrows the window
 * has the unit rebuilt smaller then (runner.ts).
 */
const PACKET_ROOM = 1_000;
/**
 * An outline is sent whole only with this much to spare beside it: every Step 3 and Step 4 call adds the lines it
 * is about in full, and needs room for its whole answer. With less, each call outlines only its own functions.
 */
const OUTLINE_ROOM = MAX_TOKENS;

/** The parser's functions of a file, for its outline; undefined where no grammar knows the language. */
export type OutlineSource = (path: string) => Promise<CodeFunction[] | undefined>;

/** Cuts until the file's first request fits every file step's model with room to spare, or nothing is left to cut. */
export async function fitFile(ctx: FitSetup, file: FileUnderReview): Promise<void> {
  while (!fitsWhole(ctx, file)) if (!(await ctx.shrink(file))) return;
}

function fitsWhole(setup: StageSetup, file: FileUnderReview): boolean {
  // One probe per model: the steps' requests differ only in their directive and packet, which the room covers.
  const models = new Map(FILE_STEPS.map((step) => [setup.models[step], step]));
  const room = file.outline && !file.windowed ? OUTLINE_ROOM : PACKET_ROOM;
  return [...models.values()].every((step) => setup.fits(fileSpec(setup, file, step, curateCall(file)), room));
}

/**
 * Cuts the next part, in order: the companion, the context files, the full text, the whole outline; false when
 * none is left.
 */
export async function shrink(file: FileUnderReview, outlineOf: OutlineSource): Promise<boolean> {
  const cut = (what: string) => {
    file.cut.push(what);
    file.view++;
    return true;
  };
  if (file.companion) {
    const path = file.companion.path;
    file.companion = null;
    return cut(`its companion ${path}`);
  }
  if (!file.withoutContext) {
    file.withoutContext = true;
    return cut('the project context files');
  }
  if (!file.outline) {
    const functions = file.inventory ?? (await outlineOf(file.entry.path));
    // An outline of no functions would leave nothing to review.
    if (!functions?.length) return false;
    file.inventory = functions;
    file.outline = true;
    return cut(`its full text (sent as an outline of its ${functions.length} functions)`);
  }
  if (file.windowed || !file.inventory?.length) return false;
  file.windowed = true;
  return cut('its whole outline (each request outlines only the functions it is about)');
}

/** The report's note for a file sent without some of its parts, if it was. */
export function fitNote(file: FileUnderReview): string | undefined {
  if (file.cut.length === 0) return undefined;
  return `${file.entry.path}: sent without ${file.cut.join(', ')}, to fit the model's context window`;
}
