// An application's templates by language: a tab per language (the selected one in the URL), each
// template's text in it, the editor with its live preview, and adding a language.
import { Alert, Button, Group, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { applicationKeys, applicationsApi, templatesQuery, type Template } from '../../api/applications';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { ConfirmDialog } from './confirm-dialog';
import { TemplateCard } from './template-card';
import { TemplateEditor, type TemplateDraft } from './template-editor';
import { languageTabs, selectedLanguage, textIn, type TemplateSearch } from './template-view';

type Removal = { kind: 'text' | 'template'; template: Template; lang: string };
const LANG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

export function TemplatesSection({ appid, search, onSearch }: { appid: string; search: TemplateSearch; onSearch: (search: TemplateSearch) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const templates = useQuery(templatesQuery(api, appid));
  const [removal, setRemoval] = useState<Removal>();
  const [newLanguage, setNewLanguage] = useState('');
  const [newLanguageError, setNewLanguageError] = useState<string>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: applicationKeys.templates(appid) });

  const save = useMutation({
    mutationFn: ({ id, draft }: { id: number | null; draft: TemplateDraft }) =>
      id === null ? applicationsApi.createTemplate(api, appid, draft) : applicationsApi.setText(api, appid, id, draft.lang, draft.text),
    onSuccess: async (saved) => {
      notifications.show({ color: 'green', title: 'Template saved', message: `Template ${saved.template_id} in ${saved.lang}.` });
      await refresh();
      onSearch({ lang: saved.lang });
    },
  });
  const remove = useMutation({
    mutationFn: (target: Removal) =>
      target.kind === 'text'
        ? applicationsApi.removeText(api, appid, target.template.template_id, target.lang)
        : applicationsApi.removeTemplate(api, appid, target.template.template_id),
    onSuccess: async (_answer, target) => {
      setRemoval(undefined);
      notifications.show({
        color: 'green',
        title: target.kind === 'text' ? 'Text removed' : 'Template deleted',
        message:
          target.kind === 'text'
            ? `Template ${target.template.template_id} has no ${target.lang} text now.`
            : `Template ${target.template.template_id} is gone.`,
      });
      await refresh();
    },
  });

  if (templates.isPending) return <LoadingState label="Loading templates…" />;
  if (templates.isError) return <ErrorState title="The templates could not be loaded" error={templates.error} onRetry={() => void templates.refetch()} />;

  const list = templates.data;
  const lang = selectedLanguage(list, search.lang);
  const editing = search.template === undefined ? undefined : search.template === 'new' ? null : search.template;
  const edited = typeof editing === 'number' ? list.items.find((template) => template.template_id === editing) : undefined;
  const open = (template: TemplateSearch['template']) => (save.reset(), onSearch({ lang, ...(template ? { template } : {}) }));

  const addLanguage = (event: React.FormEvent) => {
    event.preventDefault();
    const code = newLanguage.trim();
    if (!LANG.test(code)) return setNewLanguageError('A language code such as de or pt-BR');
    setNewLanguageError(undefined);
    setNewLanguage('');
    onSearch({ lang: code });
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h3">
          Templates
        </Title>
        <Button onClick={() => open('new')}>New template</Button>
      </Group>
      {editing !== undefined &&
        (typeof editing === 'number' && !edited ? (
          <Alert color="yellow" variant="light" title={`No template ${editing}`}>
            This application has no template {editing}.{' '}
            <Button size="xs" variant="default" onClick={() => open(undefined)}>
              Close
            </Button>
          </Alert>
        ) : (
          <TemplateEditor
            key={`${String(search.template)}-${lang}`}
            appid={appid}
            templateId={editing}
            lang={lang}
            initialText={edited ? (textIn(edited, lang) ?? '') : ''}
            pending={save.isPending}
            error={save.isError ? save.error.message : undefined}
            onSave={(draft) => save.mutate({ id: editing, draft })}
            onCancel={() => open(undefined)}
          />
        ))}
      {list.items.length === 0 ? (
        <EmptyState title="No templates yet" description="OTPs use the default text until you write one: New template, then send its id as template." />
      ) : (
        <Tabs value={lang} onChange={(value) => value && onSearch({ lang: value })} keepMounted={false}>
          <Tabs.List aria-label="Template languages">
            {languageTabs(list, search.lang).map((code) => (
              <Tabs.Tab key={code} value={code}>
                {code}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {languageTabs(list, search.lang).map((code) => (
            <Tabs.Panel key={code} value={code} pt="md">
              <Stack gap="sm">
                {list.items.map((template) => (
                  <TemplateCard
                    key={template.template_id}
                    template={template}
                    lang={code}
                    onEdit={() => (save.reset(), onSearch({ lang: code, template: template.template_id }))}
                    onRemoveText={() => (remove.reset(), setRemoval({ kind: 'text', template, lang: code }))}
                    onDelete={() => (remove.reset(), setRemoval({ kind: 'template', template, lang: code }))}
                  />
                ))}
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
      <form noValidate aria-label="Add a language" onSubmit={addLanguage}>
        <Group align="flex-end" gap="xs">
          <TextInput
            label="Add a language"
            description="A code such as de or pt-BR: opens its tab to write texts in"
            value={newLanguage}
            onChange={(event) => setNewLanguage(event.currentTarget.value)}
            error={newLanguageError}
            style={{ flex: '1 1 14rem' }}
          />
          <Button type="submit" variant="default">
            Add language
          </Button>
        </Group>
      </form>
      <Text size="xs" c="dimmed">
        An OTP sent with a template and a lang it has no text in uses its en text, else the text it was created with.
      </Text>
      <ConfirmDialog
        opened={removal !== undefined}
        title={removal?.kind === 'text' ? `Remove the ${removal.lang} text?` : `Delete template ${removal?.template.template_id ?? ''}?`}
        body={
          removal?.kind === 'text'
            ? `OTPs in ${removal.lang} will use the template's en text, else the one it was created with.`
            : 'Every language of it goes, and OTP sends that name it are refused from then on. This cannot be undone.'
        }
        confirmLabel={removal?.kind === 'text' ? 'Remove text' : 'Delete template'}
        pending={remove.isPending}
        error={remove.isError ? remove.error.message : undefined}
        onConfirm={() => removal && remove.mutate(removal)}
        onClose={() => setRemoval(undefined)}
      />
    </Stack>
  );
}
