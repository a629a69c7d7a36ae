// Where to go back to after signing in: a path of the console only, never another site
// (`//evil.example`, `https://…`) nor the sign-in page itself.

export function safeRedirectTarget(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  if ([...value].some((char) => char < ' ' || char === '\\' || char === '\u007f')) return undefined;
  if (value === '/sign-in' || value.startsWith('/sign-in?') || value.startsWith('/invite/')) return undefined;
  return value;
}
