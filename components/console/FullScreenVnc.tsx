'use client';
import dynamic from 'next/dynamic';

const VncConsole = dynamic(() => import('./VncConsole').then((m) => m.VncConsole), { ssr: false });

export function FullScreenVnc({ namespace, name }: { namespace: string; name: string }) {
  return (
    <div className="flex flex-col gap-2">
      <h1 className="text-sm font-medium">{namespace}/{name} — VNC</h1>
      <VncConsole namespace={namespace} name={name} tall />
    </div>
  );
}
