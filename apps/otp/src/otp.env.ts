import { WorkerEnv } from '@mp/app-runtime';

export class OtpEnv extends WorkerEnv {
  override PORT: number = 3101;
}
