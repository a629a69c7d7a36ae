// The console's pages and their URLs (under /dashboard/). Everything a page shows that can be
// shared (a filter, a tab) is a search parameter, so a copied address opens the same view.
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, Outlet, redirect, type RouterHistory } from '@tanstack/react-router';
import type { ApiClient } from '../api/client';
import { sessionQuery } from '../api/queries';
import { parseKeyFilter } from '../pages/keys/key-filter';
import { messageFilterToSearch, parseMessageFilter, type MessageSearchParams } from '../pages/messages/message-filter';
import { ledgerFilterToSearch, parseLedgerFilter, type LedgerSearchParams } from '../pages/billing/ledger-filter';
import { parseTemplateSearch, type TemplateSearch } from '../pages/applications/template-view';
import { NotFoundPage } from '../pages/not-found-page';
import { parseAuditSearch, type AuditSearch } from '../pages/audit/audit-words';
import { parseCompanyFilter } from '../pages/operator/operator-rules';
import { parsePriceRouteFilter } from '../pages/operator/prices-page';
import { deliveryFilterToSearch, parseDeliveryFilter } from '../pages/webhooks/webhook-rules';
import { parseVerificationFilter, type VerificationFilter } from '../pages/verifications/verification-filter';
import { safeRedirectTarget } from './redirect-target';
import {
  ApplicationRoute,
  ApplicationsRoute,
  CampaignDetailRoute,
  CampaignsRoute,
  InviteRoute,
  KeysRoute,
  MessageDetailRoute,
  MessagesRoute,
  OperatorHomeRoute,
  SignedInLayout,
  SignInRoute,
  TeamRoute,
  WebhooksRoute,
  VerificationsRoute,
  BillingRoute,
  BillingSettingsRoute,
  CompaniesRoute,
  CompanyDetailRoute,
  PricesRoute,
  AuditRoute,
} from './route-components';

export interface RouterContext {
  queryClient: QueryClient;
  api: ApiClient;
}

export const BASEPATH = '/dashboard';

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
});

export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'sign-in',
  validateSearch: (search: Record<string, unknown>): { redirect?: string; ended?: boolean } => ({
    redirect: safeRedirectTarget(search['redirect']),
    ended: search['ended'] === true || search['ended'] === 'true' ? true : undefined,
  }),
  component: SignInRoute,
});

export const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'invite/$token',
  component: InviteRoute,
});

/** Every page behind it needs a session; without one it goes to sign-in and comes back after. */
export const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  beforeLoad: async ({ context, location }) => {
    const session = await context.queryClient.ensureQueryData(sessionQuery(context.api));
    if (!session) throw redirect({ to: '/sign-in', search: { redirect: safeRedirectTarget(location.href) } });
    return { session };
  },
  component: SignedInLayout,
});

export const homeRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/',
  beforeLoad: ({ context }) => {
    if (context.session.user.role !== 'operator') throw redirect({ to: '/keys', replace: true });
  },
  component: OperatorHomeRoute,
});

/** A company's pages: an operator (no company) has none of them yet. */
function requireCompany({ context }: { context: { session: { user: { company: unknown } } } }): void {
  if (!context.session.user.company) throw redirect({ to: '/', replace: true });
}

export const keysRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'keys',
  validateSearch: (search: Record<string, unknown>): { status?: 'active' | 'revoked' | 'all' } => {
    const status = parseKeyFilter(search['status']);
    return status === 'active' ? {} : { status };
  },
  beforeLoad: requireCompany,
  component: KeysRoute,
});

export const teamRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'team',
  beforeLoad: requireCompany,
  component: TeamRoute,
});

export const messagesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'messages',
  validateSearch: (search: Record<string, unknown>): MessageSearchParams => messageFilterToSearch(parseMessageFilter(search)),
  beforeLoad: requireCompany,
  component: MessagesRoute,
});

export const messageDetailRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'messages/$messageId',
  beforeLoad: requireCompany,
  component: MessageDetailRoute,
});

export const campaignsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'campaigns',
  validateSearch: (search: Record<string, unknown>): { page?: number } => {
    const page = Number(search['page']);
    return Number.isSafeInteger(page) && page > 1 ? { page } : {};
  },
  beforeLoad: requireCompany,
  component: CampaignsRoute,
});

export const campaignDetailRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'campaigns/$campaignId',
  beforeLoad: requireCompany,
  component: CampaignDetailRoute,
});

export const verificationsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'verifications',
  validateSearch: (search: Record<string, unknown>): VerificationFilter => parseVerificationFilter(search),
  beforeLoad: requireCompany,
  component: VerificationsRoute,
});

export const billingRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'billing',
  validateSearch: (search: Record<string, unknown>): LedgerSearchParams => ledgerFilterToSearch(parseLedgerFilter(search)),
  beforeLoad: requireCompany,
  component: BillingRoute,
});

export const billingSettingsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'billing/settings',
  beforeLoad: requireCompany,
  component: BillingSettingsRoute,
});

export const webhooksRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'webhooks',
  validateSearch: (search: Record<string, unknown>): { status?: 'pending' | 'delivered' | 'dead' } =>
    deliveryFilterToSearch(parseDeliveryFilter(search['status'])),
  beforeLoad: requireCompany,
  component: WebhooksRoute,
});

export const applicationsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'applications',
  beforeLoad: requireCompany,
  component: ApplicationsRoute,
});

export const applicationRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'applications/$appid',
  validateSearch: (search: Record<string, unknown>): TemplateSearch => parseTemplateSearch(search),
  beforeLoad: requireCompany,
  component: ApplicationRoute,
});

/** The operators' pages: anyone else goes to their own first page. */
function requireOperator({ context }: { context: { session: { user: { role: string } } } }): void {
  if (context.session.user.role !== 'operator') throw redirect({ to: '/', replace: true });
}

export const companiesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'companies',
  validateSearch: (search: Record<string, unknown>): { status?: 'active' | 'suspended'; q?: string } => {
    const status = parseCompanyFilter(search['status']);
    const q = typeof search['q'] === 'string' && search['q'] !== '' ? search['q'].slice(0, 200) : undefined;
    return { ...(status === 'all' ? {} : { status }), ...(q === undefined ? {} : { q }) };
  },
  beforeLoad: requireOperator,
  component: CompaniesRoute,
});

export const companyDetailRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'companies/$companyId',
  beforeLoad: requireOperator,
  component: CompanyDetailRoute,
});

export const pricesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'prices',
  validateSearch: (search: Record<string, unknown>): { route?: 'auto' | 'standard' | 'premium' | 'whatsapp' } => {
    const route = parsePriceRouteFilter(search['route']);
    return route === 'all' ? {} : { route };
  },
  beforeLoad: requireOperator,
  component: PricesRoute,
});

/** Every role's: a company's users read their company's log, an operator the platform's or (company_id) a company's. */
export const auditRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'audit',
  validateSearch: (search: Record<string, unknown>): AuditSearch => parseAuditSearch(search),
  component: AuditRoute,
});

const routeTree = rootRoute.addChildren([
  signInRoute,
  inviteRoute,
  signedInRoute.addChildren([
    homeRoute,
    keysRoute,
    teamRoute,
    messagesRoute,
    messageDetailRoute,
    campaignsRoute,
    campaignDetailRoute,
    verificationsRoute,
    billingRoute,
    billingSettingsRoute,
    webhooksRoute,
    applicationsRoute,
    applicationRoute,
    companiesRoute,
    companyDetailRoute,
    pricesRoute,
    auditRoute,
  ]),
]);

export function createAppRouter(context: RouterContext, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context,
    basepath: BASEPATH,
    history,
    defaultPreload: 'intent',
    defaultNotFoundComponent: NotFoundPage,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
