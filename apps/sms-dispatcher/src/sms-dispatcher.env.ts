import { WorkerEnv } from '@mp/app-runtime';

export class SmsDispatcherEnv extends WorkerEnv {
  override PORT: number = 3102;
}
