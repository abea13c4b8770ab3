/**
 * The `--require` preloads of the local cloud's own NODE_OPTIONS (a bench's meters or profiler:
 * bench/lib/sdk-preload.cjs, cpu-profile-preload.cjs), kept for the relay task's process. The image sets
 * NODE_OPTIONS (infra/smtp-relay.Dockerfile's ENV), which replaces the inherited value as Docker's ENV would,
 * so without this a meter attached to `npm start` would see every process of the stack but the relay's.
 * Nothing of the product sets a `--require`: on AWS there is none to keep.
 */

/** The `--require <file>` (and `-r <file>`, `--require=<file>`) options of a NODE_OPTIONS value, in order. */
export function requirePreloads(nodeOptions: string | undefined): string[] {
  const words = (nodeOptions ?? '').trim().split(/\s+/).filter(Boolean);
  const preloads: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if ((word === '--require' || word === '-r') && words[i + 1]) preloads.push(word, words[++i]!);
    else if (word.startsWith('--require=')) preloads.push(word);
  }
  return preloads;
}

/** The task's environment with the local cloud's preloads added to its NODE_OPTIONS (unchanged when there are none). */
export function withLocalPreloads(
  env: Record<string, string>,
  localNodeOptions: string | undefined = process.env.NODE_OPTIONS,
): Record<string, string> {
  const preloads = requirePreloads(localNodeOptions);
  if (preloads.length === 0) return env;
  return { ...env, NODE_OPTIONS: [env.NODE_OPTIONS ?? '', ...preloads].join(' ').trim() };
}
