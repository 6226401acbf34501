/** Durations of consecutive steps (ms), for the one log line that says where a start spent its time. */
export class StepTimer {
  readonly laps: Record<string, number> = {};
  private last = performance.now();

  lap(name: string): void {
    const now = performance.now();
    this.laps[name] = Math.round(now - this.last);
    this.last = now;
  }
}
