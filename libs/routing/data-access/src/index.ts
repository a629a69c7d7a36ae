export * from './routing-errors';
export * from './carrier-settings';
export * from './carrier-tls';
export * from './route-rule';
export { CarrierStore, type CarrierView } from './carrier-store';
export { RouteStore, type RouteKey, type RouteView } from './route-store';
export { RoutingReader, type CarrierConnection, type RoutingSnapshot, type RoutingVersion } from './routing-version';
export * from './default-carrier';
