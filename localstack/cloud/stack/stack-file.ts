/**
 * DATA_DIR/stack.json: how other processes (the admin CLI, tests, benchmarks) find a running local
 * cloud: its API URL, emulator endpoints and the functions' environment.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { StackResources } from '../template/stack-resources';

export interface StackInfo {
  pid: number;
  api_url: string;
  started_at: string;
  data_dir: string;
  in_memory: boolean;
  region: string;
  endpoints: {
    dynamodb: string;
    sqs: string;
    sns: string;
    s3: string;
    sesv2: string;
    scheduler: string;
    dns: string;
    acm?: string;
    apigatewayv2?: string;
  };
  /** The HTTPS endpoint of API Gateway's custom domain names (`https://<host>:<port>`): send the domain name as SNI and Host. */
  custom_domains_url?: string;
  /** The ACM emulator's CA certificate (PEM): what a client of the custom domain names trusts. */
  custom_domains_ca_file?: string;
  /** The local HTTPS webhook inbox (answers 200 to anything; see GET /_local/webhooks). */
  webhook_inbox_url?: string;
  /** Environment of the functions (resource names/URLs, endpoints, region, local credentials). */
  env: Record<string, string>;
  /** The deployed template: its hash and where it is cached (localstack/cloud/template/synthesize.ts). */
  template?: { hash: string; file: string };
  /** The deployed resources in infra/definitions' terms (queue ids, topic ids...): template/stack-resources.ts. */
  resources?: StackResources;
}

export const stackFilePath = (dataDir: string) => join(dataDir, 'stack.json');

export function writeStackFile(dataDir: string, info: StackInfo): void {
  const path = stackFilePath(dataDir);
  writeFileSync(`${path}.tmp`, JSON.stringify(info, null, 2));
  renameSync(`${path}.tmp`, path);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running stack of that data folder, or null (no file, or its process is gone). */
export function readStackFile(dataDir: string): StackInfo | null {
  const path = stackFilePath(dataDir);
  if (!existsSync(path)) return null;
  const info = JSON.parse(readFileSync(path, 'utf8')) as StackInfo;
  return alive(info.pid) ? info : null;
}

export function removeStackFile(dataDir: string, pid: number): void {
  const path = stackFilePath(dataDir);
  try {
    const info = JSON.parse(readFileSync(path, 'utf8')) as StackInfo;
    if (info.pid === pid) rmSync(path, { force: true });
  } catch {
    // already gone
  }
}
