import { mkdirSync, writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { buildSchema } from '../src/resolvers';

mkdirSync('schema', { recursive: true });
writeFileSync('schema/schema.graphql', `${printSchema(buildSchema())}\n`);
