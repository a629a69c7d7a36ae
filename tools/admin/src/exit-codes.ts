import { EmailTakenError, InvalidArgumentError, NotFoundError } from '@mp/accounts';
import { SettingError } from '@mp/accounts-domain';
import { ConfigError } from '@mp/config';
import { CarrierNotFoundError, RoutingInputError } from '@mp/routing';
import { UsageError } from './usage-error';

/** 1: the request was refused (bad value, unknown id); 2: the command line is wrong; 3: it failed. */
export function exitCodeFor(error: unknown): 1 | 2 | 3 {
  if (error instanceof UsageError) return 2;
  if (error instanceof InvalidArgumentError || error instanceof NotFoundError || error instanceof SettingError || error instanceof EmailTakenError) return 1;
  if (error instanceof RoutingInputError || error instanceof CarrierNotFoundError) return 1;
  if (error instanceof ConfigError) return 2;
  return 3;
}
