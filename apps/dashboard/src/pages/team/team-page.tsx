import { Badge, Button, Card, Group, Modal, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { dashboardApi, membersQuery, queryKeys } from '../../api/queries';
import type { Member, PendingInvitation, User } from '../../api/types';
import { formatDateTime } from '../../components/format';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { InviteMemberForm } from './invite-member-form';

const ROLE_LABELS = { owner: 'Owner', developer: 'Developer', operator: 'Operator' } as const;

export function TeamPage({ user }: { user: User }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const members = useQuery(membersQuery(api));
  const [removing, setRemoving] = useState<Member>();
  const isOwner = user.role === 'owner';
  const remove = useMutation({
    mutationFn: (member: Member) => dashboardApi.removeMember(api, member.id),
    onSuccess: (_answer, member) => {
      setRemoving(undefined);
      notifications.show({ color: 'green', title: 'Member removed', message: `${member.email} can no longer sign in to this company.` });
      void queryClient.invalidateQueries({ queryKey: queryKeys.members });
    },
  });

  const cancel = useMutation({
    mutationFn: (invitation: PendingInvitation) => dashboardApi.cancelInvitation(api, invitation.id),
    onSuccess: (_answer, invitation) => {
      notifications.show({ color: 'green', title: 'Invitation cancelled', message: `The link sent to ${invitation.email} no longer works.` });
      void queryClient.invalidateQueries({ queryKey: queryKeys.members });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'The invitation could not be cancelled', message: error.message }),
  });

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Team
        </Title>
        <Text c="dimmed" size="sm">
          {isOwner
            ? 'The people who use this console for your company. Invite a member with a one-time link.'
            : 'The people who use this console for your company. Only owners invite or remove members.'}
        </Text>
      </div>
      {isOwner && (
        <Card withBorder padding="md">
          <Title order={2} size="h4" mb="sm">
            Invite a member
          </Title>
          <InviteMemberForm />
        </Card>
      )}
      {members.isPending ? (
        <LoadingState label="Loading members…" />
      ) : members.isError ? (
        <ErrorState title="The members could not be loaded" error={members.error} onRetry={() => void members.refetch()} />
      ) : (
        <>
          <Title order={2} size="h4">
            Members
          </Title>
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Email</Table.Th>
                <Table.Th scope="col">Role</Table.Th>
                <Table.Th scope="col">Member since</Table.Th>
                {isOwner && (
                  <Table.Th scope="col">
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.data.items.map((member) => (
                <Table.Tr key={member.id}>
                  <Table.Td id={`member-${member.id}`} style={{ overflowWrap: 'anywhere' }}>
                    {member.email}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={member.role === 'owner' ? 'blue' : 'gray'}>
                      {ROLE_LABELS[member.role]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatDateTime(member.created_at)}</Table.Td>
                  {isOwner && (
                    <Table.Td ta="right">
                      {member.id !== user.id && (
                        <Button
                          size="xs"
                          variant="outline"
                          color="red"
                          aria-describedby={`member-${member.id}`}
                          onClick={() => (remove.reset(), setRemoving(member))}
                        >
                          Remove
                        </Button>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Title order={2} size="h4">
            Pending invitations
          </Title>
          {members.data.invitations.length === 0 ? (
            <EmptyState
              title="No pending invitations"
              description={isOwner ? 'Invitations you make are listed here until they are used or expire.' : 'None right now.'}
            />
          ) : (
            <Stack gap="xs">
              {members.data.invitations.map((invitation) => (
                <Group key={invitation.id} justify="space-between" wrap="wrap">
                  <Text size="sm" id={`invitation-${invitation.id}`} style={{ overflowWrap: 'anywhere' }}>
                    {invitation.email} · {ROLE_LABELS[invitation.role]}
                  </Text>
                  <Group gap="sm">
                    <Text size="sm" c="dimmed">
                      expires {formatDateTime(invitation.expires_at)}
                    </Text>
                    {isOwner && (
                      <Button
                        size="xs"
                        variant="outline"
                        color="red"
                        aria-describedby={`invitation-${invitation.id}`}
                        loading={cancel.isPending && cancel.variables?.id === invitation.id}
                        onClick={() => cancel.mutate(invitation)}
                      >
                        Cancel invitation
                      </Button>
                    )}
                  </Group>
                </Group>
              ))}
            </Stack>
          )}
        </>
      )}
      <Modal opened={removing !== undefined} onClose={() => setRemoving(undefined)} title="Remove this member?">
        {removing && (
          <Stack gap="md">
            <Text size="sm">{removing.email} will be signed out and can no longer sign in to this company.</Text>
            {remove.isError && (
              <Text size="sm" c="red.9" role="alert">
                {remove.error.message}
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRemoving(undefined)}>
                Cancel
              </Button>
              <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(removing)}>
                Remove
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
