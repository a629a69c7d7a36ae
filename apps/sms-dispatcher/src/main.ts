import { runWorkerApp } from '@mp/app-runtime';
import { SmsDispatcherApp } from './sms-dispatcher.app';
import { SmsDispatcherEnv } from './sms-dispatcher.env';

runWorkerApp(SmsDispatcherApp, SmsDispatcherEnv);
