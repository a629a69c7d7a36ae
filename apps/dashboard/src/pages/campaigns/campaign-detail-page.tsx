import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useApi } from '../../api/api-context';
import { ApiError } from '../../api/client';
import { campaignDetailQuery, campaignKeys, cancelCampaign, type CampaignDetail } from '../../api/campaigns';
import { formatDateTime } from '../../components/format';
import { FactsTable } from '../../components/facts-table';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { RouterAnchor } from '../../components/router-anchor';
import { formatAmount } from '../messages/message-format';
import { CancelCampaignDialog } from './cancel-campaign-dialog';
import { canCancel } from './campaign-progress';
import { CampaignCounters, CampaignProgressBar } from './campaign-progress-bar';
import { CampaignStatusBadge } from './campaign-status-badge';

const when = (iso: string | null) => (iso ? formatDateTime(iso) : '—');

function facts(campaign: CampaignDetail): [string, ReactNode][] {
  return [
    [
      'Campaign ID',
      <Text key="id" ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
        {campaign.campaign_id}
      </Text>,
    ],
    ['Reference', campaign.reference ?? '—'],
    ['From', campaign.sender],
    ['Text', campaign.message ?? 'Each recipient had its own'],
    ['Recipients', `${campaign.successful} accepted of ${campaign.total_recipients}${campaign.failed > 0 ? `, ${campaign.failed} invalid` : ''}`],
    ['Cost', formatAmount(campaign.total_cost)],
    ['Refunded', formatAmount(campaign.refunded)],
    ['Batches', `${campaign.batches} of up to ${campaign.batch_size}, ${campaign.delay_between_batches} s apart`],
    ['Route, priority', `${campaign.route}, ${campaign.priority}`],
    ['Created', when(campaign.created_at)],
    ['Scheduled for', when(campaign.scheduled_time)],
    ['Completed', when(campaign.completed_at)],
    ['Cancelled', when(campaign.cancelled_at)],
  ];
}

export function CampaignDetailPage({ campaignId }: { campaignId: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const campaign = useQuery(campaignDetailQuery(api, campaignId));
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: () => cancelCampaign(api, campaignId),
    onSuccess: (cancelled) => {
      setConfirming(false);
      notifications.show({
        color: 'green',
        title: 'Campaign cancelled',
        message: `${cancelled.cancelled_recipients} recipients in ${cancelled.cancelled_batches} batch(es) cancelled, ${formatAmount(cancelled.refunded)} refunded.`,
      });
      void queryClient.invalidateQueries({ queryKey: campaignKeys.all });
    },
  });
  const back = (
    <RouterAnchor to="/campaigns" size="sm">
      ← All campaigns
    </RouterAnchor>
  );
  if (campaign.isPending) return <LoadingState label="Loading the campaign…" />;
  if (campaign.isError) {
    if (campaign.error instanceof ApiError && campaign.error.status === 404) {
      return <EmptyState title="Campaign not found" description="No campaign of your company has this ID." action={back} />;
    }
    return <ErrorState title="The campaign could not be loaded" error={campaign.error} onRetry={() => void campaign.refetch()} />;
  }
  const detail = campaign.data;
  return (
    <Stack gap="lg">
      <div>
        {back}
        <Group justify="space-between" align="flex-end" mt="xs">
          <Group gap="sm">
            <Title order={1} size="h2" style={{ wordBreak: 'break-word' }}>
              {detail.reference ?? 'Campaign'}
            </Title>
            <CampaignStatusBadge status={detail.status} />
          </Group>
          {canCancel(detail) && (
            <Button color="red" variant="outline" onClick={() => (cancel.reset(), setConfirming(true))}>
              Cancel
            </Button>
          )}
        </Group>
      </div>
      <Card withBorder padding="md">
        <Stack gap="sm">
          <CampaignProgressBar campaign={detail} />
          <CampaignCounters campaign={detail} />
          <RouterAnchor to="/messages" search={{ campaign: detail.campaign_id }} size="sm">
            View its messages
          </RouterAnchor>
        </Stack>
      </Card>
      <section aria-labelledby="campaign-facts">
        <Title order={2} size="h4" id="campaign-facts" mb="xs">
          Details
        </Title>
        <FactsTable rows={facts(detail)} />
      </section>
      <section aria-labelledby="campaign-batches">
        <Title order={2} size="h4" id="campaign-batches" mb="xs">
          Batches
        </Title>
        <Stack gap="xs">
          {detail.batch_details.map((batch) => (
            <Text key={batch.batch_id} size="sm">
              Batch {batch.position}: {batch.recipients} {batch.recipients === 1 ? 'recipient' : 'recipients'}, <strong>{batch.status}</strong>,{' '}
              {batch.dispatched_at ? `sent ${when(batch.dispatched_at)}` : `due ${when(batch.scheduled_time)}`}
            </Text>
          ))}
        </Stack>
      </section>
      <CancelCampaignDialog
        opened={confirming}
        pending={cancel.isPending}
        error={cancel.isError ? cancel.error.message : undefined}
        onConfirm={() => cancel.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
