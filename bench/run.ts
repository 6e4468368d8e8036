/** `npm run bench`: prints figures; nothing here is asserted. */
import { benchPlan } from './plan';
import { benchReview, TYPICAL_FAULTS } from './review';

const size = { files: 10, functions: 12, latencyMs: 50 };
const lens = { fullFanout: false };

async function main(): Promise<void> {
  console.log(await benchReview({ title: 'staged clean', ...size }));
  console.log(await benchReview({ title: 'staged with faults', ...size, scenario: TYPICAL_FAULTS }));
  console.log(await benchReview({ title: 'lenses (default reviewers)', ...size, lens }));
  console.log(await benchReview({ title: 'lenses, full fan-out', ...size, lens: { ...lens, fullFanout: true } }));
  console.log(await benchPlan(20_000));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
