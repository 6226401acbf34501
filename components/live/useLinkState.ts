'use client';
import { useEffect, useState } from 'react';
import { watchClient, type LinkState } from './watch-client';

/** The live-data socket's state, for the header's indicator. */
export function useLinkState(): LinkState {
  const [s, setS] = useState<LinkState>('connecting');
  useEffect(() => watchClient().onState(setS), []);
  return s;
}
