import { runWorkerApp } from '@mp/app-runtime';
import { WebhookNotifierApp } from './webhook-notifier.app';
import { WebhookNotifierEnv } from './webhook-notifier.env';

runWorkerApp(WebhookNotifierApp, WebhookNotifierEnv);
