import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = { scheduled: 'gray', queued: 'gray', processing: 'blue', completed: 'green', cancelled: 'gray' };

export function CampaignStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="light" tt="none">
      {status}
    </Badge>
  );
}
