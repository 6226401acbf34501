/** The sign-in link `kv up` prints (Jupyter style): the console exchanges the token for a session cookie. */
export function consoleLoginUrl(base: string, token: string): string {
  return `${base}/login?token=${encodeURIComponent(token)}`;
}
