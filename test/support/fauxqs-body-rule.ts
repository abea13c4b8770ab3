/**
 * The local SQS's (fauxqs) test of a message body, read from the package, so a test can tell whether a body
 * passes it (test/unit/aws/sqs-message-body.test.ts). fauxqs is ESM-only; its dist file is plain JavaScript.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const source = readFileSync(join(__dirname, '..', '..', 'node_modules', 'fauxqs', 'dist', 'sqs', 'sqsTypes.js'), 'utf8');
const match = /export const INVALID_MESSAGE_BODY_CHAR = \/(.+)\/([a-z]*);/.exec(source);
if (!match) throw new Error('fauxqs no longer declares INVALID_MESSAGE_BODY_CHAR in dist/sqs/sqsTypes.js');

export const INVALID_MESSAGE_BODY_CHAR = new RegExp(match[1]!, match[2]);
