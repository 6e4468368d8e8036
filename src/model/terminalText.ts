/**
 * Text that a model or the code under review wrote, made safe to print: it may not drive the terminal
 * (OSC 52 writes the clipboard, OSC 0 sets the window title, CSI 2J clears the screen) nor, under GitHub
 * Actions, the runner (a line `::error ::…`, `::add-mask::`, `::stop-commands::` is a workflow command).
 */

/** ESC and C1 escape sequences: CSI, the string kinds (OSC, DCS, SOS, PM, APC) up to their end, and ESC + one char. */
const SEQUENCE =
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]?|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u009c|\u001b\\)?|\u001b[\s\S]?/g;
/** Every other control character but tab and line feed (a carriage return may start a line the runner reads). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Escape sequences and control characters removed; tabs and line feeds kept. */
export function terminalText(s: string): string {
  return s.replace(SEQUENCE, '').replace(CONTROL, '');
}

/** A JSON.stringify replacer: every string value as terminalText has it (JSON leaves C1 controls raw, and a reader gets back the C0 ones it escapes). */
export function terminalSafe(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? terminalText(value) : value;
}

/**
 * A line the Actions runner would take for a workflow command, made plain text: the runner trims leading
 * white space and reads a line starting `::` as a command (and `##[` anywhere, its older form). The first
 * colon is written as GitHub's documented escape `%3A`, and `##[` as `##%5B`, so the line still reads the
 * same to a person but commands nothing.
 */
export function runnerText(line: string): string {
  return line.replace(/^(\s*):(?=:)/, '$1%3A').replace(/##\[/g, '##%5B');
}
