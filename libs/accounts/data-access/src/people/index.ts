export * from './audit-log.repository';
export * from './user.repository';
export * from './session.repository';
export * from './invitation.repository';
export * from './people.service';
export * from './dashboard-sessions';
