export default function Home() {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-semibold">kubevirt-ts</h1>
      <p className="mt-2 text-slate-500">The console is being built.</p>
    </main>
  );
}
