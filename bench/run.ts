/** `npm run bench`: prints figures; nothing here is asserted. */
import { benchLenses } from './lenses';
import { benchPlan } from './plan';
import { benchStaged } from './staged';

async function main(): Promise<void> {
  console.log(await benchStaged({ files: 10, functions: 12, latencyMs: 50, faults: false }));
  console.log(await benchStaged({ files: 10, functions: 12, latencyMs: 50, faults: true }));
  console.log(await benchLenses({ files: 10, functions: 12, latencyMs: 50 }));
  console.log(await benchPlan(20_000));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
