import { Badge } from '@mantine/core';
import { statusColor } from './message-format';

/** The status word itself (`delivered`, `failed`…), as the API and its webhooks name it. */
export function MessageStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={statusColor(status)} variant="light" tt="none" style={{ flexShrink: 0 }}>
      {status}
    </Badge>
  );
}
