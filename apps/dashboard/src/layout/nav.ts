import type { Role } from '../api/types';

export interface NavItem {
  label: string;
  to:
    '/keys' | '/team' | '/messages' | '/campaigns' | '/verifications' | '/billing' | '/webhooks' | '/applications' | '/companies' | '/prices' | '/audit' | '/';
}

/**
 * The pages a role is shown, only those that exist: the console grows page by page, and a link
 * to a page that is not there yet would be a dead end.
 */
export function navItemsFor(role: Role): NavItem[] {
  if (role === 'operator')
    return [
      { label: 'Overview', to: '/' },
      { label: 'Companies', to: '/companies' },
      { label: 'Prices', to: '/prices' },
      { label: 'Audit log', to: '/audit' },
    ];
  return [
    { label: 'Messages', to: '/messages' },
    { label: 'Campaigns', to: '/campaigns' },
    { label: 'Verifications', to: '/verifications' },
    { label: 'Billing', to: '/billing' },
    { label: 'Webhooks', to: '/webhooks' },
    { label: 'Applications', to: '/applications' },
    { label: 'API keys', to: '/keys' },
    { label: 'Team', to: '/team' },
    { label: 'Audit log', to: '/audit' },
  ];
}
