/** A setting an operator tried to change is unknown or has a bad value; the message names it. */
export class SettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingError';
  }
}

/** Splits "key=value" arguments; the value may itself contain "=". */
export function parseAssignments(assignments: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const assignment of assignments) {
    const at = assignment.indexOf('=');
    if (at <= 0) throw new SettingError(`"${assignment}" is not key=value`);
    result[assignment.slice(0, at).trim()] = assignment.slice(at + 1).trim();
  }
  return result;
}

export function parseIntegerSetting(key: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text)) throw new SettingError(`${key} must be a whole number from ${min} to ${max}`);
  const value = Number(text);
  if (value < min || value > max) throw new SettingError(`${key} must be a whole number from ${min} to ${max}`);
  return value;
}
