import { runWorkerApp } from '@mp/app-runtime';
import { OtpApp } from './otp.app';
import { OtpEnv } from './otp.env';

runWorkerApp(OtpApp, OtpEnv);
