/**
 * What the KMS emulator's operations work on, built once at start and handed to each operation:
 *
 * - the store (./store.ts): keys (with their key material) and aliases, in memory, and with a data
 *   directory persisted as `<dataDir>/kms.json` (0600). A change is durable once `store.persist()`
 *   resolves: the HTTP front (./server.ts) awaits it before answering an operation marked `mutates`
 *   (./routes.ts), so a key whose ciphertexts were handed out is never lost to a crash;
 * - the key resolver (./key-ref.ts): the emulator's one account and Region, the ARNs it makes and the key
 *   a key id, key ARN, alias name or alias ARN names;
 * - the clock of creation and rotation dates, and the log.
 */
import { emulatorAccount, type EmulatorOptions } from '../emulator-options';
import { KeyResolver } from './key-ref';
import { KmsStore } from './store';

export type KmsEmulatorOptions = EmulatorOptions;

export interface KmsState {
  readonly store: KmsStore;
  readonly keys: KeyResolver;
  /** Epoch milliseconds. */
  readonly now: () => number;
  log(msg: string): void;
}

/** Opens the store (loading what an earlier run left in the data directory) and the resolver over it. */
export async function openKmsState(opts: KmsEmulatorOptions): Promise<KmsState> {
  const log = opts.log ?? (() => undefined);
  const { region, accountId } = emulatorAccount(opts);

  const store = new KmsStore(opts.dataDir);
  await store.load();
  return { store, keys: new KeyResolver(store, region, accountId), now: Date.now, log };
}
