import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBadInputCampaign } from '../../test/campaigns/bad-input';
import { createTestApp, type TestApp } from '../../test/helper';

// A fixed-seed slice of the bad-input campaign; `npm run bench` runs thousands of cases.
describe('bad input on every API route', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 300 generated requests with a 2xx or a readable 4xx that changed nothing', async () => {
    const report = await runBadInputCampaign(t, { numRuns: 300, seed: 20261121 });
    expect(report.cases).toBe(300);
    expect(Object.keys(report.byStatus).every((status) => Number(status) < 500)).toBe(true);
  }, 120_000);
});
