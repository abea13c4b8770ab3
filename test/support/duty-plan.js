/**
 * The order Jest starts the test files in, planned so the cores stay busy: most files mostly wait (on the
 * pipelines, a browser, a kill test's recovery windows), and longest first alone started such files together
 * (a run of 2026-11-29 at 3 files on 2 cores: 52-64% busy for 50 s while five files that each used a quarter of a
 * core ran side by side).
 *
 * Jest starts the files in the order given, each as soon as one of its workers is free. This plays that out with
 * each file's estimated wall time (`seconds`, measured with others running) and CPU time (`cpuSeconds`): a file
 * uses `cpuSeconds / seconds` of a core while it runs (its duty); when the running files ask for more than the
 * cores, their CPU parts slow down in proportion. When a worker frees, the next file is chosen among the `window`
 * longest not yet started: the one that brings the running files' demand nearest `target` cores (a waiting file
 * beside busy ones, a busy one beside waiting ones), the longest on a tie. Within the window, the long files
 * still start early, so no long one is left to the end.
 */

/**
 * @param {{ key: string, seconds: number, cpuSeconds: number }[]} files
 * @param {{ slots: number, cores: number, window?: number, target?: number, background?: number }} options
 *   `slots`: files at once (Jest's workers); `cores`: the machine's; `background`: cores used by what no file
 *   is charged for (the shared stack's own timers, Jest itself); `target`: demand aimed for, in cores.
 * @returns {string[]} the keys, in the order to start them
 */
function planByDuty(files, { slots, cores, window = 20, target = cores * 0.9, background = 0.2 }) {
  const remaining = files
    .map((file) => {
      const seconds = Math.max(file.seconds, 0.01);
      return { key: file.key, seconds, duty: Math.min(1, Math.max(0, file.cpuSeconds / seconds)) };
    })
    .sort((a, b) => b.seconds - a.seconds || (a.key < b.key ? -1 : 1));
  const order = [];
  /** Running files: their duty and the wall seconds they have left at full speed. */
  let running = [];
  const demand = () => running.reduce((sum, file) => sum + file.duty, background);
  while (remaining.length > 0 || running.length > 0) {
    while (running.length < slots && remaining.length > 0) {
      const now = demand();
      let best = 0;
      for (let i = 1; i < Math.min(window, remaining.length); i++) {
        if (Math.abs(now + remaining[i].duty - target) < Math.abs(now + remaining[best].duty - target)) best = i;
      }
      const [next] = remaining.splice(best, 1);
      order.push(next.key);
      running.push({ duty: next.duty, left: next.seconds });
    }
    // A file's CPU part runs at `share` of its speed alone, its waiting part at full speed.
    const share = Math.min(1, cores / demand());
    const rates = running.map((file) => 1 / (file.duty / share + (1 - file.duty)));
    const step = Math.min(...running.map((file, i) => file.left / rates[i]));
    running = running.map((file, i) => ({ ...file, left: file.left - step * rates[i] })).filter((file) => file.left > 1e-9);
  }
  return order;
}

module.exports = { planByDuty };
