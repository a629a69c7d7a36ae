/** The injection token of the session cookie's policy (CookiePolicy), made from the gateway's config. */
export const COOKIE_POLICY = Symbol('dashboard-cookie-policy');
