/**
 * A file's functions as Step 0 finds them before any model call (syntax tree, or the regex fallback):
 * the inventory the app hands the engine, Step 2 reconciles against, and `skeptic plan` prints.
 */
export type Visibility = 'public' | 'internal' | 'private';

export interface CodeFunction {
  /** `Class.method`, `outer.inner`; a repeated name (overloads, `#ifdef` branches) gets `#2`, `#3`, … */
  qualified_name: string;
  /** function, method, constructor, accessor, arrow_function, lambda, closure */
  kind: string;
  visibility: Visibility;
  /** 1-based, inclusive; the start includes the leading doc comment, decorators, attributes and template headers. */
  start_line: number;
  end_line: number;
  /** The line of the definition itself, below its doc comment and decorators (the syntax finder's; else `start_line`). */
  signature_line?: number;
}

export interface FunctionInventory {
  /** `syntax`: exact ranges from the parser; `regex`: top-level declarations, each ending where the next starts. */
  parser: 'syntax' | 'regex';
  functions: CodeFunction[];
}

/**
 * A name found in a file's text, as a string of its own. V8 makes a substring of 13 characters or more a view
 * into the text it was cut from, which it keeps alive: a plan of 21,000 files held every file's text (184 MB)
 * through the names of their kept functions. Prepending a character makes V8 copy the name out; the slice is then
 * a view into that copy alone.
 */
export const ownName = (name: string): string => ` ${name}`.slice(1);
