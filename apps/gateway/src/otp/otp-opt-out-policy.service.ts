import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiError } from '@mp/http-kit';
import { OptOutStore, SuppressionCheck } from '@mp/messaging';
import { RECIPIENT_OPTED_OUT } from '@mp/messaging-domain';

/**
 * OTPs follow the company's suppression list by default: an SMS OTP to a number that opted out of
 * its sender (or of all the company's numbers) is refused. A company that sets
 * `otp_ignores_opt_outs` sends them anyway: a compliance choice that is its own. The setting is
 * read only for a number on the list, so the usual send pays for the grouped list check alone.
 */
@Injectable()
export class OtpOptOutPolicy {
  constructor(
    private readonly suppression: SuppressionCheck,
    private readonly optOuts: OptOutStore,
  ) {}

  async admit(companyId: string, channel: string, sender: string, recipient: string): Promise<void> {
    if (channel !== 'sms') return;
    const optedOut = await this.suppression.suppressed(companyId, sender, [recipient]);
    if (optedOut.size === 0 || (await this.optOuts.otpIgnoresOptOuts(companyId))) return;
    throw new ApiError(HttpStatus.FORBIDDEN, RECIPIENT_OPTED_OUT);
  }
}
