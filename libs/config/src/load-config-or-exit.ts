import { ConfigError, loadConfig } from './load-config';

/** For a process's main: the validated config, or a message naming each bad variable and exit 1. */
export function loadConfigOrExit<T extends object>(envClass: new () => T, appName: string): T {
  try {
    return loadConfig(envClass);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${appName}: refusing to start. ${error.message}\n`);
    process.exit(1);
  }
}
