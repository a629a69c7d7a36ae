import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { toErrorReply } from './error-body';
import { ReplayedResponse } from './replayed-response';

/** Every error leaves as `{ error, ... }`; unexpected ones are logged with their stack. A ReplayedResponse leaves as it is. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (exception instanceof ReplayedResponse) {
      void reply.status(exception.status).headers(exception.headers).send(exception.body);
      return;
    }
    const { status, body, headers } = toErrorReply(exception);
    if (status >= HttpStatus.INTERNAL_SERVER_ERROR) this.logger.error({ msg: 'unhandled error', requestId: reply.request?.id, err: exception });
    void reply.status(status).headers(headers).send(body);
  }
}
