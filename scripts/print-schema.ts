import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { buildSchema } from '../src/resolvers';

mkdirSync('schema', { recursive: true });
const printed = `${printSchema(buildSchema())}\n`;
// Written only when it changed: what is built from it (the web UI, the typed documents) goes by its time.
if (!existsSync('schema/schema.graphql') || readFileSync('schema/schema.graphql', 'utf8') !== printed) writeFileSync('schema/schema.graphql', printed);
