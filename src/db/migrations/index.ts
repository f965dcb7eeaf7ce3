import { Migration0001Init } from './0001-init';

/** Explicit, ordered migration list: no globbing, identical under tsx, jest and compiled dist/. */
export const migrationsList = [
  { name: '0001-init', class: Migration0001Init },
];
