/** The baseline's checkout: a detached git worktree of a commit in /tmp, this checkout's node_modules linked in. */
import { execFileSync } from 'node:child_process';
import { rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { log } from './log';

export interface Worktree {
  dir: string;
  sha: string;
  remove(): void;
}

export function createWorktree(repo: string, commit: string): Worktree {
  const sha = execFileSync('git', ['-C', repo, 'rev-parse', '--verify', `${commit}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `mailservice-baseline-${sha.slice(0, 7)}-${process.pid}`);
  log(`baseline: git worktree add --detach ${dir} ${sha.slice(0, 7)}`);
  execFileSync('git', ['-C', repo, 'worktree', 'add', '--detach', '--quiet', dir, sha], { stdio: ['ignore', 'ignore', 'inherit'] });
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  return {
    dir,
    sha,
    remove: () => {
      try {
        unlinkSync(join(dir, 'node_modules'));
      } catch {
        // already gone
      }
      try {
        execFileSync('git', ['-C', repo, 'worktree', 'remove', '--force', dir], { stdio: 'ignore' });
      } catch {
        rmSync(dir, { recursive: true, force: true });
        execFileSync('git', ['-C', repo, 'worktree', 'prune'], { stdio: 'ignore' });
      }
      log(`baseline: worktree ${dir} removed`);
    },
  };
}
