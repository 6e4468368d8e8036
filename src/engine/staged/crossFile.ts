/** Step 5's global findings as `Finding`s, located at their first `path:line`. */
import type { SynthesisResult } from '../records';
import type { Finding } from '../types';
import { parseLocation, ruleFinding } from './filters';

export function crossFileFindings(result: SynthesisResult): Finding[] {
  return result.cross_file_findings.map((f) => {
    // The synthesis check admits only "path:line" (or a range) locations in reviewed files.
    const places = f.locations.map((loc) => parseLocation(loc)!);
    return { ...ruleFinding(f, 'cross_file'), file: places[0]!.path!, line: places[0]!.line, locations: places.map((p) => `${p.path}:${p.line}`) };
  });
}
