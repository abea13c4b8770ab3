// Validates an OpenAPI document file with @seriousme/openapi-schema-validator (an ES module, so it runs
// in a process of its own: test/unit/openapi/document.test.ts). Prints {valid, version, errors} as JSON.
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';

const file = process.argv[2];
const validator = new Validator();
const result = await validator.validate(JSON.parse(readFileSync(file, 'utf8')));
process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null }));
