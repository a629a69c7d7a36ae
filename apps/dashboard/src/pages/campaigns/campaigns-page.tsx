import { Card, Group, Pagination, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { campaignsQuery, type Campaign } from '../../api/campaigns';
import { formatDateTime } from '../../components/format';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { RouterAnchor } from '../../components/router-anchor';
import { formatAmount } from '../messages/message-format';
import { CampaignCounters, CampaignProgressBar } from './campaign-progress-bar';
import { CampaignStatusBadge } from './campaign-status-badge';

function CampaignCard({ campaign }: { campaign: Campaign }) {
  const name = campaign.reference ?? `Campaign of ${formatDateTime(campaign.created_at)}`;
  return (
    <Card withBorder padding="md" component="article" aria-label={name}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div style={{ minWidth: 0 }}>
            <RouterAnchor to="/campaigns/$campaignId" params={{ campaignId: campaign.campaign_id }} fw={600} style={{ wordBreak: 'break-word' }}>
              {name}
            </RouterAnchor>
            <Text size="xs" c="dimmed">
              Created{' '}
              <time dateTime={campaign.created_at} title={campaign.created_at}>
                {formatDateTime(campaign.created_at)}
              </time>{' '}
              · {campaign.batches} {campaign.batches === 1 ? 'batch' : 'batches'} · cost {formatAmount(campaign.total_cost)}
            </Text>
          </div>
          <CampaignStatusBadge status={campaign.status} />
        </Group>
        <CampaignProgressBar campaign={campaign} />
        <CampaignCounters campaign={campaign} />
      </Stack>
    </Card>
  );
}

export function CampaignsPage({ page, onPageChange }: { page: number; onPageChange: (page: number) => void }) {
  const api = useApi();
  const campaigns = useQuery({ ...campaignsQuery(api, page), placeholderData: keepPreviousData });
  const pages = campaigns.data ? Math.max(1, Math.ceil(campaigns.data.total / campaigns.data.limit)) : 1;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Campaigns
        </Title>
        <Text c="dimmed" size="sm">
          Bulk sends (POST /sms/send-bulk), newest first. Progress updates by itself while a campaign runs.
        </Text>
      </div>
      {campaigns.isPending ? (
        <LoadingState label="Loading campaigns…" />
      ) : campaigns.isError ? (
        <ErrorState title="The campaigns could not be loaded" error={campaigns.error} onRetry={() => void campaigns.refetch()} />
      ) : campaigns.data.items.length === 0 ? (
        <EmptyState
          title={page > 1 ? 'No campaigns on this page' : 'No campaigns yet'}
          description="Campaigns your software sends with POST /sms/send-bulk appear here, with their progress."
        />
      ) : (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
            {campaigns.data.items.map((campaign) => (
              <CampaignCard key={campaign.campaign_id} campaign={campaign} />
            ))}
          </SimpleGrid>
          {pages > 1 && (
            <Pagination
              total={pages}
              value={page}
              onChange={onPageChange}
              getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
              getControlProps={(control) => ({ 'aria-label': control === 'next' ? 'Next page' : control === 'previous' ? 'Previous page' : control })}
              style={{ alignSelf: 'center' }}
            />
          )}
        </Stack>
      )}
    </Stack>
  );
}
