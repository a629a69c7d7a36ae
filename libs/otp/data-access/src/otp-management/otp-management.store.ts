import type { KeysetPage } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import { verificationStats, type VerificationStats, type VerificationStatsFilter } from './otp-analytics';
import { listOtpAttemptEntries, type OtpAttemptEntry, type OtpAttemptFilter } from './otp-attempt-entries';
import { listBlockedRecipients, type BlockedRecipient } from './otp-blocked-recipients';
import { listOtpBlocks, type OtpBlockEntry, type OtpBlockFilter } from './otp-blocks';
import { listOtpLogEntries, type OtpLogEntry, type OtpLogFilter } from './otp-log-entries';
import { findOtpRecord, listOtpRecords, type OtpRecord, type OtpRecordFilter } from './otp-records';
import { otpReport, type OtpReport, type OtpReportFilter } from './otp-report';
import type { PageRequest, Paged } from './sql-where';

/** What the OTP management endpoints read, every query scoped to a company, for injection. */
export class OtpManagementStore {
  constructor(private readonly db: DataSource) {}

  record(companyId: string, verificationId: string, now: Date): Promise<OtpRecord | null> {
    return findOtpRecord(this.db, companyId, verificationId, now);
  }

  records(companyId: string, filter: OtpRecordFilter, page: PageRequest, now: Date): Promise<Paged<OtpRecord>> {
    return listOtpRecords(this.db, companyId, filter, page, now);
  }

  logEntries(companyId: string, filter: OtpLogFilter, page: PageRequest): Promise<Paged<OtpLogEntry>> {
    return listOtpLogEntries(this.db, companyId, filter, page);
  }

  attemptEntries(companyId: string, filter: OtpAttemptFilter, page: PageRequest): Promise<Paged<OtpAttemptEntry>> {
    return listOtpAttemptEntries(this.db, companyId, filter, page);
  }

  blockedRecipients(companyId: string, now: Date): Promise<BlockedRecipient[]> {
    return listBlockedRecipients(this.db, companyId, now);
  }

  report(companyId: string, filter: OtpReportFilter, now: Date): Promise<OtpReport> {
    return otpReport(this.db, companyId, filter, now);
  }

  /** The console's verification charts: counts, conversion and time to verify per day, channel and country. */
  verificationStats(companyId: string, filter: VerificationStatsFilter): Promise<VerificationStats> {
    return verificationStats(this.db, companyId, filter);
  }

  /** The console's list of 3-failure blocks, newest first, keyset-paginated. */
  blocks(companyId: string, filter: OtpBlockFilter, page: { limit: number; cursor: string | null }, now: Date): Promise<KeysetPage<OtpBlockEntry>> {
    return listOtpBlocks(this.db, companyId, filter, page, now);
  }
}
