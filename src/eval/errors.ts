/** What stops an evaluation as a whole (bad data, no download, an API that refuses the key): one line for the user. */
export class EvalError extends Error {}
