/** Mocha hooks for a suite that talks to one fake Messages API with a fixture scenario, fresh for each test. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from '../fake-anthropic/scenario';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import type { PlatformOptions } from '../fake-anthropic/platforms';
import { FIXTURES } from './cli';

export interface FakeServerHandle {
  server: FakeAnthropic;
  /** The fixture scenario as loaded: each test starts from it (a test may set another for itself). */
  scenario: Scenario;
}

/** `options`: what else the fake serves (Bedrock's accepted keys, Vertex AI's project: see platforms.ts). */
export function useFakeServer(scenarioFile = 'shop.scenario.json', options: PlatformOptions = {}): FakeServerHandle {
  const handle = {} as FakeServerHandle;
  before(async () => {
    handle.scenario = JSON.parse(readFileSync(join(FIXTURES, scenarioFile), 'utf8')) as Scenario;
    handle.server = await startFakeAnthropic({ ...options, scenario: handle.scenario });
  });
  after(() => handle.server.close());
  beforeEach(() => {
    handle.server.setScenario(handle.scenario);
    handle.server.reset();
  });
  return handle;
}
