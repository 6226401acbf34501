import type { ReactNode } from 'react';
import './globals.css';

export const metadata = { title: 'kubevirt-ts', description: 'Virtual machines on Kubernetes' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-white text-slate-900 dark:bg-slate-950 dark:text-slate-100">{children}</body>
    </html>
  );
}
