import type { CodegenConfig } from '@graphql-codegen/cli';

const shared = {
  useTypeImports: true,
  enumsAsTypes: true,
  strictScalars: true,
  scalars: { DateTime: 'string', JSON: 'unknown', ID: 'string' },
};

// Typed documents generated from the printed schema: for the server's own GraphQL tests, and for the web UI (web/src).
// A query that no longer matches the schema fails codegen (and so `npm test` and the build).
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  ignoreNoDocuments: true,
  generates: {
    'test/gql/': {
      documents: ['test/**/*.ts', '!test/gql/**', '!test/**/*.d.ts'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: shared,
    },
    // The UI sends documents as strings (no graphql-js in the browser bundle).
    'web/src/gql/': {
      documents: ['web/src/**/*.{ts,tsx}', '!web/src/gql/**'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { ...shared, documentMode: 'string' },
    },
  },
};
export default config;
