/** The shop fixture as a change under review: committed, then edited; and its scenario with a pre-existing finding. */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from '../fake-anthropic/scenario';
import { FIXTURES } from './cli';
import { TempRepo } from './git-repo';

/** Replaces whole lines (1-based) of a file in the repository (or any folder that holds the file). */
export function editLines(repo: { path: (file: string) => string }, file: string, lines: Record<number, string>): void {
  const text = readFileSync(repo.path(file), 'utf8').split('\n');
  for (const [n, line] of Object.entries(lines)) text[Number(n) - 1] = line;
  writeFileSync(repo.path(file), text.join('\n'));
}

/** An agent's fix of Cart.total's off-by-one in the shop under `dir`, and the scenario of a model that no longer flags it. */
export function fixCartTotal(dir: string, scenario: Scenario): Scenario {
  editLines({ path: (p) => join(dir, p) }, 'shop/cart.ts', { 17: '    for (let i = 0; i < this.items.length; i++) {' });
  const fixed = structuredClone(scenario);
  delete fixed.files!['shop/cart.ts']!.reviews!['Cart.total'];
  return fixed;
}

/** The shop committed in a fresh repository (on main), then edited in Cart.total (lines 17-18) and parsePrice (line 11). */
export function editedShop(): TempRepo {
  const repo = new TempRepo();
  cpSync(join(FIXTURES, 'shop'), repo.path('shop'), { recursive: true });
  repo.commit('shop');
  editShop(repo);
  return repo;
}

export function editShop(repo: TempRepo): void {
  editLines(repo, 'shop/cart.ts', {
    17: '    for (let i = 0; i <= this.items.length; i += 1) {',
    18: '      sum += Math.round(this.items[i].price * this.items[i].qty * 100) / 100; // cents',
  });
  editLines(repo, 'shop/price.ts', { 11: "  return Number(text.replace('$', '').trim());" });
}

/** The shop's scenario plus a must_fix documentation finding far from the change: kept, marked pre-existing. */
export function shopScenarioWithPreExisting(): Scenario {
  const scenario = JSON.parse(readFileSync(join(FIXTURES, 'shop.scenario.json'), 'utf8')) as Scenario;
  const price = scenario.files!['shop/price.ts']!;
  price.step2!.file_level_findings = [
    ...(price.step2!.file_level_findings ?? []),
    {
      rule_id: 'F1',
      confidence: 'high',
      priority: 'must_fix',
      location: 'shop/price.ts:1',
      action: 'Fix the doc: round() rounds half to even.',
      rationale: 'Callers rely on half-up rounding the doc promises.',
    },
  ];
  return scenario;
}

/** The shop pushed to a bare remote, then edited and committed: a push waiting to happen. */
export function pushableShop(): TempRepo {
  const remote = new TempRepo({ init: false });
  remote.git('init', '-q', '--bare', '-b', 'main');
  const repo = new TempRepo();
  cpSync(join(FIXTURES, 'shop'), repo.path('shop'), { recursive: true });
  repo.commit('shop');
  repo.git('remote', 'add', 'origin', remote.dir);
  repo.git('push', '-q', 'origin', 'main');
  editShop(repo);
  repo.commit('pricing in cents');
  return repo;
}
