import { WorkerEnv } from '@mp/app-runtime';

export class WebhookNotifierEnv extends WorkerEnv {
  override PORT: number = 3104;
}
