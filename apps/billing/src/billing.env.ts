import { WorkerEnv } from '@mp/app-runtime';

export class BillingEnv extends WorkerEnv {
  override PORT: number = 3103;
}
