import { Group, Progress, Text } from '@mantine/core';
import { RECIPIENT_STATES, type Campaign } from '../../api/campaigns';
import { COUNTER_LABELS, progressSegments, progressText } from './campaign-progress';

/** The bar, one section per state, each named for screen readers; the share done beside it. */
export function CampaignProgressBar({ campaign }: { campaign: Pick<Campaign, 'status' | 'progress' | 'summary'> }) {
  const segments = progressSegments(campaign.summary, campaign.progress.total);
  return (
    <div>
      <Group justify="space-between" gap="xs" mb={4}>
        <Text size="sm" fw={500}>
          {progressText(campaign)}
        </Text>
        <Text size="xs" c="dimmed">
          {campaign.progress.total} recipients
        </Text>
      </Group>
      <Progress.Root size="lg" aria-hidden={segments.length === 0 ? true : undefined}>
        {segments.map((segment) => (
          <Progress.Section
            key={segment.state}
            value={segment.percent}
            color={segment.color}
            aria-label={`${segment.label}: ${segment.count} of ${campaign.progress.total}`}
            title={`${segment.label}: ${segment.count}`}
          />
        ))}
      </Progress.Root>
    </div>
  );
}

/** Every counter, in the order a recipient goes through them. */
export function CampaignCounters({ campaign }: { campaign: Pick<Campaign, 'summary'> }) {
  return (
    <Group gap="md" wrap="wrap">
      {RECIPIENT_STATES.map((state) => (
        <Text key={state} size="sm">
          {COUNTER_LABELS[state]}{' '}
          <Text span fw={600}>
            {campaign.summary[state]}
          </Text>
        </Text>
      ))}
    </Group>
  );
}
