import { SignInForm } from '@/components/shell/SignInForm';

export const dynamic = 'force-dynamic';

const MESSAGES: Record<string, string> = {
  invalid: 'That sign-in link is for a token the API server no longer accepts.',
  link: 'This sign-in link has been used or has expired. Run `kv console login-link` for a new one.',
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <SignInForm initialError={error ? MESSAGES[error] : undefined} />
    </main>
  );
}
