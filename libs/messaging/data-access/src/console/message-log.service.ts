import type { KeysetPage } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import { findMessageDetail, type MessageDetail } from './message-detail';
import { apiMessageItem, type ApiMessageItem } from './message-list';
import { listMessageLog, queryMessageLog, type MessageLogItem, type MessageLogPage } from './message-log';
import { spendBy, type SpendGroup, type SpendSummary } from './message-spend';
import type { MessageLogFilter } from './message-log-filter';

/** The console's message log (listMessageLog) and message page (findMessageDetail), the API's list and spend, every read scoped to a company, for injection. */
export class MessageLog {
  constructor(private readonly db: DataSource) {}

  list(companyId: string, filter: MessageLogFilter, page: MessageLogPage): Promise<KeysetPage<MessageLogItem>> {
    return listMessageLog(this.db, companyId, filter, page);
  }

  /** GET /sms: OTP messages listed too, without their text. */
  listForApi(companyId: string, filter: MessageLogFilter, page: MessageLogPage): Promise<KeysetPage<ApiMessageItem>> {
    return queryMessageLog(this.db, companyId, { ...filter, includeOtps: true }, page, apiMessageItem);
  }

  spendBy(companyId: string, group: SpendGroup, range: { from: Date; before: Date }): Promise<SpendSummary> {
    return spendBy(this.db, companyId, group, range);
  }

  detail(companyId: string, messageId: string): Promise<MessageDetail | null> {
    return findMessageDetail(this.db, companyId, messageId);
  }
}
