/** Mocha hooks for a suite that talks to one fake Messages API with a fixture scenario, fresh for each test. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from '../fake-anthropic/scenario';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { FIXTURES } from './cli';

export interface FakeServerHandle {
  server: FakeAnthropic;
  /** The fixture scenario as loaded: each test starts from it (a test may set another for itself). */
  scenario: Scenario;
}

export function useFakeServer(scenarioFile = 'shop.scenario.json'): FakeServerHandle {
  const handle = {} as FakeServerHandle;
  before(async () => {
    handle.scenario = JSON.parse(readFileSync(join(FIXTURES, scenarioFile), 'utf8')) as Scenario;
    handle.server = await startFakeAnthropic({ scenario: handle.scenario });
  });
  after(() => handle.server.close());
  beforeEach(() => {
    handle.server.setScenario(handle.scenario);
    handle.server.reset();
  });
  return handle;
}
