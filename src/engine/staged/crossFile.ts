/** Step 5's global findings as `Finding`s, located at their first `path:line`. */
import type { SynthesisResult } from '../../model/records';
import type { Finding } from '../../model/finding';
import { ruleFinding } from './filters';
import { parseLocation } from '../../model/location';

export function crossFileFindings(result: SynthesisResult): Finding[] {
  return result.cross_file_findings.map((f) => {
    // The synthesis check admits only "path:line" (or a range) locations in reviewed files.
    const places = f.locations.map((loc) => parseLocation(loc)!);
    return {
      ...ruleFinding(f, 'cross_file'),
      file: places[0]!.path!,
      line: places[0]!.line,
      locations: places.map((p) => ({ file: p.path!, line: p.line })),
    };
  });
}
