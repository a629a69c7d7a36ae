import { Text, Timeline } from '@mantine/core';
import type { MessageEvent } from '../../api/messages';
import { eventLabel, formatToTheSecond } from './message-format';

const DETAIL_LABELS: Record<string, string> = {
  carrier_message_id: 'carrier id',
  receipt_stat: 'receipt',
  error_code: 'error',
  error_reason: 'reason',
  scheduled_for: 'for',
  amount: 'amount',
  campaign_id: 'campaign',
};

function details(event: MessageEvent): string {
  return Object.entries(event.details)
    .map(([name, value]) => `${DETAIL_LABELS[name] ?? name} ${value}`)
    .join(' · ');
}

/** What happened to a message, oldest first, each step with its time to the second. */
export function MessageHistory({ events }: { events: readonly MessageEvent[] }) {
  return (
    <Timeline active={events.length - 1} bulletSize={14} lineWidth={2}>
      {events.map((event, index) => (
        <Timeline.Item key={`${event.at}-${event.event}-${event.part ?? 'm'}-${index}`} title={eventLabel(event.event, event.part)}>
          <Text size="sm">
            <time dateTime={event.at} title={event.at}>
              {formatToTheSecond(event.at)}
            </time>
          </Text>
          {Object.keys(event.details).length > 0 && (
            <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
              {details(event)}
            </Text>
          )}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
