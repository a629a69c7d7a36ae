export * from './margins';
export * from './margin-report';
