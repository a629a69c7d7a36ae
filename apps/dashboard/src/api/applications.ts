// The applications' part of the dashboard API (docs/dashboard-api.json, /dashboard/api/applications):
// applications with their OTP settings, templates with a text per language, and the preview that
// prices a template's text as POST /sms/estimate does.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client';

export interface Application {
  appid: string;
  name: string;
  otp_validity_minutes: number;
  /** Null: every country. */
  allowed_countries: string[] | null;
  otp_prefix_limit_per_hour: number;
  timezone: string;
  created_at: string;
}

/** What create and update send; an empty `allowed_countries` lets every country through. */
export interface ApplicationBody {
  name: string;
  otp_validity_minutes: number;
  allowed_countries: string[];
  otp_prefix_limit_per_hour: number;
}

export interface TemplateText {
  lang: string;
  text: string;
  /** The text the template was created with: it goes only with the template. */
  original: boolean;
  created_at: string;
}

export interface Template {
  template_id: number;
  texts: TemplateText[];
}

export interface TemplateList {
  items: Template[];
  languages: string[];
}

export interface PreviewRequest {
  text: string;
  lang: string;
  to: string;
}

export interface TemplatePreview {
  rendered_text: string;
  characters: number;
  encoding: 'GSM-7' | 'UCS-2';
  parts: number;
  ucs2_character: { character: string; position: number } | null;
  shows_code: boolean;
  to: string;
  route: string;
  /** Exact, 4 decimals. */
  price_per_part: string;
  cost: string;
  currency: string;
}

export const applicationKeys = {
  all: ['applications'] as const,
  list: () => ['applications', 'list'] as const,
  detail: (appid: string) => ['applications', 'detail', appid] as const,
  templates: (appid: string) => ['applications', 'templates', appid] as const,
  preview: (appid: string, request: PreviewRequest) => ['applications', 'preview', appid, request] as const,
};

const appPath = (appid: string) => `/applications/${encodeURIComponent(appid)}`;
const textPath = (appid: string, templateId: number, lang: string) => `${appPath(appid)}/templates/${templateId}/texts/${encodeURIComponent(lang)}`;

export function applicationsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: applicationKeys.list(),
    queryFn: ({ signal }) => api.get<{ items: Application[] }>('/applications', { signal }),
  });
}

export function applicationQuery(api: ApiClient, appid: string) {
  return queryOptions({
    queryKey: applicationKeys.detail(appid),
    queryFn: ({ signal }) => api.get<Application>(appPath(appid), { signal }),
  });
}

export function templatesQuery(api: ApiClient, appid: string) {
  return queryOptions({
    queryKey: applicationKeys.templates(appid),
    queryFn: ({ signal }) => api.get<TemplateList>(`${appPath(appid)}/templates`, { signal }),
  });
}

/** The preview of a text: each distinct request asked once, kept a minute (it changes only with prices). */
export function templatePreviewQuery(api: ApiClient, appid: string, request: PreviewRequest) {
  return queryOptions({
    queryKey: applicationKeys.preview(appid, request),
    queryFn: ({ signal }) => api.post<TemplatePreview>(`${appPath(appid)}/templates/preview`, request, { signal }),
    staleTime: 60_000,
    retry: false,
  });
}

export const applicationsApi = {
  create: (api: ApiClient, body: ApplicationBody) => api.post<Application>('/applications', body),
  update: (api: ApiClient, appid: string, body: ApplicationBody) => api.request<Application>('PATCH', appPath(appid), { body }),
  createTemplate: (api: ApiClient, appid: string, body: { lang: string; text: string }) =>
    api.post<{ template_id: number; lang: string }>(`${appPath(appid)}/templates`, body),
  setText: (api: ApiClient, appid: string, templateId: number, lang: string, text: string) =>
    api.request<{ template_id: number; lang: string; created: boolean }>('PUT', textPath(appid, templateId, lang), { body: { text } }),
  removeText: (api: ApiClient, appid: string, templateId: number, lang: string) => api.delete<{ removed: true }>(textPath(appid, templateId, lang)),
  removeTemplate: (api: ApiClient, appid: string, templateId: number) => api.delete<{ removed: true }>(`${appPath(appid)}/templates/${templateId}`),
};
