import { Suspense } from 'react';
import { VMDetail } from '@/components/vm/VMDetail';

export default async function VMPage({ params }: { params: Promise<{ ns: string; name: string }> }) {
  const { ns, name } = await params;
  return <Suspense><VMDetail namespace={decodeURIComponent(ns)} name={decodeURIComponent(name)} /></Suspense>;
}
