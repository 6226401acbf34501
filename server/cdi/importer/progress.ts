/** The importer's progress, as a file in its pod dir the DataVolume controller reads ("45.12%"). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PROGRESS_FILE = 'progress';

export class ProgressFile {
  private last = -1;
  private lastAt = 0;

  constructor(private readonly podDir: string) {}

  /** at most a few writes a second; always the final 100% */
  report(done: number, total: number | undefined): void {
    const pct = total && total > 0 ? Math.min(100, (done / total) * 100) : undefined;
    const now = Date.now();
    if (pct === undefined || (pct < 100 && (now - this.lastAt < 250 || pct === this.last))) return;
    this.last = pct;
    this.lastAt = now;
    this.write(`${pct.toFixed(2)}%`);
  }

  write(text: string): void {
    try {
      writeFileSync(join(this.podDir, PROGRESS_FILE), text);
    } catch {
      // the pod dir is going away; progress no longer matters
    }
  }
}
