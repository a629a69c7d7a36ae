// One template in one language's tab: its text there (or what a send would use instead) and what
// can be done with it.
import { Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import type { Template } from '../../api/applications';
import { fallbackOf, textIn } from './template-view';

export function TemplateCard({
  template,
  lang,
  onEdit,
  onRemoveText,
  onDelete,
}: {
  template: Template;
  lang: string;
  onEdit: () => void;
  onRemoveText: () => void;
  onDelete: () => void;
}) {
  const text = textIn(template, lang);
  const fallback = fallbackOf(template, lang);
  const own = template.texts.find((entry) => entry.lang === lang)?.original ?? false;
  const titleId = `template-${template.template_id}-${lang}`;
  return (
    <Card withBorder padding="md" component="article" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} size="h5" id={titleId}>
            Template {template.template_id}
          </Title>
          <Text size="xs" c="dimmed">
            {template.texts.map((entry) => entry.lang).join(', ')}
          </Text>
        </Group>
        {text !== null ? (
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {text}
          </Code>
        ) : (
          <Text size="sm" c="dimmed">
            No {lang} text: an OTP in {lang} uses the {fallback?.lang} text, “{fallback?.text}”.
          </Text>
        )}
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={onEdit} aria-describedby={titleId}>
            {text === null ? `Add ${lang} text` : `Edit ${lang} text`}
          </Button>
          {text !== null && !own && (
            <Button size="xs" variant="outline" color="red" onClick={onRemoveText} aria-describedby={titleId}>
              Remove {lang} text
            </Button>
          )}
          <Button size="xs" variant="subtle" color="red" onClick={onDelete} aria-describedby={titleId}>
            Delete template
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
