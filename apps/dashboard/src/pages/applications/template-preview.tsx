// The live preview beside the template editor: the text as a send renders it, its encoding,
// parts and cost, and the character that forces UCS-2, as the server computed them.
import { Alert, Badge, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { TemplatePreview } from '../../api/applications';
import { costText, partCapacity, partsText, ucs2Reason } from './preview-text';

export function TemplatePreviewPanel({
  preview,
  updating,
  error,
  empty,
}: {
  preview: TemplatePreview | undefined;
  /** A newer text is being priced: what is shown is for the text before. */
  updating: boolean;
  error: Error | null;
  /** Nothing to preview yet (no text or no sample number). */
  empty: boolean;
}) {
  const reason = preview ? ucs2Reason(preview) : null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="template-preview-title">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h4" id="template-preview-title">
            Preview
          </Title>
          {updating && (
            <Group gap={6} role="status" aria-live="polite">
              <Loader size="xs" aria-hidden="true" />
              <Text size="sm" c="dimmed">
                Updating…
              </Text>
            </Group>
          )}
        </Group>
        {empty ? (
          <Text size="sm" c="dimmed">
            Type a text and a sample number to see it as a send renders it, with its parts and cost.
          </Text>
        ) : error ? (
          <Alert color="red" variant="light" role="alert" title="No preview">
            {error.message}
          </Alert>
        ) : !preview ? (
          <Text size="sm" c="dimmed" role="status">
            Pricing the text…
          </Text>
        ) : (
          <>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="rendered-text" aria-label="Rendered text">
              {preview.rendered_text}
            </Text>
            <Group gap="xs" aria-live="polite" data-testid="preview-summary">
              <Badge color={preview.encoding === 'GSM-7' ? 'green' : 'orange'} variant="light">
                {preview.encoding}
              </Badge>
              <Text size="sm">{partsText(preview.parts)}</Text>
              <Text size="sm" c="dimmed">
                {preview.characters} characters, {partCapacity(preview.encoding, preview.parts)} a part
              </Text>
            </Group>
            {reason && (
              <Text size="sm" data-testid="ucs2-reason">
                {reason}
              </Text>
            )}
            <Text size="sm">
              Cost to {preview.to}: <strong>{costText(preview)}</strong>
            </Text>
            {!preview.shows_code && (
              <Alert color="yellow" variant="light" title="No code in this text">
                Add {'{{otp}}'} or {'{{code}}'}: an OTP send refuses a template that does not show the code.
              </Alert>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
