// What each route renders: the page components take plain props; these read the URL and the
// session for them and say where to go next.
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Outlet, useNavigate, useParams, useRouter, useSearch } from '@tanstack/react-router';
import { useApi } from '../api/api-context';
import { dashboardApi, endSession, sessionQuery, startSession } from '../api/queries';
import type { SessionAnswer } from '../api/types';
import { AppLayout } from '../layout/app-layout';
import { ApplicationPage } from '../pages/applications/application-page';
import { ApplicationsPage } from '../pages/applications/applications-page';
import { OperatorHomePage } from '../pages/home/operator-home-page';
import { CampaignDetailPage } from '../pages/campaigns/campaign-detail-page';
import { CampaignsPage } from '../pages/campaigns/campaigns-page';
import { InvitePage } from '../pages/invite/invite-page';
import { parseKeyFilter } from '../pages/keys/key-filter';
import { KeysPage } from '../pages/keys/keys-page';
import { MessageDetailPage } from '../pages/messages/message-detail-page';
import { messageFilterToSearch, parseMessageFilter } from '../pages/messages/message-filter';
import { MessagesPage } from '../pages/messages/messages-page';
import { SignInPage } from '../pages/sign-in/sign-in-page';
import { TeamPage } from '../pages/team/team-page';
import { deliveryFilterToSearch, parseDeliveryFilter } from '../pages/webhooks/webhook-rules';
import { WebhooksPage } from '../pages/webhooks/webhooks-page';
import { BillingPage } from '../pages/billing/billing-page';
import { BillingSettingsPage } from '../pages/billing/billing-settings-page';
import { ledgerFilterToSearch, parseLedgerFilter } from '../pages/billing/ledger-filter';
import { VerificationsPage } from '../pages/verifications/verifications-page';
import { CompaniesPage } from '../pages/operator/companies-page';
import { CompanyDetailPage } from '../pages/operator/company-detail-page';
import { parseCompanyFilter } from '../pages/operator/operator-rules';
import { PricesPage } from '../pages/operator/prices-page';
import { AuditPage } from '../pages/audit/audit-page';

function useStartSession(): (session: SessionAnswer, target?: string) => void {
  const api = useApi();
  const queryClient = useQueryClient();
  const router = useRouter();
  return (session, target) => {
    startSession(api, queryClient, session);
    void router.navigate({ href: target ?? '/', replace: true });
  };
}

export function SignInRoute() {
  const search = useSearch({ from: '/sign-in' });
  const start = useStartSession();
  return <SignInPage sessionEnded={search.ended === true} onSignedIn={(session) => start(session, search.redirect)} />;
}

export function InviteRoute() {
  const { token } = useParams({ from: '/invite/$token' });
  const start = useStartSession();
  return <InvitePage token={token} onAccepted={(session) => start(session)} />;
}

export function SignedInLayout() {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const session = useQuery(sessionQuery(api));
  const leave = () => {
    endSession(api, queryClient);
    void navigate({ to: '/sign-in', search: {}, replace: true });
  };
  const signOut = useMutation({
    mutationFn: (everywhere: boolean) => (everywhere ? dashboardApi.signOutEverywhere(api) : dashboardApi.signOut(api)),
    onSuccess: leave,
    onError: (error) => notifications.show({ color: 'red', title: 'Not signed out', message: error.message }),
  });
  // A session that ended a moment ago: the API client's 401 handler is taking the reader to sign-in.
  if (!session.data) return null;
  return (
    <AppLayout user={session.data.user} onSignOut={() => signOut.mutate(false)} onSignOutEverywhere={() => signOut.mutate(true)}>
      <Outlet />
    </AppLayout>
  );
}

export function KeysRoute() {
  const search = useSearch({ from: '/signed-in/keys' });
  const navigate = useNavigate({ from: '/keys' });
  return (
    <KeysPage
      filter={parseKeyFilter(search.status)}
      onFilterChange={(status) => void navigate({ search: status === 'active' ? {} : { status }, replace: true })}
    />
  );
}

export function TeamRoute() {
  const api = useApi();
  const session = useQuery(sessionQuery(api));
  if (!session.data) return null;
  return <TeamPage user={session.data.user} />;
}

export function OperatorHomeRoute() {
  const api = useApi();
  const session = useQuery(sessionQuery(api));
  if (!session.data) return null;
  return <OperatorHomePage user={session.data.user} />;
}

export function MessagesRoute() {
  const search = useSearch({ from: '/signed-in/messages' });
  const navigate = useNavigate({ from: '/messages' });
  return <MessagesPage filter={parseMessageFilter({ ...search })} onFilterChange={(filter) => void navigate({ search: messageFilterToSearch(filter) })} />;
}

export function MessageDetailRoute() {
  const { messageId } = useParams({ from: '/signed-in/messages/$messageId' });
  return <MessageDetailPage messageId={messageId} />;
}

export function CampaignsRoute() {
  const search = useSearch({ from: '/signed-in/campaigns' });
  const navigate = useNavigate({ from: '/campaigns' });
  return <CampaignsPage page={search.page ?? 1} onPageChange={(page) => void navigate({ search: page > 1 ? { page } : {} })} />;
}

export function CampaignDetailRoute() {
  const { campaignId } = useParams({ from: '/signed-in/campaigns/$campaignId' });
  return <CampaignDetailPage campaignId={campaignId} />;
}

export function VerificationsRoute() {
  const filter = useSearch({ from: '/signed-in/verifications' });
  const navigate = useNavigate({ from: '/verifications' });
  return <VerificationsPage filter={filter} onFilterChange={(next) => void navigate({ search: next })} />;
}

/** Whether the signed-in user may change billing settings (owners; the API refuses anyone else). */
function useMayChangeBillingSettings(): boolean {
  const api = useApi();
  const session = useQuery(sessionQuery(api));
  return session.data?.user.role === 'owner' || session.data?.user.role === 'operator';
}

export function BillingRoute() {
  const search = useSearch({ from: '/signed-in/billing' });
  const navigate = useNavigate({ from: '/billing' });
  return (
    <BillingPage
      filter={parseLedgerFilter(search)}
      onFilterChange={(next) => void navigate({ search: ledgerFilterToSearch(next) })}
      canChangeSettings={useMayChangeBillingSettings()}
    />
  );
}

export function BillingSettingsRoute() {
  return <BillingSettingsPage canChangeSettings={useMayChangeBillingSettings()} />;
}

export function WebhooksRoute() {
  const api = useApi();
  const session = useQuery(sessionQuery(api));
  const search = useSearch({ from: '/signed-in/webhooks' });
  const navigate = useNavigate({ from: '/webhooks' });
  return (
    <WebhooksPage
      mayManageSecret={session.data?.user.role === 'owner' || session.data?.user.role === 'operator'}
      filter={parseDeliveryFilter(search.status)}
      onFilterChange={(filter) => void navigate({ search: deliveryFilterToSearch(filter) })}
    />
  );
}

export function ApplicationsRoute() {
  const navigate = useNavigate({ from: '/applications' });
  return <ApplicationsPage onCreated={(appid) => void navigate({ to: '/applications/$appid', params: { appid }, search: {} })} />;
}

export function ApplicationRoute() {
  const { appid } = useParams({ from: '/signed-in/applications/$appid' });
  const search = useSearch({ from: '/signed-in/applications/$appid' });
  const navigate = useNavigate({ from: '/applications/$appid' });
  return <ApplicationPage appid={appid} search={search} onSearch={(next) => void navigate({ search: next })} />;
}

export function CompaniesRoute() {
  const search = useSearch({ from: '/signed-in/companies' });
  const navigate = useNavigate({ from: '/companies' });
  return (
    <CompaniesPage
      view={{ status: parseCompanyFilter(search.status), search: search.q ?? '' }}
      onViewChange={(view) =>
        void navigate({
          search: { ...(view.status === 'all' ? {} : { status: view.status }), ...(view.search === '' ? {} : { q: view.search }) },
          replace: true,
        })
      }
    />
  );
}

export function CompanyDetailRoute() {
  const { companyId } = useParams({ from: '/signed-in/companies/$companyId' });
  return <CompanyDetailPage companyId={companyId} />;
}

export function PricesRoute() {
  const search = useSearch({ from: '/signed-in/prices' });
  const navigate = useNavigate({ from: '/prices' });
  return <PricesPage route={search.route ?? 'all'} onRouteChange={(route) => void navigate({ search: route === 'all' ? {} : { route }, replace: true })} />;
}

export function AuditRoute() {
  const api = useApi();
  const session = useQuery(sessionQuery(api));
  const search = useSearch({ from: '/signed-in/audit' });
  const navigate = useNavigate({ from: '/audit' });
  return (
    <AuditPage operator={session.data?.user.role === 'operator'} search={search} onSearchChange={(next) => void navigate({ search: next, replace: true })} />
  );
}
