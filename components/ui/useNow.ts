'use client';
import { useEffect, useState } from 'react';

/** The current time, refreshed every `everyMs` (ages in tables; no server traffic). */
export function useNow(everyMs = 10_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
