import { PERMISSIONS, PREDEFINED_ROLES, PERMISSION_BY_NAME } from '../domain/access/permissions';

/**
 * Rows every fresh database starts with (design D12). Used by the first migration and by the
 * test harness, which truncates and re-seeds between test files.
 */
const q = (v: string | number | boolean | null | object): string => {
  if (v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return `'${s.replace(/'/g, "''")}'`;
};
const row = (...values: Array<string | number | boolean | null | object>) => `(${values.map(q).join(', ')})`;

const param = (name: string, type: string, description: string, required: boolean) => ({ name, type, description, required });

const STRATEGIES = [
  { name: 'flexibleRollout', displayName: 'Gradual rollout', deprecated: false, sortOrder: 0,
    description: 'Roll out to a percentage of your userbase, and ensure that the experience is the same for the user on each visit.',
    parameters: [param('rollout', 'percentage', '', false), param('stickiness', 'string', 'Used define stickiness. Possible values: default, userId, sessionId, random', true), param('groupId', 'string', 'Used to define a activation groups, which allows you to correlate across feature toggles.', true)] },
  { name: 'default', displayName: 'Standard', deprecated: false, sortOrder: 1, description: 'The standard strategy is strictly on / off for your entire userbase.', parameters: [] },
  { name: 'userWithId', displayName: 'UserIDs', deprecated: true, sortOrder: 2, description: 'Enable the feature for a specific set of userIds.', parameters: [param('userIds', 'list', '', false)] },
  { name: 'remoteAddress', displayName: 'IPs', deprecated: false, sortOrder: 3, description: 'Enable the feature for a specific set of IP addresses.', parameters: [param('IPs', 'list', '', true)] },
  { name: 'applicationHostname', displayName: 'Hosts', deprecated: false, sortOrder: 4, description: 'Enable the feature for a specific set of hostnames.', parameters: [param('hostNames', 'list', '', false)] },
  { name: 'gradualRolloutUserId', displayName: 'Gradual rollout (userId)', deprecated: true, sortOrder: 5, description: 'Gradually activate feature toggle for logged in users. Stickiness based on user id.', parameters: [param('percentage', 'percentage', '', false), param('groupId', 'string', 'Used to define a activation groups, which allows you to correlate across feature toggles.', true)] },
  { name: 'gradualRolloutSessionId', displayName: 'Gradual rollout (sessionId)', deprecated: true, sortOrder: 6, description: 'Gradually activate feature toggle. Stickiness based on session id.', parameters: [param('percentage', 'percentage', '', false), param('groupId', 'string', 'Used to define a activation groups, which allows you to correlate across feature toggles.', true)] },
  { name: 'gradualRolloutRandom', displayName: 'Gradual rollout (random)', deprecated: true, sortOrder: 7, description: 'Randomly activate the feature toggle. No stickiness.', parameters: [param('percentage', 'percentage', '', false)] },
];

const FEATURE_TYPES: Array<[string, string, string, number | null]> = [
  ['release', 'Release', 'Release feature toggles are used to release new features.', 40],
  ['experiment', 'Experiment', 'Experiment feature toggles are used to test and verify multiple different versions of a feature.', 40],
  ['operational', 'Operational', 'Operational feature toggles are used to control aspects of a rollout.', 7],
  ['kill-switch', 'Kill switch', 'Kill switch feature toggles are used to quickly turn on or off critical functionality in your system.', null],
  ['permission', 'Permission', 'Permission feature toggles are used to control permissions in your system.', null],
];

const CONTEXT_FIELDS: Array<[string, number, boolean]> = [
  ['environment', 0, false], ['userId', 1, false], ['appName', 2, false], ['currentTime', 3, false], ['sessionId', 4, true],
];

export function seedStatements(): string[] {
  const rolePermissionRows = PREDEFINED_ROLES.flatMap((r) => r.permissions.map((perm) => {
    if (!PERMISSION_BY_NAME.has(perm)) throw new Error(`unknown permission ${perm} in role ${r.name}`);
    return row(r.id, perm, null);
  }));
  return [
    `insert into projects (id, name, description, mode, default_stickiness) values ${row('default', 'Default', 'Default project', 'open', 'default')}`,
    `insert into environments (name, type, sort_order, enabled, protected) values ${row('development', 'development', 2, true, false)}, ${row('production', 'production', 3, true, false)}`,
    `insert into project_environments (project_id, environment_name) values ${row('default', 'development')}, ${row('default', 'production')}`,
    `insert into context_fields (name, description, sort_order, stickiness) values ${CONTEXT_FIELDS.map(([n, s, st]) => row(n, `Allows you to constrain on ${n}`, s, st)).join(', ')}`,
    `insert into tag_types (name, description, icon) values ${row('simple', 'Used to simplify filtering of features', '#')}`,
    `insert into feature_types (id, name, description, lifetime_days) values ${FEATURE_TYPES.map((t) => row(...t)).join(', ')}`,
    `insert into strategies (name, display_name, description, parameters, built_in, deprecated, sort_order) values ${STRATEGIES.map((s) => row(s.name, s.displayName, s.description, s.parameters, true, s.deprecated, s.sortOrder)).join(', ')}`,
    `insert into permissions (id, name, display_name, type) values ${PERMISSIONS.map((d) => row(d.id, d.name, d.displayName, d.type)).join(', ')}`,
    `insert into roles (id, name, type, description) values ${PREDEFINED_ROLES.map((r) => row(r.id, r.name, r.type, r.description)).join(', ')}`,
    `select setval('roles_id_seq', (select max(id) from roles))`,
    `insert into role_permissions (role_id, permission, environment) values ${rolePermissionRows.join(', ')}`,
  ];
}
