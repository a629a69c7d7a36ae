import { ApiProperty } from '@nestjs/swagger';
import { Integer, Nested, NullableText, OneOf, Text, Timestamp } from '../../openapi/schema-properties';

// The operators' carrier list (docs/dashboard-api.json): `admin carrier:list` over HTTP.

const NullableRate = (description: string) => ApiProperty({ type: 'number', nullable: true, minimum: 0, maximum: 1, description });

export class CarrierBindStateDto {
  @Integer({ minimum: 1, description: 'Its number within the carrier on its dispatcher' }) bind: number;
  @Text({ example: 'gw-1:4242', description: 'The sms-dispatcher process holding it (host:pid)' }) dispatcher: string;
  @OneOf(['idle', 'connecting', 'bound', 'closing', 'closed']) state: string;
  @Timestamp('Since when it has been in this state') since: string;
}

export class CarrierHealthDto {
  @Integer({ example: 300, description: 'The window the counts cover, in seconds (the last five minutes)' }) window_seconds: number;
  @Integer({ minimum: 1, description: 'The live sms-dispatchers that reported the carrier; their counts are summed' }) dispatchers: number;
  @Integer({ minimum: 0, description: 'submit_sm answered (or timed out) in the window' }) submits: number;
  @ApiProperty({ type: 'number', minimum: 0, example: 12.5, description: 'submits over the window, per second' }) submits_per_second: number;
  @NullableRate('Of submits, answered ESME_RTHROTTLED or ESME_RMSGQFUL; null with no submit') throttled_rate: number | null;
  @NullableRate('Of submits, answered with another error or not answered; null with no submit') error_rate: number | null;
  @Integer({ minimum: 0, description: 'Final delivery receipts in the window' }) receipts: number;
  @NullableRate('DELIVRD of the final receipts; null with none') delivered_share: number | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 0,
    description: 'Mean time from submit_sm_resp to the final receipt, over the receipts a dispatcher could time (of its last 20,000 submits); null when none',
  })
  mean_receipt_latency_ms: number | null;
  @ApiProperty({ type: Boolean, description: 'At least one dispatcher judges it degraded (its delivered share collapsed): they give it probe traffic only' })
  degraded: boolean;
  @Integer({ minimum: 0, description: 'How many of the dispatchers judge it degraded' }) degraded_by: number;
  @ApiProperty({
    type: [String],
    example: ['delivering'],
    description: "The dispatchers' reasons, each once: delivered_share_collapsed, not_recovered, delivered_share_recovered, delivering, too_few_receipts",
  })
  reasons: string[];
}

export class OperatorCarrierDto {
  @Text({ example: 'acme-uk' }) name: string;
  @Text({ example: 'smpp.acme.example' }) host: string;
  @Integer({ minimum: 1, maximum: 65535 }) port: number;
  @Text() system_id: string;
  @NullableText() system_type: string | null;
  @ApiProperty({ type: Boolean }) tls: boolean;
  @ApiProperty({ type: Boolean, description: 'A disabled carrier has no binds and its routes are skipped' }) enabled: boolean;
  @Integer({ minimum: 1, description: 'Binds configured per dispatcher' }) binds: number;
  @Integer({ minimum: 0, description: 'Binds the live dispatchers report bound, all together' }) bound: number;
  @Nested([CarrierBindStateDto], { description: 'Every bind of the carrier the live sms-dispatchers report' }) bind_states: CarrierBindStateDto[];
  @ApiProperty({ type: CarrierHealthDto, nullable: true, description: 'Its health over the last five minutes; null while no live dispatcher reports it' })
  health: CarrierHealthDto | null;
}

export class OperatorCarrierListDto {
  @Nested([OperatorCarrierDto], { description: 'Every carrier, by name' }) items: OperatorCarrierDto[];
  @Timestamp('When the binds and health were read') read_at: string;
}
