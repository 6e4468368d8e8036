/**
 * The console streams as every command writes to them: control characters and escape sequences are
 * removed (model text and file names reach the console), and under GitHub Actions no line can be a
 * workflow command. Skeptic's own workflow commands (annotations) go out through `command`, unchanged.
 */
import { runnerText, terminalText } from '../model/terminalText';

/** `stream` with its `write` guarded; everything else (isTTY, columns, on, …) is the stream's own. */
export function guardedStream(stream: NodeJS.WriteStream, underActions: boolean): NodeJS.WriteStream {
  // Whether the line being written so far is only white space: a `::` after it still starts a command.
  let blankSoFar = true;
  const guard = (text: string): string => {
    const lines = terminalText(text).split('\n');
    const out = lines.map((line, i) => {
      const atStart = i > 0 || blankSoFar;
      return underActions && atStart ? runnerText(line) : line;
    });
    const last = lines[lines.length - 1]!;
    blankSoFar = (lines.length > 1 || blankSoFar) && last.trim() === '';
    return out.join('\n');
  };
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write')
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (c: unknown, ...r: unknown[]) => boolean)(
            typeof chunk === 'string'
              ? guard(chunk)
              : chunk instanceof Uint8Array
                ? guard(Buffer.from(chunk).toString('utf8'))
                : chunk,
            ...rest,
          );
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
