// The delivery log: one card per delivery (the same on a phone and a wide screen), its attempts
// shown under it on request, and Resend for one that is delivered or dead.
import { Badge, Button, Card, Group, List, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import type { WebhookAttempt, WebhookDelivery } from '../../api/webhooks';
import { formatDateTime } from '../../components/format';
import { attemptResponse, attemptSucceeded, canResend, lastResponse, STATUS_WORDS } from './webhook-rules';

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={iso}>
      {formatDateTime(iso)}
    </time>
  );
}

function AttemptLine({ attempt }: { attempt: WebhookAttempt }) {
  return (
    <List.Item>
      <Text size="sm" component="span" fw={600} c={attemptSucceeded(attempt) ? undefined : 'red.9'}>
        {attemptResponse(attempt)}
      </Text>
      <Text size="sm" component="span">
        {' '}
        · attempt {attempt.attempt}
        {attempt.resend ? ' (resend)' : ''} · <When iso={attempt.attempted_at} /> · {attempt.duration_ms} ms
      </Text>
      {attempt.status_code !== null && attempt.error && attempt.error !== `HTTP ${attempt.status_code}` && (
        <Text size="sm" c="dimmed" style={{ wordBreak: 'break-word' }}>
          {attempt.error}
        </Text>
      )}
    </List.Item>
  );
}

function DeliveryCard({ delivery, resending, onResend }: { delivery: WebhookDelivery; resending: boolean; onResend: (delivery: WebhookDelivery) => void }) {
  const [open, setOpen] = useState(false);
  const attemptsId = useId();
  const status = STATUS_WORDS[delivery.status];
  return (
    <Card withBorder padding="sm" component="article" aria-label={`${delivery.event_type} webhook, ${status.label}`}>
      <Group justify="space-between" gap="xs" align="flex-start">
        <Text fw={600} ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
          {delivery.event_type}
        </Text>
        <Badge color={status.color} variant="light" tt="none">
          {status.label}
        </Badge>
      </Group>
      <Text size="sm" mt={4}>
        <When iso={delivery.created_at} /> · {delivery.attempt_count} {delivery.attempt_count === 1 ? 'attempt' : 'attempts'} · {lastResponse(delivery)}
      </Text>
      <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
        {delivery.url}
      </Text>
      {delivery.status === 'pending' && delivery.next_attempt_at && (
        <Text size="sm" c="dimmed">
          Next attempt <When iso={delivery.next_attempt_at} />
        </Text>
      )}
      <Group gap="sm" mt="xs">
        <Button variant="subtle" size="compact-sm" aria-expanded={open} aria-controls={attemptsId} onClick={() => setOpen((was) => !was)}>
          {open ? 'Hide attempts' : 'Show attempts'}
        </Button>
        {canResend(delivery) && (
          <Button
            variant="light"
            size="compact-sm"
            loading={resending}
            onClick={() => onResend(delivery)}
            aria-label={`Resend ${delivery.event_type} webhook of ${formatDateTime(delivery.created_at)}`}
          >
            Resend
          </Button>
        )}
      </Group>
      <div id={attemptsId}>
        {open &&
          (delivery.attempts.length === 0 ? (
            <Text size="sm" mt="xs">
              No attempt yet.
            </Text>
          ) : (
            <List type="ordered" listStyleType="none" spacing={4} mt="xs" aria-label={`Attempts of the ${delivery.event_type} webhook`}>
              {delivery.attempts.map((attempt) => (
                <AttemptLine key={attempt.attempt} attempt={attempt} />
              ))}
            </List>
          ))}
      </div>
    </Card>
  );
}

export function DeliveryList({
  deliveries,
  resendingId,
  onResend,
}: {
  deliveries: readonly WebhookDelivery[];
  resendingId: string | undefined;
  onResend: (delivery: WebhookDelivery) => void;
}) {
  return (
    <Stack gap="sm">
      {deliveries.map((delivery) => (
        <DeliveryCard key={delivery.id} delivery={delivery} resending={resendingId === delivery.id} onResend={onResend} />
      ))}
    </Stack>
  );
}
