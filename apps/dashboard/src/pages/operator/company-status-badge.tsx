import { Badge } from '@mantine/core';
import type { CompanyStatus } from '../../api/operator';

export function CompanyStatusBadge({ status }: { status: CompanyStatus }) {
  return (
    <Badge color={status === 'active' ? 'teal' : 'red'} variant="light">
      {status === 'active' ? 'Active' : 'Suspended'}
    </Badge>
  );
}
