/** The write bench's sequence (bench/writes.ts, bench/writes-ab.ts): its steps and the three requests of one. */
export const STEPS = ['create flag', 'add strategy', 'enable'] as const;
export const F = '/api/admin/projects/default/features';

/**
 * The three requests of sequence `name`, as the clients send them (the strategy as side-by-side-client.ts seeds it).
 * Self-contained but for `F`: writes.ts sends its source to the client process, which defines `F` too.
 */
export const requestsOf = (name: string) => [
  { path: F, body: { name, type: 'release', description: `write bench ${name}` }, expect: [201, 200] },
  {
    path: `${F}/${name}/environments/production/strategies`, expect: [200],
    body: {
      name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: name },
      constraints: [
        { contextName: 'userId', operator: 'IN', values: ['u1', 'u4'] },
        { contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'] },
      ],
    },
  },
  { path: `${F}/${name}/environments/production/on`, body: undefined, expect: [200] },
];
