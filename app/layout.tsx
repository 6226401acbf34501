import type { ReactNode } from 'react';
import './globals.css';
import { THEME_SCRIPT } from '@/components/shell/ThemeToggle';

export const metadata = { title: 'kubevirt-ts', description: 'Virtual machines on Kubernetes' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">{children}</body>
    </html>
  );
}
