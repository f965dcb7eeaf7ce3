import type { CodegenConfig } from '@graphql-codegen/cli';

// Typed documents for the server's own GraphQL tests, generated from the printed schema.
// A test query that no longer matches the schema fails codegen (and so `npm test`).
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['test/**/*.ts', '!test/gql/**'],
  ignoreNoDocuments: true,
  generates: {
    'test/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        strictScalars: true,
        scalars: { DateTime: 'string', JSON: 'unknown', ID: 'string' },
      },
    },
  },
};
export default config;
