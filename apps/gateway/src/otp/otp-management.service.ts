import { HttpStatus, Injectable } from '@nestjs/common';
import { ApplicationRepository } from '@mp/accounts';
import { moneyToJson } from '@mp/billing-domain';
import { ApiError, valueOrBadRequest } from '@mp/http-kit';
import { OtpManagementStore, type OtpAttemptEntry, type OtpLogEntry, type OtpRecord, type OtpReport, type Paged } from '@mp/otp';
import { parseOtpAttemptQuery, parseOtpListQuery, parseOtpLogQuery, parseOtpReportQuery, parseOtpStatusQuery } from './otp-management-query';
import { OtpRateLimiter } from './otp-rate-limiter.service';

/** The rolling window of OtpRateLimiter. */
const RATE_WINDOW_SECONDS = 60;

/**
 * GET /otp/status, /list, /logs, /attempts, /rate-limits and /reports: read-only, every query
 * scoped to the caller's company, never a code or its hash.
 */
@Injectable()
export class OtpManagementService {
  constructor(
    private readonly store: OtpManagementStore,
    private readonly applications: ApplicationRepository,
    private readonly limiter: OtpRateLimiter,
  ) {}

  async status(companyId: string, query: unknown) {
    const { verificationId } = valueOrBadRequest(parseOtpStatusQuery(query));
    return success('OTP status', recordJson(await this.otp(companyId, verificationId, new Date())));
  }

  async list(companyId: string, query: unknown) {
    const { appid, page, ...filter } = valueOrBadRequest(parseOtpListQuery(query));
    const applicationId = await this.applicationId(companyId, appid);
    const found = await this.store.records(companyId, { ...filter, applicationId }, page, new Date());
    return success('OTP list', pageJson(found, recordJson));
  }

  async logs(companyId: string, query: unknown) {
    const { verificationId, appid, page, ...filter } = valueOrBadRequest(parseOtpLogQuery(query));
    const scope = await this.scope(companyId, verificationId, appid);
    const found = await this.store.logEntries(companyId, { ...filter, ...scope }, page);
    return success('OTP logs', pageJson(found, logJson));
  }

  async attempts(companyId: string, query: unknown) {
    const { verificationId, appid, page, ...filter } = valueOrBadRequest(parseOtpAttemptQuery(query));
    const scope = await this.scope(companyId, verificationId, appid);
    const found = await this.store.attemptEntries(companyId, { ...filter, ...scope }, page);
    return success('OTP attempts', pageJson(found, attemptJson));
  }

  async rateLimits(companyId: string) {
    const [usage, blocked] = await Promise.all([this.limiter.usage(companyId), this.store.blockedRecipients(companyId, new Date())]);
    return success('OTP rate limits', {
      limit: usage.limit,
      used: usage.used,
      remaining: usage.remaining,
      reset_at: usage.resetAt?.toISOString() ?? null,
      window_seconds: RATE_WINDOW_SECONDS,
      blocked_recipients: blocked.map((entry) => ({ appid: entry.appid, recipient: entry.recipient, blocked_until: entry.blockedUntil.toISOString() })),
    });
  }

  async reports(companyId: string, query: unknown) {
    const now = new Date();
    const { appid, channel, from, before } = valueOrBadRequest(parseOtpReportQuery(query, now));
    const applicationId = await this.applicationId(companyId, appid);
    const report = await this.store.report(companyId, { from, before, applicationId, channel }, now);
    return success('OTP report', reportJson(report, from, before));
  }

  private async otp(companyId: string, verificationId: string, now: Date): Promise<OtpRecord> {
    const record = await this.store.record(companyId, verificationId, now);
    if (!record) throw new ApiError(HttpStatus.NOT_FOUND, 'OTP not found');
    return record;
  }

  /** The application's internal id; 404 for an appid that is not one of the company's. */
  private async applicationId(companyId: string, appid: string | null): Promise<string | null> {
    if (appid === null) return null;
    const application = await this.applications.findForCompany(companyId, appid);
    if (!application) throw new ApiError(HttpStatus.NOT_FOUND, 'Application not found');
    return application.id;
  }

  /** Checks the OTP and application filters name the company's own (404 otherwise). */
  private async scope(companyId: string, verificationId: string | null, appid: string | null) {
    if (verificationId !== null) await this.otp(companyId, verificationId, new Date());
    return { verificationId, applicationId: await this.applicationId(companyId, appid) };
  }
}

function success<T>(message: string, data: T) {
  return { status: 'success' as const, message, data };
}

function pageJson<T, J>(page: Paged<T>, toJson: (item: T) => J) {
  return { items: page.items.map(toJson), page: page.page, limit: page.limit, total: page.total };
}

function recordJson(record: OtpRecord) {
  return {
    verification_id: record.verificationId,
    appid: record.appid,
    recipient: record.recipient,
    channel: record.channel,
    status: record.status,
    sender: record.sender,
    lang: record.lang,
    expires_at: record.expiresAt.toISOString(),
    created_at: record.createdAt.toISOString(),
    last_sent_at: record.lastSentAt.toISOString(),
    resends: record.resends,
    verified_at: record.verifiedAt?.toISOString() ?? null,
    cost: moneyToJson(record.cost),
    failure_reason: record.failureReason,
    error_code: record.errorCode,
  };
}

function logJson(entry: OtpLogEntry) {
  return {
    id: entry.id,
    verification_id: entry.verificationId,
    appid: entry.appid,
    recipient: entry.recipient,
    event: entry.event,
    detail: entry.detail,
    created_at: entry.createdAt.toISOString(),
  };
}

function attemptJson(entry: OtpAttemptEntry) {
  return {
    id: entry.id,
    verification_id: entry.verificationId,
    appid: entry.appid,
    recipient: entry.recipient,
    outcome: entry.outcome,
    created_at: entry.createdAt.toISOString(),
  };
}

function reportJson(report: OtpReport, from: Date, before: Date) {
  return {
    from: from.toISOString(),
    to: new Date(before.getTime() - 1).toISOString(),
    rows: report.rows.map((row) => ({
      day: row.day,
      channel: row.channel,
      appid: row.appid,
      sent: row.sent,
      verified: row.verified,
      expired: row.expired,
      failed: row.failed,
      conversion_rate: row.conversionRate,
      cost: moneyToJson(row.cost),
    })),
    totals: {
      sent: report.totals.sent,
      verified: report.totals.verified,
      conversion_rate: report.totals.conversionRate,
      cost: moneyToJson(report.totals.cost),
    },
  };
}
