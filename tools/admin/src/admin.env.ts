import { CredentialEnv } from '@mp/config';

/** The admin tool reads the same variables, with the same defaults, as the apps it manages. */
export class AdminEnv extends CredentialEnv {}
