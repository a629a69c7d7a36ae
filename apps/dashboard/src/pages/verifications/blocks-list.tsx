// Recipients blocked after three wrong codes within 30 minutes, newest first, a page at a time.
import { Badge, Button, Code, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { otpBlocksQuery, type OtpBlock } from '../../api/verifications';
import { formatDateTime } from '../../components/format';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { ResponsiveTable, type Column } from '../../components/responsive-table';

const When = ({ iso }: { iso: string }) => (
  <time dateTime={iso} title={iso}>
    {formatDateTime(iso)}
  </time>
);

const COLUMNS: Column<OtpBlock>[] = [
  { header: 'Recipient', cell: (block) => block.recipient, inCardTitle: true },
  { header: 'Application', cell: (block) => <Code>{block.appid}</Code> },
  { header: 'Blocked at', cell: (block) => <When iso={block.blocked_at} /> },
  { header: 'Until', cell: (block) => <When iso={block.blocked_until} /> },
  {
    header: 'Status',
    cell: (block) => (
      <Badge color={block.active ? 'red' : 'gray'} variant="light">
        {block.active ? 'Blocked' : 'Ended'}
      </Badge>
    ),
  },
];

export function BlocksList() {
  const api = useApi();
  const blocks = useInfiniteQuery(otpBlocksQuery(api));
  const items = blocks.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby="blocks-title">
      <Title order={2} size="h4" id="blocks-title">
        Blocked recipients
      </Title>
      <Text c="dimmed" size="sm" mb="xs">
        After three wrong codes within 30 minutes, a recipient cannot verify or be sent a code for 30 minutes.
      </Text>
      {blocks.isPending ? (
        <LoadingState label="Loading blocks…" />
      ) : !blocks.data ? (
        <ErrorState title="The blocks could not be loaded" error={blocks.error} onRetry={() => void blocks.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title="No recipient has been blocked" description="Recipients who enter three wrong codes are listed here." />
      ) : (
        <Stack gap="sm">
          <ResponsiveTable
            caption="Recipients blocked after three wrong codes, newest first"
            columns={COLUMNS}
            rows={items}
            rowKey={(block) => `${block.blocked_at}-${block.recipient}-${block.appid}`}
            cardTitle={(block) => block.recipient}
          />
          {blocks.hasNextPage && (
            <Button variant="default" onClick={() => void blocks.fetchNextPage()} loading={blocks.isFetchingNextPage} style={{ alignSelf: 'center' }}>
              Load more
            </Button>
          )}
          {blocks.isFetchNextPageError && (
            <ErrorState title="More blocks could not be loaded" error={blocks.error} onRetry={() => void blocks.fetchNextPage()} />
          )}
        </Stack>
      )}
    </section>
  );
}
