// Writing a template's text in one language, with the live preview of what a send would be.
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { TemplatePreviewPanel } from './template-preview';
import { useTemplatePreview } from './use-template-preview';

export const SAMPLE_NUMBER = '+447400123456';
const LANG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

export interface TemplateDraft {
  lang: string;
  text: string;
}

export function TemplateEditor({
  appid,
  templateId,
  lang,
  initialText,
  pending,
  error,
  onSave,
  onCancel,
}: {
  appid: string;
  /** Null: a new template, whose language the reader chooses. */
  templateId: number | null;
  lang: string;
  initialText: string;
  pending: boolean;
  error?: string;
  onSave: (draft: TemplateDraft) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(initialText);
  const [language, setLanguage] = useState(lang);
  const [sample, setSample] = useState(SAMPLE_NUMBER);
  const [checked, setChecked] = useState(false);
  const preview = useTemplatePreview(appid, { text, lang: LANG.test(language) ? language : 'en', to: sample });
  const textError = checked && text.trim() === '' ? 'Template text is required' : text.length > 1600 ? 'At most 1600 characters' : null;
  const langError = checked && !LANG.test(language) ? 'A language code such as en or pt-BR' : null;
  const title = templateId === null ? 'New template' : `Template ${templateId} in ${lang}`;

  const save = (event: React.FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (text.trim() === '' || text.length > 1600 || !LANG.test(language)) return;
    onSave({ lang: language, text });
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="template-editor-title">
      <Title order={2} size="h3" id="template-editor-title" mb="sm">
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <form noValidate aria-label={title} onSubmit={save}>
          <Stack gap="sm">
            {templateId === null && (
              <TextInput
                label="Language"
                description="A code such as en or pt-BR"
                value={language}
                onChange={(event) => setLanguage(event.currentTarget.value.trim())}
                error={langError}
              />
            )}
            <Textarea
              label="Template text"
              description="{{otp}} is the code; also {{app_name}}, {{expiry_minutes}}, {{expires_at}}, {{phone}} and your custom_vars"
              autosize
              minRows={4}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              error={textError}
            />
            <TextInput
              label="Sample number"
              description="Renders {{phone}} and prices the preview"
              type="tel"
              autoComplete="off"
              value={sample}
              onChange={(event) => setSample(event.currentTarget.value)}
            />
            {error && (
              <Alert color="red" variant="light" role="alert" title="Not saved">
                {error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onCancel} disabled={pending}>
                Cancel
              </Button>
              <Button type="submit" loading={pending}>
                Save template
              </Button>
            </Group>
          </Stack>
        </form>
        <TemplatePreviewPanel preview={preview.preview} updating={preview.updating} error={preview.error} empty={preview.empty} />
      </SimpleGrid>
    </Paper>
  );
}
