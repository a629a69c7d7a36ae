import { AccountsAndMoney1763773200000 } from './1763773200000-accounts-and-money';

/** Every migration, oldest first. A new migration is added here as well as in this folder. */
export const MIGRATIONS = [AccountsAndMoney1763773200000];
