/**
 * Runs the deployed-stack steps in order and reports each: PASS, FAIL, SKIP (with why) or ONLY-AWS (the
 * step passed on the local cloud, but what it checks is settled only by a real SES: see
 * docs/deploy.md, "Proving a deployment"). What a step creates is registered with the cleanup as soon as
 * it exists and removed at the end, last created first, whatever happened before (a failed step, an
 * interrupt); a leftover that cannot be removed is itself a failure.
 */
import { randomUUID } from 'node:crypto';
import { ApiClient, CheckFailed, type ApiAnswer } from './client';
import type { DeployedOptions } from './options';

export type StepStatus = 'PASS' | 'FAIL' | 'SKIP' | 'ONLY-AWS';

export interface StepResult {
  name: string;
  status: StepStatus;
  ms: number;
  /** What the step found (a duration, an id), or why it was skipped. */
  note?: string;
  /** Why it failed. */
  error?: string;
  /** The answer that failed it. */
  answer?: { request: string; status: number; body: string };
  /** For checks only a real SES settles: the open question. */
  settles?: string;
}

/** Thrown by a step that cannot run here (a missing option, an earlier step that failed): SKIP with the reason. */
export class Skip extends Error {}

/** What steps share: the client, the options, names unique to this run, results of earlier steps, and the cleanup. */
export interface RunContext {
  api: ApiClient;
  options: DeployedOptions;
  /** A short id in every name the run creates (domains, aliases, addresses), so runs never collide. */
  runId: string;
  /** Values earlier steps found, for later ones (an email id, a webhook id). */
  state: Record<string, any>;
  cleanup: Cleanup;
  /** Adds a note to the running step's line. */
  note(text: string): void;
}

export interface Step {
  name: string;
  /** Set for checks only a real SES settles: the question it answers on AWS. */
  settles?: string;
  /** When it fails, the remaining steps are skipped (the key check: nothing works without the key). */
  critical?: boolean;
  run(ctx: RunContext): Promise<void>;
}

interface CleanupAction {
  what: string;
  undo: () => Promise<void>;
}

/** What the run created, to remove at the end (last first). */
export class Cleanup {
  private readonly actions = new Map<string, CleanupAction>();

  /** Registers `undo` under `what` (e.g. "webhook wh_..."): replaces an earlier one of the same name. */
  add(what: string, undo: () => Promise<void>): void {
    this.actions.set(what, { what, undo });
  }

  /** The step removed it itself: nothing left to do at the end. */
  done(what: string): void {
    this.actions.delete(what);
  }

  pending(): string[] {
    return [...this.actions.keys()];
  }

  /** Runs every action, last registered first, each whatever the others did. */
  async runAll(): Promise<{ what: string; ms: number; error?: string }[]> {
    const outcomes: { what: string; ms: number; error?: string }[] = [];
    for (const action of [...this.actions.values()].reverse()) {
      const started = performance.now();
      try {
        await action.undo();
        outcomes.push({ what: action.what, ms: Math.round(performance.now() - started) });
      } catch (error) {
        outcomes.push({ what: action.what, ms: Math.round(performance.now() - started), error: (error as Error).message });
      }
      this.actions.delete(action.what);
    }
    return outcomes;
  }
}

function describeAnswer(answer: ApiAnswer | undefined): StepResult['answer'] {
  if (!answer) return undefined;
  const body = answer.text.length > 2000 ? `${answer.text.slice(0, 2000)}...` : answer.text;
  return { request: `${answer.method} ${answer.path}`, status: answer.status, body };
}

export interface RunReport {
  target: DeployedOptions['target'];
  url: string;
  run_id: string;
  steps: StepResult[];
  ok: boolean;
}

/**
 * Runs `steps` one after the other (never at once: later ones read what earlier ones found), then the
 * cleanup. `onResult` sees each result as it is known (the text report prints as it goes).
 * `interrupted`, when it resolves, stops the run before the next step (the cleanup still runs).
 */
export async function runSteps(
  options: DeployedOptions,
  steps: Step[],
  onResult: (result: StepResult) => void,
  interrupted?: { stop: boolean },
): Promise<RunReport> {
  const api = new ApiClient(options.url, options.key);
  const cleanup = new Cleanup();
  const ctx: RunContext = { api, options, runId: randomUUID().slice(0, 8), state: {}, cleanup, note: () => {} };
  const results: StepResult[] = [];
  const record = (result: StepResult) => {
    results.push(result);
    onResult(result);
  };
  let abortedBy: string | undefined;
  try {
    for (const step of steps) {
      if (abortedBy || interrupted?.stop) {
        record({
          name: step.name,
          status: 'SKIP',
          ms: 0,
          note: abortedBy ? `not run: ${abortedBy} failed` : 'not run: interrupted',
          settles: step.settles,
        });
        continue;
      }
      const notes: string[] = [];
      ctx.note = (text) => notes.push(text);
      api.last = undefined;
      const started = performance.now();
      let result: StepResult;
      try {
        await step.run(ctx);
        const status: StepStatus = step.settles && options.target === 'local' ? 'ONLY-AWS' : 'PASS';
        result = { name: step.name, status, ms: 0 };
      } catch (error) {
        if (error instanceof Skip) result = { name: step.name, status: 'SKIP', ms: 0, note: error.message };
        else {
          result = {
            name: step.name,
            status: 'FAIL',
            ms: 0,
            error: (error as Error).message,
            answer: describeAnswer(error instanceof CheckFailed ? (error.answer ?? api.last) : api.last),
          };
          if (step.critical) abortedBy = step.name;
        }
      }
      result.ms = Math.round(performance.now() - started);
      if (notes.length) result.note = [...notes, result.note].filter(Boolean).join('; ');
      if (step.settles) result.settles = step.settles;
      record(result);
    }
  } finally {
    for (const outcome of await cleanup.runAll()) {
      const name = `cleanup: ${outcome.what}`;
      record(outcome.error ? { name, status: 'FAIL', ms: outcome.ms, error: outcome.error } : { name, status: 'PASS', ms: outcome.ms });
    }
  }
  return {
    target: options.target,
    url: options.url,
    run_id: ctx.runId,
    steps: results,
    ok: results.every((result) => result.status !== 'FAIL'),
  };
}
