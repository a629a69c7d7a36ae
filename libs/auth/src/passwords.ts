import { Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * Argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): a guess costs an
 * attacker who stole the database as much memory and time as it costs us to check a sign-in.
 * The parameters are written into each hash, so raising them later leaves older hashes valid.
 */
const ARGON2ID = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A password's PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) with a random salt. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

/** Whether the password is the one hashed; false, never an error, for a hash that is not argon2. */
export async function passwordMatches(password: string, passwordHash: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let decoy: Promise<string> | undefined;

/**
 * Checks the password against a hash of nothing: a sign-in with an unknown email costs the same
 * time as one with a known email and a wrong password, so timing does not tell which emails exist.
 */
export async function spendPasswordCheck(password: string): Promise<false> {
  decoy ??= hashPassword('decoy password of no account');
  await passwordMatches(password, await decoy);
  return false;
}
