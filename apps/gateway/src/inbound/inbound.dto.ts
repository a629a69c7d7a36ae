import { ApiProperty } from '@nestjs/swagger';
import { Integer, Nested, SuccessEnvelopeDto, Text, Timestamp, Uuid } from '../openapi/schema-properties';

/** A message a handset sent to one of the company's numbers (GET /sms/inbound, message.received). */
export class InboundMessageDto {
  @Uuid() id: string;
  @Text({ example: '+447700900555', description: 'The handset that sent it, in E.164' }) from: string;
  @Text({ example: '+447400900123', description: "The company's number it was sent to" }) to: string;
  @Text({ example: 'STOP', description: 'The whole text, its parts joined' }) text: string;
  @Integer({ minimum: 1, description: 'The SMS parts it came in' }) parts: number;
  @Text({ example: 'default', description: 'The SMSC (route) it came from' }) carrier: string;
  @Timestamp('When the platform stored it (its last part, for a message of several)') received_at: string;
}

export class InboundPageDto {
  @Nested([InboundMessageDto], { description: 'Newest first (by time received, then id)' }) items: InboundMessageDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` with the same filters for the next (older) page; null on the last' })
  next_cursor: string | null;
}

export class InboundListResponseDto extends SuccessEnvelopeDto {
  @Nested(InboundPageDto) data: InboundPageDto;
}

export class InboundMessageResponseDto extends SuccessEnvelopeDto {
  @Nested(InboundMessageDto) data: InboundMessageDto;
}
