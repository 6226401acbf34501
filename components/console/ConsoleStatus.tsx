import { describeConsoleState, type ConsoleState } from '@/lib/console/console-connection';
import { Button } from '@/components/ui/Button';

/** The console's connection state, always visible; offers to take the console (back) when another session has it. */
export function ConsoleStatus({ state, onTakeOver }: { state: ConsoleState; onTakeOver: () => void }) {
  const tone = state.kind === 'connected' ? 'text-emerald-700 dark:text-emerald-400' : state.kind === 'reconnecting' || state.kind === 'connecting' ? 'text-amber-700 dark:text-amber-400' : 'text-red-600 dark:text-red-400';
  return (
    <div className="flex items-center gap-2 text-sm" data-testid="console-state" data-state={state.kind}>
      <span className={tone}>● {describeConsoleState(state)}</span>
      {(state.kind === 'taken-over' || state.kind === 'busy') && <Button onClick={onTakeOver} className="!py-0.5">{state.kind === 'taken-over' ? 'Take it back' : 'Take over'}</Button>}
      {state.kind === 'reconnecting' && <Button onClick={onTakeOver} variant="ghost" className="!py-0.5">Retry now</Button>}
    </div>
  );
}
