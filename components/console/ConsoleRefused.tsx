import { EmptyState } from '@/components/ui/EmptyState';

/** Shown instead of an empty screen when the API server refuses the console to this sign-in. */
export function ConsoleRefused({ why }: { why: string }) {
  return (
    <EmptyState title="Your sign-in may not open this console">
      <p>{why}</p>
      <p className="mt-1">Consoles need the <code>virtualmachineinstances/vnc</code> and <code>/console</code> permissions in this namespace: ask an administrator, or sign in with another token.</p>
    </EmptyState>
  );
}
