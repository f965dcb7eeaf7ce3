// Access control's documents and hooks (users, groups, roles, project access, signup links, personal tokens), one
// file a part; pages import them from here.
export * from './access/groups';
export * from './access/project';
export * from './access/roles';
export * from './access/signup-links';
export * from './access/users';
