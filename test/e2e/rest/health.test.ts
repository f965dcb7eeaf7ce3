import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * `GET /health`: 200 `{health: "GOOD"}` while the database answers, 503 `{health: "BAD"}` when it does not (both are
 * documented answers of the reference, which the harness checks every answer against).
 */
let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

describe('GET /health', () => {
  it('answers 200 GOOD without credentials while the database answers', async () => {
    const res = await app.get('/health', { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ health: 'GOOD' });
  });

  it('answers 503 BAD (not an error body) once the database connection is gone', async () => {
    await app.orm.close(true);
    const res = await app.get('/health', { token: null });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ health: 'BAD' });
  });
});
