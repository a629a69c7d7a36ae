export * from './otp-errors';
export * from './otp-journal';
export * from './otp-lookup';
export * from './otp-resender';
export * from './otp-sender';
export * from './otp-text';
export * from './otp-verifier';
