/**
 * Running the CLI in-process for unit tests: an io that records stdout and stderr, and a fetch that
 * records each request and answers from a list (the API itself is exercised by test/integration/cli.test.ts).
 */
import { Writable } from 'node:stream';
import type { CliIo } from '#clients/cli/io';
import { runCli } from '#clients/cli/program';

export interface Recorded {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: any;
}

export function fakeApi(answers: ((request: Recorded) => { status?: number; body: unknown; headers?: Record<string, string> })[]) {
  const requests: Recorded[] = [];
  const fakeFetch = (async (input: URL, init: RequestInit) => {
    const request: Recorded = {
      method: init.method ?? 'GET',
      url: new URL(String(input)),
      headers: init.headers as Record<string, string>,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    };
    requests.push(request);
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected request ${request.method} ${request.url}`);
    const { status = 200, body, headers = {} } = answer(request);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
  }) as typeof globalThis.fetch;
  return { fetch: fakeFetch, requests };
}

export async function run(args: string[], options: { env?: NodeJS.ProcessEnv; fetch?: typeof fetch } = {}) {
  let stdout = '';
  let stderr = '';
  let progress = '';
  const io: CliIo = {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    env: { MAILSERVICE_CONFIG: '/nonexistent/mailservice-test/config.json', MAILSERVICE_API_KEY: 'svc_test', ...options.env },
    progressStream: new Writable({
      write: (chunk, _encoding, done) => {
        progress += String(chunk);
        return done();
      },
    }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    sleep: async () => undefined,
    onInterrupt: () => () => undefined,
  };
  const status = await runCli(args, io);
  return { status, stdout, stderr, progress };
}
