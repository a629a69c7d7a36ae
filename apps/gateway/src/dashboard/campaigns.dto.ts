import { ApiProperty } from '@nestjs/swagger';
import { FailedNumberDto } from '../openapi/error-responses';
import { Integer, Nested, NullableText, NullableTimestamp, OneOf, Text } from '../openapi/schema-properties';
import { CampaignBatchDto, CampaignDto } from '../sms/campaign-response.dto';

// The campaigns' bodies in the dashboard API (campaigns.controller.ts): the public API's campaign
// views (GET /sms/campaigns) with what a progress bar needs (@mp/messaging's CampaignConsole).

export class CampaignProgressDto {
  @Integer({ minimum: 0, description: 'Recipients accepted: what the summary counters add up to' }) total: number;
  @ApiProperty({
    type: 'number',
    minimum: 0,
    maximum: 1,
    example: 0.4172,
    description: 'Share of the recipients in a state that no longer changes (delivered, failed, cancelled), 4 decimals; 1 when none was accepted',
  })
  done: number;
  @ApiProperty({ type: Boolean, description: 'Nothing can change any more: a page may stop polling' }) finished: boolean;
}

export class ConsoleCampaignDto extends CampaignDto {
  @Nested(CampaignProgressDto) progress: CampaignProgressDto;
}

export class ConsoleCampaignPageDto {
  @Nested([ConsoleCampaignDto], { description: 'Newest first' }) items: ConsoleCampaignDto[];
  @Integer({ minimum: 1, description: 'The page answered, from 1' }) page: number;
  @Integer({ minimum: 1, maximum: 100, description: 'Items per page' }) limit: number;
  @Integer({ minimum: 0, description: 'Campaigns matching, over all pages' }) total: number;
}

export class ConsoleCampaignDetailDto extends ConsoleCampaignDto {
  @Nested([CampaignBatchDto]) batch_details: CampaignBatchDto[];
  @Nested([FailedNumberDto]) failed_numbers: FailedNumberDto[];
  @Text({ example: 'Acme' }) sender: string;
  @NullableText({ description: 'The text of a one-text campaign; null when each recipient had its own' }) message: string | null;
  @OneOf(['auto', 'standard', 'premium']) route: string;
  @OneOf(['normal', 'high']) priority: string;
  @Integer({ minimum: 1 }) batch_size: number;
  @Integer({ minimum: 0, description: 'Seconds between batches' }) delay_between_batches: number;
  @NullableTimestamp() scheduled_time: string | null;
  @NullableTimestamp() completed_at: string | null;
  @NullableTimestamp() cancelled_at: string | null;
}
