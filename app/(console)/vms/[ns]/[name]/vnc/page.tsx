import { FullScreenVnc } from '@/components/console/FullScreenVnc';

export default async function VncPage({ params }: { params: Promise<{ ns: string; name: string }> }) {
  const { ns, name } = await params;
  return <FullScreenVnc namespace={decodeURIComponent(ns)} name={decodeURIComponent(name)} />;
}
