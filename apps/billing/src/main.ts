import { runWorkerApp } from '@mp/app-runtime';
import { BillingApp } from './billing.app';
import { BillingEnv } from './billing.env';

runWorkerApp(BillingApp, BillingEnv);
