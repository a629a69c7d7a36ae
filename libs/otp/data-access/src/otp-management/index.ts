export * from './otp-attempt-entries';
export * from './otp-blocked-recipients';
export * from './otp-log-entries';
export * from './otp-records';
export * from './otp-report';
export * from './otp-analytics';
export * from './otp-blocks';
export { isOtpId, type CreatedRange, type PageRequest, type Paged } from './sql-where';
export * from './otp-management.store';
