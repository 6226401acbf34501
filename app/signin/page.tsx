import { SignInForm } from '@/components/shell/SignInForm';

export const dynamic = 'force-dynamic';

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <SignInForm initialError={error === 'invalid' ? 'That sign-in link has a token the API server does not accept.' : undefined} />
    </main>
  );
}
