/** The sizes at which a file stops being sent whole (Step 0 decides, the staged engine follows). */

/** Above this, Steps 1–2 see an outline of the file's functions and Step 3 sees only the bodies it reviews. */
export const OUTLINE_ABOVE_BYTES = 256 * 1024;
/** The hard ceiling: a larger file is not reviewed at all. */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;
