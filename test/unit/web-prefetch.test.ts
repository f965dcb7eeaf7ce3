import { afterEach, describe, expect, it } from '@jest/globals';
import { QueryClient } from '@tanstack/react-query';

import { everyFlagQuery } from '../../web/src/data/every-flag';
import { EXPOSURE_URL_STATE, exposureParamsOf, exposureQuery } from '../../web/src/data/flags/exposure';
import { flagQuery } from '../../web/src/data/flags/flag';
import { PREFETCH } from '../../web/src/routing/prefetch';

/** What the page sends, by operation: each answered with `data` naming the operation, so the cache shows whose it is. */
function serve(): { asked: Array<{ operation: string; variables: Record<string, unknown> }> } {
  const asked: Array<{ operation: string; variables: Record<string, unknown> }> = [];
  globalThis.fetch = (async (_url: unknown, init?: { body?: string }) => {
    const { query, variables } = JSON.parse(init!.body!) as { query: string; variables: Record<string, unknown> };
    const operation = /query (\w+)/.exec(query)![1];
    asked.push({ operation, variables });
    const data = operation === 'EveryFlag' ? { featureIndex: [{ name: 'a' }] } : { feature: { name: variables.name, exposure: { operation } } };
    return new Response(JSON.stringify({ data }), { headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { asked };
}

const realFetch = globalThis.fetch;
afterEach(() => { globalThis.fetch = realFetch; });

describe('a route\'s prefetch (routing/prefetch.ts)', () => {
  it('fills the cache under the keys the flag page\'s own hooks read, with the window the address chooses', async () => {
    const { asked } = serve();
    const client = new QueryClient();
    const search = new URLSearchParams('range=30d&per=day&env=production');
    await PREFETCH.flag!(client, { projectId: 'p', featureName: 'checkout' }, search);
    expect(asked.map((a) => a.operation).sort()).toEqual(['FlagExposure', 'FlagPageFeature']);
    expect(client.getQueryData(flagQuery('checkout').queryKey)).toEqual({ feature: { name: 'checkout', exposure: { operation: 'FlagPageFeature' } } });
    // FlagExposure derives its request from the same address the same way (exposureParamsOf over EXPOSURE_URL_STATE).
    const url = Object.fromEntries(EXPOSURE_URL_STATE.map((n) => [n, search.get(n)]));
    const params = exposureParamsOf((n) => url[n]);
    expect(params).toEqual({ hoursBack: 720, granularity: 'day', appName: null, environment: 'production' });
    expect(client.getQueryData(exposureQuery('checkout', params).queryKey)).toEqual({ operation: 'FlagExposure' });
    expect(asked.find((a) => a.operation === 'FlagExposure')!.variables).toMatchObject({ name: 'checkout', hoursBack: 720, granularity: 'day', environment: 'production' });
  });

  it('leaves the chart alone on the flag\'s history tab, and the Flags page asks for every flag', async () => {
    const { asked } = serve();
    const client = new QueryClient();
    await PREFETCH.flag!(client, { featureName: 'checkout' }, new URLSearchParams('tab=history'));
    expect(asked.map((a) => a.operation)).toEqual(['FlagPageFeature']);
    await PREFETCH.flags!(client, {}, new URLSearchParams());
    expect(client.getQueryData(everyFlagQuery().queryKey)).toEqual([{ name: 'a' }]);
  });

  it('asks once: a page mounting just after its route finds the answer fresh', async () => {
    const { asked } = serve();
    const client = new QueryClient();
    await PREFETCH.flag!(client, { featureName: 'checkout' }, new URLSearchParams('tab=history'));
    await client.ensureQueryData(flagQuery('checkout'));
    await client.prefetchQuery(flagQuery('checkout'));
    expect(asked).toHaveLength(1);
  });
});
