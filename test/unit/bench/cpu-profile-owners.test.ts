/**
 * bench/lib/cpu-profile.ts: whose work each sample of a CPU profile was (the product's, the emulators', or
 * neither), decided by the first frame from the leaf up that names one, bundled frames read through the
 * bundle's source map; the figure bench:send's product CPU (issue 49, item 7) is made of.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addProjectRoot, ownerOf, splitByOwner, summariseCpuProfile } from '#bench/lib/cpu-profile';
import { temporaryDir } from '../../support/temporary-dirs';

const frame = (id: number, functionName: string, url: string, children: number[] = [], lineNumber = 0) => ({
  id,
  callFrame: { functionName, url, lineNumber, columnNumber: 0 },
  children,
});

describe('ownerOf', () => {
  const decided: [string, ReturnType<typeof ownerOf>][] = [
    ['shared/usecases', 'product'],
    ['functions/workers', 'product'],
    ['npm:@aws-sdk/client-dynamodb', 'product'],
    ['npm:@smithy/core', 'product'],
    ['npm:hono', 'product'],
    ['localstack/emulators/ses', 'emulators'],
    ['localstack/cloud', 'emulators'],
    ['npm:fauxqs', 'emulators'],
    ['node:internal/crypto', null],
    ['(garbage collector)', null],
  ];
  it('names the product, the emulators, or nothing for what decides neither', () => {
    expect(decided.map(([component]) => [component, ownerOf(component)])).toEqual(decided);
  });
});

describe('summariseCpuProfile owners', () => {
  it("charges each busy sample to the first frame from the leaf that names an owner, through a bundle's source map", () => {
    const dir = temporaryDir('cpu-owners-');
    addProjectRoot(dir);
    // A bundle whose first line maps to shared/ and second to localstack/emulators/ (mappings "AAAA;ACAA").
    const bundles = join(dir, 'node_modules', '.cache', 'mailservice-commands');
    mkdirSync(bundles, { recursive: true });
    const bundle = join(bundles, 'local-cloud-workers.body.cjs');
    writeFileSync(bundle, 'a\nb\n');
    writeFileSync(
      `${bundle}.map`,
      JSON.stringify({
        version: 3,
        sources: ['../../../shared/usecases/send.ts', '../../../localstack/emulators/ses/send-request.ts'],
        names: [],
        mappings: 'AAAA;ACAA',
      }),
    );
    const nodes = [
      frame(1, '(root)', '', [2, 3, 9]),
      frame(2, '(idle)', ''),
      frame(3, 'processTicksAndRejections', 'node:internal/process/task_queues', [4, 7, 10]),
      frame(4, 'deliver', `file://${bundle}`, [5], 0), // shared/ through the map
      frame(5, 'send', join(dir, 'node_modules', '@smithy', 'core', 'index.js'), [6]),
      frame(6, 'hmac', 'node:internal/crypto/hash'), // native work under the SDK: the product's
      frame(7, 'handle', `file://${bundle}`, [8], 1), // localstack/emulators/ through the map
      frame(8, 'parse', 'node:internal/url'),
      frame(9, '(garbage collector)', ''),
      frame(10, 'onread', 'node:internal/stream_base_commons'), // no owner up to the root
    ];
    const samples = [6, 6, 4, 8, 10, 9, 2, 2];
    const file = join(dir, 'thread.cpuprofile');
    writeFileSync(file, JSON.stringify({ nodes, startTime: 0, endTime: 8000, samples, timeDeltas: samples.map(() => 1000) }));
    const summary = summariseCpuProfile(file);
    expect(summary.owners).toEqual({ product: 3, emulators: 1, unattributed: 2 });
    expect(summary.idleMs).toBe(2);
    expect(summary.components.find((c) => c.name === 'shared/usecases')?.ms).toBe(1);
  });
});

describe('splitByOwner', () => {
  it("splits a thread's CPU in its samples' proportions, and calls all of it unattributed without a busy sample", () => {
    expect(splitByOwner(60, { product: 3, emulators: 1, unattributed: 2 })).toEqual({ product: 30, emulators: 10, unattributed: 20 });
    expect(splitByOwner(60, { product: 0, emulators: 0, unattributed: 0 })).toEqual({ product: 0, emulators: 0, unattributed: 60 });
  });
});
