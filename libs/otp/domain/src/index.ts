export * from './code-hash';
export * from './number-prefix';
export * from './otp-block';
export * from './otp-code';
export * from './otp-resend';
export * from './otp-states';
export * from './otp-template';
export * from './text-cipher';
