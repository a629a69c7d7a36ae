/** The command line itself is wrong: unknown command, missing or malformed option. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
