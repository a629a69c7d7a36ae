// "Send a test message": one SMS, sent and charged as the messaging API sends it.
import { Alert, Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { ApiError } from '../../api/client';
import { messageKeys, sendTestMessage, type TestMessageSent } from '../../api/messages';
import { formatAmount } from './message-format';
import { MAX_TEST_MESSAGE, messageError, senderError, testMessageBody, toError, type TestMessageValues } from './test-message-rules';

/** A refusal as the reader needs it: a short balance says how much is needed. */
function refusalText(error: Error): string {
  if (error instanceof ApiError && error.status === 402 && typeof error.body['cost'] === 'number' && typeof error.body['balance'] === 'number') {
    return `Your balance (${formatAmount(error.body['balance'])}) does not cover this message (${formatAmount(error.body['cost'])}). Nothing was sent or charged.`;
  }
  return error.message;
}

export function TestMessageDialog({ opened, onClose, onSent }: { opened: boolean; onClose: () => void; onSent: (sent: TestMessageSent) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const form = useForm<TestMessageValues>({
    mode: 'uncontrolled',
    initialValues: { to: '', message: '', from: '' },
    validate: { to: toError, message: messageError, from: senderError },
  });
  const send = useMutation({
    mutationFn: (values: TestMessageValues) => sendTestMessage(api, testMessageBody(values)),
    onSuccess: (sent) => {
      notifications.show({ color: 'green', title: 'Test message sent', message: `To ${sent.to}, ${sent.parts} part(s), charged ${formatAmount(sent.cost)}.` });
      void queryClient.invalidateQueries({ queryKey: messageKeys.all });
      form.reset();
      onSent(sent);
    },
  });
  const close = () => {
    send.reset();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title="Send a test message">
      <form noValidate aria-label="Send a test message" onSubmit={form.onSubmit((values) => send.mutate(values))}>
        <Stack gap="sm">
          <TextInput
            label="To"
            description="One number in international format"
            type="tel"
            autoComplete="off"
            key={form.key('to')}
            {...form.getInputProps('to')}
          />
          <Textarea
            label="Message"
            description={`Charged per part, as the API charges: at most ${MAX_TEST_MESSAGE} characters`}
            autosize
            minRows={3}
            key={form.key('message')}
            {...form.getInputProps('message')}
          />
          <TextInput label="From (optional)" description="The sender shown; SMS when left empty" key={form.key('from')} {...form.getInputProps('from')} />
          {send.isError && (
            <Alert color="red" variant="light" role="alert" title="Not sent">
              {refusalText(send.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={send.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={send.isPending}>
              Send
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
