import type { KeysetPage } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import { findMessageDetail, type MessageDetail } from './message-detail';
import { listMessageLog, type MessageLogItem, type MessageLogPage } from './message-log';
import type { MessageLogFilter } from './message-log-filter';

/** The console's message log (listMessageLog) and message page (findMessageDetail), every read scoped to a company, for injection. */
export class MessageLog {
  constructor(private readonly db: DataSource) {}

  list(companyId: string, filter: MessageLogFilter, page: MessageLogPage): Promise<KeysetPage<MessageLogItem>> {
    return listMessageLog(this.db, companyId, filter, page);
  }

  detail(companyId: string, messageId: string): Promise<MessageDetail | null> {
    return findMessageDetail(this.db, companyId, messageId);
  }
}
