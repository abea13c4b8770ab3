/**
 * fauxqs's store and spy classes, for `buildApp({ stores })`: fauxqs 1.9.2 publishes `buildApp` and the
 * `stores` option it takes (an SQS, an SNS and an S3 store: `BuildAppOptions` in its app.d.ts), and it
 * fills each store's public `spy` field itself when asked (`startFauxqs({ messageSpies })`). Its exports map
 * names the stores' types but not their classes, so the classes are loaded from its dist/ folder by file
 * URL: the same URLs app.js imports, so the same classes its routers use. Every type here is derived from
 * the public `BuildAppOptions`, so a fauxqs upgrade that changes them fails the type check, and
 * test/unit/emulators/fauxqs/extension-points.test.ts fails when one moves or behaves otherwise.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildAppOptions } from 'fauxqs';

type Stores = NonNullable<BuildAppOptions['stores']>;
export type SqsStore = Stores['sqsStore'];
export type SnsStore = Stores['snsStore'];
export type S3Store = Stores['s3Store'];
export type SqsQueue = ReturnType<SqsStore['createQueue']>;
export type SqsMessage = SqsQueue['messages'][number];
export type S3Object = ReturnType<S3Store['putObject']>;
/** fauxqs's MessageSpy: what its stores call `addMessage` on. */
export type MessageSpy = NonNullable<SqsStore['spy']>;

export interface FauxqsClasses {
  SqsStore: (new () => SqsStore) & {
    createMessage(body: string, attributes?: SqsMessage['messageAttributes'], delaySeconds?: number): SqsMessage;
  };
  SnsStore: new () => SnsStore;
  S3Store: new () => S3Store;
  MessageSpy: new (params?: { bufferSize?: number }) => MessageSpy;
}

function distUrl(...path: string[]): string {
  // The package's exports map hides dist/ from specifiers, not from file URLs.
  return pathToFileURL(join(resolve(__dirname, '..', '..', '..'), 'node_modules', 'fauxqs', 'dist', ...path)).href;
}

let loaded: Promise<FauxqsClasses> | undefined;

/** Loads the classes once per process; throws naming what an upgrade moved. */
export function fauxqsClasses(): Promise<FauxqsClasses> {
  loaded ??= (async () => {
    const [sqs, sns, s3, spy] = await Promise.all([
      import(distUrl('sqs', 'sqsStore.js')),
      import(distUrl('sns', 'snsStore.js')),
      import(distUrl('s3', 's3Store.js')),
      import(distUrl('spy.js')),
    ]);
    const classes = { SqsStore: sqs.SqsStore, SnsStore: sns.SnsStore, S3Store: s3.S3Store, MessageSpy: spy.MessageSpy } as FauxqsClasses;
    const missing = Object.entries(classes).filter(([, value]) => typeof value !== 'function');
    if (missing.length)
      throw new Error(
        `fauxqs changed: ${missing.map(([name]) => name).join(', ')} not found in its dist/; localstack/cloud/messaging must follow`,
      );
    return classes;
  })();
  return loaded;
}
