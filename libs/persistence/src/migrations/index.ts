import { AccountsAndMoney1763773200000 } from './1763773200000-accounts-and-money';
import { Messages1763800000000 } from './1763800000000-messages';
import { CarrierReceipts1763800001000 } from './1763800001000-carrier-receipts';
import { WebhookDeliveries1763800002000 } from './1763800002000-webhook-deliveries';
import { ReconciliationIndexes1763900000000 } from './1763900000000-reconciliation-indexes';
import { Otps1764000000000 } from './1764000000000-otps';
import { OtpResend1764000001000 } from './1764000001000-otp-resend';
import { Campaigns1764100000000 } from './1764100000000-campaigns';
import { CampaignWebhooks1764100001000 } from './1764100001000-campaign-webhooks';
import { HotUpdates1764200000000 } from './1764200000000-hot-updates';
import { HotPathForeignKeys1764300000000 } from './1764300000000-hot-path-foreign-keys';
import { CancelledParts1764400260000 } from './1764400260000-cancelled-parts';
import { OtpFailures1764400500000 } from './1764400500000-otp-failures';
import { DashboardPeople1764500000000 } from './1764500000000-dashboard-people';
import { OtpCountry1764600000000 } from './1764600000000-otp-country';
import { ConsoleIndexes1764600001000 } from './1764600001000-console-indexes';
import { WebhookSecretRotation1764700002000 } from './1764700002000-webhook-secret-rotation';
import { CompanySuspension1764700001000 } from './1764700001000-company-suspension';

import { LowBalanceThreshold1764700003000 } from './1764700003000-low-balance-threshold';
import { CompanySenders1764800002000 } from './1764800002000-company-senders';
import { InboundMessages1764800003000 } from './1764800003000-inbound-messages';
import { OptOuts1764800004000 } from './1764800004000-opt-outs';
import { KeywordReplies1764800005000 } from './1764800005000-keyword-replies';
import { Carriers1764800006000 } from './1764800006000-carriers';
import { PartCarriers1764800008000 } from './1764800008000-part-carriers';
import { CarrierTlsCa1764800009000 } from './1764800009000-carrier-tls-ca';
/** Every migration, oldest first. A new migration is added here as well as in this folder. */
export const MIGRATIONS = [
  AccountsAndMoney1763773200000,
  Messages1763800000000,
  CarrierReceipts1763800001000,
  WebhookDeliveries1763800002000,
  ReconciliationIndexes1763900000000,
  Otps1764000000000,
  OtpResend1764000001000,
  Campaigns1764100000000,
  CampaignWebhooks1764100001000,
  HotUpdates1764200000000,
  HotPathForeignKeys1764300000000,
  CancelledParts1764400260000,
  OtpFailures1764400500000,
  DashboardPeople1764500000000,
  OtpCountry1764600000000,
  ConsoleIndexes1764600001000,
  CompanySuspension1764700001000,
  WebhookSecretRotation1764700002000,
  LowBalanceThreshold1764700003000,
  CompanySenders1764800002000,
  InboundMessages1764800003000,
  OptOuts1764800004000,
  KeywordReplies1764800005000,
  Carriers1764800006000,
  PartCarriers1764800008000,
  CarrierTlsCa1764800009000,
];
