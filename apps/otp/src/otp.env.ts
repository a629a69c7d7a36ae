import { WorkerEnv } from '@mp/app-runtime';
import { IsInt, Max, Min } from 'class-validator';

export class OtpEnv extends WorkerEnv {
  override PORT: number = 3101;

  /** How often pending OTPs past their expiry are marked expired. */
  @IsInt()
  @Min(100)
  @Max(600_000)
  OTP_EXPIRY_SWEEP_MS: number = 15_000;
}
