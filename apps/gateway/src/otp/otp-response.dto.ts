import { ApiProperty } from '@nestjs/swagger';
import { Money, OneOf, SuccessStatus, Text, Timestamp, Uuid } from '../openapi/schema-properties';

// What POST /otp/send, /otp/resend and /otp/verify answer (otp.service.ts): flat, as 2.1.

export class OtpSentResponseDto {
  @SuccessStatus() status: 'success';
  @Text({ example: 'OTP sent' }) message: string;
  @Uuid('The OTP; send it with the code to POST /otp/verify') verification_id: string;
  @Text({ example: '+447911123456', description: 'The number in E.164' }) recipient: string;
  @OneOf(['sms', 'whatsapp']) channel: string;
  @Timestamp('The code is valid until then') expires_at: string;
  @Money('Charged for this send') cost: number;
  @Money('Balance after the charge') balance: number;
}

export class OtpVerifiedResponseDto {
  @SuccessStatus() status: 'success';
  @Text({ example: 'OTP verified' }) message: string;
  @Uuid() verification_id: string;
  @Text() recipient: string;
  @ApiProperty({ type: Boolean, enum: [true] }) verified: true;
  @Timestamp() verified_at: string;
}
