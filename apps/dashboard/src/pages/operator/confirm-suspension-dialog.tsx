import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { OperatorCompany } from '../../api/operator';

/** Asks before a company is suspended or restored, saying what it does to the company's keys and users. */
export function ConfirmSuspensionDialog({
  company,
  pending,
  error,
  onConfirm,
  onCancel,
}: {
  company: OperatorCompany | undefined;
  pending: boolean;
  error: string | undefined;
  onConfirm: (company: OperatorCompany) => void;
  onCancel: () => void;
}) {
  const suspending = company?.status === 'active';
  return (
    <Modal opened={company !== undefined} onClose={onCancel} title={suspending ? `Suspend ${company?.name}?` : `Unsuspend ${company?.name}?`}>
      {company && (
        <Stack gap="md">
          <Text size="sm">
            {suspending
              ? 'Its API keys are refused within seconds (403 "Company suspended") and its users can sign in and read, but change nothing. Messages already queued still go out. You can unsuspend it at any time.'
              : 'Its API keys work again within seconds and its users can make changes again.'}
          </Text>
          {error && (
            <Alert color="red" variant="light" role="alert" title={suspending ? 'Not suspended' : 'Not unsuspended'}>
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
            <Button color={suspending ? 'red' : 'blue'} loading={pending} onClick={() => onConfirm(company)}>
              {suspending ? 'Suspend' : 'Unsuspend'}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
