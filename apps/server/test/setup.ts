import { afterEach } from 'vitest';
import { assertDeclaredStatuses } from './helper';

// A route that answers a status its OpenAPI operation does not declare fails the test that made it answer so.
afterEach(() => {
  assertDeclaredStatuses();
});
